// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "clientcalls_p.h"
#include "etcdqt_internal_p.h"
#include "handover_p.h"
#include "lockqueue_p.h"
#include "recipepaths_p.h"

#include <EtcdQt/etcdclient.h>
#include <EtcdQt/etcdcodec.h>
#include <EtcdQt/etcdreplies.h>
#include <EtcdQt/etcdsemaphore.h>

using namespace Etcd::Internal;
using namespace std::chrono;

namespace {
QString clientIdFor(const EtcdSemaphoreOptions &o)
{
    return o.clientId.isEmpty() ? QStringLiteral("DistributedSemaphore:")
            + QString::fromLatin1(RecipePaths::randomId(RecipePaths::kTokenLength))
                                : o.clientId;
}
} // namespace

// A LockQueue whose entries hold while fewer than `permits` entries are ahead of them.
class EtcdSemaphorePrivate
{
public:
    EtcdSemaphorePrivate(
        EtcdSemaphore *q, const QByteArray &path, int permits, const EtcdSemaphoreOptions &o)
        : path(path), permitsKey(path + "/permits"), permits(permits), clientId(clientIdFor(o)),
          sync(std::make_shared<PermitSync>()), queue(q, layoutFor(path, clientId, permits), o.ttl,
                                                    o.interruptOnPermitLoss, {sync, nullptr})
    {
        queue.onAcquired = [q](LockLayout::Side) { Q_EMIT q->acquired(); };
        queue.onLost = [q](LockLayout::Side, const EtcdStatus &why) { Q_EMIT q->permitLost(why); };
        queue.prepare = [this, q](std::function<void(const EtcdStatus &)> done) {
            checkPermits(q, std::move(done));
        };
    }

    static LockLayout layoutFor(const QByteArray &path, const QString &clientId, int permits)
    {
        LockLayout l;
        l.path = path;
        l.prefix = path + "/holders/";
        l.value = clientId.toUtf8();
        l.allowance = permits;
        l.noun = QT_TRANSLATE_NOOP("EtcdRecipe", "semaphore");
        l.metric = {EtcdMetrics::Lock::Permit, std::nullopt};
        l.entryKey = [prefix = l.prefix + clientId.toUtf8() + ':'](LockLayout::Side, qint64 lease) {
            return prefix + RecipePaths::leaseTag(lease);
        };
        return l;
    }

    // The first writer fixes the count; an instance made with another count is refused,
    // since two counts on one path would let more holders in than either allows.
    void checkPermits(EtcdSemaphore *q, std::function<void(const EtcdStatus &)> done)
    {
        EtcdTxn txn;
        txn.compares = {EtcdCompare::version(permitsKey, Etcd::CompareResult::Equal, 0)};
        txn.success = {EtcdTxnOp::put(permitsKey, Etcd::encodeInt32(permits))};
        txn.failure = {EtcdTxnOp::get(permitsKey)};
        EtcdTxnReply *reply = txnOn(q->client(), txn);
        QObject::connect(reply, &EtcdReply::finished, q, [this, reply, done](const EtcdStatus &s) {
            if (!s.isOk() || reply->succeeded())
                return done(s);
            const QList<EtcdTxnOpResult> results = reply->results();
            const std::optional<qint32> stored
                = results.isEmpty() || results.first().keyValues.isEmpty()
                ? std::nullopt
                : Etcd::decodeInt32(results.first().keyValues.first().value);
            if (stored == permits)
                return done({});
            done(EtcdStatus(Etcd::ErrorCode::FailedPrecondition,
                stored ? EtcdSemaphore::tr("semaphore %1 has %2 permits in etcd, not %3")
                             .arg(QString::fromUtf8(path))
                             .arg(*stored)
                             .arg(permits)
                       : EtcdSemaphore::tr("semaphore %1: %2 does not hold a 4-byte count")
                             .arg(QString::fromUtf8(path), QString::fromUtf8(permitsKey))));
        });
    }

    QByteArray path;
    QByteArray permitsKey;
    int permits;
    QString clientId;
    std::shared_ptr<PermitSync> sync;
    LockQueue queue;
};

/*!
    \class EtcdSemaphore
    \inmodule EtcdQt
    \brief A permit alone is advisory: writes that must respect the capacity go through
    guardedTxn() or commitGuarded(), which commit only while the permit lasts.

    A distributed counting semaphore on etcd: at most permits() holders at once, granted in
    the order they asked (by create revision). Each acquisition takes one permit; permits
    are not reentrant and belong to this instance, not to a thread: release() gives back the
    most recent one, from any thread.

    Keys are etcd-recipes' \c DistributedSemaphore layout: \c{<path>/permits} holds the count
    as a 4-byte big-endian integer, written by the first instance that uses the path (an
    instance made with another count fails its acquisitions with FailedPrecondition naming
    both), and each holder or waiter is \c{<path>/holders/<clientId>:<7 random>}, with the
    client id as value, on a lease of its own that is never healed (reused after a release, as
    for EtcdMutex, so the 7 characters name the lease). An entry holds a permit
    while fewer than permits() entries were created before it; one watch on the holders
    admits it the moment enough of them are deleted.

    A permit whose lease dies is lost cooperatively, as a lock hold is (see EtcdMutex):
    permitLost() once, connection state Lost, the matching release() returns false.
*/

/*! \fn void EtcdSemaphore::acquired()
    Emitted in this object's thread when an acquire() got its permit.
*/
/*! \fn void EtcdSemaphore::permitLost(const EtcdStatus &reason)
    Emitted once per permit that was lost for \a reason before it was released.
*/

/*!
    Constructs a semaphore on \a path with \a permits permits for \a client with \a options.
    No I/O happens until the first acquisition. The object is a child of \a parent.
*/
EtcdSemaphore::EtcdSemaphore(EtcdClient *client, const QByteArray &path, int permits,
    const EtcdSemaphoreOptions &options, QObject *parent)
    : EtcdRecipe(
        client, QStringLiteral("DistributedSemaphore[%1]").arg(QString::fromUtf8(path)), parent),
      d_ptr(new EtcdSemaphorePrivate(this, path, permits, options))
{ }

/*! Releases every permit and ends every wait, revoking the leases without waiting. */
EtcdSemaphore::~EtcdSemaphore() = default;

/*! \property EtcdSemaphore::path
    The semaphore's path. */
QByteArray EtcdSemaphore::path() const
{
    return d_func()->path;
}

/*! \property EtcdSemaphore::permits
    How many holders the semaphore admits at once. */
int EtcdSemaphore::permits() const
{
    return d_func()->permits;
}

/*! \property EtcdSemaphore::clientId
    The id written into this instance's entries. */
QString EtcdSemaphore::clientId() const
{
    return d_func()->clientId;
}

/*! The TTL of each permit's lease. */
seconds EtcdSemaphore::ttl() const
{
    return d_func()->queue.ttl;
}

/*!
    For worker threads: blocks until this instance got one more permit. Returns false when
    the semaphore was closed or destroyed meanwhile, on bad input or a permit-count mismatch
    (see errors()), and in this object's thread (refused).
*/
bool EtcdSemaphore::waitForPermit()
{
    if (refuseOwnThread(this, "EtcdSemaphore::waitForPermit()"))
        return false;
    return d_func()->queue.lockBlocking(LockLayout::Exclusive, std::nullopt);
}

/*!
    For worker threads: like waitForPermit(), but gives up after \a timeout, leaving no key
    behind, and returns \c false. The first attempt is always answered, so tryAcquire(0ms)
    takes a free permit.
*/
bool EtcdSemaphore::tryAcquire(milliseconds timeout)
{
    if (refuseOwnThread(this, "EtcdSemaphore::tryAcquire()"))
        return false;
    return d_func()->queue.lockBlocking(LockLayout::Exclusive, std::max(timeout, milliseconds(0)));
}

/*!
    For worker threads: permits() minus the entries under \c{<path>/holders/} (holders and
    waiters of every process), never below 0, by one count-only read. Advisory. -1 when etcd
    did not answer within a TTL.
*/
int EtcdSemaphore::availablePermits() const
{
    if (refuseOwnThread(this, "EtcdSemaphore::availablePermits()"))
        return -1;
    const auto *d = d_func();
    qint64 entries = -1;
    const bool answered = d->queue.countOnly(d->queue.layout.prefix, [&entries](qint64 n) {
        entries = n;
        return true;
    });
    return answered ? int(std::max<qint64>(d->permits - entries, 0)) : -1;
}

/*!
    For worker threads: sends \a txn guarded by fencingToken() (the most recent permit) and
    waits at most \a timeout for etcd's answer; returns \c true if it committed. See
    EtcdMutex::commitGuarded(). When \a status is not null, it receives the outcome.
*/
bool EtcdSemaphore::commitGuarded(const EtcdTxn &txn, milliseconds timeout, EtcdStatus *status)
{
    if (refuseOwnThread(this, "EtcdSemaphore::commitGuarded()", status))
        return false;
    return d_func()->queue.commitGuarded(fencingToken(), txn, timeout, status);
}

/*! How many permits this instance holds now (lost ones not counted). Any thread. */
int EtcdSemaphore::heldPermits() const
{
    return d_func()->sync->liveCount();
}

/*!
    The proof of this instance's most recent live permit: its key, lease and create
    revision; invalid when it holds none. Any thread.
*/
EtcdFencingToken EtcdSemaphore::fencingToken() const
{
    return d_func()->sync->latestToken();
}

/*! See EtcdMutex::remainingValidity(): the most recent live permit's. Any thread. */
milliseconds EtcdSemaphore::remainingValidity() const
{
    return d_func()->sync->remainingValidity(fencingToken());
}

/*!
    In this object's thread: sends \a txn guarded by fencingToken(), so it commits only
    while that permit's key still exists.
*/
EtcdTxnReply *EtcdSemaphore::guardedTxn(const EtcdTxn &txn)
{
    return txnOn(client(), fencingToken().guard(txn));
}

/*!
    In this object's thread: starts acquiring one more permit; acquired() follows once it
    is held. Returns false when called from another thread, while an acquire() is in
    flight, after close(), or on bad input.
*/
bool EtcdSemaphore::acquire()
{
    if (QThread::currentThread() != thread()) {
        qCWarning(lcEtcdLock, "EtcdSemaphore::acquire() outside the semaphore's thread; refused");
        return false;
    }
    return d_func()->queue.acquireInOwnerThread(LockLayout::Exclusive);
}

/*!
    Any thread: gives back the most recent permit, deleting its key without waiting for
    etcd. Returns true when that permit was held until now; false when it had been lost or
    closed, or when none was held (an acquire() in flight is then abandoned).
*/
bool EtcdSemaphore::release()
{
    Q_D(EtcdSemaphore);
    quint64 id = 0;
    switch (d->sync->release(&id)) {
    case HoldBook::Release::Nested:
    case HoldBook::Release::Last:
        break;
    case HoldBook::Release::Dispossessed:
        return false;
    case HoldBook::Release::NotHeld:
        Etcd::Internal::runInThreadOf(this, [d] { d->queue.abandonOwnerAcquire(); });
        return false;
    }
    Etcd::Internal::runInThreadOf(this, [d, id] { d->queue.releaseHold(id); });
    return true;
}

/*!
    Releases every permit (later release() calls return false), ends every wait, and
    revokes every lease, which deletes the keys. closed() follows once etcd answered.
*/
void EtcdSemaphore::close()
{
    if (isClosed())
        return;
    markClosed();
    d_func()->queue.closeAll();
}

/*!
    \class EtcdSemaphoreOptions
    \inmodule EtcdQt
    \brief Options of an EtcdSemaphore.
*/

/*!
    \variable EtcdSemaphoreOptions::ttl
    \brief the TTL of each permit's lease: how long a crashed holder keeps its permit, and
    how long a holder may go unheard before etcd gives its permit away.
*/

/*!
    \variable EtcdSemaphoreOptions::clientId
    \brief this client's id in the holder keys; empty picks
    "DistributedSemaphore:<7 random characters>".
*/

/*!
    \variable EtcdSemaphoreOptions::interruptOnPermitLoss
    \brief whether the holder's thread gets requestInterruption() when its permit is lost.
*/
