// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "clientcalls_p.h"
#include "queueinput_p.h"
#include "queuekeys_p.h"
#include "queuetaker_p.h"
#include "queueworker_p.h"
#include "recipemetrics_p.h"
#include "recipereplies_p.h"

#include <EtcdQt/etcdabstractqueue.h>
#include <EtcdQt/etcdrangereply.h>

#include <QtCore/qpointer.h>

using namespace Etcd::Internal;
using namespace std::chrono;

/*!
    \class EtcdAbstractQueue
    \inmodule EtcdQt
    \brief The take side of EtcdQueue and EtcdPriorityQueue.

    A take reads the head of \c{<path>/} in the queue's order and deletes it with a
    transaction that commits only while the head's mod revision is unchanged, so each item
    is taken by one taker. A FIFO take that loses the race gets the new head in the same
    answer; a priority queue knows its head without reading (see EtcdPriorityQueue).
    An empty queue is waited on with a watch of puts that starts right after the read that
    saw it empty, so no item put meanwhile is missed, and nothing polls; the put it reports
    is taken at once.

    Delivery is at most once, as in etcd-recipes: the item is gone from etcd once taken, so a
    process that dies before using it loses it. Use EtcdWorkQueue for work that must not be
    lost. A take cancelled while its delete was on the wire (take() timing out, close())
    keeps the item for the next take, or puts it back at the end of the queue on close().
*/

/*! \fn void EtcdAbstractQueue::itemAvailable()
    Emitted, once start() was called, for every item put into the queue. Another taker may
    take it first.
*/

namespace {
// What a worker's take ends with.
struct TakeOutcome
{
    EtcdStatus status;
    EtcdKeyValue item;
    [[nodiscard]] bool found() const { return !item.key.isEmpty(); }
};

// Finishes `r` with a take's outcome, unless it was destroyed meanwhile.
QueueTaker::Done finisher(EtcdQueueItemReply *r)
{
    return [guard = QPointer<EtcdQueueItemReply>(r)](
               const EtcdStatus &s, const EtcdKeyValue &item, qint64) {
        if (guard)
            RecipeReplies::finish(guard, s, item);
    };
}
} // namespace

// Key order is the priority queue's: taken from a mirror of its keys. An item put ahead of
// the head is one at a lower priority (at the head's own, a new item's number is higher), and
// every enqueue touches its priority's marker: the markers below the head's priority say
// whether one came. A key that names no priority is checked against every marker.
QueueTaker::Hooks hooksFor(const QByteArray &path, QueueTaker::Order order)
{
    QueueTaker::Hooks hooks;
    if (order == QueueTaker::Order::Key)
        hooks.aheadOf = [path](const QByteArray &head) -> std::pair<QByteArray, QByteArray> {
            const std::optional<int> priority = QueueKeys::priorityOf(path, head);
            if (!priority)
                return QueueKeys::markerRange(path);
            if (*priority == 0)
                return {};
            return {QueueKeys::priorityMarker(path, 0), QueueKeys::priorityMarker(path, *priority)};
        };
    return hooks;
}

class EtcdAbstractQueuePrivate
{
public:
    EtcdAbstractQueuePrivate(EtcdAbstractQueue *q, const QByteArray &path, QueueTaker::Order order)
        : path(path),
          taker(new QueueTaker(q, QueueKeys::children(path), order, hooksFor(path, order)))
    { }

    QByteArray path;
    QueueTaker *taker; // a child of the queue
};

/*!
    Constructs the take side of a queue at \a path on \a client, taken in \a order;
    \a errorContext names it in errorOccurred(). The object is a child of \a parent.
*/
EtcdAbstractQueue::EtcdAbstractQueue(EtcdClient *client, const QByteArray &path, Order order,
    const QString &errorContext, QObject *parent)
    : EtcdRecipe(client, errorContext, parent),
      d_ptr(new EtcdAbstractQueuePrivate(this, path,
          order == Order::Key ? QueueTaker::Order::Key : QueueTaker::Order::ModRevision))
{
    connect(d_ptr->taker, &QueueTaker::itemAdded, this, &EtcdAbstractQueue::itemAvailable);
}

/*! Destroys the object; a subclass closes it first. */
EtcdAbstractQueue::~EtcdAbstractQueue() = default;

/*!
    \enum EtcdAbstractQueue::Order
    The order a queue is taken in.
    \value ModRevision by the items' mod revisions (the order they were put), a batch by its
        index: EtcdQueue
    \value Key by the items' keys: EtcdPriorityQueue
*/

/*!
    \fn void EtcdAbstractQueue::putBack(const QByteArray &key, const QByteArray &value)
    For subclasses: puts \a value, taken from \a key for a take that was cancelled meanwhile,
    back into the queue when it closes.
*/

/*! \property EtcdAbstractQueue::path
    The queue's path; its items are the keys under \c{<path>/}. */
QByteArray EtcdAbstractQueue::path() const
{
    return d_func()->path;
}

/*!
    Takes the head of the queue, waiting for an item when it is empty, for as long as it
    takes: the reply finishes with the item, with Cancelled after close(), or with the error
    that ended the wait. Aborting the reply cancels the take (an item it took already goes
    to the next take). Takes of one object are served in call order.
*/
EtcdQueueItemReply *EtcdAbstractQueue::dequeue()
{
    Q_D(EtcdAbstractQueue);
    if (const EtcdStatus why = refusal(0); !why.isOk())
        return RecipeReplies::failedQueueItem(this, why);
    EtcdQueueItemReply *r = RecipeReplies::queueItemReply(this);
    timeQueueReply(r, client(), EtcdMetrics::QueueOperation::Dequeue, d->path);
    const quint64 id = d->taker->take(true, finisher(r));
    connect(r, &EtcdReply::finished, d->taker, [taker = d->taker, id](const EtcdStatus &s) {
        if (s.code() == Etcd::ErrorCode::Cancelled)
            taker->cancel(id); // abort(): a no-op when the take is over
    });
    // Destroying a reply cancels its request (EtcdReply): an item taken meanwhile is kept for
    // the next take. A no-op for a reply deleted after it finished.
    connect(r, &QObject::destroyed, d->taker, [taker = d->taker, id] { taker->cancel(id); });
    return r;
}

/*! Takes the head of the queue if there is one: found() false when it is empty. */
EtcdQueueItemReply *EtcdAbstractQueue::tryDequeue()
{
    Q_D(EtcdAbstractQueue);
    if (const EtcdStatus why = refusal(0); !why.isOk())
        return RecipeReplies::failedQueueItem(this, why);
    EtcdQueueItemReply *r = RecipeReplies::queueItemReply(this);
    const quint64 id = d->taker->take(false, finisher(r));
    connect(r, &QObject::destroyed, d->taker, [taker = d->taker, id] { taker->cancel(id); });
    return r;
}

/*! The number of items in the queue (one count-only read); the reply's value(). */
EtcdValueReply *EtcdAbstractQueue::size()
{
    Q_D(EtcdAbstractQueue);
    if (const EtcdStatus why = refusal(0); !why.isOk())
        return RecipeReplies::failedValue(this, why);
    EtcdRangeOptions o;
    o.prefix = true;
    o.countOnly = true;
    EtcdValueReply *r = RecipeReplies::valueReply(this);
    EtcdRangeReply *read = getOn(client(), QueueKeys::children(d->path), o);
    connect(read, &EtcdReply::finished, r, [r, read](const EtcdStatus &s) {
        RecipeReplies::finish(r, s, read->count(), read->revision());
    });
    return r;
}

namespace {
TakeOutcome takeIn(EtcdAbstractQueue *q, QueueTaker *taker, bool wait, milliseconds timeout)
{
    return waitFromWorker<TakeOutcome>(
        q, timeout,
        [taker, wait](Answer<TakeOutcome> answer) {
            return taker->take(
                wait, [answer](const EtcdStatus &s, const EtcdKeyValue &item, qint64) {
                    answer({s, item});
                });
        },
        [taker](quint64 id) { taker->cancel(id); });
}

std::optional<QByteArray> valueOf(const TakeOutcome &o, EtcdStatus *status)
{
    if (status)
        *status = o.status;
    if (!o.status.isOk() || !o.found())
        return std::nullopt;
    return o.item.value;
}
} // namespace

/*!
    For worker threads: takes the head of the queue, waiting at most \a timeout for an item.
    Returns its value, or nullopt with \a status set: DeadlineExceeded when nothing came in
    time, Cancelled after close(), or the error that ended the wait. An item the take got
    just as the timeout passed is returned, never dropped. Refused (WrongThread) in this
    object's thread.
*/
std::optional<QByteArray> EtcdAbstractQueue::take(milliseconds timeout, EtcdStatus *status)
{
    if (refuseOwnThread(this, "EtcdAbstractQueue::take()", status))
        return std::nullopt;
    if (const EtcdStatus why = refusal(0); !why.isOk()) {
        if (status)
            *status = why;
        return std::nullopt;
    }
    return valueOf(takeIn(this, d_func()->taker, true, timeout), status);
}

/*!
    For worker threads: takes the head of the queue if there is one, waiting only for etcd's
    answer (at most 30 seconds). Returns nullopt with an OK \a status when the queue is
    empty. Refused (WrongThread) in this object's thread.
*/
std::optional<QByteArray> EtcdAbstractQueue::tryTake(EtcdStatus *status)
{
    if (refuseOwnThread(this, "EtcdAbstractQueue::tryTake()", status))
        return std::nullopt;
    if (const EtcdStatus why = refusal(0); !why.isOk()) {
        if (status)
            *status = why;
        return std::nullopt;
    }
    return valueOf(takeIn(this, d_func()->taker, false, seconds(30)), status);
}

/*! Follows the queue: itemAvailable() from now on. Takes do not need it. */
void EtcdAbstractQueue::start()
{
    Q_D(EtcdAbstractQueue);
    if (isClosed() || !refusal(0).isOk())
        return;
    setActive(true);
    d->taker->follow();
}

/*!
    Cancels every take (their replies finish with Cancelled, blocked workers return); a take
    whose delete is on the wire still gets its item. Items taken for takes cancelled meanwhile
    go back to the end of the queue. Idempotent; closed() follows on the next loop turn.
*/
void EtcdAbstractQueue::close()
{
    Q_D(EtcdAbstractQueue);
    if (isClosed())
        return;
    markClosed();
    d->taker->close([this](const EtcdKeyValue &kv, qint64) { putBack(kv.key, kv.value); });
    emitClosedAfter(nullptr);
}

/*!
    For subclasses: why an operation carrying \a payloadBytes of values is refused before
    any RPC (an empty path, a closed queue, more than etcd's request limit), or OK.
*/
EtcdStatus EtcdAbstractQueue::refusal(qsizetype payloadBytes) const
{
    if (isClosed())
        return EtcdStatus(Etcd::ErrorCode::Cancelled, tr("the queue was closed"));
    return QueueInput::check(d_func()->path, payloadBytes);
}
