// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API.
#pragma once

#include <QtCore/qbytearray.h>
#include <QtCore/qhash.h>

#include <memory>

class EtcdBoolReply;
class EtcdClient;

// One priority-queue enqueue (etcd-recipes' DistributedPriorityQueue.enqueue): read the last
// key at the priority, write the next sequence number with the marker key guarded by "the
// marker is unchanged since the read"; a lost race reads the new last key from the failed
// transaction's answer and tries again, at most 50 times (then Aborted). The read is skipped
// when this object wrote the level last (Memory).
namespace Etcd::Internal::PriorityEnqueue {

inline constexpr int kMaxAttempts = 50;

// What one queue object wrote last at each priority: its sequence number and revision. While
// the marker is unchanged since, the next number is known without a read (one RPC, not two);
// a write of anyone else in between fails the guard and the answer carries the last key.
struct LastWrite
{
    qint64 seq = 0;
    qint64 revision = 0;
};
using Memory = QHash<int, LastWrite>;

// Finishes `reply` (true) once stored, or with the failure. `client` may be gone.
void run(EtcdClient *client, EtcdBoolReply *reply, const QByteArray &queuePath, int priority,
    const QByteArray &value, const std::shared_ptr<Memory> &memory = {});

} // namespace Etcd::Internal::PriorityEnqueue
