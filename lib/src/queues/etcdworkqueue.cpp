// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "clientcalls_p.h"
#include "etcdworkqueue_p.h"
#include "queueinput_p.h"
#include "queuekeys_p.h"
#include "queueworker_p.h"
#include "recipemetrics_p.h"
#include "recipereplies_p.h"
#include "workops_p.h"

#include <EtcdQt/etcdrangereply.h>
#include <EtcdQt/etcdtxnreply.h>

#include <QtCore/qdatetime.h>
#include <QtCore/qpointer.h>

using namespace Etcd::Internal;
using namespace std::chrono;
using QueueKeys::Area;

/*!
    \class EtcdWorkQueue
    \inmodule EtcdQt
    \brief An at-least-once work queue with claims, acknowledgements, dead letters and
    delayed items: etcd-recipes' DistributedWorkQueue, key for key.

    enqueue() puts an item at \c{<q>/items/<millis %019d>-<3 random>} (the item's id is that
    name, kept through every area), or with a delay at \c{<q>/delayed/<due millis>-<3
    random>}. receive() claims the first item in key order: one transaction deletes it from
    \c{items/}, copies it to \c{<q>/claimed/<id>}, writes \c{<q>/claims/<id>} (the consumer's
    clientId) on the consumer's lease and the delivery count to \c{<q>/attempts/<id>} (4 bytes
    big-endian), all only while the item is unchanged. The lease is the visibility timeout: it
    lives while this consumer renews it, and when the consumer dies or is cut off for longer
    than \l{EtcdWorkQueue::Options::}{visibilityTimeout}, etcd deletes its claims. An item
    whose claim is gone is orphaned; a sweeper (every
    \l{EtcdWorkQueue::Options::}{sweepInterval}, and a receive that finds the queue empty) moves
    it back to \c{items/} under its id, so into its first place, or to \c{<q>/dlq/<id>} once it
    was delivered \l{EtcdWorkQueue::Options::}{maxDeliveries} times.

    ack() ends a delivery and requeue() puts the item back (its delivery count kept), each
    only while the claim is this delivery's: the reply's result() is false when the claim was
    lost, and the work may then run twice. Beyond etcd-recipes, every item carries its claim as
    a fencing token (the claim key and its create revision), and ackWith() commits the
    worker's own writes and the acknowledgement in one transaction guarded by it, so an
    effect happens at most once even when a delivery happens twice.

    The consumer lease heals forward only: after it ended, new claims go on a new lease, while
    the claims made under the old one stay lost (claimsLost()). Delayed items are moved into
    \c{items/} when due, by the consumer that sees them first; due times are wall-clock
    milliseconds of the producer, so clock skew between hosts shifts them.
*/

/*!
    \class EtcdWorkQueue::Options
    \inmodule EtcdQt
    \brief How a work queue's consumer behaves; the defaults are etcd-recipes'.
*/
/*! \variable EtcdWorkQueue::Options::visibilityTimeout
    \brief the consumer lease's TTL (default 30 s): a claim lasts while the consumer renews it. */
/*! \variable EtcdWorkQueue::Options::maxDeliveries
    \brief how often an item is delivered before an orphan goes to the dead letters (5). */
/*! \variable EtcdWorkQueue::Options::sweepInterval
    \brief how often the sweeper reclaims orphaned claims (default 30 s). */
/*! \variable EtcdWorkQueue::Options::clientId
    \brief the consumer's id, the value of its claims; empty: "DistributedWorkQueue:<7 random>". */

/*! \fn void EtcdWorkQueue::itemAvailable()
    Emitted after start() for every item put into \c{<q>/items/}. */
/*! \fn void EtcdWorkQueue::claimsLost()
    Emitted when the consumer's lease ended: claims not acknowledged yet are lost and will be
    delivered again (ack() and requeue() of them answer false). */

/*! Constructs a work queue at \a path on \a client with \a options. The object is a child of
    \a parent; no I/O happens until the first call. */
EtcdWorkQueue::EtcdWorkQueue(
    EtcdClient *client, const QByteArray &path, const Options &options, QObject *parent)
    : EtcdRecipe(
        client, QStringLiteral("DistributedWorkQueue[%1]").arg(QString::fromUtf8(path)), parent),
      d_ptr(new EtcdWorkQueuePrivate(this, path, options))
{
    connect(d_ptr->taker, &QueueTaker::itemAdded, this, &EtcdWorkQueue::itemAvailable);
}

/*! Constructs a work queue at \a path on \a client with the default Options (visibility
    30 s, 5 deliveries, sweep every 30 s). */
EtcdWorkQueue::EtcdWorkQueue(EtcdClient *client, const QByteArray &path, QObject *parent)
    : EtcdWorkQueue(client, path, Options {}, parent)
{ }

/*! Destroys the object after close(). */
EtcdWorkQueue::~EtcdWorkQueue()
{
    close();
}

/*! \property EtcdWorkQueue::path
    The queue's path. */
QByteArray EtcdWorkQueue::path() const
{
    return d_func()->path;
}

/*! \property EtcdWorkQueue::clientId
    The consumer's id, the value of its claims. */
QString EtcdWorkQueue::clientId() const
{
    return d_func()->options.clientId;
}

/*! The options the queue was made with (clientId filled in). */
EtcdWorkQueue::Options EtcdWorkQueue::options() const
{
    return d_func()->options;
}

// Why an operation is refused before any RPC (closed, an empty path, too many bytes); OK else.
EtcdStatus EtcdWorkQueuePrivate::refusal(qsizetype bytes) const
{
    if (q_ptr->isClosed())
        return EtcdStatus(Etcd::ErrorCode::Cancelled, EtcdWorkQueue::tr("the queue was closed"));
    return QueueInput::check(path, bytes);
}

EtcdBoolReply *EtcdWorkQueuePrivate::guarded(const EtcdWorkItem &item, const EtcdTxn &txn)
{
    Q_Q(EtcdWorkQueue);
    if (const EtcdStatus why = refusal(0); !why.isOk())
        return RecipeReplies::failedBool(q, why);
    if (!item.isValid())
        return RecipeReplies::failedBool(q,
            EtcdStatus(
                Etcd::ErrorCode::InvalidArgument, EtcdWorkQueue::tr("not a delivered item")));
    EtcdBoolReply *r = RecipeReplies::boolReply(q);
    EtcdTxnReply *t = txnOn(q->client(), txn);
    QObject::connect(t, &EtcdReply::finished, r, [r, t](const EtcdStatus &s) {
        RecipeReplies::finish(r, s, s.isOk() && t->succeeded(), t->revision());
    });
    return r;
}

/*!
    Puts \a value at the end of the queue, or, with a positive \a delay, into \c{delayed/}
    until the delay has passed (by this host's wall clock); a due delayed item is delivered
    in the order of its due time. InvalidArgument for an empty path or a value over etcd's
    request limit; Cancelled after close().
*/
EtcdReply *EtcdWorkQueue::enqueue(const QByteArray &value, milliseconds delay)
{
    Q_D(EtcdWorkQueue);
    if (const EtcdStatus why = d->refusal(value.size()); !why.isOk())
        return RecipeReplies::failedBool(this, why);
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    const bool later = delay > milliseconds(0);
    const QByteArray key = QueueKeys::workKey(d->path, later ? Area::Delayed : Area::Items,
        QueueKeys::itemName(later ? now + delay.count() : now));
    EtcdTxn txn; // a transaction, as a put, answers through txnOn() also without a client
    txn.success = {EtcdTxnOp::put(key, value)};
    return timeQueueOperation(
        txnOn(client(), txn), client(), EtcdMetrics::QueueOperation::Enqueue, d->path);
}

/*!
    Puts \a values at the end of the queue in one transaction, in their order. Refused with
    InvalidArgument when empty, over 128 values or over etcd's request limit together.
*/
EtcdReply *EtcdWorkQueue::enqueueAll(const QList<QByteArray> &values)
{
    Q_D(EtcdWorkQueue);
    if (const EtcdStatus why = d->refusal(0); !why.isOk())
        return RecipeReplies::failedBool(this, why);
    if (const EtcdStatus why = QueueInput::checkBatch(d->path, values, 128); !why.isOk())
        return RecipeReplies::failedBool(this, why);
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    EtcdTxn txn;
    for (qsizetype i = 0; i < values.size(); ++i)
        txn.success.append(EtcdTxnOp::put(
            QueueKeys::workKey(d->path, Area::Items, QueueKeys::batchItemName(now, int(i))),
            values.at(i)));
    return timeQueueOperation(
        txnOn(client(), txn), client(), EtcdMetrics::QueueOperation::Enqueue, d->path);
}

EtcdWorkItemReply *EtcdWorkQueuePrivate::receive(bool wait)
{
    Q_Q(EtcdWorkQueue);
    if (const EtcdStatus why = refusal(0); !why.isOk())
        return RecipeReplies::failedWorkItem(q, why);
    startConsumer();
    EtcdWorkItemReply *r = RecipeReplies::workItemReply(q);
    if (wait)
        timeQueueReply(r, q->client(), EtcdMetrics::QueueOperation::Dequeue, path);
    QPointer<EtcdWorkItemReply> guard(r);
    const quint64 id
        = taker->take(wait, [this, guard](const EtcdStatus &s, const EtcdKeyValue &kv, qint64 rev) {
              if (guard)
                  RecipeReplies::finish(
                      guard, s, kv.key.isEmpty() ? EtcdWorkItem() : itemOf(kv, rev));
          });
    QObject::connect(r, &EtcdReply::finished, taker, [t = taker, id](const EtcdStatus &s) {
        if (s.code() == Etcd::ErrorCode::Cancelled)
            t->cancel(id); // abort(): a no-op when the receive is over
    });
    // Destroying a reply cancels its request (EtcdReply): a claim on the wire is kept for the
    // next receive. A no-op for a reply deleted after it finished.
    QObject::connect(r, &QObject::destroyed, taker, [t = taker, id] { t->cancel(id); });
    return r;
}

/*!
    Claims the first item, waiting for one when the queue is empty (for a delayed item to
    fall due, an orphan to be reclaimed, or a put), until close(). The reply's item() carries
    the id, value, delivery number and claim. Aborting the reply cancels the receive (a claim
    it made already goes to the next receive).
*/
EtcdWorkItemReply *EtcdWorkQueue::receive()
{
    return d_func()->receive(true);
}

/*! Claims the first item if there is one: found() false when the queue is empty. */
EtcdWorkItemReply *EtcdWorkQueue::tryReceive()
{
    return d_func()->receive(false);
}

/*!
    Ends the delivery of \a item: deletes its claim, its claimed copy and its count, only
    while the claim is this delivery's. result() false: the claim was lost (the consumer's
    lease ended and the item was reclaimed), so the item may be delivered again.
*/
EtcdBoolReply *EtcdWorkQueue::ack(const EtcdWorkItem &item)
{
    Q_D(EtcdWorkQueue);
    return timeQueueOperation(d->guarded(item, WorkOps::ack(d->path, item)), client(),
        EtcdMetrics::QueueOperation::Acknowledge, d->path);
}

/*! Puts \a item back into its place in the queue, keeping its delivery count, only while
    the claim is this delivery's (result() false otherwise). */
EtcdBoolReply *EtcdWorkQueue::requeue(const EtcdWorkItem &item)
{
    Q_D(EtcdWorkQueue);
    return timeQueueOperation(d->guarded(item, WorkOps::requeue(d->path, item)), client(),
        EtcdMetrics::QueueOperation::Requeue, d->path);
}

/*!
    Commits \a effects (its compares, success and failure operations) and the
    acknowledgement of \a item in one transaction that holds only while the claim is this
    delivery's. result() true: both happened, once; false: neither (the claim was lost, or one
    of the effects' compares failed; then its failure operations ran).
*/
EtcdBoolReply *EtcdWorkQueue::ackWith(const EtcdWorkItem &item, const EtcdTxn &effects)
{
    Q_D(EtcdWorkQueue);
    return timeQueueOperation(d->guarded(item, WorkOps::ackWith(d->path, item, effects)), client(),
        EtcdMetrics::QueueOperation::Acknowledge, d->path);
}

/*! The dead letters with their delivery counts, in id order. */
EtcdDeadLettersReply *EtcdWorkQueue::deadLetters()
{
    Q_D(EtcdWorkQueue);
    if (const EtcdStatus why = d->refusal(0); !why.isOk())
        return RecipeReplies::failedDeadLetters(this, why);
    EtcdRangeOptions all;
    all.prefix = true;
    EtcdTxn read;
    read.success = {EtcdTxnOp::get(QueueKeys::area(d->path, Area::DeadLetters), all),
        EtcdTxnOp::get(QueueKeys::area(d->path, Area::Attempts), all)};
    EtcdDeadLettersReply *r = RecipeReplies::deadLettersReply(this);
    EtcdTxnReply *t = txnOn(client(), read);
    connect(t, &EtcdReply::finished, r, [r, t, path = d->path](const EtcdStatus &s) {
        const QList<EtcdTxnOpResult> results = t->results();
        QHash<QByteArray, int> attempts;
        for (const EtcdKeyValue &kv : results.value(1).keyValues)
            attempts.insert(QueueKeys::idOf(kv.key, QueueKeys::area(path, Area::Attempts)),
                WorkOps::attemptOf(kv.value));
        QList<EtcdDeadLetter> letters;
        for (const EtcdKeyValue &kv : results.value(0).keyValues) {
            const QByteArray id = QueueKeys::idOf(kv.key, QueueKeys::area(path, Area::DeadLetters));
            letters.append({id, kv.value, attempts.value(id, 0)});
        }
        RecipeReplies::finish(r, s, letters);
    });
    return r;
}

/*! Moves dead letter \a id back into the queue at its first place, its count reset;
    result() false when there is no such dead letter (or it changed meanwhile). */
EtcdBoolReply *EtcdWorkQueue::requeueDeadLetter(const QByteArray &id)
{
    Q_D(EtcdWorkQueue);
    if (const EtcdStatus why = d->refusal(0); !why.isOk())
        return RecipeReplies::failedBool(this, why);
    EtcdBoolReply *r = RecipeReplies::boolReply(this);
    EtcdRangeReply *read = getOn(client(), QueueKeys::workKey(d->path, Area::DeadLetters, id));
    connect(read, &EtcdReply::finished, r, [this, r, read](const EtcdStatus &s) {
        const QList<EtcdKeyValue> kvs = read->keyValues();
        if (!s.isOk() || kvs.isEmpty())
            return RecipeReplies::finish(r, s, false, read->revision());
        EtcdTxnReply *t = txnOn(client(), WorkOps::requeueDeadLetter(path(), kvs.first()));
        connect(t, &EtcdReply::finished, r, [r, t](const EtcdStatus &st) {
            RecipeReplies::finish(r, st, st.isOk() && t->succeeded(), t->revision());
        });
    });
    return r;
}

/*! Deletes dead letter \a id and its count; result() false when there was none. */
EtcdBoolReply *EtcdWorkQueue::purgeDeadLetter(const QByteArray &id)
{
    Q_D(EtcdWorkQueue);
    if (const EtcdStatus why = d->refusal(0); !why.isOk())
        return RecipeReplies::failedBool(this, why);
    EtcdBoolReply *r = RecipeReplies::boolReply(this);
    EtcdTxnReply *t = txnOn(client(), WorkOps::purgeDeadLetter(d->path, id));
    connect(t, &EtcdReply::finished, r, [r, t](const EtcdStatus &s) {
        RecipeReplies::finish(r, s, s.isOk() && t->succeeded(), t->revision());
    });
    return r;
}

/*! The number of items waiting in \c{items/} (one count-only read; claimed, delayed and
    dead items are not counted). */
EtcdValueReply *EtcdWorkQueue::size()
{
    Q_D(EtcdWorkQueue);
    if (const EtcdStatus why = d->refusal(0); !why.isOk())
        return RecipeReplies::failedValue(this, why);
    EtcdRangeOptions o;
    o.prefix = true;
    o.countOnly = true;
    EtcdValueReply *r = RecipeReplies::valueReply(this);
    EtcdRangeReply *read = getOn(client(), QueueKeys::area(d->path, Area::Items), o);
    connect(read, &EtcdReply::finished, r, [r, read](const EtcdStatus &s) {
        RecipeReplies::finish(r, s, read->count(), read->revision());
    });
    return r;
}

/*! Reclaims orphaned claims now, as the sweeper does; value(): how many were moved. */
EtcdValueReply *EtcdWorkQueue::sweep()
{
    Q_D(EtcdWorkQueue);
    if (const EtcdStatus why = d->refusal(0); !why.isOk())
        return RecipeReplies::failedValue(this, why);
    EtcdValueReply *r = RecipeReplies::valueReply(this);
    QPointer<EtcdValueReply> guard(r);
    d->sweep([guard](int moved, const EtcdStatus &s) {
        if (guard)
            RecipeReplies::finish(guard, s, moved);
    });
    return r;
}

namespace {
struct ReceiveOutcome
{
    EtcdStatus status;
    EtcdWorkItem item;
    [[nodiscard]] bool found() const { return item.isValid(); }
};
} // namespace

/*!
    For worker threads: receive(), waiting at most \a timeout. The item, or nullopt with
    \a status set (DeadlineExceeded: nothing came in time). A claim made just as the timeout
    passed is returned, never dropped. Refused (WrongThread) in this object's thread.
*/
std::optional<EtcdWorkItem> EtcdWorkQueue::receiveAndWait(milliseconds timeout, EtcdStatus *status)
{
    if (refuseOwnThread(this, "EtcdWorkQueue::receiveAndWait()", status))
        return std::nullopt;
    Q_D(EtcdWorkQueue);
    const ReceiveOutcome o = waitFromWorker<ReceiveOutcome>(
        this, timeout,
        [d](Answer<ReceiveOutcome> answer) {
            d->startConsumer();
            return d->taker->take(
                true, [d, answer](const EtcdStatus &s, const EtcdKeyValue &kv, qint64 rev) {
                    answer({s, kv.key.isEmpty() ? EtcdWorkItem() : d->itemOf(kv, rev)});
                });
        },
        [d](quint64 id) { d->taker->cancel(id); });
    if (status)
        *status = o.status;
    return o.status.isOk() && o.found() ? std::optional(o.item) : std::nullopt;
}

/*! For worker threads: ack() of \a item, waited for at most \a timeout. Returns its
    result; false with \a status set on a failure (the result is then unknown when it is
    DeadlineExceeded). */
bool EtcdWorkQueue::ackAndWait(const EtcdWorkItem &item, milliseconds timeout, EtcdStatus *status)
{
    if (refuseOwnThread(this, "EtcdWorkQueue::ackAndWait()", status))
        return false;
    return waitForReply<EtcdBoolReply>(
        this, timeout, status, [this, item] { return ack(item); },
        [](EtcdBoolReply *r) { return r->result(); })
        .value_or(false);
}

/*! For worker threads: ackWith() of \a item and \a effects, waited for at most
    \a timeout. Returns its result; false with \a status set on a failure. */
bool EtcdWorkQueue::ackWithAndWait(
    const EtcdWorkItem &item, const EtcdTxn &effects, milliseconds timeout, EtcdStatus *status)
{
    if (refuseOwnThread(this, "EtcdWorkQueue::ackWithAndWait()", status))
        return false;
    return waitForReply<EtcdBoolReply>(
        this, timeout, status, [this, item, effects] { return ackWith(item, effects); },
        [](EtcdBoolReply *r) { return r->result(); })
        .value_or(false);
}

/*! For worker threads: requeue() of \a item, waited for at most \a timeout. Returns its
    result; false with \a status set on a failure. */
bool EtcdWorkQueue::requeueAndWait(
    const EtcdWorkItem &item, milliseconds timeout, EtcdStatus *status)
{
    if (refuseOwnThread(this, "EtcdWorkQueue::requeueAndWait()", status))
        return false;
    return waitForReply<EtcdBoolReply>(
        this, timeout, status, [this, item] { return requeue(item); },
        [](EtcdBoolReply *r) { return r->result(); })
        .value_or(false);
}

/*! Starts the consumer side (the lease, the sweeper) and itemAvailable(); receive() starts
    it too. */
void EtcdWorkQueue::start()
{
    Q_D(EtcdWorkQueue);
    if (isClosed() || !d->refusal(0).isOk())
        return;
    setActive(true);
    d->startConsumer();
    d->taker->follow();
}

/*!
    Cancels every receive, stops the sweeper and revokes the consumer lease: the claims not
    acknowledged become orphans at once, reclaimable by other consumers (their deliveries
    count). A claim made for a receive cancelled meanwhile is put back first. Idempotent;
    closed() follows once etcd answered the revoke.
*/
void EtcdWorkQueue::close()
{
    Q_D(EtcdWorkQueue);
    if (isClosed())
        return;
    markClosed();
    d->sweeper.stop();
    d->delayedWatch.reset();
    d->claimsWatch.reset();
    QList<EtcdReply *> releases; // kept claims go back before the lease is revoked
    d->taker->close([d, &releases](const EtcdKeyValue &kv, qint64 rev) {
        releases.append(d->release(kv, rev));
    });
    d->leaseWaiters.clear();
    if (!d->lease)
        return emitClosedAfter(nullptr);
    auto left = std::make_shared<qsizetype>(releases.size());
    QPointer<EtcdSelfHealingKeepAlive> lease(d->lease.get());
    for (EtcdReply *r : releases) {
        connect(r, &EtcdReply::finished, d->lease.get(), [left, lease] {
            if (--*left == 0 && lease)
                lease->close();
        });
    }
    if (releases.isEmpty())
        d->lease->close(); // adopted: its closed() is ours
}
