// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API.
#pragma once

#include <QtCore/qbytearray.h>

class EtcdBoolReply;
class EtcdClient;

// One priority-queue enqueue (etcd-recipes' DistributedPriorityQueue.enqueue): read the last
// key at the priority, write the next sequence number with the marker key guarded by "the
// marker is unchanged since the read"; a lost race reads the new last key from the failed
// transaction's answer and tries again, at most 50 times (then Aborted).
namespace Etcd::Internal::PriorityEnqueue {

inline constexpr int kMaxAttempts = 50;

// Finishes `reply` (true) once stored, or with the failure. `client` may be gone.
void run(EtcdClient *client, EtcdBoolReply *reply, const QByteArray &queuePath, int priority,
    const QByteArray &value);

} // namespace Etcd::Internal::PriorityEnqueue
