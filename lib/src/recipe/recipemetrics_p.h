// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API.
#pragma once

#include "metricsslot_p.h"

#include <utility>

#include <QtCore/qbytearray.h>

class EtcdClient;
class EtcdReply;

namespace Etcd::Internal {

// The metrics sink `client`'s user installed (an empty slot for no client). Shared: a recipe
// may outlive its client and still report what it finishes.
MetricsSlotPtr metricsOf(const EtcdClient *client);

// One measured span of a recipe (a wait, a hold, an operation), reported at most once.
class MetricSpan
{
public:
    MetricSpan() = default;
    explicit MetricSpan(MetricsSlotPtr slot) : m_slot(std::move(slot)), m_start(m_slot->startTime())
    { }
    [[nodiscard]] bool isRunning() const { return m_start != MetricsSlot::Clock::time_point(); }
    // Runs `report(sink, duration)` if the span runs and someone listens; the span ends.
    template <typename F>
    void end(F &&report)
    {
        if (m_slot)
            m_slot->reportSince(std::exchange(m_start, {}), std::forward<F>(report));
    }

private:
    MetricsSlotPtr m_slot;
    MetricsSlot::Clock::time_point m_start;
};

// Reports `operation` of the queue at `path` once `reply` finished without an error, timed
// from now. Returns `reply`.
template <typename R>
R *timeQueueOperation(R *reply, const EtcdClient *client, EtcdMetrics::QueueOperation operation,
    const QByteArray &path);
void timeQueueReply(EtcdReply *reply, const EtcdClient *client,
    EtcdMetrics::QueueOperation operation, const QByteArray &path);

template <typename R>
R *timeQueueOperation(R *reply, const EtcdClient *client, EtcdMetrics::QueueOperation operation,
    const QByteArray &path)
{
    timeQueueReply(reply, client, operation, path);
    return reply;
}

} // namespace Etcd::Internal
