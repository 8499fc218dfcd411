// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include <EtcdQt/etcdmetrics.h>

/*!
    \class EtcdMetrics
    \inmodule EtcdQt
    \brief The seams through which a client and its recipes report what they do: RPCs, watch
    and keep-alive recoveries, heals, lock waits and holds, leadership transitions, barrier and
    latch waits, queue operations and cache syncs.

    Install a sink with EtcdClient::setMetrics(); EtcdMetricsRegistry is the built-in one (with
    a Prometheus text exporter, EtcdPrometheusExporter). Every function has an empty default,
    so a sink overrides only what it wants. Without a sink nothing is measured: each seam costs
    one atomic load.

    The functions are called from any thread: gRPC's (RPCs, renewals), the client's engine
    thread (watch and keep-alive recoveries), the recipes' own threads, and worker threads
    inside blocking calls (EtcdCountDownLatch::await()). An implementation must be
    thread-safe and quick; it must not block or call back into the client.

    Recipe paths arrive as given to the recipe (without the client's key prefix). A sink that
    turns them into labels should bound their number; EtcdMetricsRegistry does.
*/

/*!
    \enum EtcdMetrics::Rpc
    The unary RPC a report is about, named as etcd's gRPC methods are.
    \value Range
    \value Put
    \value DeleteRange
    \value Txn
    \value Compact
    \value LeaseGrant
    \value LeaseRevoke
    \value LeaseTimeToLive
    \value LeaseLeases
    \value MemberList
    \value Status
    \value Lock
    \value Unlock
    \value Authenticate
*/

/*!
    \enum EtcdMetrics::WatchRecovery
    What happened to one watch across a Watch stream outage.
    \value Suspended The stream broke or went silent while the watch was live (once per outage).
    \value Resubscribed The watch is live again where it left off.
    \value Resynced Its history was compacted; it resumed after a fresh read.
    \value Failed etcd refused it for good.
*/

/*!
    \enum EtcdMetrics::KeepAlive
    An event of one kept-alive lease.
    \value Renewed etcd acknowledged a renewal.
    \value Suspended Renewals stopped getting through (once per outage).
    \value Resumed Renewals are acknowledged again after a suspension.
    \value Expired The lease is gone: etcd said so, or no renewal was acknowledged for a TTL.
*/

/*!
    \enum EtcdMetrics::Heal
    What a self-healing lease did after its lease was lost.
    \value Attempted A heal began: a new lease and the establish hook's write.
    \value Restored Ownership is back under a new lease.
    \value Failed Healing stopped for good (gave up, or someone else took the keys).
*/

/*!
    \enum EtcdMetrics::Lock
    The kind of exclusive ownership a lock report is about.
    \value Mutex An EtcdMutex hold.
    \value Read The shared side of an EtcdReadWriteLock.
    \value Write The exclusive side of an EtcdReadWriteLock.
    \value Permit An EtcdSemaphore permit.
*/

/*!
    \enum EtcdMetrics::Outcome
    How a wait ended.
    \value Succeeded It got what it waited for (held, lifted, opened, entered, left).
    \value TimedOut Its deadline passed first.
    \value Cancelled It was given up (closed, destroyed, abandoned by its caller).
    \value Failed An error ended it.
*/

/*!
    \enum EtcdMetrics::Transition
    A change of leadership of one of this process's candidates.
    \value Acquired A term began: this candidate leads.
    \value Relinquished A term ended, for whatever reason (every term ends once).
    \value Lost A term ended because leadership was lost (reported before its Relinquished).
*/

/*!
    \enum EtcdMetrics::Wait
    The kind of wait a recordWait() report is about.
    \value Barrier EtcdBarrier's wait for the barrier to be removed.
    \value CountedBarrier EtcdCountedBarrier's wait for every member to arrive (an
           EtcdDoubleBarrier's enter and leave are two of them, at \c{<path>/enter} and
           \c{<path>/leave}).
    \value Latch EtcdCountDownLatch's wait for the count to reach zero.
*/

/*!
    \enum EtcdMetrics::QueueOperation
    A queue operation.
    \value Enqueue An item (or a batch) was written.
    \value Dequeue An item was taken (a work queue: claimed), timed from the request.
    \value Acknowledge A work item was acknowledged.
    \value Requeue A work item went back to its queue.
    \value DeadLetter A work item went to the dead letters.
*/

/*! \typedef EtcdMetrics::Duration
    Durations are reported in nanoseconds, measured on a monotonic clock.
*/

/*! \fn EtcdMetrics::EtcdMetrics()
    Constructs a sink that records nothing until a subclass overrides its functions.
*/

/*! Destroys the sink. */
EtcdMetrics::~EtcdMetrics() = default;

/*! An RPC \a rpc ended with \a code after \a latency over \a attempts attempts. */
void EtcdMetrics::recordRpc(Rpc rpc, Duration latency, int attempts, Etcd::ErrorCode code)
{
    Q_UNUSED(rpc)
    Q_UNUSED(latency)
    Q_UNUSED(attempts)
    Q_UNUSED(code)
}

/*! A watch went through \a kind of recovery. */
void EtcdMetrics::recordWatchRecovery(WatchRecovery kind)
{
    Q_UNUSED(kind)
}

/*! A kept-alive lease reported \a event. */
void EtcdMetrics::recordKeepAlive(KeepAlive event)
{
    Q_UNUSED(event)
}

/*! A self-healing lease reported \a event. */
void EtcdMetrics::recordHeal(Heal event)
{
    Q_UNUSED(event)
}

/*! A wait for \a lock on \a path ended with \a outcome after \a wait. */
void EtcdMetrics::recordLockWait(Lock lock, QByteArrayView path, Duration wait, Outcome outcome)
{
    Q_UNUSED(lock)
    Q_UNUSED(path)
    Q_UNUSED(wait)
    Q_UNUSED(outcome)
}

/*! A hold of \a lock on \a path ended (released or lost) after \a hold. */
void EtcdMetrics::recordLockHold(Lock lock, QByteArrayView path, Duration hold)
{
    Q_UNUSED(lock)
    Q_UNUSED(path)
    Q_UNUSED(hold)
}

/*! A candidate of the election at \a path went through \a transition. */
void EtcdMetrics::recordLeadershipTransition(QByteArrayView path, Transition transition)
{
    Q_UNUSED(path)
    Q_UNUSED(transition)
}

/*! A \a wait on \a path ended with \a outcome after \a duration. */
void EtcdMetrics::recordWait(Wait wait, QByteArrayView path, Duration duration, Outcome outcome)
{
    Q_UNUSED(wait)
    Q_UNUSED(path)
    Q_UNUSED(duration)
    Q_UNUSED(outcome)
}

/*! The queue at \a path did \a operation, which took \a duration. */
void EtcdMetrics::recordQueueOperation(
    QueueOperation operation, QByteArrayView path, Duration duration)
{
    Q_UNUSED(operation)
    Q_UNUSED(path)
    Q_UNUSED(duration)
}

/*! The cache of \a path read its \a size keys in \a duration. */
void EtcdMetrics::recordCacheSync(QByteArrayView path, Duration duration, qsizetype size)
{
    Q_UNUSED(path)
    Q_UNUSED(duration)
    Q_UNUSED(size)
}
