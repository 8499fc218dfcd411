// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API.
#pragma once

#include <EtcdQt/etcdstatus.h>

#include <QtCore/qbytearray.h>

#include <functional>

class EtcdClient;
class QObject;

// etcd-recipes' reclaimOrphans(): every claimed/ copy whose claim is gone (the consumer's lease
// ended) goes back to items/ under its id, or to dlq/ after maxDeliveries. One read of the
// three areas, then one guarded transaction per orphan, all in flight at once.
namespace Etcd::Internal::WorkReclaim {

// `done(moved, status)` in `context`'s thread: how many orphans this call moved.
void run(EtcdClient *client, QObject *context, const QByteArray &path, int maxDeliveries,
    std::function<void(int moved, const EtcdStatus &status)> done);

} // namespace Etcd::Internal::WorkReclaim
