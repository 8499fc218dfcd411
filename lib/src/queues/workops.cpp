// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "queuekeys_p.h"
#include "workops_p.h"

#include <EtcdQt/etcdcodec.h>

namespace Etcd::Internal::WorkOps {

using QueueKeys::Area;
using QueueKeys::workKey;

QByteArray attemptBytes(int attempt)
{
    return Etcd::encodeInt32(attempt);
}

int attemptOf(const QByteArray &bytes)
{
    return Etcd::decodeInt32(bytes).value_or(0);
}

EtcdRangeOptions headOf()
{
    EtcdRangeOptions o;
    o.prefix = true;
    o.limit = 1;
    return o;
}

EtcdTxn claim(const QByteArray &path, const EtcdKeyValue &head, int attempt,
    const QString &clientId, qint64 leaseId)
{
    const QByteArray id = QueueKeys::idOf(head.key, QueueKeys::area(path, Area::Items));
    EtcdTxn txn;
    txn.compares.append(
        EtcdCompare::modRevision(head.key, Etcd::CompareResult::Equal, head.modRevision));
    EtcdPutOptions leased;
    leased.lease = leaseId;
    txn.success = {EtcdTxnOp::remove(head.key),
        EtcdTxnOp::put(workKey(path, Area::Claimed, id), head.value),
        EtcdTxnOp::put(workKey(path, Area::Claims, id), clientId.toUtf8(), leased),
        EtcdTxnOp::put(workKey(path, Area::Attempts, id), attemptBytes(attempt))};
    txn.failure = {EtcdTxnOp::get(QueueKeys::area(path, Area::Items), headOf())};
    return txn;
}

EtcdTxn promote(const QByteArray &path, const EtcdKeyValue &delayed)
{
    const QByteArray id = QueueKeys::idOf(delayed.key, QueueKeys::area(path, Area::Delayed));
    EtcdTxn txn;
    txn.compares.append(
        EtcdCompare::modRevision(delayed.key, Etcd::CompareResult::Equal, delayed.modRevision));
    txn.success = {EtcdTxnOp::remove(delayed.key),
        EtcdTxnOp::put(workKey(path, Area::Items, id), delayed.value)};
    return txn;
}

EtcdTxn reclaim(
    const QByteArray &path, const EtcdKeyValue &claimed, int attempts, int maxDeliveries)
{
    const QByteArray id = QueueKeys::idOf(claimed.key, QueueKeys::area(path, Area::Claimed));
    const Area to = attempts >= maxDeliveries ? Area::DeadLetters : Area::Items;
    EtcdTxn txn;
    txn.compares = {EtcdCompare::missing(workKey(path, Area::Claims, id)),
        EtcdCompare::modRevision(claimed.key, Etcd::CompareResult::Equal, claimed.modRevision)};
    txn.success
        = {EtcdTxnOp::remove(claimed.key), EtcdTxnOp::put(workKey(path, to, id), claimed.value)};
    return txn;
}

namespace {
// The claim still stands: the same key, created by the same claim transaction.
EtcdCompare claimHolds(const EtcdWorkItem &item)
{
    return EtcdCompare::createRevision(
        item.claim.key, Etcd::CompareResult::Equal, item.claim.revision);
}
} // namespace

EtcdTxn ack(const QByteArray &path, const EtcdWorkItem &item)
{
    EtcdTxn txn;
    txn.compares = {claimHolds(item)};
    txn.success = {EtcdTxnOp::remove(workKey(path, Area::Claims, item.id)),
        EtcdTxnOp::remove(workKey(path, Area::Claimed, item.id)),
        EtcdTxnOp::remove(workKey(path, Area::Attempts, item.id))};
    return txn;
}

EtcdTxn requeue(const QByteArray &path, const EtcdWorkItem &item)
{
    EtcdTxn txn;
    txn.compares = {claimHolds(item)};
    txn.success = {EtcdTxnOp::put(workKey(path, Area::Items, item.id), item.value),
        EtcdTxnOp::remove(workKey(path, Area::Claims, item.id)),
        EtcdTxnOp::remove(workKey(path, Area::Claimed, item.id))};
    return txn;
}

EtcdTxn ackWith(const QByteArray &path, const EtcdWorkItem &item, const EtcdTxn &effects)
{
    EtcdTxn txn = ack(path, item);
    txn.compares.append(effects.compares);
    txn.success = effects.success + txn.success;
    txn.failure = effects.failure;
    return txn;
}

EtcdTxn requeueDeadLetter(const QByteArray &path, const EtcdKeyValue &dead)
{
    const QByteArray id = QueueKeys::idOf(dead.key, QueueKeys::area(path, Area::DeadLetters));
    EtcdTxn txn;
    txn.compares
        = {EtcdCompare::modRevision(dead.key, Etcd::CompareResult::Equal, dead.modRevision)};
    txn.success = {EtcdTxnOp::put(workKey(path, Area::Items, id), dead.value),
        EtcdTxnOp::remove(dead.key), EtcdTxnOp::remove(workKey(path, Area::Attempts, id))};
    return txn;
}

EtcdTxn purgeDeadLetter(const QByteArray &path, const QByteArray &id)
{
    const QByteArray key = workKey(path, Area::DeadLetters, id);
    EtcdTxn txn;
    txn.compares = {EtcdCompare::version(key, Etcd::CompareResult::Greater, 0)};
    txn.success = {EtcdTxnOp::remove(key), EtcdTxnOp::remove(workKey(path, Area::Attempts, id))};
    return txn;
}

} // namespace Etcd::Internal::WorkOps
