// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "ackrouter_p.h"

#include "keepalivehub_p.h"

namespace Etcd::Internal {

using namespace std::chrono;
using Clock = steady_clock;

void AckRouter::sending(qint64 leaseId, SteadyTime at)
{
    std::lock_guard lock(mutex);
    sent[leaseId].push_back(at);
}

bool AckRouter::apply(quint64 gen, const KeepAliveAck &ack)
{
    const auto now = Clock::now();
    m_lastAckNs.store(now.time_since_epoch().count());
    std::lock_guard lock(mutex);
    if (gen != generation)
        return true;
    std::optional<SteadyTime> sentAt;
    if (auto it = sent.find(ack.leaseId); it != sent.end() && !it->second.empty()) {
        sentAt = it->second.front();
        it->second.pop_front();
        if (it->second.empty())
            sent.erase(it);
    }
    if (ack.ttl <= 0)
        return false;
    if (!sentAt)
        return true; // answers nothing we sent on this stream: it proves nothing about now
    const SteadyTime deadline = *sentAt + seconds(ack.ttl) - margin;
    auto [first, last] = byLease.equal_range(ack.leaseId);
    EtcdMetrics *sink = metrics->sink();
    if (sink && first != last)
        sink->recordKeepAlive(EtcdMetrics::KeepAlive::Renewed);
    for (auto it = first; it != last; ++it) {
        KeepAliveRoute &r = *it->second;
        r.ttlMs.store(ack.ttl * 1000);
        r.shared->setDeadline(deadline);
        const bool resumed = std::exchange(r.suspended, false);
        if (sink && resumed)
            sink->recordKeepAlive(EtcdMetrics::KeepAlive::Resumed);
        if (resumed || r.shared->wantsRenewals.load())
            r.mailbox->post([o = r.observer, ttl = ack.ttl, now] { o->leaseRenewed(ttl, now); });
    }
    return true;
}

} // namespace Etcd::Internal
