// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API.
#pragma once

#include <EtcdQt/etcdmetrics.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <vector>

namespace Etcd::Internal {

// Where one client's parts find the metrics sink its user installed (EtcdClient::setMetrics()).
// Shared by the client, its transport, its engine and its recipes, from any thread. With no
// sink a report is one atomic load and a branch: nothing is timed or formatted for nobody.
class MetricsSlot
{
public:
    using Clock = std::chrono::steady_clock;

    [[nodiscard]] EtcdMetrics *sink() const { return m_sink.load(std::memory_order_acquire); }
    // Runs `report(sink)` when a sink is installed.
    template <typename F>
    void report(F &&report) const
    {
        if (EtcdMetrics *m = sink())
            report(*m);
    }
    // When a measured span starts: a real time only when someone listens.
    [[nodiscard]] Clock::time_point startTime() const
    {
        return sink() ? Clock::now() : Clock::time_point();
    }
    // Runs `report(sink, duration)` for a span that began at `start` (startTime()); not for one
    // that began before a sink was installed, whose start was never read.
    template <typename F>
    void reportSince(Clock::time_point start, F &&report) const
    {
        EtcdMetrics *m = sink();
        if (m && start != Clock::time_point())
            report(*m, std::chrono::duration_cast<EtcdMetrics::Duration>(Clock::now() - start));
    }

    // Every sink ever installed lives as long as the slot: another thread may be reporting to
    // the one being replaced, and a report must not need a lock.
    void install(std::shared_ptr<EtcdMetrics> sink)
    {
        std::lock_guard lock(m_mutex);
        m_kept.push_back(sink);
        m_sink.store(sink.get(), std::memory_order_release);
        m_current = std::move(sink);
    }
    [[nodiscard]] std::shared_ptr<EtcdMetrics> current() const
    {
        std::lock_guard lock(m_mutex);
        return m_current;
    }

private:
    std::atomic<EtcdMetrics *> m_sink {nullptr};
    mutable std::mutex m_mutex;
    std::shared_ptr<EtcdMetrics> m_current;
    std::vector<std::shared_ptr<EtcdMetrics>> m_kept;
};

using MetricsSlotPtr = std::shared_ptr<const MetricsSlot>;

} // namespace Etcd::Internal
