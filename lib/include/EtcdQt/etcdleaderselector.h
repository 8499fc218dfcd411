// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdelectioncounters.h>
#include <EtcdQt/etcdfencing.h>
#include <EtcdQt/etcdrecipe.h>
#include <EtcdQt/etcdretrypolicy.h>

#include <QtCore/qstring.h>

#include <chrono>
#include <functional>
#include <memory>
#include <stop_token>

class EtcdLeaderSelector;
class EtcdLeaderSelectorPrivate;
class EtcdParticipantsReply;
class EtcdTxnReply;

struct EtcdLeaderSelectorOptions
{
    std::chrono::seconds ttl {2}; // of the leadership lease, and of the participation lease
    QString clientId {}; // empty: "LeaderSelector:<7 random>" (etcd-recipes' default)
    bool interruptOnLeaseLoss = true; // request_stop() on the body when leadership is lost
    EtcdLeaseResilience participation {}; // how the participation key heals
};

class ETCDQT_EXPORT EtcdLeaderSelector : public EtcdRecipe
{
    Q_OBJECT
    Q_PROPERTY(QByteArray electionPath READ electionPath CONSTANT)
    Q_PROPERTY(QString clientId READ clientId CONSTANT)
    Q_PROPERTY(State state READ state NOTIFY stateChanged)
    Q_PROPERTY(bool isLeader READ isLeader NOTIFY stateChanged)
    Q_PROPERTY(EtcdFencingToken fencingToken READ fencingToken NOTIFY stateChanged)
    Q_PROPERTY(QString leader READ leader NOTIFY leaderChanged)
public:
    enum class State { Idle, Campaigning, Leading, Relinquishing, Closed };
    Q_ENUM(State)

    using TakeLeadership = std::function<void(EtcdLeaderSelector &selector, std::stop_token stop)>;
    using RelinquishLeadership = std::function<void(EtcdLeaderSelector &selector)>;

    EtcdLeaderSelector(EtcdClient *client, const QByteArray &electionPath,
        const EtcdLeaderSelectorOptions &options = {}, QObject *parent = nullptr);
    ~EtcdLeaderSelector() override;

    void setTakeLeadership(TakeLeadership body);
    void setRelinquishLeadership(RelinquishLeadership relinquish);

    [[nodiscard]] QByteArray electionPath() const;
    [[nodiscard]] QString clientId() const;
    [[nodiscard]] std::chrono::seconds ttl() const;
    [[nodiscard]] bool interruptOnLeaseLoss() const;
    [[nodiscard]] State state() const;
    [[nodiscard]] bool isLeader() const; // any thread
    [[nodiscard]] EtcdFencingToken fencingToken() const; // any thread
    [[nodiscard]] std::chrono::milliseconds remainingValidity() const; // any thread
    [[nodiscard]] QString leader() const;
    [[nodiscard]] EtcdElectionCounters counters() const;

    EtcdTxnReply *guardedTxn(const EtcdTxn &txn);
    bool commitGuarded(
        const EtcdTxn &txn, std::chrono::milliseconds timeout, EtcdStatus *status = nullptr);

    bool waitForStarted(std::chrono::milliseconds timeout);
    bool waitOnLeadershipComplete(std::chrono::milliseconds timeout);
    bool waitUntilFinished(std::chrono::milliseconds timeout);

    static EtcdParticipantsReply *participants(EtcdClient *client, const QByteArray &electionPath);

public Q_SLOTS:
    bool start();
    void resign();
    void close();

Q_SIGNALS:
    void stateChanged(EtcdLeaderSelector::State state);
    void started();
    void elected();
    void leadershipLost(const EtcdStatus &reason);
    void leaderChanged(const QString &leaderId);
    void relinquished();
    void termFinished();
    void failed(const EtcdStatus &reason);

private:
    Q_DECLARE_PRIVATE(EtcdLeaderSelector)
    std::unique_ptr<EtcdLeaderSelectorPrivate> const d_ptr;
};
