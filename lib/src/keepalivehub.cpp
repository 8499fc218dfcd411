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

KeepAliveHub::KeepAliveHub(
    Transport &transport, const EtcdRetryPolicy &recovery, milliseconds liveness, QObject *parent)
    : QObject(parent), m_transport(transport), m_recovery(recovery), m_liveness(liveness),
      m_self(std::make_shared<Mailbox>(this)), m_timer(this), m_reconnect(this)
{
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
    if (m_stream)
        m_stream->cancel();
}

template <class F>
void KeepAliveHub::tell(Entry &e, F &&f)
{
    e.mailbox->post([o = e.observer, f = std::forward<F>(f)] { f(o); });
}

void KeepAliveHub::add(quint64 id, qint64 leaseId, seconds ttl, MailboxPtr mailbox,
    KeepAliveObserver *observer, std::shared_ptr<LeaseShared> shared)
{
    const auto now = Clock::now();
    // Counted from now: the caller granted the lease at most a moment ago.
    m_entries[id]
        = Entry {leaseId, ttl, now + ttl, now, std::move(mailbox), observer, std::move(shared)};
    m_byLease.emplace(leaseId, id);
    ensureStream();
    onTimer();
}

void KeepAliveHub::remove(quint64 id)
{
    auto it = m_entries.find(id);
    if (it == m_entries.end())
        return;
    auto [first, last] = m_byLease.equal_range(it->second.leaseId);
    for (auto i = first; i != last; ++i) {
        if (i->second == id) {
            m_byLease.erase(i);
            break;
        }
    }
    m_entries.erase(it);
}

void KeepAliveHub::ensureStream()
{
    if (m_stream || m_entries.empty())
        return;
    const quint64 gen = ++m_generation;
    StreamCallbacks<KeepAliveAck> cb;
    cb.mailbox = m_self;
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

void KeepAliveHub::onAck(const KeepAliveAck &ack)
{
    const auto now = Clock::now();
    m_awaitingAckSince.reset();
    m_failures = 0;
    std::vector<quint64> gone;
    auto [first, last] = m_byLease.equal_range(ack.leaseId);
    for (auto it = first; it != last; ++it) {
        Entry &e = m_entries.at(it->second);
        if (ack.ttl <= 0) {
            gone.push_back(it->second);
            continue;
        }
        e.ttl = seconds(ack.ttl);
        e.deadline = now + e.ttl;
        e.nextRenewal = now + e.ttl / 3;
        e.shared->setDeadline(e.deadline);
        if (std::exchange(e.suspended, false) || e.shared->wantsRenewals.load())
            tell(e, [ttl = ack.ttl, now](KeepAliveObserver *o) { o->leaseRenewed(ttl, now); });
    }
    for (quint64 id : gone)
        expire(id,
            EtcdStatus(Etcd::ErrorCode::LeaseNotFound, message("etcd no longer has the lease")));
    // No re-arm: an ack only moves deadlines later; the timer, if early, re-arms itself.
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
    const auto elapsed = duration_cast<milliseconds>(Clock::now() - m_outageStart);
    const auto delay = m_recovery.nextDelay(m_failures, elapsed).value_or(milliseconds(250));
    m_reconnect.start(delay); // leases still expire on their deadlines meanwhile
    for (auto &[id, e] : m_entries)
        e.nextRenewal = Clock::now(); // renew at once on the next stream
}

void KeepAliveHub::suspendAll(const EtcdStatus &reason)
{
    for (auto &[id, e] : m_entries) {
        if (!std::exchange(e.suspended, true))
            tell(e, [reason](KeepAliveObserver *o) { o->leaseSuspended(reason); });
    }
}

void KeepAliveHub::onTimer()
{
    const auto now = Clock::now();
    std::vector<quint64> expired;
    for (auto &[id, e] : m_entries) {
        if (now >= e.deadline) {
            expired.push_back(id);
        } else if (now + e.ttl / 24 >= e.nextRenewal && m_stream) {
            m_stream->renew(e.leaseId);
            e.nextRenewal
                = now + std::max(duration_cast<milliseconds>(e.ttl / 3), milliseconds(500));
            if (!m_awaitingAckSince)
                m_awaitingAckSince = now;
        }
    }
    for (quint64 id : expired)
        expire(id,
            EtcdStatus(Etcd::ErrorCode::LeaseExpired,
                message("no renewal was acknowledged within the lease's TTL")));
    if (m_stream && m_awaitingAckSince && now - *m_awaitingAckSince >= m_liveness) {
        // A paused etcd keeps TCP open and answers nothing: treat silence as a broken stream.
        qCInfo(lcEtcdClient) << "keep-alive stream silent; reconnecting";
        suspendAll(
            EtcdStatus(Etcd::ErrorCode::DeadlineExceeded, message("keep-alive stream silent")));
        m_stream->cancel();
    }
    arm();
}

void KeepAliveHub::expire(quint64 id, const EtcdStatus &reason)
{
    auto it = m_entries.find(id);
    if (it == m_entries.end())
        return;
    it->second.shared->setDeadline(Clock::now());
    tell(it->second, [reason](KeepAliveObserver *o) { o->leaseExpired(reason); });
    remove(id);
}

void KeepAliveHub::arm()
{
    if (m_entries.empty()) {
        m_timer.stop();
        return;
    }
    auto next = SteadyTime::max();
    for (const auto &[id, e] : m_entries)
        next = std::min({next, e.deadline, m_stream ? e.nextRenewal : e.deadline});
    if (m_stream && m_awaitingAckSince)
        next = std::min(next, *m_awaitingAckSince + m_liveness);
    const auto wait = duration_cast<milliseconds>(next - Clock::now());
    m_timer.start(std::max(wait, milliseconds(0)));
}

} // namespace Etcd::Internal
