// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API.
#pragma once

#include "guardedcommit_p.h"
#include "leaderview_p.h"
#include "pendinggrants_p.h"
#include "recipemetrics_p.h"
#include "standbyleases_p.h"
#include "termsync_p.h"

#include <EtcdQt/etcdkeepalive.h>
#include <EtcdQt/etcdleaderselector.h>
#include <EtcdQt/etcdselfhealingkeepalive.h>
#include <EtcdQt/etcdwatch.h>

#include <QtCore/qelapsedtimer.h>
#include <QtCore/qtimer.h>

#include <memory>
#include <thread>

class EtcdTxnReply;

// One term at a time, all in the owner thread: grant a lease and make the LEADER watch
// live, compare-and-set LEADER with the lease and try again on every DELETE; once won, keep the
// lease alive, run the body on its own thread, and step down the moment etcd says the key or its
// lease is gone. The lease is never healed.
class EtcdLeaderSelectorPrivate : public Etcd::Internal::LeaderViewMember
{
    Q_DECLARE_PUBLIC(EtcdLeaderSelector)
public:
    using State = EtcdLeaderSelector::State;
    enum class End { Resigned, SteppedDown, Closed, Failed };

    EtcdLeaderSelectorPrivate(
        EtcdLeaderSelector *q, const QByteArray &path, const EtcdLeaderSelectorOptions &options);

    // The term view of `selector`, shared: a worker waiting in it outlives the selector safely.
    static std::shared_ptr<TermSync> syncOf(const EtcdLeaderSelector *selector)
    {
        return selector->d_func()->sync;
    }

    bool setState(State next);
    [[nodiscard]] bool inTerm() const
    {
        return state == State::Campaigning || state == State::Leading;
    }

    void beginTerm();
    void grant();
    void onGranted(const EtcdStatus &status, qint64 lease);
    void keepLeaseAlive();
    void onLeaseFailed(const EtcdStatus &reason);
    void campaign();
    void onCampaigned(
        quint64 forTerm, qint64 forLease, EtcdTxnReply *reply, const EtcdStatus &status);
    void withdrawClaim(qint64 revision);
    void retryLater(const EtcdStatus &why);
    void retry();
    bool announceStarted();
    bool seeLeader(const QString &id);
    void becomeLeader();
    void runBody();
    void onBodyReturned(quint64 forTerm, const QString &threw);
    void registerParticipation();
    void casParticipant(qint64 lease, int attemptsLeft, std::function<void(bool)> done);

    void reportTransition(EtcdMetrics::Transition transition) const;
    void stepDown(const EtcdStatus &reason);
    void stepDownForKey(const EtcdStatus &reason);
    void endTerm(End how, const EtcdStatus &reason);
    void finishTerm();
    void releaseParticipation(quint64 forTerm);
    void completeTerm(quint64 forTerm);
    void closeGrants(); // grants.close(), with the standby's revoke

    // As the election's LeaderView sees this candidate.
    [[nodiscard]] QString viewId() const override { return clientId; }
    [[nodiscard]] bool awaitsTurn() const override { return state == State::Campaigning; }
    void takeTurn() override { campaign(); }
    void watchWentLive() override;
    void sawLeaderEvents(
        const QList<EtcdWatchEvent> &events, const QList<QString> &leaders) override;
    void sawLeaderRead(const QList<EtcdKeyValue> &leader, qint64 revision) override;
    void watchFailed(const EtcdStatus &why) override;
    void reportConnection(EtcdRecipe::ConnectionState s) override;

    EtcdLeaderSelector *q_ptr;
    QByteArray path;
    QByteArray leaderKey;
    QString clientId;
    EtcdLeaderSelectorOptions options;
    EtcdLeaderSelector::TakeLeadership body;
    EtcdLeaderSelector::RelinquishLeadership relinquish;

    State state = State::Idle;
    quint64 term = 0; // bumped per start(): answers for older terms are dropped
    qint64 leaseId = -1;
    QByteArray token; // this term's LEADER value, "<clientId>:<7 random>"
    EtcdFencingToken fencing; // set once won
    bool ledThisTerm = false;
    bool leaseGone = false; // this term's leadership lease was lost (leaseLost() emitted)
    bool confirmingLoss = false; // the key went: asking etcd whether the lease went too
    bool campaigning = false; // a compare-and-set is in flight
    bool campaignAgain = false; // a DELETE came while it was
    bool watchLive = false; // the LEADER watch went live this term: campaigns may start
    bool startedThisTerm = false; // started() was emitted
    bool following = false; // hears of LEADER through the view: from beginTerm to finishTerm
    bool closing = false;
    int retryDelayMs = 0;
    QElapsedTimer startClock; // since start(): how long a failing start keeps trying
    Etcd::Internal::PendingGrants grants; // abandoned when a term ends
    // Keeps the client's standby lease of our TTL from the first term's grant to close(): the
    // next term leads on it, granted and renewed ahead (issue 21).
    std::unique_ptr<Etcd::Internal::StandbyLeases::Want> standby;
    std::unique_ptr<EtcdKeepAlive> keepAlive;
    std::unique_ptr<EtcdSelfHealingKeepAlive> participation;
    // The seat in the election's LEADER view (its watch, queue and turns), shared by the
    // client's candidates in this thread; from the first term to close().
    std::unique_ptr<Etcd::Internal::LeaderView::Seat> seat;
    QTimer retryTimer;
    std::jthread bodyThread;
    bool bodyRunning = false;
    bool relinquishRan = false; // the body's thread ran it already
    std::shared_ptr<Etcd::Internal::TermSync> sync;
    std::shared_ptr<Etcd::Internal::WorkerDoor> door; // commitGuarded() from workers
    QString leaderSeen; // the leader as the LEADER watch last saw it
    EtcdElectionCounters counters;
};
