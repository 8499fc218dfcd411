// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API.
#pragma once

#include "ackrouter_p.h"
#include "leaseshared_p.h"
#include "transport_p.h"

#include <QtCore/qtimer.h>

#include <atomic>
#include <chrono>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <unordered_map>

namespace Etcd::Internal {

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
    void renew(Entry &e, SteadyTime now);
    SteadyTime renewAt(const Entry &e) const;
    std::chrono::milliseconds leaseBoundDelay(SteadyTime now) const;
    void expire(quint64 id, const EtcdStatus &reason);
    void report(EtcdMetrics::KeepAlive event) const;
    void suspendAll(const EtcdStatus &reason);
    void arm();
    void armFor(SteadyTime at);

    Transport &m_transport;
    EtcdRetryPolicy m_recovery;
    std::chrono::milliseconds m_liveness;
    MailboxPtr m_self;
    std::shared_ptr<AckRouter> m_router = std::make_shared<AckRouter>();
    std::shared_ptr<KeepAliveStream> m_stream;
    quint64 m_generation = 0;
    std::map<quint64, Entry> m_entries;
    QTimer m_timer;
    SteadyTime m_timerAt; // when m_timer fires, while it is active
    QTimer m_reconnect;
    std::optional<SteadyTime> m_awaitingAckSince; // a renewal went out, nothing came back yet
    int m_failures = 0;
    SteadyTime m_outageStart;
};

} // namespace Etcd::Internal
