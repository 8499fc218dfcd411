// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "clientcalls_p.h"
#include "priorityenqueue_p.h"
#include "queuekeys_p.h"
#include "recipereplies_p.h"

#include <EtcdQt/etcdclient.h>
#include <EtcdQt/etcdrangereply.h>
#include <EtcdQt/etcdtxnreply.h>

#include <QtCore/qcoreapplication.h>
#include <QtCore/qpointer.h>

#include <memory>

namespace Etcd::Internal::PriorityEnqueue {

namespace {
struct Attempt
{
    QPointer<EtcdClient> client;
    QPointer<EtcdBoolReply> reply;
    QByteArray level; // "<q>/<priority>/"
    QByteArray path;
    int priority = 0;
    QByteArray marker;
    QByteArray value;
    int tries = 0;
};
using Shared = std::shared_ptr<Attempt>;

EtcdRangeOptions lastAtLevel()
{
    EtcdRangeOptions o;
    o.prefix = true;
    o.limit = 1;
    o.sortTarget = Etcd::SortTarget::Key;
    o.sortOrder = Etcd::SortOrder::Descending;
    return o;
}

void finish(const Shared &a, const EtcdStatus &status, qint64 revision = 0)
{
    if (a->reply)
        RecipeReplies::finish(a->reply, status, status.isOk(), revision);
}

void write(const Shared &a, const QList<EtcdKeyValue> &last, qint64 revision);

void onWritten(const Shared &a, EtcdTxnReply *r, const EtcdStatus &s)
{
    if (!s.isOk())
        return finish(a, s);
    if (r->succeeded())
        return finish(a, {}, r->revision());
    if (++a->tries >= kMaxAttempts)
        return finish(a,
            EtcdStatus(Etcd::ErrorCode::Aborted,
                QCoreApplication::translate("EtcdPriorityQueue",
                    "gave up after %1 enqueues at this priority lost to others")
                    .arg(kMaxAttempts)));
    const QList<EtcdTxnOpResult> results = r->results();
    write(a, results.isEmpty() ? QList<EtcdKeyValue>() : results.first().keyValues, r->revision());
}

// The next sequence number after `last` (read at `revision`), written only if the marker was
// not touched after that read.
void write(const Shared &a, const QList<EtcdKeyValue> &last, qint64 revision)
{
    qint64 seq = 0;
    if (!last.isEmpty())
        seq = QueueKeys::prioritySequence(last.first().key).value_or(-1) + 1;
    EtcdTxn txn;
    txn.compares.append(
        EtcdCompare::modRevision(a->marker, Etcd::CompareResult::Less, revision + 1));
    txn.success.append(EtcdTxnOp::put(a->marker, QByteArray("")));
    txn.success.append(
        EtcdTxnOp::put(QueueKeys::priorityItem(a->path, a->priority, seq), a->value));
    txn.failure.append(EtcdTxnOp::get(a->level, lastAtLevel()));
    EtcdTxnReply *r = txnOn(a->client, txn);
    QObject::connect(
        r, &EtcdReply::finished, r, [a, r](const EtcdStatus &s) { onWritten(a, r, s); });
}
} // namespace

void run(EtcdClient *client, EtcdBoolReply *reply, const QByteArray &queuePath, int priority,
    const QByteArray &value)
{
    auto a = std::make_shared<Attempt>();
    a->client = client;
    a->reply = reply;
    a->path = queuePath;
    a->priority = priority;
    a->level = QueueKeys::priorityLevel(queuePath, priority);
    a->marker = QueueKeys::priorityMarker(queuePath, priority);
    a->value = value;
    EtcdRangeReply *r = getOn(client, a->level, lastAtLevel());
    QObject::connect(r, &EtcdReply::finished, r, [a, r](const EtcdStatus &s) {
        if (!s.isOk())
            return finish(a, s);
        write(a, r->keyValues(), r->revision());
    });
}

} // namespace Etcd::Internal::PriorityEnqueue
