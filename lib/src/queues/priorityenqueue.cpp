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
    std::shared_ptr<Memory> memory;
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

void write(const Shared &a, qint64 seq, qint64 revision);

// The sequence number after the last key at the level (none: 0).
qint64 nextAfter(const QList<EtcdKeyValue> &last)
{
    return last.isEmpty() ? 0 : QueueKeys::prioritySequence(last.first().key).value_or(-1) + 1;
}

void onWritten(const Shared &a, qint64 seq, EtcdTxnReply *r, const EtcdStatus &s)
{
    if (!s.isOk()) {
        if (a->memory)
            a->memory->remove(a->priority); // unknown whether it was written: read next time
        return finish(a, s);
    }
    if (r->succeeded()) {
        if (a->memory)
            a->memory->insert(a->priority, {seq, r->revision()});
        return finish(a, {}, r->revision());
    }
    if (++a->tries >= kMaxAttempts)
        return finish(a,
            EtcdStatus(Etcd::ErrorCode::Aborted,
                QCoreApplication::translate("EtcdPriorityQueue",
                    "gave up after %1 enqueues at this priority lost to others")
                    .arg(kMaxAttempts)));
    const QList<EtcdTxnOpResult> results = r->results();
    write(a, nextAfter(results.isEmpty() ? QList<EtcdKeyValue>() : results.first().keyValues),
        r->revision());
}

// Sequence number `seq`, known at `revision`, written only if the marker was not touched
// after that revision.
void write(const Shared &a, qint64 seq, qint64 revision)
{
    EtcdTxn txn;
    txn.compares.append(
        EtcdCompare::modRevision(a->marker, Etcd::CompareResult::Less, revision + 1));
    txn.success.append(EtcdTxnOp::put(a->marker, QByteArray("")));
    txn.success.append(
        EtcdTxnOp::put(QueueKeys::priorityItem(a->path, a->priority, seq), a->value));
    txn.failure.append(EtcdTxnOp::get(a->level, lastAtLevel()));
    EtcdTxnReply *r = txnOn(a->client, txn);
    QObject::connect(
        r, &EtcdReply::finished, r, [a, seq, r](const EtcdStatus &s) { onWritten(a, seq, r, s); });
}
} // namespace

void run(EtcdClient *client, EtcdBoolReply *reply, const QByteArray &queuePath, int priority,
    const QByteArray &value, const std::shared_ptr<Memory> &memory)
{
    auto a = std::make_shared<Attempt>();
    a->client = client;
    a->reply = reply;
    a->path = queuePath;
    a->priority = priority;
    a->level = QueueKeys::priorityLevel(queuePath, priority);
    a->marker = QueueKeys::priorityMarker(queuePath, priority);
    a->value = value;
    a->memory = memory;
    if (memory && memory->contains(priority)) {
        const LastWrite last = memory->value(priority);
        return write(a, last.seq + 1, last.revision);
    }
    EtcdRangeReply *r = getOn(client, a->level, lastAtLevel());
    QObject::connect(r, &EtcdReply::finished, r, [a, r](const EtcdStatus &s) {
        if (!s.isOk())
            return finish(a, s);
        write(a, nextAfter(r->keyValues()), r->revision());
    });
}

} // namespace Etcd::Internal::PriorityEnqueue
