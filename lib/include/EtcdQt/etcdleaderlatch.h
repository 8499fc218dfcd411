// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdleaderselector.h>

class EtcdLeaderLatchPrivate;

class ETCDQT_EXPORT EtcdLeaderLatch : public EtcdRecipe
{
    Q_OBJECT
    Q_PROPERTY(QByteArray electionPath READ electionPath CONSTANT)
    Q_PROPERTY(QString clientId READ clientId CONSTANT)
    Q_PROPERTY(bool hasLeadership READ hasLeadership NOTIFY leadershipChanged)
    Q_PROPERTY(EtcdFencingToken fencingToken READ fencingToken NOTIFY leadershipChanged)
    Q_PROPERTY(QString leader READ leader NOTIFY leaderChanged)
public:
    // options.clientId empty: "LeaderLatch:<7 random>"
    EtcdLeaderLatch(EtcdClient *client, const QByteArray &electionPath,
        const EtcdLeaderSelectorOptions &options = {}, QObject *parent = nullptr);
    ~EtcdLeaderLatch() override;

    [[nodiscard]] QByteArray electionPath() const;
    [[nodiscard]] QString clientId() const;
    [[nodiscard]] bool hasLeadership() const; // any thread
    [[nodiscard]] EtcdFencingToken fencingToken() const; // any thread
    [[nodiscard]] std::chrono::milliseconds remainingValidity() const; // any thread
    [[nodiscard]] QString leader() const;
    [[nodiscard]] EtcdElectionCounters counters() const;
    [[nodiscard]] bool isHealthy() const override;

    EtcdTxnReply *guardedTxn(const EtcdTxn &txn);
    bool await(std::chrono::milliseconds timeout);

public Q_SLOTS:
    bool start();
    void close();

Q_SIGNALS:
    void leadershipChanged();
    void elected();
    void leadershipLost(const EtcdStatus &reason);
    void leaderChanged(const QString &leaderId);
    void relinquished();

private:
    Q_DECLARE_PRIVATE(EtcdLeaderLatch)
    std::unique_ptr<EtcdLeaderLatchPrivate> const d_ptr;
};
