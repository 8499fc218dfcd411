// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "testprocess_p.h"

#include <QtCore/qstringlist.h>
#include <QtCore/qtemporarydir.h>

#include <memory>

// The etcd process behind one EtcdTestServer: its command line, scratch directory and log.
class EtcdTestServerPrivate
{
public:
    QString name = QStringLiteral("etcdqt-test");
    QStringList extraArguments;
    QString initialCluster; // empty: a cluster of this server alone
    QString token; // unique per server unless a cluster sets its own
    QString clusterState = QStringLiteral("new");
    quint16 clientPort = 0;
    quint16 peerPort = 0;
    bool portsFixed = false;
    bool paused = false;
    qint64 logOffset = 0; // where the current run's output starts in etcd.log
    std::unique_ptr<QTemporaryDir> scratch; // holds data/ and etcd.log
    TestProcess process;

    EtcdTestServerPrivate();
    QString dataPath() const;
    QString logPath() const;
    static QString url(quint16 port);
    QStringList arguments() const;
    QByteArray readLog(qint64 from) const;
    bool prepare();
    void forgetPorts();
    void spawn();
    // SIGSTOP/SIGCONT, returning once the kernel shows the process stopped/running.
    bool signalAndWait(int signal, bool stopped);
};
