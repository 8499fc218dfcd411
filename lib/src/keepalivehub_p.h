// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API.
#pragma once

#include "transport/transport_p.h"

#include <QtCore/qtimer.h>

#include <atomic>
#include <chrono>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <unordered_map>

class EtcdKeepAlive;

namespace Etcd::Internal {

using SteadyTime = std::chrono::steady_clock::time_point;

// Shared by one EtcdKeepAlive, the hub and the recipe that owns something through the lease:
// the deadline, readable at any time without a message; whether anyone listens to every
// renewal (without a listener a renewal does not wake the owner's thread at all: 1,000 leases
// renew ~500 times a second); and what ends with the lease. The deadline is measured from when
// the renewal (or grant) that etcd answered was *sent*, plus the TTL etcd answered, minus the
// client's safety margin: measured from the answer's arrival it would outrun etcd's own
// deadline whenever answers are slow.
struct LeaseShared
{
    using LossHook = std::function<void(const EtcdStatus &why)>;

    std::atomic<qint64> deadlineNs {0}; // steady_clock, since its epoch
    std::atomic<bool> wantsRenewals {false};

    void setDeadline(SteadyTime t) { deadlineNs.store(t.time_since_epoch().count()); }
    SteadyTime deadline() const { return SteadyTime(SteadyTime::duration(deadlineNs.load())); }
    [[nodiscard]] bool isValid() const { return std::chrono::steady_clock::now() < deadline(); }

    // Ownership that ends with the lease registers here. The hooks run once, in the thread
    // that decides the lease is gone (the engine's: an answer of TTL 0, its deadline, the
    // client going away), before the owner thread hears of it, so a busy owner thread cannot
    // make a loss late. A hook added after the loss runs at once. Hooks must be short: they
    // flip views, request stops and wake waiters, nothing more.
    void onLoss(LossHook hook);
    // Ends the lease here and now (deadline passed) and runs the hooks; later calls do nothing.
    void lose(const EtcdStatus &why);
    [[nodiscard]] bool isLost() const;

private:
    mutable std::mutex m_mutex;
    std::vector<LossHook> m_hooks;
    bool m_lost = false;
    EtcdStatus m_why;
};

// The state `keepAlive` shares with the hub: its deadline, and where ownership that ends with
// the lease registers (LeaseShared::onLoss).
std::shared_ptr<LeaseShared> leaseStateOf(const EtcdKeepAlive &keepAlive);

// What the hub tells one EtcdKeepAlive; called in its thread through its mailbox.
class KeepAliveObserver
{
public:
    virtual ~KeepAliveObserver() = default;
    virtual void leaseRenewed(qint64 ttl, SteadyTime acknowledged) = 0;
    virtual void leaseSuspended(const EtcdStatus &reason) = 0;
    virtual void leaseExpired(const EtcdStatus &reason) = 0;
    virtual void leaseAbandoned(const EtcdStatus &reason) = 0; // the client went away
};

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

private:
    std::atomic<qint64> m_lastAckNs {0};
};

// Every kept-alive lease of one client on one LeaseKeepAlive stream (design/streams.md).
// One timer wakes at the earliest renewal or deadline; a lease is renewed at TTL/3 (together
// with every other lease due within TTL/24, so renewals travel in batches and the timer
// wakes a few times per TTL, not once per lease), and is expired when etcd answers TTL <= 0
// or nothing acknowledged it for a whole TTL.
class KeepAliveHub : public QObject
{
    Q_OBJECT
public:
    KeepAliveHub(Transport &transport, const EtcdRetryPolicy &recovery,
        std::chrono::milliseconds liveness, std::chrono::milliseconds safetyMargin,
        QObject *parent);
    ~KeepAliveHub() override;

    // The lease's deadline in `shared` is the caller's (from its grant); renewal starts now.
    void add(quint64 id, qint64 leaseId, std::chrono::seconds ttl, MailboxPtr mailbox,
        KeepAliveObserver *observer, std::shared_ptr<LeaseShared> shared);
    void remove(quint64 id);

private:
    struct Entry
    {
        KeepAliveRoutePtr route;
        SteadyTime lastSent;
        bool renewNow = true; // new, or a new stream: renew without waiting for TTL/3
    };

    template <class F>
    void tell(Entry &e, F &&f);
    void ensureStream();
    void onAck(const KeepAliveAck &ack);
    void onStreamDone(const EtcdStatus &status);
    void onTimer();
    SteadyTime renewAt(const Entry &e) const;
    void expire(quint64 id, const EtcdStatus &reason);
    void suspendAll(const EtcdStatus &reason);
    void arm();

    Transport &m_transport;
    EtcdRetryPolicy m_recovery;
    std::chrono::milliseconds m_liveness;
    MailboxPtr m_self;
    std::shared_ptr<AckRouter> m_router = std::make_shared<AckRouter>();
    std::shared_ptr<KeepAliveStream> m_stream;
    quint64 m_generation = 0;
    std::map<quint64, Entry> m_entries;
    QTimer m_timer;
    QTimer m_reconnect;
    std::optional<SteadyTime> m_awaitingAckSince; // a renewal went out, nothing came back yet
    int m_failures = 0;
    SteadyTime m_outageStart;
};

} // namespace Etcd::Internal
