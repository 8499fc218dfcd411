// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "casnumber_p.h"
#include "clientcalls_p.h"
#include "recipelayer_p.h"
#include "recipemetrics_p.h"
#include "recipereplies_p.h"
#include "sharedstate_p.h"

#include <EtcdQt/etcdclient.h>
#include <EtcdQt/etcdcountdownlatch.h>
#include <EtcdQt/etcdwatch.h>

#include <QtCore/qpointer.h>

using namespace Etcd::Internal;
using namespace std::chrono;

/*!
    \class EtcdCountDownLatch
    \inmodule EtcdQt
    \brief A gate that opens when a count shared through etcd reaches zero: the key
    \c{<path>} holds the remaining count as 8 bytes big-endian, with no lease.

    No peer library has one; the layout is EtcdQt's own, in the counter's format, so
    EtcdAtomicCounter and \c{etcdqt counter get <path>} read a latch's count. create() writes
    the count if no latch exists at the path (the first creator's count wins); countDown()
    takes one off by compare-and-set, as the counter changes its value, and never goes below
    zero. Nothing is leased: the latch outlives the process that created it, stays open once
    its count is zero, and lives until remove() deletes it.

    start() reads the key and then follows it with a watch that starts right after the
    revision it read, so no change is missed; count is then live, and opened() is emitted
    once, the first time this object sees the count at zero (at once for a latch already
    open). A latch deleted while this object waits reads as count -1 and the wait goes on:
    a latch created again at the path may still open it. Once opened, an object stays open.
    When the watch's history was compacted away (a long disconnection), the key is read
    again: the latch then opens late rather than never, unless it was opened and deleted
    entirely within that gap.

    Worker threads wait with await(), which starts following if needed; close() releases
    them. Nothing polls.
*/

/*! \fn void EtcdCountDownLatch::countChanged(qint64 count)
    Emitted when the count this object follows changed to \a count (-1: no latch).
*/
/*! \fn void EtcdCountDownLatch::opened()
    Emitted once per object, the first time it saw the count at zero.
*/

namespace {
// What threads in await() see; they may outlive the object by a moment.
struct LatchView
{
    bool open = false;
    bool closed = false;
};
using LatchSync = SharedState<LatchView>;

void closeView(LatchSync &sync)
{
    sync.update([](LatchView &v) { v.closed = true; });
}
} // namespace

class EtcdCountDownLatchPrivate
{
    Q_DECLARE_PUBLIC(EtcdCountDownLatch)
public:
    EtcdCountDownLatchPrivate(EtcdCountDownLatch *q, const QByteArray &path)
        : q_ptr(q), path(path), queue(q, path), metrics(metricsOf(q->client()))
    { }

    void read(bool seeding);
    void watchFrom(qint64 revision);
    void follow(const EtcdKeyValue *kv);
    void setCount(qint64 next);
    void stopFollowing(const EtcdStatus &why);
    void dropWatch();
    EtcdValueReply *refused();

    EtcdCountDownLatch *q_ptr;
    QByteArray path;
    qint64 count = -1;
    bool following = false;
    quint64 epoch = 0; // ends the answers of an earlier following
    std::unique_ptr<EtcdWatch> watch;
    CasNumber::Queue queue;
    std::shared_ptr<LatchSync> sync = std::make_shared<LatchSync>();
    const MetricsSlotPtr metrics; // read by await() on worker threads
};

void EtcdCountDownLatchPrivate::setCount(qint64 next)
{
    Q_Q(EtcdCountDownLatch);
    if (std::exchange(count, next) != next)
        Q_EMIT q->countChanged(next);
    if (next != 0)
        return;
    if (sync->update([](LatchView &v) { return std::exchange(v.open, true); }))
        return;
    Q_EMIT q->opened();
}

// The count a key-value says (null: no key). Below zero, which only a foreign writer makes,
// reads as open; bytes that are no count read as no latch.
void EtcdCountDownLatchPrivate::follow(const EtcdKeyValue *kv)
{
    Q_Q(EtcdCountDownLatch);
    if (!kv)
        return setCount(-1);
    const std::optional<qint64> value = CasNumber::decode(kv->value);
    if (!value) {
        q->recordError(EtcdStatus(Etcd::ErrorCode::FailedPrecondition,
            EtcdCountDownLatch::tr("%1 does not hold an 8-byte number")
                .arg(QString::fromUtf8(path))));
        return setCount(-1);
    }
    setCount(std::max<qint64>(*value, 0));
}

// Silenced at once, deleted once control is back in the event loop: we may be inside one of
// its signals.
void EtcdCountDownLatchPrivate::dropWatch()
{
    if (!watch)
        return;
    QObject::disconnect(watch.get(), nullptr, q_ptr, nullptr);
    watch.release()->deleteLater();
}

void EtcdCountDownLatchPrivate::stopFollowing(const EtcdStatus &why)
{
    Q_Q(EtcdCountDownLatch);
    ++epoch;
    following = false;
    dropWatch();
    q->setActive(false);
    QPointer<EtcdCountDownLatch> guard(q);
    q->reportConnectionState(EtcdRecipe::ConnectionState::Lost);
    if (guard)
        q->recordError(why);
}

// Reads the key. Seeding, the watch starts right after the read's revision; after a
// compaction (not seeding) the watch continues from there.
void EtcdCountDownLatchPrivate::read(bool seeding)
{
    Q_Q(EtcdCountDownLatch);
    EtcdRangeReply *reply = getOn(q->client(), path); // no client: stops on the next turn
    QObject::connect(
        reply, &EtcdReply::finished, q, [this, reply, seeding, e = epoch](const EtcdStatus &s) {
            if (e != epoch)
                return;
            if (!s.isOk())
                return stopFollowing(s);
            if (seeding)
                watchFrom(reply->revision() + 1);
            else
                watch->resync(reply->revision() + 1);
            const QList<EtcdKeyValue> kvs = reply->keyValues();
            follow(kvs.isEmpty() ? nullptr : &kvs.first());
        });
}

void EtcdCountDownLatchPrivate::watchFrom(qint64 revision)
{
    Q_Q(EtcdCountDownLatch);
    EtcdWatchOptions options;
    options.startRevision = revision; // anchored: nothing after the read can slip by
    WatchFollower f;
    // Every event in turn: a count that reached zero and was deleted at once still opens.
    // A receiver of our signals may close (or delete) the latch meanwhile: then stop.
    f.events = [this, q](const QList<EtcdWatchEvent> &events) {
        QPointer<EtcdCountDownLatch> alive(q);
        const quint64 e = epoch;
        for (const EtcdWatchEvent &event : events) {
            if (!alive || e != epoch)
                return;
            follow(event.type == EtcdWatchEvent::Type::Delete ? nullptr : &event.keyValue);
        }
    };
    f.reconnected = [this](qint64 compactedAt) {
        if (compactedAt == 0)
            return;
        qCDebug(lcEtcdCounter).noquote()
            << "latch" << path << "history compacted at" << compactedAt << "; re-reading";
        read(false);
    };
    f.failed = [this](const EtcdStatus &why) { stopFollowing(why); };
    watch = RecipeLayer::followWatch(
        q, path, options, EtcdWatch::ResyncMode::AwaitResync, std::move(f));
}

// A reply refused before any RPC, or null when the call may go on.
EtcdValueReply *EtcdCountDownLatchPrivate::refused()
{
    Q_Q(EtcdCountDownLatch);
    if (path.isEmpty())
        return RecipeReplies::failedValue(q,
            EtcdStatus(
                Etcd::ErrorCode::InvalidArgument, EtcdCountDownLatch::tr("empty latch path")));
    if (q->isClosed())
        return RecipeReplies::failedValue(
            q, EtcdStatus(Etcd::ErrorCode::Cancelled, EtcdCountDownLatch::tr("closed")));
    return nullptr;
}

/*!
    Constructs a latch at \a path on \a client. No I/O happens until the first call. The object is a
    child of \a parent.
*/
EtcdCountDownLatch::EtcdCountDownLatch(EtcdClient *client, const QByteArray &path, QObject *parent)
    : EtcdRecipe(client, QStringLiteral("CountDownLatch[%1]").arg(QString::fromUtf8(path)), parent),
      d_ptr(new EtcdCountDownLatchPrivate(this, path))
{ }

/*! Destroys the object, releasing threads in await() (which return false unless open). */
EtcdCountDownLatch::~EtcdCountDownLatch()
{
    closeView(*d_func()->sync);
}

/*! \property EtcdCountDownLatch::path
    The latch's key. */
QByteArray EtcdCountDownLatch::path() const
{
    return d_func()->path;
}

/*!
    \property EtcdCountDownLatch::count
    The count last seen in etcd while this object follows the latch (see start()); -1
    before, and while no latch exists at the path. This object's thread.
*/
qint64 EtcdCountDownLatch::count() const
{
    return d_func()->count;
}

/*!
    \property EtcdCountDownLatch::open
    Whether this object saw the count at zero (opened() was emitted). Any thread.
*/
bool EtcdCountDownLatch::isOpen() const
{
    return d_func()->sync->read([](const LatchView &v) { return v.open; });
}

/*!
    Creates the latch with \a count if none exists at the path. The reply's value() is the
    count in etcd after it: \a count, or the existing latch's count (the first creator's);
    its written() says whether this call created it. Fails with InvalidArgument for a count
    below one or an empty path, and Cancelled after close().
*/
EtcdValueReply *EtcdCountDownLatch::create(qint64 count)
{
    Q_D(EtcdCountDownLatch);
    if (EtcdValueReply *r = d->refused())
        return r;
    if (count <= 0)
        return RecipeReplies::failedValue(this,
            EtcdStatus(Etcd::ErrorCode::InvalidArgument, tr("a latch needs a count above zero")));
    const auto rule = [count](const CasNumber::Snapshot &s) {
        return s.exists ? CasNumber::Step::keep() : CasNumber::Step::write(count);
    };
    return d->queue.enqueue(rule, CasNumber::Queue::Start::FromCache);
}

/*!
    Takes one off the count, never below zero; the reply's value() is the count after this
    call (0 on an open latch, whose key is left as it is: written() false). Fails with
    NotFound when no latch exists at the path, InvalidArgument for an empty path, and
    Cancelled after close().
*/
EtcdValueReply *EtcdCountDownLatch::countDown()
{
    Q_D(EtcdCountDownLatch);
    if (EtcdValueReply *r = d->refused())
        return r;
    const auto rule = [path = d->path](const CasNumber::Snapshot &s) {
        if (!s.exists)
            return CasNumber::Step::fail(EtcdStatus(
                Etcd::ErrorCode::NotFound, tr("no latch at %1").arg(QString::fromUtf8(path))));
        return s.value > 0 ? CasNumber::Step::write(s.value - 1) : CasNumber::Step::keep();
    };
    return d->queue.enqueue(rule, CasNumber::Queue::Start::FromCache);
}

/*!
    For worker threads: blocks until this object sees the latch open (true), \a timeout
    passed or the object was closed (false). Starts following the latch (start()) if it does
    not yet. True at once when already open. Refused, returning false, in this object's
    thread.
*/
bool EtcdCountDownLatch::await(milliseconds timeout)
{
    if (refuseOwnThread(this, "EtcdCountDownLatch::await()"))
        return false;
    const std::shared_ptr<LatchSync> sync = d_func()->sync;
    const auto settled = [](const LatchView &v) { return v.open || v.closed; };
    const auto open = [](const LatchView &v) { return v.open; };
    if (sync->read(settled))
        return sync->read(open);
    MetricSpan waiting(d_func()->metrics); // not client(): this is a worker thread
    const QByteArray path = d_func()->path; // read before the wait: the latch may go meanwhile
    Etcd::Internal::postQueued(this, [this] { start(); });
    const bool opened = sync->waitFor(timeout, settled, open);
    waiting.end([&](EtcdMetrics &m, EtcdMetrics::Duration wait) {
        const auto outcome = opened ? EtcdMetrics::Outcome::Succeeded
            : sync->read(settled)   ? EtcdMetrics::Outcome::Cancelled
                                    : EtcdMetrics::Outcome::TimedOut;
        m.recordWait(EtcdMetrics::Wait::Latch, path, wait, outcome);
    });
    return opened;
}

/*!
    For worker threads: countDown(), waited for at most \a timeout. The count after it, or
    nullopt with \a status set: the failure, or DeadlineExceeded when no answer came in time
    (the count-down may still commit). Refused (WrongThread) in this object's thread.
*/
std::optional<qint64> EtcdCountDownLatch::countDownAndWait(milliseconds timeout, EtcdStatus *status)
{
    if (refuseOwnThread(this, "EtcdCountDownLatch::countDownAndWait()", status))
        return std::nullopt;
    return waitForReply<EtcdValueReply>(
        this, timeout, status, [this] { return countDown(); },
        [](EtcdValueReply *r) { return r->value(); });
}

/*!
    Deletes the latch at \a path through \a client. Objects following it see count -1 and
    keep waiting for a latch created again there. Without a client the reply fails with
    Etcd::ErrorCode::NotConnected.
*/
EtcdReply *EtcdCountDownLatch::remove(EtcdClient *client, const QByteArray &path)
{
    if (path.isEmpty())
        return RecipeReplies::failedValue(
            client, EtcdStatus(Etcd::ErrorCode::InvalidArgument, tr("empty latch path")));
    return removeOn(client, path);
}

/*!
    Reads the latch and follows it from then on: count becomes live, and opened() comes
    once the count is seen at zero. Does nothing while following, after close(), or (beyond
    recording InvalidArgument) for an empty path. When following ends on an error (see
    errors()), start() may be called again.
*/
void EtcdCountDownLatch::start()
{
    Q_D(EtcdCountDownLatch);
    if (d->following || isClosed())
        return;
    if (d->path.isEmpty())
        return recordError(EtcdStatus(Etcd::ErrorCode::InvalidArgument, tr("empty latch path")));
    d->following = true;
    setActive(true);
    d->read(true);
}

/*!
    Stops following the latch and releases threads in await() (false unless open);
    operations not started yet finish with Cancelled. The latch stays in etcd. Idempotent;
    closed() follows on the next loop turn.
*/
void EtcdCountDownLatch::close()
{
    Q_D(EtcdCountDownLatch);
    if (isClosed())
        return;
    ++d->epoch;
    d->following = false;
    d->dropWatch();
    d->queue.close();
    closeView(*d->sync);
    markClosed();
    emitClosedAfter(nullptr);
}
