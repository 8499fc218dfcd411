// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// The end of an acquisition (given up, released, lost, closed) and the blocking forms that
// worker threads call (see lockqueue_p.h).
#include "clientcalls_p.h"
#include "etcdqt_internal_p.h"
#include "leaseops_p.h"
#include "lockqueue_p.h"

#include <EtcdQt/etcdclient.h>
#include <EtcdQt/etcdreplies.h>

using namespace Etcd::Internal;
using namespace std::chrono;

namespace {
// How long a blocking call waits beyond its own deadline for the lock's thread to answer:
// a frozen event loop must not hold a worker forever.
milliseconds graceFor(seconds ttl)
{
    return std::clamp<milliseconds>(2 * ttl, seconds(5), hours(24)); // no clock overflow
}
} // namespace

LockQueue::~LockQueue()
{
    closing = true;
    for (const auto &b : books) {
        if (b)
            b->close();
    }
    watch.reset();
    for (auto &[id, a] : acquisitions) {
        a->keepAlive.reset();
        revokeLeaseQuietly(q->client(), a->leaseId);
    }
    acquisitions.clear();
    if (spare) {
        spare->keepAlive.reset();
        revokeLeaseQuietly(q->client(), spare->id);
    }
}

bool LockQueue::lockBlocking(Side side, std::optional<milliseconds> timeout)
{
    if (book(side).isClosed())
        return false;
    auto request = std::make_shared<MutexRequest>();
    std::optional<TimePoint> deadline;
    if (timeout)
        deadline = steady_clock::now() + *timeout;
    QMetaObject::invokeMethod(
        q,
        [this, side, request, self = std::this_thread::get_id(),
            thread = QPointer<QThread>(QThread::currentThread()),
            deadline] { start(side, request, self, thread, deadline); },
        Qt::QueuedConnection);
    std::optional<TimePoint> giveUp;
    if (deadline)
        giveUp = *deadline + graceFor(ttl);
    if (book(side).await(*request, giveUp))
        return true;
    if (request->abandoned) // the lock's thread did not answer in time; it cleans up later
        QMetaObject::invokeMethod(
            q, [this] { cancelAbandoned(); }, Qt::QueuedConnection);
    return false;
}

bool LockQueue::releaseBlocking(quint64 id)
{
    // A delete that gets no answer within a TTL no longer matters: the lease is gone by then.
    return callInThreadOf<bool>(q, ttl, false, [this, id](Answer<bool> answer) {
        releaseHold(id, answer);
    }).value_or(true);
}

// From a worker: whether a count-only read of `prefix` satisfies `answer` (false when etcd
// did not answer within a TTL).
bool LockQueue::countOnly(const QByteArray &prefix, std::function<bool(qint64)> answer) const
{
    EtcdRecipe *recipe = q;
    return callInThreadOf<bool>(recipe, ttl, false,
        [recipe, prefix, answer = std::move(answer)](Answer<bool> reply) {
            if (!recipe->client())
                return reply(false);
            EtcdRangeOptions count;
            count.prefix = true;
            count.countOnly = true;
            EtcdRangeReply *r = recipe->client()->get(prefix, count);
            QObject::connect(r, &EtcdReply::finished, recipe,
                [r, reply, answer](const EtcdStatus &s) { reply(s.isOk() && answer(r->count())); });
        })
        .value_or(false);
}

// From a worker: sends `txn` guarded by `token` (the calling thread's hold, not a later
// one) and waits at most `timeout` for etcd's answer. True when it committed.
bool LockQueue::commitGuarded(const EtcdFencingToken &token, const EtcdTxn &txn,
    milliseconds timeout, EtcdStatus *status) const
{
    // `token` is the caller's hold as the engine last decided it: null once that hold is lost.
    return commitGuardedFromWorker(
        door, token.isValid(), token, txn, timeout, status, EtcdRecipe::tr("the hold is over"));
}

void LockQueue::recordErrorOf(const EtcdStatus &status)
{
    // Errors are kept in the recipe's thread; a worker's refusal is recorded there.
    QMetaObject::invokeMethod(q, [recipe = q, status] { recipe->recordError(status); });
}

bool LockQueue::settleRelease(HoldBook::Release verdict, quint64 id, Caller caller, const char *who)
{
    switch (verdict) {
    case HoldBook::Release::Nested:
        return true;
    case HoldBook::Release::Dispossessed:
        return false; // lost or closed: lockLost() told, unlock() answers
    case HoldBook::Release::NotHeld:
        if (caller == Caller::Worker)
            qCWarning(lcEtcdRecipe, "%s by a thread that holds nothing", who);
        else
            abandonOwnerAcquire();
        return false;
    case HoldBook::Release::Last:
        break;
    }
    if (caller == Caller::Worker)
        return releaseBlocking(id);
    releaseHold(id);
    return true;
}

// The owner thread's non-blocking acquire: one in flight at a time.
bool LockQueue::acquireInOwnerThread(Side side)
{
    if (ownerPending) {
        qCWarning(lcEtcdRecipe, "acquire() while one is in flight; refused");
        return false;
    }
    if (!start(side, nullptr, std::this_thread::get_id(), QThread::currentThread(), std::nullopt))
        return false;
    ownerPending = nextId;
    return true;
}

void LockQueue::abandonOwnerAcquire()
{
    if (Acquisition *a = find(ownerPending))
        cancel(*a);
}

// A tryLock() deadline: the first transaction is always answered before giving up, so
// tryLock(0ms) still takes a free lock.
void LockQueue::onDeadline(quint64 id)
{
    Acquisition *a = find(id);
    if (!a)
        return;
    a->expired = true;
    if (!a->answered)
        return;
    if (a->phase == Phase::Waiting || a->phase == Phase::Recheck || a->phase == Phase::NeedLease)
        cancel(*a);
}

// Gives up waiting: the lease is revoked (which deletes our key, wherever the transaction
// is), and only once etcd answered is the caller told, so no key is left behind it.
void LockQueue::cancel(Acquisition &a)
{
    a.phase = Phase::Ending;
    ++a.attempt;
    leaseWaiters.removeAll(a.id);
    dropTimer(a.deadline);
    dropKeepAlive(a.keepAlive);
    if (!a.request)
        ownerPending = 0;
    EtcdReply *revoke = revokeLeaseQuietly(q->client(), std::exchange(a.leaseId, 0));
    const auto fail = [this, id = a.id] {
        if (Acquisition *a = find(id)) {
            if (a->request)
                book(a->side).fail(*a->request);
            acquisitions.erase(id);
        }
    };
    if (revoke)
        QObject::connect(revoke, &EtcdReply::finished, q, fail);
    else
        fail();
}

void LockQueue::cancelAbandoned()
{
    std::vector<quint64> ids;
    for (const auto &[id, a] : acquisitions) {
        if (a->request && a->phase != Phase::Held && a->phase != Phase::Releasing
            && a->phase != Phase::Ending && a->request->abandoned)
            ids.push_back(id);
    }
    for (quint64 id : ids)
        cancel(*find(id));
}

// The last unlock() of a hold: delete the key (the successor's watch fires now); once etcd
// confirmed, the lease serves the next acquisition (recycle()).
void LockQueue::releaseHold(quint64 id, Answer<bool> answer)
{
    Acquisition *a = find(id);
    if (!a || a->phase != Phase::Held)
        return answer(false); // lost (or closed) before this unlock() got here
    a->phase = Phase::Releasing;
    a->unlockAnswer = std::move(answer);
    ++a->attempt;
    EtcdDeleteReply *reply = removeOn(q->client(), a->key);
    QObject::connect(reply, &EtcdReply::finished, q,
        [this, id, reply](const EtcdStatus &s) { onReleased(id, reply->deleted(), s); });
}

void LockQueue::onReleased(quint64 id, qint64 deleted, const EtcdStatus &status)
{
    Acquisition *a = find(id);
    if (!a || a->phase != Phase::Releasing)
        return;
    const Answer<bool> answer = std::exchange(a->unlockAnswer, {});
    if (!status.isOk()) // the revoke that follows, or the TTL, removes the key
        q->recordError(status);
    const bool wasOurs = !status.isOk() || deleted > 0;
    if (!wasOurs) { // etcd had deleted it already: the hold was lost before this unlock
        a->phase = Phase::Held;
        loseHold(*a, lostStatus("the %1 was lost before it was released"));
    } else if (status.isOk()) {
        recycle(id);
    } else {
        discard(id);
    }
    answer(wasOurs);
}

// The engine thread has dispossessed a hold whose lease went already (HoldBook::loseLease):
// here the owner thread catches up, and the signals follow in order.
void LockQueue::loseHold(Acquisition &a, const EtcdStatus &why, Cause cause)
{
    if (a.phase != Phase::Held)
        return;
    book(a.side).dispossess(a.id);
    const Side side = a.side;
    QPointer<QThread> holder = a.qthread;
    const bool fromOwner = !a.request;
    discard(a.id); // the lease may still live when only the key was deleted
    qCWarning(lcEtcdRecipe).noquote() << layout.noun << layout.prefix << "lost:" << why.toString();
    QPointer<EtcdRecipe> guard(q);
    q->reportConnectionState(EtcdRecipe::ConnectionState::Lost);
    if (guard)
        q->keepError(why);
    if (guard && interruptOnLoss && holder && !fromOwner)
        holder->requestInterruption();
    if (guard && cause == Cause::Lease)
        Q_EMIT q->leaseLost(why);
    if (guard)
        onLost(side, why);
}

// The hold's key is gone and its lease alive: the lease is the next acquisition's (Go's
// concurrency.Mutex keeps one session lease for all its locks). Each hold still has a lease
// of its own while it lives; a lost one is never reused.
void LockQueue::recycle(quint64 id)
{
    Acquisition *held = find(id);
    if (!held || closing || !held->keepAlive)
        return discard(id);
    std::unique_ptr<Acquisition> a = take(id);
    adoptLease(a->leaseId, std::move(a->keepAlive));
}

void LockQueue::discard(quint64 id)
{
    std::unique_ptr<Acquisition> a = take(id);
    if (!a)
        return;
    dropKeepAlive(a->keepAlive);
    revokeLeaseQuietly(q->client(), a->leaseId);
    if (!leaseWaiters.isEmpty())
        topUpLeases(); // a waiter may have counted on this lease coming back
}

// Forgets acquisition `id` (null when unknown): no longer waiting for a lease, nor the owner
// thread's acquire() in flight.
std::unique_ptr<LockQueue::Acquisition> LockQueue::take(quint64 id)
{
    const auto it = acquisitions.find(id);
    if (it == acquisitions.end())
        return nullptr;
    std::unique_ptr<Acquisition> a = std::move(it->second);
    acquisitions.erase(it);
    leaseWaiters.removeAll(id);
    if (!a->request && ownerPending == id)
        ownerPending = 0;
    return a;
}

// Every hold is released and every wait ended: each acquisition's lease (and the spare) is
// revoked, which deletes its key. closed() follows once etcd answered all of them.
void LockQueue::closeAll()
{
    closing = true;
    for (const auto &b : books) {
        if (b)
            b->close();
    }
    grantRetry.stop();
    watch.reset();
    watchFrom = 0;
    closePending = grantsInFlight + 1; // the last step is this function's own
    const auto revoke = [this](qint64 lease) {
        if (EtcdReply *r = revokeLeaseQuietly(q->client(), lease)) {
            ++closePending;
            QObject::connect(r, &EtcdReply::finished, q, [this] { closeStep(); });
        }
    };
    auto all = std::move(acquisitions);
    acquisitions.clear();
    leaseWaiters.clear();
    ownerPending = 0;
    for (auto &[id, a] : all) {
        dropKeepAlive(a->keepAlive);
        a->unlockAnswer(true); // that unlock() came first
        revoke(a->leaseId);
    }
    all.clear();
    if (spare) {
        dropKeepAlive(spare->keepAlive);
        revoke(spare->id);
        spare.reset();
    }
    closeStep();
}

void LockQueue::closeStep()
{
    if (--closePending == 0)
        q->emitClosedAfter(nullptr);
}
