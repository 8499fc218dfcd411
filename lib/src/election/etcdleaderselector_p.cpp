// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// EtcdLeaderSelectorPrivate: the term machinery of EtcdLeaderSelector (its shape is in
// etcdleaderselector_p.h).
#include "etcdleaderselector_p.h"
#include "clientcalls_p.h"
#include "etcdqt_internal_p.h"
#include "handover_p.h"
#include "leaderview_p.h"
#include "leaseops_p.h"
#include "leaseshared_p.h"
#include "recipelayer_p.h"
#include "recipepaths_p.h"

#include <EtcdQt/etcdclient.h>
#include <EtcdQt/etcdreplies.h>

#include <QtCore/qpointer.h>

using namespace Etcd::Internal;
using namespace std::chrono;

namespace {
constexpr milliseconds kGrantTimeout {5000};
constexpr int kRetryMinMs = 100;
// How long a finished term keeps its participation key after the leadership lease's revoke was
// answered: the successor's compare-and-set, sent on the same DELETE event, reaches etcd first
// instead of queueing behind this revoke's apply (bench election_handoff_queued, A/B: p50
// 1.27-2.24 ms with the revoke at once, 1.18-1.33 ms with it 20 ms later).
constexpr int kParticipationGraceMs = 20;

EtcdStatus lostStatus(const QString &message)
{
    return EtcdStatus(Etcd::ErrorCode::LeaseExpired, message);
}
} // namespace

EtcdLeaderSelectorPrivate::EtcdLeaderSelectorPrivate(
    EtcdLeaderSelector *q, const QByteArray &p, const EtcdLeaderSelectorOptions &o)
    : q_ptr(q), path(p), leaderKey(RecipePaths::leaderKey(p)), options(o), grants(q),
      sync(std::make_shared<TermSync>()), door(workerDoorOf(q->client()))
{
    clientId = options.clientId.isEmpty()
        ? QStringLiteral("LeaderSelector:") + QString::fromLatin1(RecipePaths::randomId(7))
        : options.clientId;
    retryTimer.setSingleShot(true);
    QObject::connect(&retryTimer, &QTimer::timeout, &retryTimer, [this] { retry(); });
}

bool EtcdLeaderSelectorPrivate::setState(State next)
{
    Q_Q(EtcdLeaderSelector);
    if (std::exchange(state, next) == next)
        return true;
    QPointer<EtcdLeaderSelector> guard(q);
    Q_EMIT q->stateChanged(next);
    return bool(guard);
}

void EtcdLeaderSelectorPrivate::beginTerm()
{
    Q_Q(EtcdLeaderSelector);
    ++term;
    token = RecipePaths::uniqueToken(clientId);
    fencing = {};
    ledThisTerm = campaignAgain = startedThisTerm = false;
    leaseGone = confirmingLoss = false;
    relinquishRan = false;
    retryDelayMs = 0;
    startClock.start();
    sync->begin();
    q->setActive(true);
    registerParticipation();
    if (!seat || seat->view().hasFailed())
        seat = LeaderView::join(q->client(), path, this);
    seat->beginTerm();
    following = true;
    watchLive = seat->view().isLive(); // else its going live campaigns
    grant();
}

// A lease for this term, kept alive from now on: the compare-and-set that wins needs no
// grant on its critical path. After the first term's grant it is the client's standby of our
// TTL, granted and renewed ahead, so start() campaigns as soon as its watch is live (issue 21
// item 3; a new standby is granted behind it, off that path). The standby's deadline counts
// from its last renewal, as a grant's from its sending.
void EtcdLeaderSelectorPrivate::grant()
{
    Q_Q(EtcdLeaderSelector);
    if (const auto handed = Etcd::Internal::StandbyLeases::take(q->client(), options.ttl))
        return onGranted(EtcdStatus(), handed->leaseId);
    grants.grant(options.ttl, kGrantTimeout,
        [this](const EtcdStatus &s, qint64 lease) { onGranted(s, lease); });
}

// Only in the term that asked: endTerm() abandons the grant in flight, which then revokes
// its own lease when it answers.
void EtcdLeaderSelectorPrivate::onGranted(const EtcdStatus &status, qint64 lease)
{
    if (!status.isOk()) {
        // In the running already, or etcd only blinked (a restart): keep trying. A start()
        // that cannot reach etcd within the grant timeout fails, and says so.
        if (startedThisTerm || startClock.elapsed() < kGrantTimeout.count())
            return retryLater(status);
        return endTerm(End::Failed, status);
    }
    leaseId = lease;
    keepLeaseAlive();
    campaign();
    // Not before: the first grant would share its round trip with the standby's.
    if (!standby && !closing)
        standby = Etcd::Internal::StandbyLeases::want(q_func()->client(), options.ttl);
}

void EtcdLeaderSelectorPrivate::keepLeaseAlive()
{
    Q_Q(EtcdLeaderSelector);
    KeepAliveFollower follow;
    // A leader's renewals got through again: its key is re-read (the watch's reconnect re-reads
    // it too). A candidate's lease holds no key: the watch alone tells it of a vacancy.
    follow.resumed = [this] {
        if (state == State::Leading && seat)
            seat->view().requestReread();
    };
    follow.failed = [this](const EtcdStatus &why) { onLeaseFailed(why); };
    // The engine ends the leadership the moment it decides the lease is gone; the signals
    // follow when this thread gets to `failed`.
    follow.lost = [weak = std::weak_ptr(sync), lease = leaseId](const EtcdStatus &why) {
        if (const auto s = weak.lock())
            s->loseLease(lease, why);
    };
    keepAlive = RecipeLayer::followKeepAlive(q, leaseId, options.ttl, std::move(follow));
}

// Leadership is never healed: etcd has already deleted the key and may have a successor.
// A candidate's lease is only its ticket, so a fresh one is fine.
void EtcdLeaderSelectorPrivate::onLeaseFailed(const EtcdStatus &reason)
{
    Q_Q(EtcdLeaderSelector);
    keepAlive.reset();
    leaseId = -1;
    if (state == State::Leading) {
        leaseGone = true;
        return stepDown(reason);
    }
    if (state == State::Relinquishing && ledThisTerm && !leaseGone) {
        leaseGone = true; // the key's deletion was heard first: the lease went with it
        Q_EMIT q->leaseLost(reason);
        return;
    }
    if (state != State::Campaigning)
        return;
    grant();
}

void EtcdLeaderSelectorPrivate::campaign()
{
    Q_Q(EtcdLeaderSelector);
    if (state != State::Campaigning || leaseId <= 0 || !watchLive)
        return; // the grant or the watch is still on its way; whichever comes last campaigns
    if (campaigning) {
        campaignAgain = true;
        return;
    }
    campaigning = true;
    campaignAgain = false;
    EtcdPutOptions put;
    put.lease = leaseId;
    EtcdTxn txn;
    txn.compares = {EtcdCompare::version(leaderKey, Etcd::CompareResult::Equal, 0)};
    txn.success = {EtcdTxnOp::put(leaderKey, token, put)};
    txn.failure = {EtcdTxnOp::get(leaderKey)};
    EtcdTxnReply *reply = txnOn(q->client(), txn);
    QObject::connect(reply, &EtcdReply::finished, q,
        [this, forTerm = term, forLease = leaseId, reply](
            const EtcdStatus &s) { onCampaigned(forTerm, forLease, reply, s); });
}

void EtcdLeaderSelectorPrivate::onCampaigned(
    quint64 forTerm, qint64 forLease, EtcdTxnReply *reply, const EtcdStatus &status)
{
    if (forTerm != term)
        return;
    campaigning = false;
    if (state != State::Campaigning)
        return;
    if (!status.isOk())
        return retryLater(status);
    retryDelayMs = 0;
    if (!announceStarted())
        return;
    if (!reply->succeeded() && !reply->results().isEmpty()) {
        const auto held = reply->results().constFirst().keyValues;
        const QString holder
            = held.isEmpty() ? QString() : RecipePaths::stripUniqueSuffix(held.first().value);
        seat->view().noteHolder(holder);
        if (!holder.isEmpty() && !seeLeader(holder))
            return;
    }
    if (reply->succeeded() && seat->view().lastDelete() > reply->revision())
        return campaign(); // won, but the watch already saw that key deleted: not ours
    if (reply->succeeded() && forLease != leaseId) {
        // Won on a lease given up while the write was out (no renewal acknowledged within
        // its TTL, as during an etcd pause): no one renews it, and leading on it would be
        // leading on nothing this client can vouch for. Withdrawn; the next lease campaigns.
        withdrawClaim(reply->revision());
        return campaign();
    }
    if (reply->succeeded()) {
        fencing = {leaderKey, leaseId, reply->revision()};
        return becomeLeader();
    }
    if (campaignAgain)
        campaign();
}

// Deletes the LEADER key this node wrote at `revision`, if it is still that write: the
// followers' watches see the seat free at once instead of after the dead lease's TTL.
void EtcdLeaderSelectorPrivate::withdrawClaim(qint64 revision)
{
    Q_Q(EtcdLeaderSelector);
    qCDebug(lcEtcdElection).noquote()
        << "election" << path << "won on a lease given up meanwhile: withdrawn";
    EtcdTxn txn;
    txn.compares = {EtcdCompare::modRevision(leaderKey, Etcd::CompareResult::Equal, revision)};
    txn.success = {EtcdTxnOp::remove(leaderKey)};
    txnOn(q->client(), txn);
}

void EtcdLeaderSelectorPrivate::retryLater(const EtcdStatus &why)
{
    qCDebug(lcEtcdElection).noquote() << "election" << path << "retries after" << why.toString();
    retryDelayMs = backoffMs(retryDelayMs, kRetryMinMs, options.ttl);
    retryTimer.start(retryDelayMs);
}

void EtcdLeaderSelectorPrivate::retry()
{
    if (state != State::Campaigning)
        return;
    if (leaseId <= 0 && grants.inFlight() == 0)
        return grant();
    campaign();
}

void EtcdLeaderSelectorPrivate::watchWentLive()
{
    if (inTerm() && !std::exchange(watchLive, true))
        campaign();
}

void EtcdLeaderSelectorPrivate::watchFailed(const EtcdStatus &why)
{
    endTerm(state == State::Leading ? End::SteppedDown : End::Failed, why);
}

void EtcdLeaderSelectorPrivate::reportConnection(EtcdRecipe::ConnectionState s)
{
    if (following)
        q_func()->reportConnectionState(s);
}

// Once per term, after the first compare-and-set answered with the watch live: this node is
// in the running. Returns false when a handler ended the term (or destroyed the selector).
bool EtcdLeaderSelectorPrivate::announceStarted()
{
    Q_Q(EtcdLeaderSelector);
    if (std::exchange(startedThisTerm, true))
        return true;
    sync->markStarted();
    QPointer<EtcdLeaderSelector> guard(q);
    if (q->connectionState() == EtcdRecipe::ConnectionState::Lost)
        q->reportConnectionState(EtcdRecipe::ConnectionState::Reconnected); // a new term runs
    if (guard)
        Q_EMIT q->started();
    return guard && state == State::Campaigning;
}

// Returns false when a handler ended the term or destroyed the selector.
bool EtcdLeaderSelectorPrivate::seeLeader(const QString &id)
{
    Q_Q(EtcdLeaderSelector);
    if (leaderSeen == id)
        return true;
    leaderSeen = id;
    const quint64 forTerm = term;
    QPointer<EtcdLeaderSelector> guard(q);
    Q_EMIT q->leaderChanged(id);
    return guard && forTerm == term;
}

// A vacancy is the view's to act on (one compare-and-set, by the member whose turn it is); a
// leader checks each event against its own token.
void EtcdLeaderSelectorPrivate::sawLeaderEvents(
    const QList<EtcdWatchEvent> &events, const QList<QString> &leaders)
{
    if (!following)
        return; // between terms it reports no leader (leaderChanged() is a term's)
    for (qsizetype i = 0; i < events.size(); ++i) {
        const EtcdWatchEvent &e = events.at(i);
        if (!seeLeader(leaders.at(i)))
            return;
        if (state != State::Leading || e.revision <= fencing.revision)
            continue;
        if (e.type == EtcdWatchEvent::Type::Delete)
            return stepDownForKey(lostStatus(EtcdLeaderSelector::tr("the leader key was deleted")));
        if (e.keyValue.value != token)
            return stepDownForKey(
                lostStatus(EtcdLeaderSelector::tr("another node holds the leader key")));
    }
}

// After a reconnect (the watch's or this term's keep-alive's), LEADER is re-read: a leader's
// key must still be its own, with the revision it won it at. A read older than the win says
// nothing about it.
void EtcdLeaderSelectorPrivate::sawLeaderRead(const QList<EtcdKeyValue> &kvs, qint64 revision)
{
    if (!inTerm())
        return;
    const bool ours = !kvs.isEmpty() && kvs.first().value == token
        && kvs.first().createRevision == fencing.revision;
    if (state == State::Leading && revision >= fencing.revision && !ours)
        return stepDown(
            lostStatus(EtcdLeaderSelector::tr("leadership was not confirmed after reconnecting")));
    if (state == State::Campaigning && kvs.isEmpty())
        campaign();
}

void EtcdLeaderSelectorPrivate::becomeLeader()
{
    Q_Q(EtcdLeaderSelector);
    ledThisTerm = true;
    ++counters.acquired;
    seat->arm(sync); // the view's guard tells this term view of the key's loss
    reportTransition(EtcdMetrics::Transition::Acquired);
    sync->markLeader(fencing, keepAlive ? leaseStateOf(*keepAlive) : nullptr, token);
    qCDebug(lcEtcdElection).noquote() << clientId << "leads" << path << "token" << fencing.revision;
    if (!setState(State::Leading))
        return;
    if (body)
        runBody();
    QPointer<EtcdLeaderSelector> guard(q);
    Q_EMIT q->elected();
    if (guard)
        seeLeader(clientId);
}

void EtcdLeaderSelectorPrivate::runBody()
{
    Q_Q(EtcdLeaderSelector);
    bodyRunning = true;
    const quint64 forTerm = term;
    bodyThread = std::jthread(
        [q, forTerm, body = body, relinquish = relinquish, sync = sync](std::stop_token stop) {
            QString threw;
            try {
                body(*q, stop);
            } catch (const std::exception &e) {
                threw = QString::fromLocal8Bit(e.what());
            } catch (...) {
                threw = QStringLiteral("unknown exception");
            }
            sync->markEnding(); // the term is over the moment the body returns
            try {
                if (relinquish)
                    relinquish(*q);
            } catch (...) {
                threw += QStringLiteral(" (relinquishLeadership threw too)");
            }
            postQueued(q, [q, forTerm, threw] { q->d_func()->onBodyReturned(forTerm, threw); });
        });
    sync->setBody(bodyThread.get_stop_source(), options.interruptOnLeaseLoss);
}

void EtcdLeaderSelectorPrivate::onBodyReturned(quint64 forTerm, const QString &threw)
{
    Q_Q(EtcdLeaderSelector);
    if (bodyThread.joinable())
        bodyThread.join(); // it has returned already: this only reaps it
    bodyRunning = false;
    if (forTerm != term)
        return;
    if (!threw.isEmpty())
        q->recordError(EtcdStatus(Etcd::ErrorCode::Aborted,
            EtcdLeaderSelector::tr("takeLeadership threw: %1").arg(threw)));
    relinquishRan = true; // on the body's thread, right after it returned
    if (state == State::Leading && confirmingLoss)
        return; // the key went; the answer about its lease ends the term
    if (state == State::Leading) {
        // A body that returned because the engine ended its leadership did not resign: the
        // loss is reported as such, even when this thread hears of the return first.
        if (const auto loss = sync->engineLoss()) {
            if (loss->cause == TermSync::Loss::Key)
                return stepDownForKey(
                    lostStatus(EtcdLeaderSelector::tr("the leader key was deleted or taken")));
            leaseGone = true;
            return stepDown(loss->why);
        }
        return endTerm(End::Resigned, {});
    }
    if (state == State::Relinquishing)
        finishTerm();
}

// The engine has ended the leadership already (TermSync::seeKeyEvents); the signals say
// whether the lease went with the key, so they read the same whichever etcd reported first.
void EtcdLeaderSelectorPrivate::stepDownForKey(const EtcdStatus &reason)
{
    Q_Q(EtcdLeaderSelector);
    if (std::exchange(confirmingLoss, true))
        return;
    const quint64 forTerm = term;
    const auto decided = [this, forTerm, reason](std::optional<bool> answer, const EtcdStatus &) {
        const bool gone = answer.value_or(false);
        if (forTerm != term)
            return;
        confirmingLoss = false;
        leaseGone = leaseGone || gone;
        stepDown(
            gone ? lostStatus(EtcdLeaderSelector::tr("the leadership lease is gone")) : reason);
    };
    const auto known = keepAlive ? leaseStateOf(*keepAlive) : nullptr; // the engine's word
    RecipeLayer::askWhetherLeaseIsGone(q->client(), q, leaseId, decided, known);
}

void EtcdLeaderSelectorPrivate::reportTransition(EtcdMetrics::Transition transition) const
{
    Q_Q(const EtcdLeaderSelector);
    metricsOf(q->client())->report([&](EtcdMetrics &m) {
        m.recordLeadershipTransition(path, transition);
    });
}

void EtcdLeaderSelectorPrivate::stepDown(const EtcdStatus &reason)
{
    if (state != State::Leading)
        return;
    ++counters.steppedDown;
    reportTransition(EtcdMetrics::Transition::Lost);
    endTerm(End::SteppedDown, reason);
}

// isLeader turns false and the waits are released first; then the body is asked to stop
// (always for resign/close, on lease loss only with interruptOnLeaseLoss); the term finishes
// once the body has returned and relinquishLeadership ran.
void EtcdLeaderSelectorPrivate::endTerm(End how, const EtcdStatus &reason)
{
    Q_Q(EtcdLeaderSelector);
    if (!inTerm())
        return;
    const bool wasLeader = state == State::Leading;
    grants.abandon(); // not this term's any more
    retryTimer.stop();
    sync->markEnding();
    if (bodyRunning && (how != End::SteppedDown || options.interruptOnLeaseLoss))
        bodyThread.request_stop();
    QPointer<EtcdLeaderSelector> guard(q);
    if (!setState(State::Relinquishing))
        return;
    if (how == End::SteppedDown) {
        qCWarning(lcEtcdElection).noquote()
            << clientId << "steps down from" << path << reason.toString();
        q->reportConnectionState(EtcdRecipe::ConnectionState::Lost);
        if (guard)
            q->keepError(reason);
        if (guard && leaseGone)
            Q_EMIT q->leaseLost(reason);
        if (guard)
            Q_EMIT q->leadershipLost(reason);
    } else if (how == End::Failed) {
        q->recordError(reason);
        if (guard)
            Q_EMIT q->failed(reason);
    }
    if (!guard || bodyRunning)
        return; // the body's return finishes the term
    if (wasLeader && relinquish && !relinquishRan) {
        try {
            relinquish(*q);
        } catch (...) {
            q->recordError(EtcdStatus(
                Etcd::ErrorCode::Aborted, EtcdLeaderSelector::tr("relinquishLeadership threw")));
        }
    }
    if (guard)
        finishTerm();
}

// The leadership lease is revoked first, before any teardown: the key goes with it and a
// successor's wait ends now. Participation is released once that revoke is answered (so its
// delete cannot overtake LEADER's), kParticipationGraceMs later when this term led (so it does
// not delay the successor's compare-and-set either), and the term is over when both are gone: then
// termFinished() (a handler may start() the next term) and, when closing, closed(). Until
// then a write guarded by this term's token could still commit.
void EtcdLeaderSelectorPrivate::finishTerm()
{
    Q_Q(EtcdLeaderSelector);
    EtcdReply *revoke = revokeLeaseQuietly(q->client(), std::exchange(leaseId, -1));
    keepAlive.reset();
    seat->endTerm(); // kept for the next term: its watch stays live
    following = false;
    retryTimer.stop();
    campaigning = false;
    const quint64 forTerm = term;
    const int grace = ledThisTerm ? kParticipationGraceMs : 0; // a hand-off may be under way
    const auto release = [this, q, forTerm, grace] {
        QTimer::singleShot(grace, q, [this, forTerm] { releaseParticipation(forTerm); });
    };
    if (revoke)
        QObject::connect(revoke, &EtcdReply::finished, q, release);
    else
        release();
    if (ledThisTerm) {
        ++counters.relinquished;
        reportTransition(EtcdMetrics::Transition::Relinquished);
        Q_EMIT q->relinquished();
    }
}

void EtcdLeaderSelectorPrivate::releaseParticipation(quint64 forTerm)
{
    Q_Q(EtcdLeaderSelector);
    if (forTerm != term)
        return;
    EtcdSelfHealingKeepAlive *p = participation.release();
    if (!p)
        return completeTerm(forTerm);
    p->setParent(q); // a selector destroyed before p's closed() still takes p with it
    QObject::connect(p, &EtcdRecipe::closed, q, [this, p, forTerm] {
        p->deleteLater(); // we are inside its signal
        completeTerm(forTerm);
    });
    p->close();
}

void EtcdLeaderSelectorPrivate::completeTerm(quint64 forTerm)
{
    Q_Q(EtcdLeaderSelector);
    if (forTerm != term || state != State::Relinquishing)
        return;
    sync->finish();
    QPointer<EtcdLeaderSelector> guard(q);
    if (!setState(closing ? State::Closed : State::Idle))
        return;
    q->setActive(false);
    if (guard)
        Q_EMIT q->termFinished();
    if (!guard || !closing)
        return;
    seat.reset();
    closeGrants();
}

// closed() once a grant still in flight answered and its lease was revoked, and so was the
// standby lease, when no other recipe of the client wants it.
void EtcdLeaderSelectorPrivate::closeGrants()
{
    EtcdReply *standbyRevoke = standby ? standby->release() : nullptr;
    standby.reset();
    grants.close({standbyRevoke});
}

void EtcdLeaderSelectorPrivate::registerParticipation()
{
    Q_Q(EtcdLeaderSelector);
    auto hook = [this](qint64 lease, std::function<void(bool)> done) {
        // A key left by an earlier process with this client id lives out its TTL first.
        casParticipant(
            lease, int(std::min<qint64>(options.ttl.count() * 8, 1'000)), std::move(done));
    };
    participation = std::make_unique<EtcdSelfHealingKeepAlive>(
        q->client(), options.ttl, hook, options.participation);
    // Presence heals: Expired moves the state to Lost, Restored back to Reconnected.
    QObject::connect(participation.get(), &EtcdSelfHealingKeepAlive::leaseEvent, q,
        [q](const EtcdLeaseEvent &e) { q->reportLeaseEvent(e); });
    QObject::connect(
        participation.get(), &EtcdSelfHealingKeepAlive::failed, q, [q](const EtcdStatus &why) {
            q->recordError(EtcdStatus(why.code(),
                EtcdLeaderSelector::tr("participation registration failed: %1")
                    .arg(why.message())));
        });
    participation->start();
}

void EtcdLeaderSelectorPrivate::casParticipant(
    qint64 lease, int attemptsLeft, std::function<void(bool)> done)
{
    Q_Q(EtcdLeaderSelector);
    const QByteArray key = RecipePaths::participantKey(path, clientId);
    EtcdPutOptions put;
    put.lease = lease;
    EtcdTxn txn;
    txn.compares = {EtcdCompare::version(key, Etcd::CompareResult::Equal, 0)};
    txn.success = {EtcdTxnOp::put(key, clientId.toUtf8(), put)};
    auto *reply = txnOn(q->client(), txn);
    QPointer<EtcdSelfHealingKeepAlive> owner(participation.get());
    QObject::connect(reply, &EtcdReply::finished, q,
        [this, q, reply, lease, attemptsLeft, done, owner](const EtcdStatus &s) {
            if (!owner)
                return done(false);
            if (s.isOk() && reply->succeeded())
                return done(true);
            if (attemptsLeft <= 0)
                return done(false);
            QTimer::singleShot(250, q, [this, lease, attemptsLeft, done, owner] {
                if (!owner)
                    return done(false);
                casParticipant(lease, attemptsLeft - 1, done);
            });
        });
}
