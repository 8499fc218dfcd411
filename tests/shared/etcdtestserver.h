// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "etcdqttestkit_export.h"

#include <QtCore/qabstracteventdispatcher.h>
#include <QtCore/qobject.h>
#include <QtCore/qstringlist.h>
#include <QtCore/qurl.h>

#include <chrono>
#include <memory>

class EtcdTestServerPrivate;

// Runs one real etcd (/usr/bin/etcd, or $ETCDQT_ETCD_BINARY) on free loopback ports with a
// temporary data directory (on /dev/shm when available). Ready means a real gRPC call
// (Maintenance.Status) answered, not that the process started.
class ETCDQT_TESTKIT_EXPORT EtcdTestServer : public QObject
{
    Q_OBJECT
public:
    explicit EtcdTestServer(QObject *parent = nullptr);
    ~EtcdTestServer() override; // kills etcd, removes the data dir

    // Extra etcd flags, e.g. {"--auth-token-ttl=2"}; applied at the next start().
    void setExtraArguments(const QStringList &arguments);

    bool start(std::chrono::milliseconds timeout = std::chrono::seconds(20));
    bool stop(std::chrono::milliseconds timeout = std::chrono::seconds(10)); // SIGTERM, wait
    void kill(); // SIGKILL, wait
    bool restart(std::chrono::milliseconds timeout = std::chrono::seconds(20)); // same ports+data
    bool pause(); // SIGSTOP: TCP stays open, nothing answers
    bool resume(); // SIGCONT

    [[nodiscard]] bool isRunning() const;
    [[nodiscard]] bool isPaused() const;
    [[nodiscard]] QUrl clientUrl() const; // http://127.0.0.1:<port>
    [[nodiscard]] quint16 clientPort() const;
    [[nodiscard]] qint64 pid() const;
    [[nodiscard]] QString dataDir() const;
    [[nodiscard]] QString log() const; // the last 64 KiB of etcd's output, for failure messages

    // A real RPC against `endpoint` ("127.0.0.1:port") answered within `timeout`.
    static bool probe(const QString &endpoint, std::chrono::milliseconds timeout);
    static QString etcdBinary();
    static bool etcdAvailable();
    static quint16 freePort();

    // Distinct free ports, all held open together while choosing so none repeats.
    static QList<quint16> freePorts(int count);

    // Membership in a multi-member cluster (used by EtcdTestCluster); a lone server needs none.
    void setName(const QString &name);
    void setPorts(quint16 clientPort, quint16 peerPort); // fixed: start() never re-picks them
    void setInitialCluster(const QString &initialCluster, const QString &token);
    void setInitialClusterState(const QString &state); // "new" (default) or "existing"

    // start() is launch() + waitForReady(), with new ports when a port was taken. A cluster
    // launches every member first: none becomes ready before a quorum runs.
    bool launch();
    bool waitForReady(std::chrono::milliseconds timeout);

    [[nodiscard]] quint16 peerPort() const;
    [[nodiscard]] QUrl peerUrl() const;
    [[nodiscard]] QString endpoint() const; // "127.0.0.1:<client port>", as gRPC wants it
    [[nodiscard]] bool portWasTaken() const; // etcd's last run died on "address already in use"

private:
    std::unique_ptr<EtcdTestServerPrivate> const d;
};

// In a test function: start `server` or skip with a clear message when etcd is not installed
// (fails instead when ETCDQT_REQUIRE_ETCD=1, as CI sets).
#define ETCDQT_START_OR_SKIP(server)                                                               \
    do {                                                                                           \
        if (!EtcdTestServer::etcdAvailable()) {                                                    \
            if (qEnvironmentVariableIntValue("ETCDQT_REQUIRE_ETCD"))                               \
                QFAIL("etcd not found and ETCDQT_REQUIRE_ETCD=1");                                 \
            QSKIP("etcd not installed (/usr/bin/etcd); run scripts/setup-deps");                   \
        }                                                                                          \
        QVERIFY2((server).start(), qPrintable((server).log()));                                    \
        /* the dispatcher runs (QT_NO_GLIB=1) are to run under Qt's own event dispatcher */        \
        QVERIFY2(!qEnvironmentVariableIsSet("QT_NO_GLIB")                                          \
                || !QByteArray(QAbstractEventDispatcher::instance()->metaObject()->className())    \
                        .contains("Glib"),                                                         \
            "QT_NO_GLIB is set, but the event dispatcher is glib's");                              \
    } while (false)
