// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "etcdqttestkit_export.h"

#include <QtCore/qobject.h>
#include <QtCore/qstringlist.h>
#include <QtCore/qurl.h>

#include <chrono>
#include <memory>
#include <vector>

class EtcdTestServer;

// A new etcd cluster of `size` members on loopback, each an EtcdTestServer with its own data
// directory, for failover tests: find and kill the raft leader, stop, pause and restart members.
// Members default to a 50 ms heartbeat and a 500 ms election timeout so elections take well
// under a second. Works with ETCDQT_START_OR_SKIP(cluster).
class ETCDQT_TESTKIT_EXPORT EtcdTestCluster : public QObject
{
    Q_OBJECT
public:
    explicit EtcdTestCluster(int size = 3, QObject *parent = nullptr);
    ~EtcdTestCluster() override;

    // Applied at the next start().
    void setHeartbeatInterval(std::chrono::milliseconds interval);
    void setElectionTimeout(std::chrono::milliseconds timeout);
    void setExtraArguments(const QStringList &arguments);
    [[nodiscard]] std::chrono::milliseconds heartbeatInterval() const { return m_heartbeat; }
    [[nodiscard]] std::chrono::milliseconds electionTimeout() const { return m_election; }

    // Every member answers a real RPC (which etcd does only once the cluster has a quorum).
    bool start(std::chrono::milliseconds timeout = std::chrono::seconds(30));

    [[nodiscard]] int size() const { return m_size; }
    [[nodiscard]] QList<QUrl> clientUrls() const;
    [[nodiscard]] QUrl clientUrl(int i) const;
    [[nodiscard]] QString endpoint(int i) const; // "127.0.0.1:<port>", as gRPC wants it
    [[nodiscard]] EtcdTestServer *member(int i) const;

    // The running member that reports itself as raft leader (highest term wins), -1 if none
    // does within `timeout`.
    [[nodiscard]] int leaderIndex(
        std::chrono::milliseconds timeout = std::chrono::seconds(5)) const;
    bool waitForLeader(std::chrono::milliseconds timeout = std::chrono::seconds(10)) const;
    int killLeader(std::chrono::milliseconds timeout = std::chrono::seconds(5)); // index or -1

    void kill(int i);
    bool stop(int i);
    // Rejoins with its old data dir and ports (--initial-cluster-state existing).
    bool restart(int i, std::chrono::milliseconds timeout = std::chrono::seconds(20));
    bool pause(int i);
    bool resume(int i);
    [[nodiscard]] bool isRunning(int i) const;
    [[nodiscard]] QString log() const; // every member's log, for failure messages

private:
    void createMembers();
    bool launchAll(std::chrono::milliseconds timeout);
    bool anyPortWasTaken() const;

    int m_size;
    std::chrono::milliseconds m_heartbeat {50};
    std::chrono::milliseconds m_election {500};
    QStringList m_extraArguments;
    std::vector<std::unique_ptr<EtcdTestServer>> m_members;
};
