// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "clientcalls_p.h"
#include "etcdqt_internal_p.h"
#include "lockqueue_p.h"
#include "recipepaths_p.h"

#include <EtcdQt/etcdclient.h>
#include <EtcdQt/etcdmutex.h>
#include <EtcdQt/etcdreplies.h>

using namespace Etcd::Internal;
using namespace std::chrono;

// One side of a LockQueue, with etcd's concurrency.Mutex layout.
class EtcdMutexPrivate
{
public:
    EtcdMutexPrivate(EtcdMutex *q, const QByteArray &path, const EtcdMutexOptions &options)
        : path(path), sync(std::make_shared<MutexSync>()),
          queue(q, layoutFor(path), options.ttl, options.interruptOnLockLoss, {sync, nullptr})
    {
        queue.onAcquired = [q](LockLayout::Side) { Q_EMIT q->acquired(); };
        queue.onLost = [q](LockLayout::Side, const EtcdStatus &why) { Q_EMIT q->lockLost(why); };
    }

    static LockLayout layoutFor(const QByteArray &path)
    {
        LockLayout l;
        l.path = path;
        l.prefix = path + '/'; // as Go's concurrency.NewMutex builds it, even after a '/'
        l.metric = {EtcdMetrics::Lock::Mutex, std::nullopt};
        l.entryKey
            = [path](LockLayout::Side, qint64 lease) { return RecipePaths::mutexKey(path, lease); };
        return l;
    }

    QByteArray path;
    std::shared_ptr<MutexSync> sync;
    LockQueue queue;
};

/*!
    \class EtcdMutex
    \inmodule EtcdQt
    \brief The lock alone is advisory: writes that must not interleave go through
    guardedTxn() or commitGuarded(), which commit only while the hold lasts.

    A distributed, reentrant mutex on etcd. A holder that was paused or partitioned may
    still run after etcd gave the lock to another; only a write guarded by its
    fencingToken() is refused then.

    The keys are etcd's own \c concurrency.Mutex layout: an acquisition creates
    \c{<path>/<lease id in lowercase hex>} with an empty value on a lease of its own, and the
    lock belongs to the key with the lowest create revision under \c{<path>/}. \c{etcdctl
    lock}, Go's \c concurrency.Mutex and etcd's Lock RPC on the same path contend with this
    class, first come first served.

    An acquisition is one transaction: it creates the key and reads the queue. When keys
    created earlier exist, one watch on the path (per mutex, live before the reads it
    completes) strikes them off as etcd deletes them, and the lock is taken the moment the
    last one goes, without another read and without etcd's 100 ms catch-up delay. Each hold
    has a lease of its own while it lives. A lease whose key a release deleted serves the
    next acquisition, as Go's session lease does (a lost one is never reused; a new one is
    granted ahead of time when none is coming back), so lock() costs one RPC and unlock()
    one delete, and the key's name stays the same: etcd keeps every name used under a
    prefix until compaction, and a name per acquisition would slow every read of the queue.

    \section1 Threads
    The blocking forms lock(), tryLock(), unlock() and isLocked() are for worker threads,
    and refuse with a warning when called in this object's thread. They send their
    transactions from the calling thread and wait for etcd's answer there: a free lock costs
    lock() one transaction on a lease granted ahead, and unlock() one delete. Whatever else
    an acquisition needs (a lease when none is ready, waiting behind another holder, the
    watch) runs in this object's thread, whose event loop must run. There, acquire() starts
    an acquisition and acquired() follows; release() gives the hold back. Holds are per
    thread and reentrant: a thread that holds the lock takes it again at once, and
    holdCount() counts how often. Another thread using the same object queues in etcd like
    another process would.

    \section1 Losing the lock
    A hold's lease is never healed: etcd deletes the key when the lease runs out (a holder
    unheard for a TTL, a revoke) and may already have handed the lock on. Loss is
    cooperative: lockLost() is emitted once, connectionState moves to Lost, the reason is kept
    in errors(), and the matching unlock() (one per nested lock()) returns false. The holding
    thread keeps running unless EtcdMutexOptions::interruptOnLockLoss is set, which requests
    the interruption of its QThread. A waiter whose lease dies queues again, at the tail,
    with a fresh lease.
*/

/*! \fn void EtcdMutex::acquired()
    Emitted in this object's thread when an acquire() succeeded (also for a nested one).
*/
/*! \fn void EtcdMutex::lockLost(const EtcdStatus &reason)
    Emitted once per hold that was lost for \a reason before it was released.
*/

/*!
    Constructs a mutex on \a path for \a client with \a options. No I/O happens until the
    first acquisition. The object is a child of \a parent.
*/
EtcdMutex::EtcdMutex(
    EtcdClient *client, const QByteArray &path, const EtcdMutexOptions &options, QObject *parent)
    : EtcdRecipe(
        client, QStringLiteral("DistributedMutex[%1]").arg(QString::fromUtf8(path)), parent),
      d_ptr(new EtcdMutexPrivate(this, path, options))
{ }

/*!
    Releases every hold and ends every wait (blocked lock() calls return false), revoking
    the leases without waiting for etcd's answers.
*/
EtcdMutex::~EtcdMutex() = default;

/*! \property EtcdMutex::path
    The lock's path; its keys live under \c{<path>/}. */
QByteArray EtcdMutex::path() const
{
    return d_func()->path;
}

/*! The TTL of each acquisition's lease. */
seconds EtcdMutex::ttl() const
{
    return d_func()->queue.ttl;
}

/*! Returns whether a lost hold requests the interruption of the holding thread. */
bool EtcdMutex::interruptOnLockLoss() const
{
    return d_func()->queue.interruptOnLoss;
}

namespace {
bool unlockFromWorker(EtcdMutexPrivate *d)
{
    quint64 id = 0;
    HoldBook::Lease hold;
    const auto verdict = d->sync->release(std::this_thread::get_id(), &id, &hold);
    return d->queue.settleRelease(
        verdict, id, LockQueue::Caller::Worker, "EtcdMutex::unlock()", hold);
}

bool lockFromWorker(EtcdMutexPrivate *d, std::optional<milliseconds> timeout)
{
    if (d->sync->reenter(std::this_thread::get_id()))
        return true;
    return d->queue.lockBlocking(LockLayout::Exclusive, timeout);
}
} // namespace

/*!
    For worker threads: blocks until this thread holds the lock, however long that takes.
    Returns true once held (at once when this thread holds it already), false when the mutex
    was closed or destroyed meanwhile, on bad input, and in this object's thread (refused).
*/
bool EtcdMutex::lock()
{
    if (refuseOwnThread(this, "EtcdMutex::lock()"))
        return false;
    return lockFromWorker(d_func(), std::nullopt);
}

/*!
    For worker threads: like lock(), but gives up after \a timeout and returns false. The
    first attempt is always answered, so tryLock(0ms) takes a free lock. When it gives up,
    the waiting key is deleted (its lease revoked) before it returns: nothing is left behind.
*/
bool EtcdMutex::tryLock(milliseconds timeout)
{
    if (refuseOwnThread(this, "EtcdMutex::tryLock()"))
        return false;
    return lockFromWorker(d_func(), std::max(timeout, milliseconds(0)));
}

/*!
    For worker threads: releases one hold of this thread. The last one deletes the lock key
    and returns once etcd answered. Returns true when the hold was this thread's until now;
    false when it had been lost (lockLost()) or released by close(), when this thread holds
    nothing (with a warning), and in this object's thread (refused).
*/
bool EtcdMutex::unlock()
{
    if (refuseOwnThread(this, "EtcdMutex::unlock()"))
        return false;
    return unlockFromWorker(d_func());
}

/*!
    For worker threads: returns whether anyone (any process) holds or waits for the lock now, by one
    count-only read of \c{<path>/}. Advisory: the answer may be stale when it arrives. False
    when etcd did not answer within a TTL, and in this object's thread (refused).
*/
bool EtcdMutex::isLocked() const
{
    if (refuseOwnThread(this, "EtcdMutex::isLocked()"))
        return false;
    const EtcdMutexPrivate *d = d_func();
    return d->queue.countOnly(d->queue.layout.prefix, [](qint64 n) { return n > 0; });
}

/*! How many times the calling thread holds the lock now (0 after a loss). Any thread. */
int EtcdMutex::holdCount() const
{
    return d_func()->sync->holdCount(std::this_thread::get_id());
}

/*! Returns whether the calling thread holds the lock, as far as etcd has told. Any thread. */
bool EtcdMutex::isHeldByCurrentThread() const
{
    return holdCount() > 0;
}

/*!
    The calling thread's proof of its hold: the lock key, its lease and its create revision.
    Invalid when the thread holds nothing. Any thread.
*/
EtcdFencingToken EtcdMutex::fencingToken() const
{
    return d_func()->sync->token(std::this_thread::get_id());
}

/*!
    The time the calling thread's hold may still be counted on: until its lease's deadline
    (when the renewal etcd last answered was sent, plus the TTL, less the client's safety
    margin). Zero when this thread holds nothing or the hold is lost. Any thread: check it
    before a side effect that no fencing token can guard.
*/
milliseconds EtcdMutex::remainingValidity() const
{
    return d_func()->sync->remainingValidity(fencingToken());
}

/*!
    In this object's thread: sends \a txn guarded by fencingToken(), so it commits
    (succeeded() is true) only while this thread's hold still owns the lock key.
*/
EtcdTxnReply *EtcdMutex::guardedTxn(const EtcdTxn &txn)
{
    return txnOn(client(), fencingToken().guard(txn));
}

/*!
    For worker threads: sends \a txn guarded by the calling thread's fencing token and waits
    at most \a timeout for etcd's answer. Returns true when it committed. Otherwise \a status
    (when given) says why: the hold is over (FailedPrecondition), etcd refused or could not be
    reached, or no answer came in time (DeadlineExceeded; the write may still commit, but only
    while the hold lasts). Refused, returning false with WrongThread, in this object's thread.
*/
bool EtcdMutex::commitGuarded(const EtcdTxn &txn, milliseconds timeout, EtcdStatus *status)
{
    if (refuseOwnThread(this, "EtcdMutex::commitGuarded()", status))
        return false;
    return d_func()->queue.commitGuarded(fencingToken(), txn, timeout, status);
}

/*!
    In this object's thread: starts acquiring the lock for this thread; acquired() follows
    once it is held. When this thread holds it already, the hold is counted again and
    acquired() follows on the next loop turn. Returns false, with a warning or the reason in
    errors(), when called from another thread, while an acquire() is still in flight, after
    close(), or on bad input. release() abandons an acquire() still in flight.
*/
bool EtcdMutex::acquire()
{
    Q_D(EtcdMutex);
    if (QThread::currentThread() != thread()) {
        qCWarning(lcEtcdLock, "EtcdMutex::acquire() called outside the mutex's thread; refused");
        return false;
    }
    if (d->sync->reenter(std::this_thread::get_id())) {
        QMetaObject::invokeMethod(this, &EtcdMutex::acquired, Qt::QueuedConnection);
        return true;
    }
    return d->queue.acquireInOwnerThread(LockLayout::Exclusive);
}

/*!
    In this object's thread: releases one hold taken with acquire(); the last one deletes the
    lock key without waiting for etcd (a loss found meanwhile is reported by lockLost()).
    Returns true when the hold was held until now; false when it had been lost or closed, or
    when nothing was held (an acquire() still in flight is abandoned).
*/
bool EtcdMutex::release()
{
    Q_D(EtcdMutex);
    if (QThread::currentThread() != thread()) {
        qCWarning(lcEtcdLock, "EtcdMutex::release() called outside the mutex's thread; refused");
        return false;
    }
    quint64 id = 0;
    const auto verdict = d->sync->release(std::this_thread::get_id(), &id);
    return d->queue.settleRelease(verdict, id, LockQueue::Caller::Owner, "EtcdMutex::release()");
}

/*!
    Releases every hold of every thread (their unlock() calls then return false), ends every
    wait (blocked lock() calls return false), and revokes every lease, which deletes the keys.
    closed() follows once etcd answered. Never blocks.
*/
void EtcdMutex::close()
{
    Q_D(EtcdMutex);
    if (isClosed())
        return;
    markClosed();
    d->queue.closeAll();
}

/*!
    \class EtcdMutexOptions
    \inmodule EtcdQt
    \brief Options of an EtcdMutex.
*/

/*!
    \variable EtcdMutexOptions::ttl
    \brief the TTL of each acquisition's lease: how long a crashed holder blocks everyone
    else, and how long a holder may go unheard (paused, partitioned) before etcd gives its
    lock away. 10 s, as etcdctl lock.
*/

/*!
    \variable EtcdMutexOptions::interruptOnLockLoss
    \brief whether the holder's thread gets requestInterruption() when the lock is lost.
*/
