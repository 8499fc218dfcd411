// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "clientcalls_p.h"
#include "etcdqt_internal_p.h"
#include "handover_p.h"
#include "keywait_p.h"
#include "leaseops_p.h"
#include "leaseview_p.h"
#include "ownedkey_p.h"
#include "recipemetrics_p.h"
#include "recipepaths_p.h"
#include "recipereplies_p.h"

#include <EtcdQt/etcdbarrier.h>
#include <EtcdQt/etcdclient.h>
#include <EtcdQt/etcdselfhealingkeepalive.h>

#include <QtCore/qpointer.h>

#include <map>
#include <set>

using namespace Etcd::Internal;
using namespace std::chrono;

/*!
    \class EtcdBarrier
    \inmodule EtcdQt
    \brief A gate one client sets and removes while others wait for it to go; it is not a
    lock (see "The spurious lift" below).

    etcd-recipes' DistributedBarrier, byte for byte: the barrier is the key path(), holding
    "<clientId>:<7 random>" and bound to a self-healing lease of ttl(). setBarrier() creates
    it only where it is absent (a compare-and-set). Waiters, here or in any other process,
    read the key and watch it from the revision they read, so a removal between the read and
    the watch is not missed; any deletion releases them.

    \section1 Whose barrier

    Unlike the reference, a setter only ever deletes its own barrier: removeBarrier() on an
    object that set (or is setting) the barrier revokes its lease and deletes the key only
    while it is still the one this object wrote, compared by the revision of that write. A
    barrier someone else set since (after this one lapsed, or over it) is left alone and the
    reply says so. An object that never set the barrier removes whoever's is there, as the
    reference does (the \c{etcdqt barrier remove} command).

    A setter watches its own key. When someone else deletes it while its lease lives, or
    writes over it, the barrier is theirs to decide: state() and connectionState() become
    Lost, the reason is kept in errors(), barrierLost() is emitted and this object stops
    maintaining it (its lease is revoked; it is not set again).

    With waitOnMissingBarriers() (the default) a wait on a barrier nobody has set yet waits
    for it to be set and then removed; without, it returns at once.

    While a wait's watch is cut off from etcd, connectionState() is Suspended; when it
    resumes, Reconnected (a Lost barrier stays Lost until its lease heals).

    \section1 The spurious lift

    If the setter's lease expires (a partition or pause longer than the TTL, or a revoke),
    etcd deletes the key and every waiter sees the barrier lift. That cannot be taken back.
    What follows is the spec's: leaseEvent(Expired) is emitted and recorded in errors(),
    connectionState() and state() become Lost, and the lease heals, re-arming the barrier by
    compare-and-set so later waiters block again (leaseEvent(Restored), state Set). If
    another client set the barrier meanwhile, the compare-and-set loses and this object stops
    maintaining it: leaseEvent(Failed), state Failed, failed(). Work that must not start early
    re-checks a condition that is authoritative on its own; pick a TTL longer than the
    partitions you expect to ride out.

    All of it runs in this object's thread without blocking; waitOnBarrier() blocks worker
    threads only.
*/

/*!
    \enum EtcdBarrier::State
    \value Unset   this object holds no barrier and has not removed one.
    \value Setting setBarrier() is on its way.
    \value Set     the barrier this object set is in place.
    \value Lost    its key went: with its lease (the heal follows, then Set again), or someone
                   else deleted or wrote over it (barrierLost(); it is not maintained any more).
    \value Failed  a heal found the key taken by someone else, or healing gave up.
    \value Removed removeBarrier() was called; this object sets no barrier any more.
*/

/*! \fn void EtcdBarrier::lifted()
    Emitted when a wait begun with startWaiting() saw the barrier go.
*/
/*! \fn void EtcdBarrier::waitFailed(const EtcdStatus &reason)
    Emitted when a wait begun with startWaiting() ended without the barrier lifting: etcd
    could not be read or watched (\a reason), or close() was called.
*/
/*! \fn void EtcdBarrier::failed(const EtcdStatus &reason)
    Emitted when this object stopped maintaining the barrier it set: another client holds it
    now, or healing gave up (\a reason).
*/
/*! \fn void EtcdBarrier::barrierLost(const EtcdStatus &reason)
    Emitted when the barrier this object set was deleted by someone else while its lease
    lived (\a reason: Etcd::ErrorCode::NotFound) or written over by someone else
    (Etcd::ErrorCode::AlreadyExists). The state is Lost; this object no longer maintains it.
*/
/*! \fn void EtcdBarrier::leaseEvent(const EtcdLeaseEvent &event)
    Emitted for each Suspended, Expired, Restored and Failed \a event of the barrier's lease.
*/

class EtcdBarrierPrivate
{
    Q_DECLARE_PUBLIC(EtcdBarrier)
public:
    EtcdBarrierPrivate(EtcdBarrier *q, const QByteArray &path, const EtcdBarrierOptions &o)
        : q_ptr(q), path(path), options(o)
    {
        if (options.clientId.isEmpty())
            options.clientId = QStringLiteral("DistributedBarrier:")
                + QString::fromLatin1(RecipePaths::randomId(7));
    }

    void setState(EtcdBarrier::State s);
    void beginSet();
    void establish(qint64 leaseId, const std::function<void(bool)> &done);
    void followOwnKey(qint64 writtenAt, qint64 leaseId);
    void stopFollowingOwnKey();
    void onOwnKeyLost(OwnedKey::Loss how, const EtcdStatus &why);
    void onSetFailed(const EtcdStatus &why);
    void forgetLease(std::function<void()> revoked = {});
    using Deleted = std::function<void(const EtcdStatus &status, bool removed)>;
    void deleteOwnKey(Deleted done);
    void deleteAnyKey(Deleted done);
    void beginWait(int id, std::function<void(bool)> done);
    // `otherwise`: how a wait that did not lift ended (a KeyWait that ends unlifted failed).
    void endWait(
        int id, bool lifted, EtcdMetrics::Outcome otherwise = EtcdMetrics::Outcome::Failed);
    void updateWaiterCount();

    EtcdBarrier *q_ptr;
    QByteArray path;
    EtcdBarrierOptions options;
    EtcdBarrier::State state = EtcdBarrier::State::Unset;
    std::unique_ptr<EtcdSelfHealingKeepAlive> lease;
    std::shared_ptr<LeaseView> view = std::make_shared<LeaseView>(); // the setter's, any thread
    QPointer<EtcdBoolReply> pendingSet; // answered once the first lease is established
    int leasesClosing = 0; // let go of, their revokes not answered yet
    bool closeAwaitsLeases = false; // close() was called while some were
    bool casLost = false; // the establish hook found the key taken
    qint64 ownRevision = 0; // the revision of this object's last write of the barrier key
    qint64 writtenUnder = -1; // the lease of that write
    std::unique_ptr<OwnedKey> ownKey; // follows that key while this object holds it
    std::map<int, std::unique_ptr<KeyWait>> waits;
    std::map<int, std::function<void(bool)>> answers;
    std::map<int, MetricSpan> waitSpans;
    std::set<int> parked; // waits whose probe answered: they see any deletion from now on
    int reportedWaiters = 0;
    EtcdStatus lastWaitError; // for waitFailed()
    int nextOwnWaitId = -1; // startWaiting() counts down, worker waits count up
    std::atomic<int> nextWorkerWaitId {1};
};

void EtcdBarrierPrivate::setState(EtcdBarrier::State s)
{
    Q_Q(EtcdBarrier);
    if (std::exchange(state, s) != s)
        Q_EMIT q->stateChanged(s);
}

// Create-if-absent, or moved off the lease it last wrote under: a partition can end the
// local deadline before etcd's, and the key still on that lease is this object's (a plain
// create would find it taken and fail, and etcd would lift the barrier soon after).
void EtcdBarrierPrivate::establish(qint64 leaseId, const std::function<void(bool)> &done)
{
    Q_Q(EtcdBarrier);
    if (state == EtcdBarrier::State::Removed || q->isClosed())
        return done(false);
    const QByteArray token = RecipePaths::uniqueToken(options.clientId);
    auto answered = [this, leaseId, done](const EtcdStatus &s, bool owned, qint64, qint64 at) {
        casLost = s.isOk() && !owned;
        if (owned) {
            writtenUnder = leaseId;
            followOwnKey(at, leaseId);
        }
        done(owned);
    };
    claimKey(q->client(), path, token, leaseId, writtenUnder, q, answered);
}

// From the revision that wrote it on, any change of the key is someone else's (or the
// lease's end): the barrier watches its own key to tell.
void EtcdBarrierPrivate::followOwnKey(qint64 writtenAt, qint64 leaseId)
{
    Q_Q(EtcdBarrier);
    stopFollowingOwnKey();
    ownRevision = writtenAt;
    ownKey = std::make_unique<OwnedKey>(q->client(), path, writtenAt, leaseId, view);
    QObject::connect(ownKey.get(), &OwnedKey::lost, q,
        [this](OwnedKey::Loss how, const EtcdStatus &why) { onOwnKeyLost(how, why); });
    QObject::connect(ownKey.get(), &OwnedKey::errorOccurred, q,
        [this](const EtcdStatus &why) { q_func()->recordError(why); });
    ownKey->start();
}

// An answer it still has on the way (its lease check) must not reach a later key's holder.
void EtcdBarrierPrivate::stopFollowingOwnKey()
{
    if (!ownKey)
        return;
    QObject::disconnect(ownKey.get(), nullptr, q_func(), nullptr);
    ownKey.release()->deleteLater(); // may be the sender
}

// Gone with its lease: Lost now, the lease's Expired and the heal follow. Removed or written
// over by someone else: that is someone's decision, not an outage, so this object stops
// maintaining the barrier (its lease is revoked: it holds nothing now) and says so.
void EtcdBarrierPrivate::onOwnKeyLost(OwnedKey::Loss how, const EtcdStatus &why)
{
    Q_Q(EtcdBarrier);
    stopFollowingOwnKey();
    if (state != EtcdBarrier::State::Set)
        return; // removed, closed or already lost: the key was not held any more
    QPointer<EtcdBarrier> guard(q);
    setState(EtcdBarrier::State::Lost);
    if (guard)
        q->reportConnectionState(EtcdRecipe::ConnectionState::Lost);
    if (!guard || how == OwnedKey::Loss::LeaseEnded)
        return;
    forgetLease(); // emits leaseIdChanged(-1)
    if (guard)
        q->recordError(why);
    if (guard)
        Q_EMIT q->barrierLost(why);
}

// setBarrier() has made pendingSet and moved to Setting; the probe found the key absent.
void EtcdBarrierPrivate::beginSet()
{
    Q_Q(EtcdBarrier);
    auto hook = [this](qint64 leaseId, EtcdSelfHealingKeepAlive::EstablishDone done) {
        establish(leaseId, done);
    };
    lease = std::make_unique<EtcdSelfHealingKeepAlive>(
        q->client(), options.ttl, hook, options.resilience);
    EtcdSelfHealingKeepAlive *l = lease.get();
    leaseViewOf(*l)->mirrorTo(view);
    QObject::connect(
        l, &EtcdSelfHealingKeepAlive::currentLeaseIdChanged, q, &EtcdBarrier::leaseIdChanged);
    QObject::connect(l, &EtcdRecipe::leaseLost, q, &EtcdRecipe::leaseLost);
    QObject::connect(l, &EtcdSelfHealingKeepAlive::established, q, [this] {
        setState(EtcdBarrier::State::Set);
        if (pendingSet)
            RecipeReplies::finish(pendingSet, {}, true);
    });
    QObject::connect(l, &EtcdSelfHealingKeepAlive::leaseEvent, q, [this](const EtcdLeaseEvent &e) {
        Q_Q(EtcdBarrier);
        QPointer<EtcdBarrier> guard(q);
        if (e.type == EtcdLeaseEvent::Type::Expired)
            setState(EtcdBarrier::State::Lost);
        else if (e.type == EtcdLeaseEvent::Type::Restored)
            setState(EtcdBarrier::State::Set);
        q->reportLeaseEvent(e);
        if (guard)
            Q_EMIT q->leaseEvent(e);
    });
    // The lease records its events' causes and failed heal attempts: keep them here too.
    QObject::connect(l, &EtcdRecipe::errorOccurred, q,
        [this](const QString &, const EtcdStatus &s) { q_func()->keepError(s); });
    QObject::connect(l, &EtcdSelfHealingKeepAlive::failed, q,
        [this](const EtcdStatus &why) { onSetFailed(why); });
    l->start();
}

// The first establish failing is an answer to setBarrier() (false when the key was taken);
// a later one means this object no longer maintains the barrier.
void EtcdBarrierPrivate::onSetFailed(const EtcdStatus &why)
{
    Q_Q(EtcdBarrier);
    if (pendingSet && !pendingSet->isFinished()) {
        RecipeReplies::finish(pendingSet, casLost ? EtcdStatus() : why, false);
        forgetLease();
        if (state == EtcdBarrier::State::Setting)
            setState(EtcdBarrier::State::Unset);
        return;
    }
    if (state == EtcdBarrier::State::Removed || q->isClosed())
        return;
    setState(EtcdBarrier::State::Failed);
    Q_EMIT q->failed(why);
}

// Revokes and lets go of the lease; `revoked` runs once etcd answered the revoke (at once
// when there was none). The lease object lives until then (and no longer than this object):
// it may be the sender of the signal being handled, and its closed() is the revoke's answer.
// A close() meanwhile says closed() only after the last such answer.
void EtcdBarrierPrivate::forgetLease(std::function<void()> revoked)
{
    Q_Q(EtcdBarrier);
    view->clear();
    EtcdSelfHealingKeepAlive *l = lease.release();
    if (!l) {
        if (revoked)
            revoked();
        return;
    }
    l->setParent(q);
    ++leasesClosing;
    QObject::connect(l, &EtcdRecipe::closed, q, [this, l, revoked] {
        Q_Q(EtcdBarrier);
        l->deleteLater();
        const bool last = --leasesClosing == 0 && std::exchange(closeAwaitsLeases, false);
        QPointer<EtcdBarrier> guard(q);
        if (revoked)
            revoked(); // may finish a reply whose receiver deletes us
        if (guard && last)
            Q_EMIT q->closed();
    });
    l->close();
    Q_EMIT q->leaseIdChanged(-1);
}

void EtcdBarrierPrivate::beginWait(int id, std::function<void(bool)> done)
{
    Q_Q(EtcdBarrier);
    if (q->isClosed())
        return done(false);
    answers.emplace(id, std::move(done));
    waitSpans.emplace(id, MetricSpan(metricsOf(q->client())));
    KeyWait::Options o;
    o.key = path;
    o.liftIfMissing = !options.waitOnMissingBarriers;
    auto wait = std::make_unique<KeyWait>(q->client(), o, q, RecipeLayer::partSinkOf(q));
    QObject::connect(
        wait.get(), &KeyWait::finished, q, [this, id](bool lifted) { endWait(id, lifted); });
    QObject::connect(wait.get(), &KeyWait::parked, q, [this, id] {
        parked.insert(id);
        updateWaiterCount();
    });
    QObject::connect(wait.get(), &KeyWait::errorOccurred, q, [this](const EtcdStatus &s) {
        lastWaitError = s;
        q_func()->recordError(s);
    });
    wait->start();
    waits.emplace(id, std::move(wait));
}

void EtcdBarrierPrivate::endWait(int id, bool lifted, EtcdMetrics::Outcome otherwise)
{
    Q_Q(EtcdBarrier);
    if (const auto s = waitSpans.find(id); s != waitSpans.end()) {
        s->second.end([&](EtcdMetrics &m, EtcdMetrics::Duration wait) {
            m.recordWait(EtcdMetrics::Wait::Barrier, path, wait,
                lifted ? EtcdMetrics::Outcome::Succeeded : otherwise);
        });
        waitSpans.erase(s);
    }
    const auto w = waits.find(id);
    if (w != waits.end()) {
        w->second.release()->deleteLater(); // may be the sender
        waits.erase(w);
    }
    const auto a = answers.find(id);
    if (a == answers.end())
        return;
    const auto answer = std::move(a->second);
    answers.erase(a);
    parked.erase(id);
    updateWaiterCount();
    answer(lifted);
}

void EtcdBarrierPrivate::updateWaiterCount()
{
    Q_Q(EtcdBarrier);
    const int n = int(parked.size());
    if (std::exchange(reportedWaiters, n) != n)
        Q_EMIT q->waiterCountChanged(n);
}

/*!
    Constructs the barrier at \a path on \a client, as \a options say. No I/O until used. The object
    is a child of \a parent.
*/
EtcdBarrier::EtcdBarrier(
    EtcdClient *client, const QByteArray &path, const EtcdBarrierOptions &options, QObject *parent)
    : EtcdRecipe(
        client, QStringLiteral("DistributedBarrier[%1]").arg(QString::fromUtf8(path)), parent),
      d_ptr(new EtcdBarrierPrivate(this, path, options))
{ }

/*! Closes: releases every wait (false) and revokes the lease of a barrier it set. */
EtcdBarrier::~EtcdBarrier()
{
    close();
}

/*! \property EtcdBarrier::path
    The barrier key (under the client's key prefix). */
QByteArray EtcdBarrier::path() const
{
    return d_func()->path;
}

/*! \property EtcdBarrier::clientId
    Written into the barrier's value, "<clientId>:<7>". */
QString EtcdBarrier::clientId() const
{
    return d_func()->options.clientId;
}

/*! The TTL of the lease that holds a barrier this object set. */
seconds EtcdBarrier::ttl() const
{
    return d_func()->options.ttl;
}

/*!
    \property EtcdBarrier::waitOnMissingBarriers
    Whether a wait on an unset barrier waits for it to be set and removed (true) or returns
    at once (false).
*/
bool EtcdBarrier::waitOnMissingBarriers() const
{
    return d_func()->options.waitOnMissingBarriers;
}

/*! \property EtcdBarrier::state
    This object's hold of the barrier key. */
EtcdBarrier::State EtcdBarrier::state() const
{
    return d_func()->state;
}

/*!
    \property EtcdBarrier::waiterCount
    The waits of this object in place and not yet released: each has read the barrier and
    watches it from that read on, so a removal from now on releases it.
*/
int EtcdBarrier::waiterCount() const
{
    return d_func()->reportedWaiters;
}

/*! \property EtcdBarrier::leaseId
    The lease holding the barrier this object set; -1 if none. */
qint64 EtcdBarrier::leaseId() const
{
    Q_D(const EtcdBarrier);
    return d->lease && d->state != State::Failed ? d->lease->currentLeaseId() : -1;
}

/*!
    The time this setter's barrier key may still be counted on: until its lease's deadline
    (see EtcdKeepAlive::remainingValidity()). Zero when this object has not set the barrier,
    or its lease is lost. Any thread.
*/
std::chrono::milliseconds EtcdBarrier::remainingValidity() const
{
    return d_func()->view->remaining();
}

/*!
    Sets the barrier if nobody has: the reply's result() is true when this call set it, false
    when it was set already (by anyone), or this object set one before (a setter sets once,
    even after its barrier was removed or lost). A failure (etcd unreachable, TTL not
    positive, empty path) is the reply's status.
*/
EtcdBoolReply *EtcdBarrier::setBarrier()
{
    Q_D(EtcdBarrier);
    if (isClosed())
        return RecipeReplies::failedBool(
            this, EtcdStatus(Etcd::ErrorCode::Cancelled, tr("closed")));
    if (d->path.isEmpty() || d->options.ttl <= seconds::zero())
        return RecipeReplies::failedBool(this,
            EtcdStatus(Etcd::ErrorCode::InvalidArgument,
                d->path.isEmpty() ? tr("empty barrier path") : tr("TTL must be positive")));
    EtcdBoolReply *reply = RecipeReplies::boolReply(this);
    if (d->state != State::Unset) { // set, being set, lost, failed or removed by this object
        RecipeReplies::finishLater(reply, false);
        return reply;
    }
    // Probe first, as the reference does: a barrier that is set costs no lease grant.
    d->setState(State::Setting);
    d->pendingSet = reply;
    const EtcdTxn probe {{EtcdCompare::version(d->path, Etcd::CompareResult::Greater, 0)}, {}, {}};
    EtcdTxnReply *t = txnOn(client(), probe);
    connect(t, &EtcdReply::finished, this, [d, t](const EtcdStatus &s) {
        if (!d->pendingSet || d->pendingSet->isFinished())
            return; // removed or closed meanwhile
        if (s.isOk() && !t->succeeded())
            return d->beginSet();
        RecipeReplies::finish(d->pendingSet, s, false);
        d->setState(State::Unset);
    });
    return reply;
}

/*!
    Removes the barrier, releasing every waiter: revokes this object's lease and deletes the
    key. A setter deletes only the key it created (see "Whose barrier"): the reply's result()
    is true when that barrier is gone now (deleted by this call, or gone already); when
    someone else's barrier stands there it is left alone, result() is false and the status
    Etcd::ErrorCode::FailedPrecondition. An object that never set it deletes whoever's
    barrier is there. result() is false too when this object had removed it already. This
    object cannot set the barrier again afterwards.
*/
EtcdBoolReply *EtcdBarrier::removeBarrier()
{
    Q_D(EtcdBarrier);
    if (isClosed())
        return RecipeReplies::failedBool(
            this, EtcdStatus(Etcd::ErrorCode::Cancelled, tr("closed")));
    EtcdBoolReply *reply = RecipeReplies::boolReply(this);
    if (d->state == State::Removed) {
        RecipeReplies::finishLater(reply, false);
        return reply;
    }
    const bool setter = d->state != State::Unset; // it set the barrier, or is setting it
    d->setState(State::Removed);
    d->stopFollowingOwnKey();
    if (d->pendingSet && !d->pendingSet->isFinished())
        RecipeReplies::finish(d->pendingSet, {}, false);
    // Answered once both the delete and the revoke are through: a process that exits then
    // leaves neither the key nor the lease behind.
    QPointer<EtcdBoolReply> r(reply);
    auto pending = std::make_shared<int>(2);
    auto outcome = std::make_shared<std::pair<EtcdStatus, bool>>();
    auto oneDone = [r, pending, outcome] {
        if (--*pending == 0 && r)
            RecipeReplies::finish(r, outcome->first, outcome->second);
    };
    d->forgetLease(oneDone);
    auto deleted = [oneDone, outcome](const EtcdStatus &s, bool removed) {
        *outcome = {s, removed};
        oneDone();
    };
    if (setter)
        d->deleteOwnKey(deleted);
    else
        d->deleteAnyKey(deleted);
    return reply;
}

// Only the key as this object last wrote it, untouched since (its mod revision: any later
// write or re-creation changes it): a barrier someone set after it is theirs, left alone. None
// created yet (the set still in flight): revoking the lease takes whatever the set may still
// create.
void EtcdBarrierPrivate::deleteOwnKey(Deleted done)
{
    Q_Q(EtcdBarrier);
    if (ownRevision <= 0) {
        postQueued(q, [done] { done({}, true); });
        return;
    }
    using Etcd::CompareResult;
    const EtcdTxn txn {{EtcdCompare::modRevision(path, CompareResult::Equal, ownRevision)},
        {EtcdTxnOp::remove(path)}, {EtcdTxnOp::get(path)}};
    EtcdTxnReply *t = txnOn(q->client(), txn);
    QObject::connect(t, &EtcdReply::finished, q, [this, t, done](const EtcdStatus &s) {
        const QList<EtcdTxnOpResult> results = t->results();
        if (!s.isOk() || t->succeeded())
            return done(s, s.isOk());
        if (results.isEmpty() || results.first().keyValues.isEmpty())
            return done({}, true); // gone already: removed by someone, or with its lease
        done(EtcdStatus(Etcd::ErrorCode::FailedPrecondition,
                 EtcdBarrier::tr("the barrier at %1 was set by someone else since; left alone")
                     .arg(QString::fromUtf8(path))),
            false);
    });
}

// An object that never set the barrier removes whoever's is there, as etcd-recipes does.
void EtcdBarrierPrivate::deleteAnyKey(Deleted done)
{
    Q_Q(EtcdBarrier);
    QObject::connect(removeOn(q->client(), path), &EtcdReply::finished, q,
        [done](const EtcdStatus &s) { done(s, s.isOk()); });
}

/*! Probes etcd: the reply's result() says whether anyone's barrier is set now. */
EtcdBoolReply *EtcdBarrier::isBarrierSet()
{
    Q_D(EtcdBarrier);
    if (d->path.isEmpty())
        return RecipeReplies::failedBool(
            this, EtcdStatus(Etcd::ErrorCode::InvalidArgument, tr("empty barrier path")));
    EtcdBoolReply *reply = RecipeReplies::boolReply(this);
    QPointer<EtcdBoolReply> r(reply);
    const EtcdTxn probe {{EtcdCompare::version(d->path, Etcd::CompareResult::Greater, 0)}, {}, {}};
    EtcdTxnReply *t = txnOn(client(), probe);
    connect(t, &EtcdReply::finished, this, [r, t](const EtcdStatus &s) {
        if (r)
            RecipeReplies::finish(r, s, s.isOk() && t->succeeded(), t->revision());
    });
    return reply;
}

/*!
    Begins a wait without blocking; lifted() follows when the barrier goes (at once when it
    is not set and waitOnMissingBarriers() is false). Each call is one wait.
*/
void EtcdBarrier::startWaiting()
{
    Q_D(EtcdBarrier);
    if (d->path.isEmpty()) {
        recordError(EtcdStatus(Etcd::ErrorCode::InvalidArgument, tr("empty barrier path")));
        return;
    }
    QPointer<EtcdBarrier> self(this);
    d->beginWait(d->nextOwnWaitId--, [self](bool lifted) {
        if (!self)
            return;
        if (lifted)
            Q_EMIT self->lifted();
        else
            Q_EMIT self->waitFailed(self->isClosed()
                    ? EtcdStatus(Etcd::ErrorCode::Cancelled, tr("closed"))
                    : self->d_func()->lastWaitError);
    });
}

/*! Blocks a worker thread until the barrier lifts; returns \c true then, \c false on close(). */
bool EtcdBarrier::waitOnBarrier()
{
    return waitOnBarrier(kWaitForever);
}

/*!
    Blocks a worker thread until the barrier lifts (true), \a timeout passes or close()
    (false). Refused, returning false, in this object's thread.
*/
bool EtcdBarrier::waitOnBarrier(milliseconds timeout)
{
    Q_D(EtcdBarrier);
    if (refuseOwnThread(this, "EtcdBarrier::waitOnBarrier()") || d->path.isEmpty())
        return false;
    const int id = d->nextWorkerWaitId++;
    return waitCancellable(
        this, timeout,
        [d, id](Answer<bool> answer) { d->beginWait(id, [answer](bool v) { answer(v); }); },
        [d, id] { d->endWait(id, false, EtcdMetrics::Outcome::TimedOut); });
}

/*!
    Releases every wait (false) and stops maintaining a barrier this object set: its lease is
    revoked, so etcd deletes the key and other waiters see it lift. Idempotent.
*/
void EtcdBarrier::close()
{
    Q_D(EtcdBarrier);
    if (isClosed())
        return;
    markClosed();
    d->stopFollowingOwnKey();
    while (!d->answers.empty())
        d->endWait(d->answers.begin()->first, false, EtcdMetrics::Outcome::Cancelled);
    if (d->pendingSet && !d->pendingSet->isFinished())
        RecipeReplies::finish(
            d->pendingSet, EtcdStatus(Etcd::ErrorCode::Cancelled, tr("closed")), false);
    d->forgetLease();
    if (d->leasesClosing > 0)
        d->closeAwaitsLeases = true; // closed() once etcd answered their revokes
    else
        emitClosedAfter(nullptr);
}

/*!
    \class EtcdBarrierOptions
    \inmodule EtcdQt
    \brief Options of an EtcdBarrier.
*/

/*!
    \variable EtcdBarrierOptions::ttl
    \brief the TTL of the lease that holds the barrier key.
*/

/*!
    \variable EtcdBarrierOptions::waitOnMissingBarriers
    \brief whether a wait on a barrier nobody has set waits for it to be set and removed
    (\c true) or returns at once.
*/

/*!
    \variable EtcdBarrierOptions::clientId
    \brief this client's id; empty picks "DistributedBarrier:<7 random characters>".
*/

/*!
    \variable EtcdBarrierOptions::resilience
    \brief how the setter's lease heals.
*/
