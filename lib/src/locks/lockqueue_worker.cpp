// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// LockQueue's worker path: a blocking lock() sends its entry's transaction from the calling
// thread with the spare lease it takes from the shelf, decides there whether it holds, and
// hands the acquisition to the lock's thread without waiting for it (issue 21 item 1).
// The engine still learns first: the HoldBook expects the entry before the transaction
// leaves, so a deletion the lock's watch reports meanwhile is never missed; the lock's thread
// learns of both, lease and acquisition, in one message after the transaction
// (adoptFromWorker), and of a worker's release in one after the delete (onReleased): a loss
// between, the engine has noted in the HoldBook, and so has a release.
#include "etcdqt_internal_p.h"
#include "guardedcommit_p.h"
#include "handover_p.h"
#include "leaseops_p.h"
#include "leaseshared_p.h"
#include "lockqueue_p.h"
#include "replydata_p.h"

#include <EtcdQt/etcdclient.h>

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

// ONE transaction: create our key unless it exists (etcd's concurrency.Mutex does the same),
// and read the whole queue by create revision. Whoever was created before us is ahead.
EtcdTxn LockQueue::entryTxn(const Acquisition &a) const
{
    EtcdPutOptions put;
    put.lease = a.leaseId;
    EtcdRangeOptions queue;
    queue.prefix = true;
    queue.keysOnly = true;
    queue.sortTarget = Etcd::SortTarget::CreateRevision;
    queue.sortOrder = Etcd::SortOrder::Ascending;
    EtcdTxn txn;
    txn.compares = {EtcdCompare::createRevision(a.key, Etcd::CompareResult::Equal, 0)};
    txn.success = {EtcdTxnOp::put(a.key, layout.value, put), EtcdTxnOp::get(layout.prefix, queue)};
    txn.failure = {EtcdTxnOp::get(a.key), EtcdTxnOp::get(layout.prefix, queue)};
    return txn;
}

// The entry's create revision from the transaction's answer: this one's when it created the
// entry, else the existing entry's (0: none, which the comparison rules out).
qint64 LockQueue::entryCreatedAt(
    bool succeeded, qint64 revision, const QList<EtcdTxnOpResult> &results)
{
    if (succeeded)
        return revision;
    return results.isEmpty() || results.first().keyValues.isEmpty()
        ? 0
        : results.first().keyValues.first().createRevision;
}

// The worker's reading of the answer: when the entry was created, and how many entries
// created before it block it. A read lock's own thread's write hold (a downgrade) is not
// known here and counts as blocking: the lock's thread then decides.
bool LockQueue::readEntryAnswer(Acquisition &a, const ReplyData &reply, qsizetype *blocking) const
{
    if (reply.txnResults.size() < 2)
        return false;
    a.seen = reply.revision;
    a.revision = entryCreatedAt(reply.succeeded, reply.revision, reply.txnResults);
    *blocking = 0;
    for (const EtcdKeyValue &kv : reply.txnResults.at(1).keyValues) {
        const bool mayBlock
            = a.side == Side::Exclusive || !layout.blocksShared || layout.blocksShared(kv.key);
        *blocking += kv.createRevision < a.revision && mayBlock ? 1 : 0;
    }
    return a.revision > 0;
}

bool LockQueue::lockBlocking(Side side, std::optional<milliseconds> timeout)
{
    const WorkerGate::Pass pass(gate); // first in, last out: the queue lives until it goes
    if (!pass || book(side).isClosed())
        return false;
    std::optional<TimePoint> deadline;
    if (timeout)
        deadline = steady_clock::now() + *timeout;
    if (const std::optional<bool> decided = lockFromWorker(side, deadline))
        return *decided;
    // No spare on the shelf (the first lock(), or several at once): the lock's thread acquires.
    auto request = std::make_shared<MutexRequest>();
    postQueued(q,
        [this, side, request, self = std::this_thread::get_id(),
            thread = QPointer<QThread>(QThread::currentThread()),
            deadline] { start(side, request, self, thread, deadline); });
    return awaitAnswer(side, *request, deadline);
}

bool LockQueue::awaitAnswer(Side side, MutexRequest &request, std::optional<TimePoint> deadline)
{
    std::optional<TimePoint> giveUp;
    if (deadline)
        giveUp = *deadline + graceFor(ttl);
    if (book(side).await(request, giveUp))
        return true;
    if (request.abandoned) // the lock's thread did not answer in time; it cleans up later
        postQueued(q, [this] { cancelAbandoned(); });
    return false;
}

// The fast path: nullopt when the shelf was empty (nothing was sent).
std::optional<bool> LockQueue::lockFromWorker(Side side, std::optional<TimePoint> deadline)
{
    qint64 lease = 0;
    std::shared_ptr<LeaseShared> state;
    {
        std::lock_guard lock(shelf.mutex);
        if (!shelf.open || shelf.lease == 0 || !shelf.state || !shelf.state->isValid())
            return std::nullopt; // a dying lease is the lock's thread's to replace
        lease = std::exchange(shelf.lease, 0);
        state = std::move(shelf.state);
    }
    auto a = std::make_shared<Acquisition>();
    a->id = ++nextId;
    a->side = side;
    a->thread = std::this_thread::get_id();
    a->qthread = QThread::currentThread();
    a->leaseId = lease;
    a->key = layout.entryKey(side, lease);
    if (layout.metric[side])
        a->waiting = MetricSpan(metrics);
    book(side).expect(a->key);
    EtcdStatus status;
    ReplyData reply;
    qsizetype blocking = 0;
    Handed how = Handed::Retry;
    // No answer within a TTL: the lock's thread asks again (the entry's key is the lease's, so
    // the transaction is the same whether or not the first one committed).
    if (txnReplyFromWorker(door, entryTxn(*a), ttl, &status, &reply, gate.get()) && status.isOk()
        && readEntryAnswer(*a, reply, &blocking)) {
        a->answered = true;
        if (blocking < layout.allowance) {
            const EtcdFencingToken token {a->key, lease, a->revision};
            switch (book(side).settle(a->thread, token, a->id, std::move(state))) {
            case HoldBook::Settled::Held:
                how = Handed::Held;
                break;
            case HoldBook::Settled::Closed:
                how = Handed::GiveBack;
                break;
            case HoldBook::Settled::Deleted: // deleted right after: queue again
                break;
            }
        }
    }
    if (how != Handed::Held)
        book(side).unexpect(a->key);
    std::shared_ptr<MutexRequest> request;
    if (how == Handed::Retry) {
        request = a->request = std::make_shared<MutexRequest>();
        a->expired = a->answered && deadline && steady_clock::now() >= *deadline;
    }
    postQueued(q, [this, a, how, deadline] { adoptFromWorker(a, how, deadline); });
    if (how != Handed::Retry)
        return how == Handed::Held;
    return awaitAnswer(side, *request, deadline);
}

// From a worker: whether a count-only read of `prefix` satisfies `answer` (false when etcd
// did not answer within a TTL). Read from the worker's own thread, as a transaction of one
// range (the one kind of call the worker door sends), so a busy lock thread delays nothing.
bool LockQueue::countOnly(const QByteArray &prefix, std::function<bool(qint64)> answer) const
{
    const WorkerGate::Pass pass(gate);
    if (!pass)
        return false;
    EtcdRangeOptions count;
    count.prefix = true;
    count.countOnly = true;
    const EtcdTxn read {.success = {EtcdTxnOp::get(prefix, count)}};
    EtcdStatus status;
    ReplyData reply;
    return txnReplyFromWorker(door, read, ttl, &status, &reply, gate.get()) && status.isOk()
        && !reply.txnResults.isEmpty() && answer(reply.txnResults.first().count);
}

// A worker took `lease` from the shelf, and its acquisition arrived: the keep-alive comes off
// the spare (unless haveSpare() found it taken and lent it already), and a new spare is
// granted when one is needed. The worker does not tell of the loan before: one message per
// lock() is all this thread gets (issue 21); a loss meanwhile, the engine has noted in the
// HoldBook.
void LockQueue::lend(qint64 lease)
{
    Lent &l = lent[lease];
    if (!l.keepAlive && spare && spare->id == lease) {
        l.keepAlive = std::move(spare->keepAlive);
        spare.reset();
    }
    topUpLeases();
}

void LockQueue::adoptFromWorker(
    std::shared_ptr<Acquisition> handed, Handed how, std::optional<TimePoint> deadline)
{
    auto owned = std::make_unique<Acquisition>(std::move(*handed));
    Acquisition &a = *owned;
    if (!closing) // closing revoked the leases already, this one among them
        lend(a.leaseId);
    Lent from;
    if (const auto it = lent.find(a.leaseId); it != lent.end()) {
        from = std::move(it->second);
        lent.erase(it);
    } else {
        from.failed = true; // closed meanwhile: the lease was revoked
    }
    a.keepAlive = std::move(from.keepAlive);
    if (closing || how == Handed::GiveBack) {
        endWait(a, EtcdMetrics::Outcome::Cancelled);
        dropKeepAlive(a.keepAlive);
        revokeLeaseQuietly(q->client(), a.leaseId);
        if (a.request)
            book(a.side).fail(*a.request);
        return;
    }
    acquisitions.emplace(a.id, std::move(owned));
    q->setActive(true);
    if (how == Handed::Held)
        return adoptHeld(a, from);
    armDeadline(a, deadline);
    if (from.failed) { // unheard for a TTL is not always gone: no old key stays ahead of us
        revokeLeaseQuietly(q->client(), a.leaseId);
        return needLease(a);
    }
    if (a.expired)
        return cancel(a);
    tryAcquire(a);
}

// The worker holds already (the HoldBook says so): this thread catches up, and reports a
// loss it saw before the acquisition arrived.
void LockQueue::adoptHeld(Acquisition &a, const Lent &from)
{
    a.phase = Phase::Held;
    endWait(a, EtcdMetrics::Outcome::Succeeded);
    if (layout.metric[a.side])
        a.holding = MetricSpan(metrics);
    if (from.failed || !a.keepAlive)
        return loseHold(a,
            EtcdStatus(Etcd::ErrorCode::LeaseExpired,
                EtcdRecipe::tr("the %1's lease is gone").arg(nounText())),
            Cause::Lease);
    if (releasedMeanwhile(a))
        return; // the release on its way settles the hold
    if (!book(a.side).isRecorded(a.id)) // the engine saw the key deleted after the worker won
        return loseHoldForKey(a);
    if (!watchCovers(a.seen))
        validate(a); // a DELETE before the watch covered the entry would have gone unseen
    if (q->connectionState() == EtcdRecipe::ConnectionState::Lost)
        q->reportConnectionState(EtcdRecipe::ConnectionState::Reconnected);
}

void LockQueue::armDeadline(Acquisition &a, std::optional<TimePoint> deadline)
{
    if (!deadline)
        return;
    a.deadline = std::make_unique<QTimer>();
    a.deadline->setSingleShot(true);
    // A coarse timer may fire 5% early: a wait must last at least what was asked.
    a.deadline->setTimerType(Qt::PreciseTimer);
    QObject::connect(a.deadline.get(), &QTimer::timeout, q, [this, id = a.id] { onDeadline(id); });
    const auto left = duration_cast<milliseconds>(*deadline - steady_clock::now());
    a.deadline->start(std::max(left, milliseconds(0)));
}

// The last unlock() of a worker's hold: the key is deleted from the worker's own thread and
// etcd's answer handed over where it arrives (issue 21 item 1), so the worker waits one hop
// after etcd, not three (to this recipe's thread, back from etcd to it, and on to the worker).
// The engine knew first: the hold left the HoldBook before this, so the lock's watch reads the
// delete as no loss. This recipe's thread learns it twice, in order: the hold is releasing,
// posted before the delete leaves (its own watch events, queued behind, then read the delete
// as expected), and how it ended. A lease whose key is gone and which still lives goes on the
// shelf, for the next worker's lock().
bool LockQueue::releaseBlocking(quint64 id, const HoldBook::Lease &hold)
{
    const WorkerGate::Pass pass(gate);
    if (!pass)
        return false; // the lock is going: its end revokes the lease, which deletes the key
    const EtcdFencingToken &token = hold.token;
    // This thread is not told before the delete leaves: the HoldBook says the hold is
    // released (MutexSync::release()), so the lock's thread reads the deletion as no loss.
    // Deleted only while it is that hold's key: a delete that finds it gone says lost.
    EtcdTxn remove {.compares
        = {EtcdCompare::createRevision(token.key, Etcd::CompareResult::Equal, token.revision)},
        .success = {EtcdTxnOp::remove(token.key)}};
    EtcdStatus status;
    bool deleted = false;
    // A delete that gets no answer within a TTL no longer matters: the lease is gone by then.
    if (!txnFromWorker(door, remove, ttl, &status, &deleted, gate.get()))
        status = EtcdStatus(Etcd::ErrorCode::DeadlineExceeded,
            EtcdRecipe::tr("no answer to the release in time; the lease's end removes the key"));
    if (!(status.isOk() && deleted && shelveReleased(token.leaseId, hold.state, id, status)))
        postQueued(q, [this, id, status, deleted] { onReleased(id, deleted ? 1 : 0, status); });
    return !status.isOk() || deleted;
}

// Puts the released hold's live lease on an empty shelf, telling this recipe's thread first
// (under the shelf's lock: a worker that takes it is heard of after). False: not shelved.
bool LockQueue::shelveReleased(
    qint64 lease, const std::shared_ptr<LeaseShared> &state, quint64 id, const EtcdStatus &status)
{
    if (!state || !state->isValid())
        return false;
    std::lock_guard lock(shelf.mutex);
    if (!shelf.open || shelf.lease != 0)
        return false;
    postQueued(q, [this, id, status] { onReleased(id, 1, status, true); });
    shelf.lease = lease;
    shelf.state = state;
    return true;
}

// A worker's release put this acquisition's lease on the shelf. Still there: it is the spare
// (or a waiter's, taken back); taken already: it is lent, and its taker's acquisition follows.
void LockQueue::takeShelvedBack(std::unique_ptr<Acquisition> released)
{
    const qint64 lease = released->leaseId;
    std::unique_ptr<EtcdKeepAlive> keepAlive = std::move(released->keepAlive);
    bool onShelf = false;
    {
        std::lock_guard lock(shelf.mutex);
        onShelf = shelf.lease == lease;
        if (onShelf && (!leaseWaiters.isEmpty() || !keepAlive || closing)) {
            shelf.lease = 0; // this thread gives it to a waiter, or drops it
            shelf.state.reset();
            onShelf = false;
        } else if (!onShelf) {
            Lent &l = lent[lease];
            l.keepAlive = std::move(keepAlive);
            l.failed = !l.keepAlive;
            return publishSpareLocked();
        }
    }
    if (!onShelf) {
        if (keepAlive)
            return adoptLease(lease, std::move(keepAlive));
        revokeLeaseQuietly(q->client(), lease);
        return topUpLeases();
    }
    if (haveSpare()) { // granted while the lease was on its way here: one spare is enough
        dropKeepAlive(spare->keepAlive);
        revokeLeaseQuietly(q->client(), spare->id);
    }
    spare = Lease {lease, std::move(keepAlive), true};
}

// Publishes the spare on the shelf when the shelf is open and empty (a worker's released lease
// may be on it, on its way to this thread).
void LockQueue::publishSpare()
{
    std::lock_guard lock(shelf.mutex);
    publishSpareLocked();
}

void LockQueue::publishSpareLocked()
{
    if (!spare || spare->published || !spare->keepAlive || !shelf.open || shelf.lease != 0)
        return;
    shelf.lease = spare->id;
    shelf.state = leaseStateOf(*spare->keepAlive);
    spare->published = true;
}

bool LockQueue::haveSpare()
{
    if (!spare)
        return false;
    std::lock_guard lock(shelf.mutex);
    if (!spare->published || shelf.lease == spare->id)
        return true;
    lent[spare->id].keepAlive
        = std::move(spare->keepAlive); // a worker took it: its acquisition follows
    spare.reset();
    return false;
}

bool LockQueue::claimSpare()
{
    if (!haveSpare())
        return false;
    std::lock_guard lock(shelf.mutex);
    if (std::exchange(spare->published, false)) {
        shelf.lease = 0;
        shelf.state.reset();
    }
    return true;
}

void LockQueue::openShelf(bool open)
{
    std::lock_guard lock(shelf.mutex);
    shelf.open = open && !closing;
    if (shelf.open)
        return publishSpareLocked();
    shelf.lease = 0;
    shelf.state.reset();
    if (spare)
        spare->published = false;
}
