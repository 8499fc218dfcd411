// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "etcdtestserver_p.h"

#include "childprocess_p.h"
#include "etcdtestserver.h"

#include <QtCore/qdeadlinetimer.h>
#include <QtCore/qdir.h>
#include <QtCore/qfile.h>
#include <QtCore/qfileinfo.h>
#include <QtCore/qthread.h>
#include <QtCore/quuid.h>

#include <signal.h>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace {
constexpr qint64 LogTailBytes = 64 * 1024;

QString scratchBase()
{
    // etcd fsyncs every commit; on tmpfs that costs nothing, on a disk it dominates test time.
    const QFileInfo shm(u"/dev/shm"_s);
    return shm.isDir() && shm.isWritable() ? shm.filePath() : QDir::tempPath();
}

bool isStopped(qint64 pid)
{
    const char state = kernelStateOf(pid);
    return state == 'T' || state == 't';
}
} // namespace

EtcdTestServerPrivate::EtcdTestServerPrivate()
    : token(u"etcdqt-"_s + QUuid::createUuid().toString(QUuid::WithoutBraces))
{ }

QString EtcdTestServerPrivate::dataPath() const
{
    return scratch ? scratch->filePath(u"data"_s) : QString();
}

QString EtcdTestServerPrivate::logPath() const
{
    return scratch ? scratch->filePath(u"etcd.log"_s) : QString();
}

QString EtcdTestServerPrivate::url(quint16 port)
{
    return u"http://127.0.0.1:%1"_s.arg(port);
}

QStringList EtcdTestServerPrivate::arguments() const
{
    const QString client = url(clientPort);
    const QString peer = url(peerPort);
    const QString cluster = initialCluster.isEmpty() ? name + u'=' + peer : initialCluster;
    // Extra arguments come last: etcd's flag parser lets the last occurrence win.
    return QStringList {u"--name="_s + name, u"--data-dir="_s + dataPath(),
               u"--listen-client-urls="_s + client, u"--advertise-client-urls="_s + client,
               u"--listen-peer-urls="_s + peer, u"--initial-advertise-peer-urls="_s + peer,
               u"--initial-cluster="_s + cluster, u"--initial-cluster-token="_s + token,
               u"--initial-cluster-state="_s + clusterState}
    + extraArguments;
}

QByteArray EtcdTestServerPrivate::readLog(qint64 from) const
{
    QFile file(logPath());
    if (!file.open(QIODevice::ReadOnly))
        return {};
    file.seek(std::max(from, file.size() - LogTailBytes));
    return file.readAll();
}

bool EtcdTestServerPrivate::prepare()
{
    if (!scratch)
        scratch = std::make_unique<QTemporaryDir>(scratchBase() + u"/etcdqt-XXXXXX"_s);
    if (!scratch->isValid())
        return false;
    if (clientPort == 0) {
        const QList<quint16> ports = EtcdTestServer::freePorts(2);
        if (ports.size() != 2)
            return false;
        clientPort = ports.at(0);
        peerPort = ports.at(1);
    }
    return true;
}

// A first start that lost its port to someone else begins again from scratch; etcd binds
// before it writes anything, but a clean directory leaves no doubt.
void EtcdTestServerPrivate::forgetPorts()
{
    clientPort = peerPort = 0;
    scratch.reset();
}

void EtcdTestServerPrivate::spawn()
{
    logOffset = QFileInfo(logPath()).size();
    paused = false;
    process.start(EtcdTestServer::etcdBinary(), arguments(), logPath());
}

bool EtcdTestServerPrivate::signalAndWait(int signal, bool stopped)
{
    const qint64 pid = process.processId();
    if (pid <= 0 || ::kill(pid_t(pid), signal) != 0)
        return false;
    // Delivery is asynchronous: wait, so a test's next step really meets the new state.
    const QDeadlineTimer deadline(2s);
    while (isStopped(pid) != stopped) {
        if (deadline.hasExpired())
            return false;
        QThread::usleep(500);
    }
    return true;
}
