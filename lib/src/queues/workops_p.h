// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API.
#pragma once

#include "etcdqt_internal_p.h"

#include <EtcdQt/etcdkeyvalue.h>
#include <EtcdQt/etcdtxn.h>
#include <EtcdQt/etcdworkitem.h>

#include <QtCore/qstring.h>

#include <optional>

// The transactions of etcd-recipes' DistributedWorkQueue (reference §2.4), byte for byte, with
// one strengthening: acknowledgements are guarded by the claim's create revision (the fencing
// token), not only by its value, so a consumer whose lease healed cannot acknowledge a later
// delivery of the same item with an earlier delivery's handle.
namespace Etcd::Internal::WorkOps {

// The attempt count's bytes (4-byte big-endian, etcd-recipes' Int), and back (0 when absent).
ETCDQT_AUTOTEST_EXPORT QByteArray attemptBytes(int attempt);
ETCDQT_AUTOTEST_EXPORT int attemptOf(const QByteArray &bytes);

// The head of one area, in key order.
ETCDQT_AUTOTEST_EXPORT EtcdRangeOptions headOf();

// Claims `head` (a key in items/) as delivery `attempt` for `clientId` on `leaseId`: if the
// item is unchanged, delete it, copy it to claimed/, write claims/ and attempts/. On failure,
// reads the new head of items/.
ETCDQT_AUTOTEST_EXPORT EtcdTxn claim(const QByteArray &path, const EtcdKeyValue &head, int attempt,
    const QString &clientId, qint64 leaseId);
// Moves the due delayed item `delayed` into items/ under the same name.
ETCDQT_AUTOTEST_EXPORT EtcdTxn promote(const QByteArray &path, const EtcdKeyValue &delayed);
// Moves the orphaned claimed/ copy `claimed` (its claim gone) back to items/ under its id (its
// first place in the queue), or to dlq/ once `attempts` reached `maxDeliveries`.
ETCDQT_AUTOTEST_EXPORT EtcdTxn reclaim(
    const QByteArray &path, const EtcdKeyValue &claimed, int attempts, int maxDeliveries);
// Under the claim's guard: ends the delivery (ack), or puts the item back in its place keeping
// its attempt count (requeue); ackWith adds `effects` (their compares too) to the ack.
ETCDQT_AUTOTEST_EXPORT EtcdTxn ack(const QByteArray &path, const EtcdWorkItem &item);
ETCDQT_AUTOTEST_EXPORT EtcdTxn requeue(const QByteArray &path, const EtcdWorkItem &item);
ETCDQT_AUTOTEST_EXPORT EtcdTxn ackWith(
    const QByteArray &path, const EtcdWorkItem &item, const EtcdTxn &effects);
// Dead letters: back to items/ with a fresh attempt count (guarded on the dead letter being
// unchanged), or deleted.
ETCDQT_AUTOTEST_EXPORT EtcdTxn requeueDeadLetter(const QByteArray &path, const EtcdKeyValue &dead);
ETCDQT_AUTOTEST_EXPORT EtcdTxn purgeDeadLetter(const QByteArray &path, const QByteArray &id);

} // namespace Etcd::Internal::WorkOps
