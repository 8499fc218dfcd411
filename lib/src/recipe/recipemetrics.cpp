// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "recipemetrics_p.h"

#include "etcdclient_p.h"

#include <EtcdQt/etcdreply.h>

namespace Etcd::Internal {

MetricsSlotPtr metricsOf(const EtcdClient *client)
{
    static const auto nobody = std::make_shared<const MetricsSlot>();
    if (!client)
        return nobody;
    return EtcdClientPrivate::get(const_cast<EtcdClient *>(client))->metrics;
}

void timeQueueReply(EtcdReply *reply, const EtcdClient *client,
    EtcdMetrics::QueueOperation operation, const QByteArray &path)
{
    const MetricsSlotPtr slot = metricsOf(client);
    if (!reply || !slot->sink())
        return;
    QObject::connect(reply, &EtcdReply::finished, reply,
        [span = MetricSpan(slot), operation, path](const EtcdStatus &status) mutable {
            if (!status.isOk())
                return;
            span.end([&](EtcdMetrics &m, EtcdMetrics::Duration d) {
                m.recordQueueOperation(operation, path, d);
            });
        });
}

} // namespace Etcd::Internal
