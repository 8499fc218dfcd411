// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "etcdqmlqueues.h"
#include "etcdqmlconvert_p.h"

#include <EtcdQt/etcdboolreply.h>
#include <EtcdQt/etcdpriorityqueue.h>
#include <EtcdQt/etcdqueue.h>
#include <EtcdQt/etcdqueueitemreply.h>
#include <EtcdQt/etcdstatus.h>
#include <EtcdQt/etcdvaluereply.h>
#include <EtcdQt/etcdworkitemreply.h>
#include <EtcdQt/etcdworkqueue.h>

namespace {
constexpr int kConsumerRetryMs = 1000; // after a take or receive that failed

QString queueText(const QByteArray &bytes)
{
    return QString::fromUtf8(bytes);
}

void armRetry(QTimer &timer)
{
    timer.setSingleShot(true);
    timer.setInterval(kConsumerRetryMs);
}
} // namespace

/*!
    \class EtcdQmlQueueBase
    \internal
    The base of Queue, PriorityQueue and WorkQueue: \c path (empty: refused with
    InvalidArgument), \c consuming, size() and the enqueue answers. Answers that come after
    the library object was let go of (the item switched off, its path changed) describe a
    run that is over and are dropped.
*/

EtcdQmlQueueBase::EtcdQmlQueueBase(QObject *parent) : EtcdQmlRecipe(parent)
{
    // The library object exists (current()) only once the base has taken it.
    connect(this, &EtcdQmlRecipe::runningChanged, this, [this] { consumeIfWanted(); });
}

EtcdQmlQueueBase::~EtcdQmlQueueBase() = default;

void EtcdQmlQueueBase::setPath(const QString &path)
{
    changeSetting(m_path, path, &EtcdQmlQueueBase::pathChanged);
}

void EtcdQmlQueueBase::setConsuming(bool consuming)
{
    if (consuming == m_consuming)
        return;
    m_consuming = consuming;
    Q_EMIT consumingChanged();
    consumeIfWanted();
}

/*! \qmlmethod bool Queue::size()
    Counts the items waiting; sizeFinished(size) answers (-1 on failure). Returns \c false,
    and sends nothing, when the item is not running. */
bool EtcdQmlQueueBase::size()
{
    EtcdValueReply *reply = requestSize();
    if (!reply)
        return false;
    whenAnswered<EtcdValueReply>(reply,
        [this](bool ok, EtcdValueReply *r) { Q_EMIT sizeFinished(ok ? int(r->value()) : -1); });
    return true;
}

QString EtcdQmlQueueBase::invalidSetting() const
{
    return m_path.isEmpty() ? tr("a queue needs a path") : QString();
}

void EtcdQmlQueueBase::answerEnqueue(const QString &value, EtcdReply *reply)
{
    whenAnswered<EtcdReply>(
        reply, [this, value](bool ok, EtcdReply *) { Q_EMIT enqueueFinished(value, ok); });
}

void EtcdQmlQueueBase::connectAnswer(EtcdReply *reply, std::function<void(bool ok)> report)
{
    QPointer<QObject> recipe = current();
    connect(reply, &EtcdReply::finished, this, [this, recipe, report](const EtcdStatus &status) {
        if (!recipe || recipe != current())
            return;
        if (!status.isOk())
            setError(status);
        report(status.isOk());
    });
}

/*!
    \qmltype Queue
    \inqmlmodule EtcdQt
    \brief A FIFO queue in etcd at \c path (EtcdQueue, etcd-recipes' DistributedQueue),
    usable while \c active.

    enqueue(value) puts \a value (UTF-8 text) at the end of the queue, at
    \c{<path>/<millis %019d>-<3 random>}, with no lease: items outlive their producer.
    enqueueFinished(value, ok) answers. tryDequeue() takes the head if there is one and
    answers tryDequeueFinished(found, value); size() answers sizeFinished(size).

    While \c consuming is true (and the item running), the item takes one item after
    another, in the queue's order, and emits received(value, bytes) for each: \c value as
    UTF-8 text and \c bytes as an ArrayBuffer of the raw value (for values not written as
    text). The next take starts once the handler returned. A take deletes the item from
    etcd: delivery is at most once, so an item received by an item destroyed in its
    handler is gone (use WorkQueue for work that must not be lost). Switching
    \c consuming off cancels the waiting take; an item it took already goes to the next
    take, or back to the end of the queue when the item stops.

    The methods return \c false, and send nothing, when the item is not running. A failed
    call answers with \c ok false (\c found false, size -1) and sets \c errorCode and
    \c errorString (errorOccurred(code, message)). An empty \c path is refused with
    \c EtcdError.InvalidArgument.
*/

/*!
    \qmltype PriorityQueue
    \inqmlmodule EtcdQt
    \brief A queue in etcd at \c path taken lowest priority number first (EtcdPriorityQueue,
    etcd-recipes' DistributedPriorityQueue), usable while \c active.

    enqueue(value, priority) puts \a value at \a priority (a whole number 0..65535; 0 is
    taken first), after the items already at that priority; anything else is refused with
    \c EtcdError.InvalidArgument. Everything else is as for Queue: \c consuming and
    received(value, bytes), tryDequeue(), size(), and the answers.
*/

EtcdQmlAbstractQueue::EtcdQmlAbstractQueue(QObject *parent) : EtcdQmlQueueBase(parent)
{
    armRetry(m_retry);
    connect(&m_retry, &QTimer::timeout, this, &EtcdQmlAbstractQueue::consumeIfWanted);
}

EtcdQmlAbstractQueue::~EtcdQmlAbstractQueue() = default;

/*! \qmlmethod bool Queue::tryDequeue()
    Takes the head of the queue if there is one; tryDequeueFinished(found, value) answers.
    Returns \c false, and sends nothing, when the item is not running. */
bool EtcdQmlAbstractQueue::tryDequeue()
{
    auto *queue = currentAs<EtcdAbstractQueue>();
    if (!queue)
        return false;
    whenAnswered<EtcdQueueItemReply>(queue->tryDequeue(), [this](bool ok, EtcdQueueItemReply *r) {
        const bool found = ok && r->found();
        Q_EMIT tryDequeueFinished(found, found ? queueText(r->value()) : QString());
    });
    return true;
}

QObject *EtcdQmlAbstractQueue::startRecipe(EtcdClient *client)
{
    EtcdAbstractQueue *queue = makeQueue(client);
    followRecipe(queue);
    return queue;
}

void EtcdQmlAbstractQueue::recipeStopped()
{
    m_take.clear(); // the queue's child: cancelled by its close()
    m_retry.stop();
}

EtcdValueReply *EtcdQmlAbstractQueue::requestSize()
{
    auto *queue = currentAs<EtcdAbstractQueue>();
    return queue ? queue->size() : nullptr;
}

// One take at a time while consuming; none otherwise.
void EtcdQmlAbstractQueue::consumeIfWanted()
{
    auto *queue = currentAs<EtcdAbstractQueue>();
    if (!queue || !isConsuming()) {
        m_retry.stop();
        if (EtcdQueueItemReply *take = m_take.data()) {
            m_take.clear(); // its Cancelled answer is ours, not news
            take->abort();
        }
        return;
    }
    if (m_take || m_retry.isActive())
        return;
    EtcdQueueItemReply *reply = queue->dequeue();
    m_take = reply;
    connect(reply, &EtcdReply::finished, this,
        [this, reply](const EtcdStatus &status) { taken(reply, status); });
}

void EtcdQmlAbstractQueue::taken(EtcdQueueItemReply *reply, const EtcdStatus &status)
{
    if (reply != m_take)
        return; // cancelled here
    m_take.clear();
    if (!status.isOk()) {
        setError(status);
        m_retry.start(); // etcd may be back by then
        return;
    }
    QPointer<EtcdQmlAbstractQueue> self(this);
    if (reply->found())
        Q_EMIT received(queueText(reply->value()), reply->value());
    if (self) // the handler may have destroyed the item
        consumeIfWanted();
}

EtcdQmlQueue::EtcdQmlQueue(QObject *parent) : EtcdQmlAbstractQueue(parent) { }

EtcdQmlQueue::~EtcdQmlQueue() = default;

/*! \qmlmethod bool Queue::enqueue(string value)
    Puts \a value at the end of the queue; enqueueFinished(value, ok) answers. Returns
    \c false, and sends nothing, when the item is not running. */
bool EtcdQmlQueue::enqueue(const QString &value)
{
    auto *queue = currentAs<EtcdQueue>();
    if (!queue)
        return false;
    answerEnqueue(value, queue->enqueue(value.toUtf8()));
    return true;
}

EtcdAbstractQueue *EtcdQmlQueue::makeQueue(EtcdClient *client)
{
    return new EtcdQueue(client, path().toUtf8());
}

EtcdQmlPriorityQueue::EtcdQmlPriorityQueue(QObject *parent) : EtcdQmlAbstractQueue(parent) { }

EtcdQmlPriorityQueue::~EtcdQmlPriorityQueue() = default;

/*! \qmlmethod bool PriorityQueue::enqueue(string value, int priority)
    Puts \a value into the queue at \a priority; enqueueFinished(value, ok) answers. Returns
    \c false, and sends nothing, when the item is not running or \a priority is no whole
    number in 0..65535 (then with \c EtcdError.InvalidArgument). */
bool EtcdQmlPriorityQueue::enqueue(const QString &value, double priority)
{
    auto *queue = currentAs<EtcdPriorityQueue>();
    if (!queue)
        return false;
    const std::optional<qint64> level = Etcd::Qml::exactInteger(priority);
    if (!level || *level < 0 || *level > EtcdPriorityQueue::kMaxPriority) {
        setError(EtcdStatus(Etcd::ErrorCode::InvalidArgument,
            tr("a priority is a whole number in 0..%1, not %2")
                .arg(EtcdPriorityQueue::kMaxPriority)
                .arg(priority)));
        return false;
    }
    answerEnqueue(value, queue->enqueue(value.toUtf8(), int(*level)));
    return true;
}

EtcdAbstractQueue *EtcdQmlPriorityQueue::makeQueue(EtcdClient *client)
{
    return new EtcdPriorityQueue(client, path().toUtf8());
}

/*!
    \qmlvaluetype workItem
    \inqmlmodule EtcdQt
    \brief One delivery of a WorkQueue item: \c id (the item's id, kept through every
    area of the queue), \c value (UTF-8 text), \c bytes (the raw value as an ArrayBuffer),
    \c attempt (1 for the first delivery), \c claim (a fencingToken: the claim's key,
    lease and create revision) and \c valid.

    ack() and requeue() settle the delivery through the WorkQueue that received it, as
    WorkQueue.ack(item) and WorkQueue.requeue(item) do.
*/

EtcdQmlWorkItem::EtcdQmlWorkItem(const EtcdWorkItem &item, QObject *queue)
    : m_item(item), m_queue(queue)
{ }

bool EtcdQmlWorkItem::ack() const
{
    auto *queue = qobject_cast<EtcdQmlWorkQueue *>(m_queue.data());
    return queue && queue->ack(*this);
}

bool EtcdQmlWorkItem::requeue() const
{
    auto *queue = qobject_cast<EtcdQmlWorkQueue *>(m_queue.data());
    return queue && queue->requeue(*this);
}

/*!
    \qmltype WorkQueue
    \inqmlmodule EtcdQt
    \brief An at-least-once work queue in etcd at \c path (EtcdWorkQueue, etcd-recipes'
    DistributedWorkQueue), usable while \c active.

    enqueue(value, delay) puts \a value into \c{<path>/items/}, or, with a \a delay in
    milliseconds above 0, into \c{<path>/delayed/} until it is due; enqueueFinished(value,
    ok) answers.

    While \c consuming is true (and the item running), the item claims items one after
    another and emits received(item) for each, \c item a workItem. A claim lives on the
    consumer's lease of \c visibilityTimeout milliseconds (default 30000, rounded up to
    whole seconds): when the consumer dies or is cut off for longer, the item is
    delivered again, to this or another consumer. At most \c maxInFlight items (default 1)
    are delivered and not yet settled at a time: the next claim starts once an earlier
    delivery was acknowledged or requeued (and etcd answered), so with the default one
    item is worked on at a time. \c inFlight is the number of deliveries not settled yet.

    Each delivery ends with ack(item) (done: the item leaves the queue) or requeue(item)
    (back into its first place, its delivery count kept), also callable as item.ack() and
    item.requeue(); they answer ackFinished(item, acknowledged) and requeueFinished(item,
    requeued). \c false there means the claim was lost meanwhile (the lease ended): the item
    will be, or was, delivered again, so the work may run twice. They return \c false, and
    send nothing, for an item that is not in flight here (settled, lost, or received by
    another item) with \c EtcdError.FailedPrecondition. When the consumer's lease ends,
    claimsLost() tells that every delivery still in flight was lost; they are dropped from
    \c inFlight and consuming goes on.

    After \c maxDeliveries deliveries (default 5) without an acknowledgement an item goes
    to the dead letters: deadLetters() answers deadLettersFinished(deadLetters), a list of
    \c{{id, value, attempts}} objects (empty on failure); requeueDeadLetter(id) and
    purgeDeadLetter(id) answer requeueDeadLetterFinished(id, requeued) and
    purgeDeadLetterFinished(id, purged). Items whose consumer is gone are moved back (or
    to the dead letters) by a sweep every \c sweepInterval milliseconds (default 30000) of a
    consuming item, by a consumer that finds the queue empty, or by sweep() now
    (sweepFinished(moved)); size() counts the items waiting in \c{items/}.

    \c clientId is the consumer's id, the value of its claims (empty: the library picks
    \c{DistributedWorkQueue:<7 random>}, readable once running). Changing \c path,
    \c clientId, \c visibilityTimeout, \c maxDeliveries or \c sweepInterval starts over;
    stopping (\c active false) revokes the consumer's lease, so its unsettled deliveries
    are reclaimable at once. An empty \c path, a \c visibilityTimeout or \c sweepInterval
    of 0 or less, or a \c maxDeliveries below 1 is refused with \c EtcdError.InvalidArgument
    through errorOccurred(); so is a \c maxInFlight below 1 (the value is kept). The
    methods return \c false, and send nothing, when the item is not running.
*/

EtcdQmlWorkQueue::EtcdQmlWorkQueue(QObject *parent) : EtcdQmlQueueBase(parent)
{
    armRetry(m_retry);
    connect(&m_retry, &QTimer::timeout, this, &EtcdQmlWorkQueue::consumeIfWanted);
}

EtcdQmlWorkQueue::~EtcdQmlWorkQueue() = default;

void EtcdQmlWorkQueue::setClientId(const QString &clientId)
{
    changeSetting(m_clientId, clientId, &EtcdQmlWorkQueue::clientIdChanged);
}

void EtcdQmlWorkQueue::setVisibilityTimeout(int ms)
{
    changeSetting(m_visibilityTimeout, ms, &EtcdQmlWorkQueue::visibilityTimeoutChanged);
}

void EtcdQmlWorkQueue::setMaxDeliveries(int count)
{
    changeSetting(m_maxDeliveries, count, &EtcdQmlWorkQueue::maxDeliveriesChanged);
}

void EtcdQmlWorkQueue::setSweepInterval(int ms)
{
    changeSetting(m_sweepInterval, ms, &EtcdQmlWorkQueue::sweepIntervalChanged);
}

// Not a setting the library takes: the consumer here only claims more or fewer at a time.
void EtcdQmlWorkQueue::setMaxInFlight(int count)
{
    if (count < 1) {
        setError(EtcdStatus(Etcd::ErrorCode::InvalidArgument,
            tr("maxInFlight must be at least 1, got %1").arg(count)));
        return;
    }
    if (count == m_maxInFlight)
        return;
    m_maxInFlight = count;
    Q_EMIT maxInFlightChanged();
    consumeIfWanted();
}

/*! \qmlmethod bool WorkQueue::enqueue(string value, int delay)
    Puts \a value into the queue, due after \a delay milliseconds (0, the default: at once);
    enqueueFinished(value, ok) answers. Returns \c false, and sends nothing, when the item
    is not running or \a delay is no whole number of milliseconds from 0 (then with
    \c EtcdError.InvalidArgument). */
bool EtcdQmlWorkQueue::enqueue(const QString &value, double delay)
{
    auto *queue = currentAs<EtcdWorkQueue>();
    if (!queue)
        return false;
    const std::optional<qint64> ms = Etcd::Qml::exactInteger(delay);
    if (!ms || *ms < 0) {
        setError(EtcdStatus(Etcd::ErrorCode::InvalidArgument,
            tr("a delay is a whole number of milliseconds from 0, not %1").arg(delay)));
        return false;
    }
    answerEnqueue(value, queue->enqueue(value.toUtf8(), std::chrono::milliseconds(*ms)));
    return true;
}

/*! \qmlmethod bool WorkQueue::ack(workItem item)
    Acknowledges the delivery \a item: ackFinished(item, acknowledged) answers. Returns
    \c false, and sends nothing, when the item is not running or \a item is not in flight
    here (then with \c EtcdError.FailedPrecondition). */
bool EtcdQmlWorkQueue::ack(const EtcdQmlWorkItem &item)
{
    return settle(item, Settle::Ack);
}

/*! \qmlmethod bool WorkQueue::requeue(workItem item)
    Puts the delivery \a item back into its first place: requeueFinished(item, requeued)
    answers. Returns \c false as ack() does. */
bool EtcdQmlWorkQueue::requeue(const EtcdQmlWorkItem &item)
{
    return settle(item, Settle::Requeue);
}

// Settles a delivery in flight here, once; it stays in flight until etcd answered.
bool EtcdQmlWorkQueue::settle(const EtcdQmlWorkItem &item, Settle how)
{
    auto *queue = currentAs<EtcdWorkQueue>();
    if (!queue)
        return false;
    const QByteArray id = item.item().id;
    const auto it = m_inFlight.constFind(id);
    if (it == m_inFlight.cend() || !(it->claim == item.item().claim) || m_settling.contains(id)) {
        setError(EtcdStatus(Etcd::ErrorCode::FailedPrecondition,
            tr("work item %1 is not in flight here").arg(item.id())));
        return false;
    }
    const EtcdWorkItem delivery = *it;
    m_settling.insert(id);
    EtcdBoolReply *reply = how == Settle::Ack ? queue->ack(delivery) : queue->requeue(delivery);
    whenAnswered<EtcdBoolReply>(reply, [this, item, how, delivery](bool ok, EtcdBoolReply *r) {
        const bool done = ok && r->result();
        m_settling.remove(delivery.id);
        QPointer<EtcdQmlWorkQueue> self(this);
        const auto found = m_inFlight.find(delivery.id);
        if (found != m_inFlight.end() && found->claim == delivery.claim) {
            m_inFlight.erase(found);
            Q_EMIT inFlightChanged();
        }
        if (!self)
            return;
        if (how == Settle::Ack)
            Q_EMIT ackFinished(item, done);
        else
            Q_EMIT requeueFinished(item, done);
        if (self)
            consumeIfWanted();
    });
    return true;
}

/*! \qmlmethod bool WorkQueue::deadLetters()
    Reads the dead letters; deadLettersFinished(deadLetters) answers with a list of
    \c{{id, value, attempts}} objects in id order. Returns \c false, and sends nothing,
    when the item is not running. */
bool EtcdQmlWorkQueue::deadLetters()
{
    auto *queue = currentAs<EtcdWorkQueue>();
    if (!queue)
        return false;
    whenAnswered<EtcdDeadLettersReply>(
        queue->deadLetters(), [this](bool ok, EtcdDeadLettersReply *r) {
            QVariantList letters;
            const QList<EtcdDeadLetter> dead = ok ? r->deadLetters() : QList<EtcdDeadLetter>();
            for (const EtcdDeadLetter &letter : dead) {
                letters.append(QVariantMap {{QStringLiteral("id"), queueText(letter.id)},
                    {QStringLiteral("value"), queueText(letter.value)},
                    {QStringLiteral("attempts"), letter.attempts}});
            }
            Q_EMIT deadLettersFinished(letters);
        });
    return true;
}

/*! \qmlmethod bool WorkQueue::requeueDeadLetter(string id)
    Moves dead letter \a id back into its first place in the queue, its count reset;
    requeueDeadLetterFinished(id, requeued) answers (\c false: no such dead letter).
    Returns \c false, and sends nothing, when the item is not running. */
bool EtcdQmlWorkQueue::requeueDeadLetter(const QString &id)
{
    auto *queue = currentAs<EtcdWorkQueue>();
    if (!queue)
        return false;
    whenAnswered<EtcdBoolReply>(
        queue->requeueDeadLetter(id.toUtf8()), [this, id](bool ok, EtcdBoolReply *r) {
            Q_EMIT requeueDeadLetterFinished(id, ok && r->result());
        });
    return true;
}

/*! \qmlmethod bool WorkQueue::purgeDeadLetter(string id)
    Deletes dead letter \a id; purgeDeadLetterFinished(id, purged) answers. Returns
    \c false, and sends nothing, when the item is not running. */
bool EtcdQmlWorkQueue::purgeDeadLetter(const QString &id)
{
    auto *queue = currentAs<EtcdWorkQueue>();
    if (!queue)
        return false;
    whenAnswered<EtcdBoolReply>(
        queue->purgeDeadLetter(id.toUtf8()), [this, id](bool ok, EtcdBoolReply *r) {
            Q_EMIT purgeDeadLetterFinished(id, ok && r->result());
        });
    return true;
}

/*! \qmlmethod bool WorkQueue::sweep()
    Moves the items whose consumer is gone back into the queue (or to the dead letters)
    now; sweepFinished(moved) answers (-1 on failure). Returns \c false, and sends
    nothing, when the item is not running. */
bool EtcdQmlWorkQueue::sweep()
{
    auto *queue = currentAs<EtcdWorkQueue>();
    if (!queue)
        return false;
    whenAnswered<EtcdValueReply>(queue->sweep(),
        [this](bool ok, EtcdValueReply *r) { Q_EMIT sweepFinished(ok ? int(r->value()) : -1); });
    return true;
}

QString EtcdQmlWorkQueue::invalidSetting() const
{
    if (const QString problem = EtcdQmlQueueBase::invalidSetting(); !problem.isEmpty())
        return problem;
    if (m_visibilityTimeout <= 0)
        return tr("visibilityTimeout must be a positive number of milliseconds, got %1")
            .arg(m_visibilityTimeout);
    if (m_maxDeliveries < 1)
        return tr("maxDeliveries must be at least 1, got %1").arg(m_maxDeliveries);
    if (m_sweepInterval <= 0)
        return tr("sweepInterval must be a positive number of milliseconds, got %1")
            .arg(m_sweepInterval);
    return {};
}

QObject *EtcdQmlWorkQueue::startRecipe(EtcdClient *client)
{
    EtcdWorkQueue::Options options;
    options.visibilityTimeout = Etcd::Qml::ttlFromMilliseconds(m_visibilityTimeout);
    options.maxDeliveries = m_maxDeliveries;
    options.sweepInterval = std::chrono::milliseconds(m_sweepInterval);
    options.clientId = m_clientId;
    auto *queue = new EtcdWorkQueue(client, path().toUtf8(), options);
    followRecipe(queue);
    connect(queue, &EtcdWorkQueue::claimsLost, this, [this] {
        QPointer<EtcdQmlWorkQueue> self(this);
        forgetInFlight();
        if (self)
            Q_EMIT claimsLost();
        if (self)
            consumeIfWanted();
    });
    if (m_clientId != queue->clientId()) {
        // Not a setting change: the queue runs with the id it picked already.
        m_clientId = queue->clientId();
        Q_EMIT clientIdChanged();
    }
    return queue;
}

void EtcdQmlWorkQueue::recipeStopped()
{
    m_receive.clear(); // the queue's child: cancelled by its close()
    m_retry.stop();
    forgetInFlight(); // the close revokes the lease: the claims are gone
}

void EtcdQmlWorkQueue::forgetInFlight()
{
    if (m_inFlight.isEmpty() && m_settling.isEmpty())
        return;
    m_inFlight.clear();
    m_settling.clear();
    Q_EMIT inFlightChanged();
}

EtcdValueReply *EtcdQmlWorkQueue::requestSize()
{
    auto *queue = currentAs<EtcdWorkQueue>();
    return queue ? queue->size() : nullptr;
}

// One receive at a time while consuming and fewer than maxInFlight deliveries are out.
void EtcdQmlWorkQueue::consumeIfWanted()
{
    auto *queue = currentAs<EtcdWorkQueue>();
    if (!queue || !isConsuming()) {
        m_retry.stop();
        if (EtcdWorkItemReply *receive = m_receive.data()) {
            m_receive.clear(); // its Cancelled answer is ours, not news
            receive->abort(); // a claim it made already goes to the next receive
        }
        return;
    }
    if (m_receive || m_retry.isActive() || m_inFlight.size() >= m_maxInFlight)
        return;
    EtcdWorkItemReply *reply = queue->receive();
    m_receive = reply;
    connect(reply, &EtcdReply::finished, this,
        [this, reply](const EtcdStatus &status) { delivered(reply, status); });
}

void EtcdQmlWorkQueue::delivered(EtcdWorkItemReply *reply, const EtcdStatus &status)
{
    if (reply != m_receive)
        return; // cancelled here
    m_receive.clear();
    if (!status.isOk()) {
        setError(status);
        m_retry.start(); // etcd may be back by then
        return;
    }
    QPointer<EtcdQmlWorkQueue> self(this);
    if (reply->found()) {
        const EtcdWorkItem item = reply->item();
        m_inFlight.insert(item.id, item);
        Q_EMIT inFlightChanged();
        if (self)
            Q_EMIT received(EtcdQmlWorkItem(item, this));
    }
    if (self) // a handler may have destroyed the item
        consumeIfWanted();
}

/*!
    \qmltype QueueContents
    \inqmlmodule EtcdQt
    \brief A live view of the items of the queue at \c path while \c active, as the list
    model \c model, in the order they will be taken (EtcdQueueModel over an
    EtcdPathChildrenCache).

    \c kind says how the queue's keys are read: QueueContents.Fifo (the default, a Queue),
    QueueContents.Priority (a PriorityQueue) or QueueContents.Work (a WorkQueue). The first
    row is always the next item to be taken. A work queue's items come grouped by state, in
    this order: QueueContents.Queued (waiting in \c{items/}), QueueContents.Delayed (not
    due yet), QueueContents.InFlight (claimed by the consumer in \c consumer),
    QueueContents.Orphaned (claimed by a consumer whose lease ended, until a sweep moves it)
    and QueueContents.DeadLetter; \c states (flags, default all of them) says which states
    have rows.

    Roles: \c key, \c itemId (the item's name under the path; a work item's id), \c value
    (text, or hex when not UTF-8), \c rawValue, \c priority (-1 but for a priority queue),
    \c itemState (a State value), \c attempt (a work item's delivery count), \c consumer,
    \c modRevision and \c dueTime (a delayed item's due time as a Date). get(row) is one row
    as a JS object with those fields (undefined outside the rows); \c count is the number of
    rows. \c ready turns true once the queue was read and the watch is live; the model is
    empty while inactive. An empty \c path is refused with \c EtcdError.InvalidArgument. The
    view writes nothing to etcd.
*/

EtcdQmlQueueContents::EtcdQmlQueueContents(QObject *parent)
    : EtcdQmlCache(parent), m_model(new EtcdQueueModel(this))
{
    connect(m_model, &EtcdQueueModel::countChanged, this, &EtcdQmlQueueContents::countChanged);
}

EtcdQmlQueueContents::~EtcdQmlQueueContents() = default;

void EtcdQmlQueueContents::setPath(const QString &path)
{
    changeSetting(m_path, path, &EtcdQmlQueueContents::pathChanged);
}

EtcdQmlQueueContents::Kind EtcdQmlQueueContents::kind() const
{
    return Kind(int(m_model->kind()));
}

// The model reads its cache's keys again: no restart needed.
void EtcdQmlQueueContents::setKind(Kind kind)
{
    static_assert(int(Fifo) == int(EtcdQueueModel::Kind::Fifo)
        && int(Priority) == int(EtcdQueueModel::Kind::Priority)
        && int(Work) == int(EtcdQueueModel::Kind::Work));
    if (kind == this->kind())
        return;
    m_model->setKind(EtcdQueueModel::Kind(int(kind)));
    Q_EMIT kindChanged();
}

EtcdQmlQueueContents::States EtcdQmlQueueContents::states() const
{
    return States::fromInt(m_model->states().toInt());
}

void EtcdQmlQueueContents::setStates(States states)
{
    using S = EtcdQueueModel::State;
    static_assert(int(Queued) == int(S::Queued) && int(Delayed) == int(S::Delayed)
        && int(InFlight) == int(S::InFlight) && int(Orphaned) == int(S::Orphaned)
        && int(DeadLetter) == int(S::DeadLetter));
    if (states == this->states())
        return;
    m_model->setStates(EtcdQueueModel::States::fromInt(states.toInt()));
    Q_EMIT statesChanged();
}

int EtcdQmlQueueContents::count() const
{
    return m_model->rowCount();
}

QAbstractItemModel *EtcdQmlQueueContents::model() const
{
    return m_model;
}

/*! \qmlmethod var QueueContents::get(int row)
    Row \a row as a JS object with one field per role; undefined outside the rows. */
QVariant EtcdQmlQueueContents::get(int row) const
{
    if (row < 0 || row >= m_model->rowCount())
        return {};
    const QModelIndex index = m_model->index(row);
    QVariantMap fields;
    const QHash<int, QByteArray> roles = m_model->roleNames();
    for (auto it = roles.cbegin(); it != roles.cend(); ++it)
        fields.insert(QString::fromLatin1(it.value()), m_model->data(index, it.key()));
    return fields;
}

QString EtcdQmlQueueContents::invalidSetting() const
{
    return m_path.isEmpty() ? tr("a QueueContents needs a path") : QString();
}

QObject *EtcdQmlQueueContents::startRecipe(EtcdClient *client)
{
    auto *cache = new EtcdPathChildrenCache(client, m_path.toUtf8());
    m_model->setCache(cache); // before the signals below, which find it up to date
    followCache(cache);
    cache->start(EtcdPathChildrenCache::StartMode::BuildInitialCache);
    return cache;
}

void EtcdQmlQueueContents::recipeStopped()
{
    m_model->setCache(nullptr); // one removal of every row
    EtcdQmlCache::recipeStopped();
}
