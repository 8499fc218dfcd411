// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "clientcalls_p.h"
#include "etcdqt_internal_p.h"
#include "queueinput_p.h"
#include "queuekeys_p.h"
#include "recipemetrics_p.h"
#include "recipereplies_p.h"

#include <EtcdQt/etcdclient.h>
#include <EtcdQt/etcdqueue.h>
#include <EtcdQt/etcdreplies.h>

#include <QtCore/qdatetime.h>

using namespace Etcd::Internal;

/*!
    \class EtcdQueue
    \inmodule EtcdQt
    \brief A FIFO queue in etcd, ordered by mod revision: etcd-recipes' DistributedQueue.

    enqueue() puts the value at \c{<path>/<millis %019d>-<3 random>} (the enqueue time in
    milliseconds since the epoch, zero-padded to 19 digits), with no lease: items outlive
    their producer. enqueueAll() puts a batch in one transaction, at
    \c{<path>/<millis %019d>-<index %05d>-<3 random>}; the batch's items share one revision
    and are taken in their index order. The layout is byte-identical to etcd-recipes 0.12, so
    Kotlin producers and Qt consumers share a queue. The take side is EtcdAbstractQueue's.
*/

/*! Constructs a queue at \a path on \a client. No I/O happens until the first call. The
    object is a child of \a parent. */
EtcdQueue::EtcdQueue(EtcdClient *client, const QByteArray &path, QObject *parent)
    : EtcdAbstractQueue(client, path, Order::ModRevision,
        QStringLiteral("DistributedQueue[%1]").arg(QString::fromUtf8(path)), parent)
{ }

/*! Destroys the object after close(). */
EtcdQueue::~EtcdQueue()
{
    close();
}

/*!
    Puts \a value at the end of the queue. The reply's status says whether etcd stored it;
    InvalidArgument for an empty path or a value over etcd's request limit (1.5 MiB), and
    Cancelled after close().
*/
EtcdReply *EtcdQueue::enqueue(const QByteArray &value)
{
    if (const EtcdStatus why = refusal(value.size()); !why.isOk())
        return RecipeReplies::failedBool(this, why);
    const QByteArray name = QueueKeys::itemName(QDateTime::currentMSecsSinceEpoch());
    if (!client())
        return RecipeReplies::failedBool(this, clientGone());
    return timeQueueOperation(client()->put(QueueKeys::children(path()) + name, value), client(),
        EtcdMetrics::QueueOperation::Enqueue, path());
}

/*!
    Puts \a values at the end of the queue in one transaction, in their order. Refused with
    InvalidArgument when empty, over 128 values (etcd's operations per transaction) or over
    etcd's request limit together.
*/
EtcdReply *EtcdQueue::enqueueAll(const QList<QByteArray> &values)
{
    if (const EtcdStatus why = refusal(0); !why.isOk())
        return RecipeReplies::failedBool(this, why);
    if (const EtcdStatus why = QueueInput::checkBatch(path(), values, 128); !why.isOk())
        return RecipeReplies::failedBool(this, why);
    const qint64 millis = QDateTime::currentMSecsSinceEpoch();
    EtcdTxn txn;
    for (qsizetype i = 0; i < values.size(); ++i) {
        const QByteArray key
            = QueueKeys::children(path()) + QueueKeys::batchItemName(millis, int(i));
        txn.success.append(EtcdTxnOp::put(key, values.at(i)));
    }
    return timeQueueOperation(
        txnOn(client(), txn), client(), EtcdMetrics::QueueOperation::Enqueue, path());
}

/*!
    Puts \a value, taken from \a key for a take that was cancelled, back at the end of the
    queue (its first place is gone: a new put has a new revision).
*/
void EtcdQueue::putBack(const QByteArray &, const QByteArray &value)
{
    qCWarning(lcEtcdQueue).noquote()
        << "queue" << path() << "puts an item taken for a cancelled take back at its end";
    if (client())
        client()->put(
            QueueKeys::children(path()) + QueueKeys::itemName(QDateTime::currentMSecsSinceEpoch()),
            value);
}
