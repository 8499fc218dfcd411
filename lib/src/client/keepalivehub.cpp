// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "keepalivehub_p.h"

#include <QtCore/qcoreapplication.h>

namespace Etcd::Internal {

using namespace std::chrono;
using Clock = steady_clock;

namespace {
QString message(const char *text)
{
    return QCoreApplication::translate("EtcdKeepAlive", text);
}
} // namespace

KeepAliveHub::KeepAliveHub(Transport &transport, const EtcdRetryPolicy &recovery,
    milliseconds liveness, milliseconds safetyMargin, QObject *parent)
    : QObject(parent), m_transport(transport), m_recovery(recovery), m_liveness(liveness),
      m_self(std::make_shared<Mailbox>(this)), m_timer(this), m_reconnect(this)
{
    m_router->margin = safetyMargin;
    m_router->metrics = transport.metrics();
    m_timer.setSingleShot(true);
    m_timer.setTimerType(Qt::PreciseTimer);
    connect(&m_timer, &QTimer::timeout, this, &KeepAliveHub::onTimer);
    m_reconnect.setSingleShot(true);
    connect(&m_reconnect, &QTimer::timeout, this, [this] {
        ensureStream();
        onTimer();
    });
}

KeepAliveHub::~KeepAliveHub()
{
    m_self->close();
    {
        // The stream is cancelled, not yet done: no late ack may renew anything now.
        std::lock_guard lock(m_router->mutex);
        m_router->generation = 0;
        m_router->byLease.clear();
    }
    const EtcdStatus gone(Etcd::ErrorCode::Cancelled,
        message(QT_TRANSLATE_NOOP("EtcdKeepAlive", "client disconnected")));
    for (auto &[id, e] : m_entries) {
        e.route->shared->lose(gone); // nobody renews it any more: whatever it held is over
        tell(e, [gone](KeepAliveObserver *o) { o->leaseAbandoned(gone); });
    }
    if (m_stream)
        m_stream->cancel();
}

template <class F>
void KeepAliveHub::tell(Entry &e, F &&f)
{
    e.route->mailbox->post([o = e.route->observer, f = std::forward<F>(f)] { f(o); });
}

void KeepAliveHub::add(quint64 id, qint64 leaseId, seconds ttl, MailboxPtr mailbox,
    KeepAliveObserver *observer, std::shared_ptr<LeaseShared> shared)
{
    auto route = std::make_shared<KeepAliveRoute>(
        leaseId, ttl, std::move(mailbox), observer, std::move(shared));
    {
        std::lock_guard lock(m_router->mutex);
        m_router->byLease.emplace(leaseId, route);
    }
    Entry &e = m_entries[id] = Entry {std::move(route), {}, true};
    const bool hadStream = bool(m_stream);
    ensureStream();
    if (!hadStream) // a new stream: every lease waiting for one is renewed on it now
        return onTimer();
    // On a stream that runs, only this lease is due now: renewed here, and the timer armed for
    // it when it comes before the next wake-up. A full onTimer() pass per add made starting n
    // keep-alives cost n^2 (10,000 leases: a third to a half of a core for the measured
    // window of bench/run --scale's scale_leases).
    renew(e, Clock::now());
    armFor(std::min(e.route->shared->deadline(), renewAt(e)));
}

void KeepAliveHub::renew(Entry &e, SteadyTime now)
{
    m_router->sending(e.route->leaseId, now); // before the write: its ack may be quick
    m_stream->renew(e.route->leaseId);
    e.lastSent = now;
    e.renewNow = false;
    if (!m_awaitingAckSince)
        m_awaitingAckSince = now;
}

void KeepAliveHub::remove(quint64 id)
{
    auto it = m_entries.find(id);
    if (it == m_entries.end())
        return;
    {
        std::lock_guard lock(m_router->mutex);
        auto [first, last] = m_router->byLease.equal_range(it->second.route->leaseId);
        for (auto i = first; i != last; ++i) {
            if (i->second == it->second.route) {
                m_router->byLease.erase(i);
                break;
            }
        }
    }
    m_entries.erase(it);
}

void KeepAliveHub::ensureStream()
{
    if (m_stream || m_entries.empty())
        return;
    const quint64 gen = ++m_generation;
    {
        std::lock_guard lock(m_router->mutex);
        m_router->generation = gen;
        m_router->sent.clear(); // renewals sent on an earlier stream are never answered
    }
    StreamCallbacks<KeepAliveAck> cb;
    cb.mailbox = m_self;
    cb.intercept = [router = m_router, gen](KeepAliveAck &ack) { return router->apply(gen, ack); };
    cb.response = [this, gen](KeepAliveAck &&ack) {
        if (gen == m_generation)
            onAck(ack);
    };
    cb.done = [this, gen](const EtcdStatus &s) {
        if (gen == m_generation)
            onStreamDone(s);
    };
    m_stream = m_transport.openKeepAlive(std::move(cb));
    m_awaitingAckSince.reset();
}

// Only the acks the router left: etcd no longer has the lease.
void KeepAliveHub::onAck(const KeepAliveAck &ack)
{
    std::vector<quint64> gone;
    for (const auto &[id, e] : m_entries) {
        if (e.route->leaseId == ack.leaseId)
            gone.push_back(id);
    }
    for (quint64 id : gone)
        expire(id,
            EtcdStatus(Etcd::ErrorCode::LeaseNotFound,
                message(QT_TRANSLATE_NOOP("EtcdKeepAlive", "etcd no longer has the lease"))));
}

void KeepAliveHub::onStreamDone(const EtcdStatus &status)
{
    m_stream.reset();
    m_awaitingAckSince.reset();
    if (m_entries.empty())
        return;
    suspendAll(status);
    if (m_failures++ == 0)
        m_outageStart = Clock::now();
    const auto now = Clock::now();
    const auto elapsed = duration_cast<milliseconds>(now - m_outageStart);
    const auto backoff = m_recovery.nextDelay(m_failures, elapsed).value_or(milliseconds(250));
    m_reconnect.start(std::min(backoff, leaseBoundDelay(now))); // leases still expire meanwhile
    for (auto &[id, e] : m_entries)
        e.renewNow = true;
}

// The backoff doubles to seconds, so after a long outage its next attempt could come after the
// nearest lease's deadline: a network back well within the TTL would still lose the lease. So
// a third of what is left of that lease bounds the pause, at least 100 ms: attempts fail fast
// while the channel is down, and near the deadline a few per second are cheap.
milliseconds KeepAliveHub::leaseBoundDelay(SteadyTime now) const
{
    auto nearest = SteadyTime::max();
    for (const auto &[id, e] : m_entries)
        nearest = std::min(nearest, e.route->shared->deadline());
    if (nearest == SteadyTime::max())
        return milliseconds::max();
    return std::max(duration_cast<milliseconds>(nearest - now) / 3, milliseconds(100));
}

void KeepAliveHub::suspendAll(const EtcdStatus &reason)
{
    std::lock_guard lock(m_router->mutex); // the router clears the flag when acks come back
    for (auto &[id, e] : m_entries) {
        if (!std::exchange(e.route->suspended, true)) {
            report(EtcdMetrics::KeepAlive::Suspended);
            tell(e, [reason](KeepAliveObserver *o) { o->leaseSuspended(reason); });
        }
    }
}

// A third of the TTL after the renewal last acknowledged; without an acknowledgement since the
// last renewal, a third of the TTL (at least 500 ms) after that renewal.
SteadyTime KeepAliveHub::renewAt(const Entry &e) const
{
    if (e.renewNow)
        return SteadyTime::min();
    const milliseconds ttl = e.route->ttl();
    const SteadyTime acked = e.route->shared->deadline() - ttl;
    return std::max(acked + ttl / 3, e.lastSent + std::max(ttl / 3, milliseconds(500)));
}

void KeepAliveHub::onTimer()
{
    const auto now = Clock::now();
    if (m_awaitingAckSince && m_router->lastAck() >= *m_awaitingAckSince) {
        m_awaitingAckSince.reset();
        m_failures = 0;
    }
    std::vector<quint64> expired;
    for (auto &[id, e] : m_entries) {
        if (now >= e.route->shared->deadline()) {
            expired.push_back(id);
        } else if (m_stream && now + e.route->ttl() / 24 >= renewAt(e)) {
            renew(e, now);
        }
    }
    for (quint64 id : expired)
        expire(id,
            EtcdStatus(Etcd::ErrorCode::LeaseExpired,
                message(QT_TRANSLATE_NOOP(
                    "EtcdKeepAlive", "no renewal was acknowledged within the lease's TTL"))));
    if (m_stream && m_awaitingAckSince && now - *m_awaitingAckSince >= m_liveness) {
        // A paused etcd keeps TCP open and answers nothing: treat silence as a broken stream.
        qCInfo(lcEtcdClient) << "keep-alive stream silent; reconnecting";
        suspendAll(EtcdStatus(Etcd::ErrorCode::DeadlineExceeded,
            message(QT_TRANSLATE_NOOP("EtcdKeepAlive", "keep-alive stream silent"))));
        {
            std::lock_guard lock(m_router->mutex);
            m_router->generation = 0; // its late acks must not un-suspend; the next stream will
        }
        // The cancelled stream may take a while to end (its connection answers nothing):
        // until then it is not silent again, or this timer would fire at once, over and over.
        m_awaitingAckSince.reset();
        m_stream->cancel();
    }
    arm();
}

void KeepAliveHub::expire(quint64 id, const EtcdStatus &reason)
{
    auto it = m_entries.find(id);
    if (it == m_entries.end())
        return;
    Entry gone = it->second;
    remove(id); // unrouted first: no ack can renew it between here and the owner
    gone.route->shared->lose(reason); // ownership ends here, whatever the owner thread does
    report(EtcdMetrics::KeepAlive::Expired);
    tell(gone, [reason](KeepAliveObserver *o) { o->leaseExpired(reason); });
}

void KeepAliveHub::report(EtcdMetrics::KeepAlive event) const
{
    m_router->metrics->report([event](EtcdMetrics &m) { m.recordKeepAlive(event); });
}

void KeepAliveHub::arm()
{
    if (m_entries.empty()) {
        m_timer.stop();
        return;
    }
    auto next = SteadyTime::max();
    for (const auto &[id, e] : m_entries) {
        const SteadyTime deadline = e.route->shared->deadline();
        next = std::min({next, deadline, m_stream ? renewAt(e) : deadline});
    }
    m_timer.stop();
    armFor(next); // which also wakes on time to notice a silent stream
}

// The timer fires at `at` unless it is armed for earlier already.
void KeepAliveHub::armFor(SteadyTime at)
{
    if (m_timer.isActive() && m_timerAt <= at)
        return;
    if (m_stream && m_awaitingAckSince) // a silent stream is noticed on time (onTimer)
        at = std::min(at, *m_awaitingAckSince + m_liveness);
    m_timerAt = at;
    m_timer.start(timerDelay(duration_cast<milliseconds>(at - Clock::now())));
}

} // namespace Etcd::Internal
