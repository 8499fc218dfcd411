// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API.
#pragma once

#include "leaseshared_p.h"
#include "mailbox_p.h"
#include "metricsslot_p.h"
#include "streams_p.h"

#include <deque>
#include <unordered_map>

namespace Etcd::Internal {

class KeepAliveObserver;

// One kept-alive lease as the gRPC thread sees it when an acknowledgement arrives.
struct KeepAliveRoute
{
    KeepAliveRoute(qint64 lease, std::chrono::milliseconds ttl, MailboxPtr m, KeepAliveObserver *o,
        std::shared_ptr<LeaseShared> s)
        : leaseId(lease), mailbox(std::move(m)), observer(o), shared(std::move(s)),
          ttlMs(ttl.count())
    { }
    std::chrono::milliseconds ttl() const { return std::chrono::milliseconds(ttlMs.load()); }

    const qint64 leaseId;
    const MailboxPtr mailbox;
    KeepAliveObserver *const observer;
    const std::shared_ptr<LeaseShared> shared;
    std::atomic<qint64> ttlMs; // as etcd last acknowledged it
    bool suspended = false; // guarded by AckRouter::mutex
};

using KeepAliveRoutePtr = std::shared_ptr<KeepAliveRoute>;

// Applies acknowledgements on the gRPC thread: a lease's deadline moves without waking the
// engine (1,000 leases at TTL 6 s are 500 acks a second), and the owner's thread hears of a
// renewal only when something listens or a suspension ends. An ack saying the lease is gone
// is left to the engine, which expires it.
class AckRouter
{
public:
    // gRPC thread. True when applied (or stale); false: the engine's.
    bool apply(quint64 generation, const KeepAliveAck &ack);
    SteadyTime lastAck() const { return SteadyTime(SteadyTime::duration(m_lastAckNs.load())); }

    // Engine thread, right before a renewal of `leaseId` is written.
    void sending(qint64 leaseId, SteadyTime at);

    std::mutex mutex;
    quint64 generation = 0; // a new stream clears `sent`
    std::unordered_multimap<qint64, KeepAliveRoutePtr> byLease;
    // Per lease, when each renewal not yet answered was sent: etcd answers a stream's
    // renewals in order, so an acknowledgement answers the oldest.
    std::unordered_map<qint64, std::deque<SteadyTime>> sent;
    std::chrono::milliseconds margin {0}; // subtracted from every deadline
    MetricsSlotPtr metrics = std::make_shared<MetricsSlot>(); // set before the router is shared

private:
    std::atomic<qint64> m_lastAckNs {0};
};

} // namespace Etcd::Internal
