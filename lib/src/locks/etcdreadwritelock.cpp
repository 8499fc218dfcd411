// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "clientcalls_p.h"
#include "etcdqt_internal_p.h"
#include "handover_p.h"
#include "lockqueue_p.h"
#include "recipepaths_p.h"

#include <EtcdQt/etcdclient.h>
#include <EtcdQt/etcdreadwritelock.h>
#include <EtcdQt/etcdreplies.h>

#include <utility>

using namespace Etcd::Internal;
using namespace std::chrono;

namespace {
EtcdReadWriteLock::Mode modeOf(LockLayout::Side side)
{
    return side == LockLayout::Shared ? EtcdReadWriteLock::Mode::Read
                                      : EtcdReadWriteLock::Mode::Write;
}
LockLayout::Side sideOf(EtcdReadWriteLock::Mode mode)
{
    return mode == EtcdReadWriteLock::Mode::Read ? LockLayout::Shared : LockLayout::Exclusive;
}
QString clientIdFor(const EtcdReadWriteLockOptions &o)
{
    return o.clientId.isEmpty() ? QStringLiteral("DistributedReadWriteLock:")
            + QString::fromLatin1(RecipePaths::randomId(RecipePaths::kTokenLength))
                                : o.clientId;
}
} // namespace

// Two sides of one LockQueue: writers are exclusive, readers wait only for writers queued
// before them, so a writer is never starved by readers that come after it.
class EtcdReadWriteLockPrivate
{
public:
    EtcdReadWriteLockPrivate(EtcdReadWriteLock *q, const QByteArray &path,
        const EtcdReadWriteLockOptions &o, const QString &id)
        : path(path), clientId(id), writes(std::make_shared<MutexSync>()),
          reads(std::make_shared<MutexSync>()),
          queue(q, layoutFor(path, id), o.ttl, o.interruptOnLockLoss, {writes, reads})
    {
        queue.onAcquired = [q](LockLayout::Side s) { Q_EMIT q->acquired(modeOf(s)); };
        queue.onLost = [q](LockLayout::Side s, const EtcdStatus &why) {
            Q_EMIT q->lockLost(modeOf(s), why);
        };
    }

    static LockLayout layoutFor(const QByteArray &path, const QString &clientId)
    {
        LockLayout l;
        l.path = path;
        l.prefix = path + '/'; // etcd-recipes concatenates: "<path>/read-…"
        l.value = clientId.toUtf8();
        l.noun = QT_TRANSLATE_NOOP("EtcdRecipe", "read-write lock");
        l.metric = {EtcdMetrics::Lock::Write, EtcdMetrics::Lock::Read};
        const QByteArray writePrefix = l.prefix + "write-";
        const QByteArray readPrefix = l.prefix + "read-";
        const QByteArray id = clientId.toUtf8() + ':';
        l.entryKey = [=](LockLayout::Side side, qint64 lease) {
            return (side == LockLayout::Shared ? readPrefix : writePrefix) + id
                + RecipePaths::leaseTag(lease);
        };
        l.blocksShared = [writePrefix](const QByteArray &k) { return k.startsWith(writePrefix); };
        return l;
    }

    // From a worker: whether any process has an entry of this kind ("read-" or "write-").
    bool anyEntry(const char *kind) const
    {
        return queue.countOnly(queue.layout.prefix + kind, [](qint64 n) { return n > 0; });
    }

    MutexSync &sync(LockLayout::Side s) { return s == LockLayout::Shared ? *reads : *writes; }

    // A thread that reads may not start writing: two readers upgrading would wait for each
    // other forever. Writing and then reading is a downgrade, and admitted.
    bool refusesUpgrade(LockLayout::Side side)
    {
        if (side != LockLayout::Exclusive || reads->holdCount(std::this_thread::get_id()) == 0
            || writes->holdCount(std::this_thread::get_id()) > 0)
            return false;
        queue.recordErrorOf(EtcdStatus(Etcd::ErrorCode::FailedPrecondition,
            EtcdReadWriteLock::tr("a read hold cannot be upgraded to a write hold")));
        return true;
    }

    bool lockFromWorker(LockLayout::Side side, std::optional<milliseconds> timeout)
    {
        if (sync(side).reenter(std::this_thread::get_id()))
            return true;
        if (refusesUpgrade(side))
            return false;
        return queue.lockBlocking(side, timeout);
    }

    // The calling thread's write hold when it has one, else its read hold (its token is
    // invalid when it holds neither).
    std::pair<const MutexSync *, EtcdFencingToken> ownHold() const
    {
        const auto self = std::this_thread::get_id();
        if (const EtcdFencingToken write = writes->token(self); write.isValid())
            return {writes.get(), write};
        return {reads.get(), reads->token(self)};
    }

    // Write holds go first: after a downgrade (write, then read) the first unlock() ends the
    // writing and keeps the reading.
    HoldBook::Release releaseOne(quint64 *id, HoldBook::Lease *hold)
    {
        const auto self = std::this_thread::get_id();
        const HoldBook::Release r = writes->release(self, id, hold);
        return r == HoldBook::Release::NotHeld ? reads->release(self, id, hold) : r;
    }

    QByteArray path;
    QString clientId;
    std::shared_ptr<MutexSync> writes;
    std::shared_ptr<MutexSync> reads;
    LockQueue queue;
};

/*!
    \class EtcdReadWriteLock
    \inmodule EtcdQt
    \brief The lock alone is advisory: writes that must not interleave go through
    guardedTxn() or commitGuarded(), which commit only while the hold lasts.

    A fair, distributed read-write lock on etcd: any number of readers, or one writer. Every
    acquisition queues by create revision; a writer waits for every entry before it, a reader
    only for the writers before it, so readers arriving after a writer wait behind it and a
    writer is never starved. A thread holding the write lock may take the read lock too
    (a downgrade: unlock() then ends the writing first); a thread holding only the read lock
    is refused the write lock (an upgrade would deadlock two upgrading readers).

    Keys are etcd-recipes' \c DistributedReadWriteLock layout:
    \c{<path>/read-<clientId>:<7 random>} or \c{<path>/write-<clientId>:<7 random>}, with the
    client id as value, on a lease of the hold that is never healed (reused after a release, as
    for EtcdMutex, so the 7 characters name the lease); Kotlin and C++
    processes share one lock. Not compatible with EtcdMutex on the same path.

    Threads, blocking forms, loss and close() behave as for EtcdMutex, per side: holds are
    per thread and reentrant, lockLost() names the side that was lost, and the matching
    unlock() returns false.
*/

/*! \fn void EtcdReadWriteLock::acquired(EtcdReadWriteLock::Mode mode)
    Emitted in this object's thread when an acquire() of \a mode succeeded.
*/
/*! \fn void EtcdReadWriteLock::lockLost(EtcdReadWriteLock::Mode mode, const EtcdStatus &reason)
    Emitted once per hold of \a mode that was lost for \a reason before it was released.
*/

/*!
    Constructs a read-write lock on \a path for \a client with \a options. No I/O happens
    until the first acquisition. The object is a child of \a parent.
*/
EtcdReadWriteLock::EtcdReadWriteLock(EtcdClient *client, const QByteArray &path,
    const EtcdReadWriteLockOptions &options, QObject *parent)
    : EtcdRecipe(client,
        QStringLiteral("DistributedReadWriteLock[%1]").arg(QString::fromUtf8(path)), parent),
      d_ptr(new EtcdReadWriteLockPrivate(this, path, options, clientIdFor(options)))
{ }

/*!
    Releases every hold and ends every wait (blocked calls return false), revoking the
    leases without waiting for etcd's answers.
*/
EtcdReadWriteLock::~EtcdReadWriteLock() = default;

/*! \property EtcdReadWriteLock::path
    The lock's path; its keys live under \c{<path>/}. */
QByteArray EtcdReadWriteLock::path() const
{
    return d_func()->path;
}

/*! \property EtcdReadWriteLock::clientId
    The id written into this instance's entries. */
QString EtcdReadWriteLock::clientId() const
{
    return d_func()->clientId;
}

/*! The TTL of each acquisition's lease. */
seconds EtcdReadWriteLock::ttl() const
{
    return d_func()->queue.ttl;
}

/*!
    For worker threads: blocks until this thread holds the read lock. Returns false when the
    lock was closed or destroyed meanwhile, on bad input, and in this object's thread.
*/
bool EtcdReadWriteLock::lockForRead()
{
    if (refuseOwnThread(this, "EtcdReadWriteLock::lockForRead()"))
        return false;
    return d_func()->lockFromWorker(LockLayout::Shared, std::nullopt);
}

/*!
    For worker threads: blocks until this thread holds the write lock. Returns false as
    lockForRead() does, and when this thread holds only the read lock (an upgrade).
*/
bool EtcdReadWriteLock::lockForWrite()
{
    if (refuseOwnThread(this, "EtcdReadWriteLock::lockForWrite()"))
        return false;
    return d_func()->lockFromWorker(LockLayout::Exclusive, std::nullopt);
}

/*!
    For worker threads: like lockForRead(), but gives up after \a timeout, leaving no key
    behind, and returns \c false.
*/
bool EtcdReadWriteLock::tryLockForRead(milliseconds timeout)
{
    if (refuseOwnThread(this, "EtcdReadWriteLock::tryLockForRead()"))
        return false;
    return d_func()->lockFromWorker(LockLayout::Shared, std::max(timeout, milliseconds(0)));
}

/*!
    For worker threads: like lockForWrite(), but gives up after \a timeout, leaving no key
    behind, and returns \c false.
*/
bool EtcdReadWriteLock::tryLockForWrite(milliseconds timeout)
{
    if (refuseOwnThread(this, "EtcdReadWriteLock::tryLockForWrite()"))
        return false;
    return d_func()->lockFromWorker(LockLayout::Exclusive, std::max(timeout, milliseconds(0)));
}

/*!
    For worker threads: releases one hold of this thread, a write hold if it has one, else a
    read hold; the last one of a side deletes its key and returns once etcd answered. Returns
    true when the hold was this thread's until now; false when it had been lost or released
    by close(), or when this thread holds nothing.
*/
bool EtcdReadWriteLock::unlock()
{
    Q_D(EtcdReadWriteLock);
    if (refuseOwnThread(this, "EtcdReadWriteLock::unlock()"))
        return false;
    quint64 id = 0;
    HoldBook::Lease hold;
    const auto verdict = d->releaseOne(&id, &hold);
    return d->queue.settleRelease(
        verdict, id, LockQueue::Caller::Worker, "EtcdReadWriteLock::unlock()", hold);
}

/*!
    For worker threads: returns whether any process holds or waits for the read lock now, by one
    count-only read. Advisory.
*/
bool EtcdReadWriteLock::isReadLocked() const
{
    if (refuseOwnThread(this, "EtcdReadWriteLock::isReadLocked()"))
        return false;
    return d_func()->anyEntry("read-");
}

/*!
    For worker threads: returns whether any process holds or waits for the write lock now, by one
    count-only read. Advisory.
*/
bool EtcdReadWriteLock::isWriteLocked() const
{
    if (refuseOwnThread(this, "EtcdReadWriteLock::isWriteLocked()"))
        return false;
    return d_func()->anyEntry("write-");
}

/*!
    For worker threads: sends \a txn guarded by the calling thread's fencingToken() and
    waits at most \a timeout for etcd's answer; returns \c true if it committed. See
    EtcdMutex::commitGuarded(). When \a status is not null, it receives the outcome.
*/
bool EtcdReadWriteLock::commitGuarded(const EtcdTxn &txn, milliseconds timeout, EtcdStatus *status)
{
    if (refuseOwnThread(this, "EtcdReadWriteLock::commitGuarded()", status))
        return false;
    return d_func()->queue.commitGuarded(fencingToken(), txn, timeout, status);
}

/*! How many times the calling thread holds the read lock now. Any thread. */
int EtcdReadWriteLock::readHoldCount() const
{
    return d_func()->reads->holdCount(std::this_thread::get_id());
}

/*! How many times the calling thread holds the write lock now. Any thread. */
int EtcdReadWriteLock::writeHoldCount() const
{
    return d_func()->writes->holdCount(std::this_thread::get_id());
}

/*!
    The calling thread's proof of its hold: of its write hold when it has one, else of its
    read hold; invalid when it holds nothing. Any thread.
*/
EtcdFencingToken EtcdReadWriteLock::fencingToken() const
{
    return d_func()->ownHold().second;
}

/*! See EtcdMutex::remainingValidity(): the calling thread's write or read hold. Any thread. */
milliseconds EtcdReadWriteLock::remainingValidity() const
{
    const auto [book, token] = d_func()->ownHold();
    return book->remainingValidity(token);
}

/*!
    In this object's thread: sends \a txn guarded by fencingToken(), so it commits only
    while this thread's hold still owns its key.
*/
EtcdTxnReply *EtcdReadWriteLock::guardedTxn(const EtcdTxn &txn)
{
    return txnOn(client(), fencingToken().guard(txn));
}

/*!
    In this object's thread: starts acquiring the lock in \a mode for this thread;
    acquired() follows once it is held (on the next loop turn for a nested hold). Returns
    false when called from another thread, while an acquire() is in flight, for an upgrade,
    after close(), or on bad input.
*/
bool EtcdReadWriteLock::acquire(EtcdReadWriteLock::Mode mode)
{
    Q_D(EtcdReadWriteLock);
    if (QThread::currentThread() != thread()) {
        qCWarning(lcEtcdLock, "EtcdReadWriteLock::acquire() outside the lock's thread; refused");
        return false;
    }
    const LockLayout::Side side = sideOf(mode);
    if (d->sync(side).reenter(std::this_thread::get_id())) {
        postQueued(this, [this, mode] { Q_EMIT acquired(mode); });
        return true;
    }
    if (d->refusesUpgrade(side))
        return false;
    return d->queue.acquireInOwnerThread(side);
}

/*!
    In this object's thread: releases one hold taken with acquire(), a write hold first, and
    deletes the key of the last one without waiting. Returns false when the hold had been
    lost or closed, or when nothing was held (an acquire() in flight is abandoned).
*/
bool EtcdReadWriteLock::release()
{
    Q_D(EtcdReadWriteLock);
    if (QThread::currentThread() != thread()) {
        qCWarning(lcEtcdLock, "EtcdReadWriteLock::release() outside the lock's thread; refused");
        return false;
    }
    quint64 id = 0;
    const auto verdict = d->releaseOne(&id, nullptr);
    return d->queue.settleRelease(
        verdict, id, LockQueue::Caller::Owner, "EtcdReadWriteLock::release()");
}

/*!
    Releases every hold of every thread (their unlock() calls then return false), ends every
    wait, and revokes every lease, which deletes the keys. closed() follows once etcd
    answered. Never blocks.
*/
void EtcdReadWriteLock::close()
{
    if (isClosed())
        return;
    markClosed();
    d_func()->queue.closeAll();
}

/*!
    \enum EtcdReadWriteLock::Mode
    \value Read a shared hold: readers hold together while no writer holds
    \value Write an exclusive hold
*/

/*!
    \class EtcdReadWriteLockOptions
    \inmodule EtcdQt
    \brief Options of an EtcdReadWriteLock.
*/

/*!
    \variable EtcdReadWriteLockOptions::ttl
    \brief the TTL of each acquisition's lease: how long a crashed holder blocks the others,
    and how long a holder may go unheard before etcd gives its hold away.
*/

/*!
    \variable EtcdReadWriteLockOptions::clientId
    \brief this client's id in the lock's keys; empty picks
    "DistributedReadWriteLock:<7 random characters>".
*/

/*!
    \variable EtcdReadWriteLockOptions::interruptOnLockLoss
    \brief whether the holder's thread gets requestInterruption() when its hold is lost.
*/
