// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "etcdqt_internal_p.h"
#include "priorityenqueue_p.h"
#include "queuekeys_p.h"
#include "recipemetrics_p.h"
#include "recipereplies_p.h"

#include <EtcdQt/etcdclient.h>
#include <EtcdQt/etcdpriorityqueue.h>

using namespace Etcd::Internal;

class EtcdPriorityQueuePrivate
{
public:
    std::shared_ptr<PriorityEnqueue::Memory> memory = std::make_shared<PriorityEnqueue::Memory>();
};

/*!
    \class EtcdPriorityQueue
    \inmodule EtcdQt
    \brief A queue taken by priority, lower number first: etcd-recipes'
    DistributedPriorityQueue.

    enqueue() puts the value at \c{<path>/<priority %05d>/<seq %016d>}, where the sequence
    number is one past the last one at that priority, and touches the marker key
    \c{__<path>/<priority %05d>} in the same transaction; the transaction commits only if
    the marker was not touched since the read, so two producers never get one sequence
    number. On contention it tries again, at most 50 times, with the fresh last key taken
    from the failed transaction's answer (no extra read), then fails with Aborted. The object
    remembers the number and revision it wrote last at each priority: while no one else wrote
    there since, the next enqueue needs no read (one transaction). Items are
    taken in key order: priority, then sequence. The first take reads the first 128 keys and
    the queue's watch keeps them from then on: a take is one transaction, which commits only
    while the head is unchanged and no marker of a lower priority was touched after the
    keys the object knows (an item put ahead is then taken first, once the watch brought it).
    The marker keys lie outside the queue's prefix and are never deleted, as in etcd-recipes.
*/

/*!
    \variable EtcdPriorityQueue::kMaxPriority
    The last priority, taken after every other: 65535 (etcd-recipes' UShort range).
*/

/*! Constructs a priority queue at \a path on \a client. The object is a child of \a parent. */
EtcdPriorityQueue::EtcdPriorityQueue(EtcdClient *client, const QByteArray &path, QObject *parent)
    : EtcdAbstractQueue(client, path, Order::Key,
        QStringLiteral("DistributedPriorityQueue[%1]").arg(QString::fromUtf8(path)), parent),
      d_ptr(new EtcdPriorityQueuePrivate)
{ }

/*! Destroys the object after close(). */
EtcdPriorityQueue::~EtcdPriorityQueue()
{
    close();
}

/*!
    Puts \a value into the queue at \a priority (0 is taken first, 65535 last); among equal
    priorities, in enqueue order. The reply's status says InvalidArgument for a priority
    outside 0..65535, an empty path or a value over etcd's request limit, Aborted after 50
    lost races, Cancelled after close().
*/
EtcdReply *EtcdPriorityQueue::enqueue(const QByteArray &value, int priority)
{
    if (priority < 0 || priority > kMaxPriority)
        return RecipeReplies::failedBool(this,
            EtcdStatus(Etcd::ErrorCode::InvalidArgument,
                tr("priority %1 is outside 0..%2").arg(priority).arg(kMaxPriority)));
    if (const EtcdStatus why = refusal(value.size()); !why.isOk())
        return RecipeReplies::failedBool(this, why);
    EtcdBoolReply *r = RecipeReplies::boolReply(this);
    timeQueueReply(r, client(), EtcdMetrics::QueueOperation::Enqueue, path());
    PriorityEnqueue::run(client(), r, path(), priority, value, d_ptr->memory);
    return r;
}

/*!
    Puts \a value, taken from \a key for a take that was cancelled, back at the priority its
    key names, after the items there now.
*/
void EtcdPriorityQueue::putBack(const QByteArray &key, const QByteArray &value)
{
    const int priority = QueueKeys::priorityOf(path(), key).value_or(0);
    qCWarning(lcEtcdQueue).noquote()
        << "priority queue" << path() << "puts an item taken for a cancelled take back";
    EtcdBoolReply *r = RecipeReplies::boolReply(client());
    PriorityEnqueue::run(client(), r, path(), priority, value);
}
