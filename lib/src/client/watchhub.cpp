// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "watchhub_p.h"

#include "etcdqt_internal_p.h"
#include "statusmapping_p.h"

#include <QtCore/qcoreapplication.h>

namespace Etcd::Internal {

using std::chrono::milliseconds;

WatchHub::WatchHub(
    Transport &transport, const EtcdRetryPolicy &recovery, milliseconds liveness, QObject *parent)
    : QObject(parent), m_transport(transport), m_recovery(recovery),
      m_self(std::make_shared<Mailbox>(this)), m_reconnect(this), m_liveness(this)
{
    m_reconnect.setSingleShot(true);
    connect(&m_reconnect, &QTimer::timeout, this, &WatchHub::ensureStream);
    connect(&m_liveness, &QTimer::timeout, this, &WatchHub::onLivenessTick);
    m_liveness.setInterval(timerDelay(liveness));
    m_router->metrics = transport.metrics();
}

void WatchHub::report(EtcdMetrics::WatchRecovery kind) const
{
    m_router->metrics->report([kind](EtcdMetrics &m) { m.recordWatchRecovery(kind); });
}

WatchHub::~WatchHub()
{
    m_self->close();
    {
        // The stream is cancelled, not yet done: nothing it still delivers may reach anyone.
        std::lock_guard lock(m_router->mutex);
        m_router->generation = 0;
        m_router->byServerId.clear();
        m_router->creating.reset();
    }
    const EtcdStatus gone(Etcd::ErrorCode::Cancelled,
        QCoreApplication::translate("EtcdWatch", "client disconnected"));
    for (auto &[id, e] : m_entries)
        tell(e, [gone](WatchObserver *o) { o->watchFailed(gone); });
    if (m_stream)
        m_stream->cancel();
}

template <class F>
void WatchHub::tell(Entry &e, F &&f)
{
    e.route->tell(std::forward<F>(f));
}

void WatchHub::add(quint64 id, const WatchSpec &spec, MailboxPtr mailbox, WatchObserver *observer)
{
    Entry &e = m_entries[id];
    e.spec = spec;
    e.route = std::make_shared<WatchRoute>(std::move(mailbox), observer, spec.keySpace);
    e.route->nextRevision = spec.request.startRevision; // not yet shared: no lock needed
    if (spec.guard) {
        e.route->guard = spec.guard;
        e.route->guardMailbox = m_self;
    }
    enqueue(id);
    ensureStream();
    sendNextCreate();
}

void WatchHub::remove(quint64 id)
{
    auto it = m_entries.find(id);
    if (it == m_entries.end())
        return;
    {
        std::lock_guard lock(m_router->mutex);
        it->second.route->closed = true;
    }
    detach(id);
    if (m_creating == id)
        m_creatingOrphan = true; // its created response still comes; cancel it then
    std::erase(m_queue, id);
    m_entries.erase(it);
}

// Off its server watch, which etcd stops when it serves no one any more.
void WatchHub::detach(quint64 id)
{
    Entry &e = m_entries.at(id);
    {
        std::lock_guard lock(m_router->mutex);
        m_router->leave(*e.route);
    }
    const auto g = m_groups.find(std::exchange(e.serverId, -1));
    if (e.phase != Phase::Active || g == m_groups.end())
        return;
    std::erase(g->second.members, id);
    if (!g->second.members.empty())
        return;
    if (m_stream)
        m_stream->cancelWatch(g->first);
    forget(g);
}

// The group is gone from etcd (or about to be): no watch joins it any more.
WatchHub::Group WatchHub::forget(std::unordered_map<qint64, Group>::iterator g)
{
    const auto shared = m_shared.find(g->second.key);
    if (shared != m_shared.end() && shared->second == g->first)
        m_shared.erase(shared); // a newer server watch of the same key may have taken its place
    Group group = std::move(g->second);
    m_groups.erase(g);
    return group;
}

WatchHub::ShareKey WatchHub::shareKey(const WatchCreate &r)
{
    return {r.key, r.rangeEnd, r.progressNotify, r.prevKv, r.noPut, r.noDelete};
}

// A watch joins the live server watch of its key and options instead of creating one, when
// that watch has not yet passed where this one starts.
bool WatchHub::join(quint64 id)
{
    Entry &e = m_entries.at(id);
    const auto shared = m_shared.find(shareKey(e.spec.request));
    if (shared == m_shared.end() || !m_router->join(e.route, shared->second))
        return false;
    e.phase = Phase::Active;
    e.serverId = shared->second;
    m_groups.at(shared->second).members.push_back(id);
    return true;
}

void WatchHub::resync(quint64 id, qint64 anchorRevision)
{
    auto it = m_entries.find(id);
    if (it == m_entries.end() || it->second.phase != Phase::AwaitingResync)
        return;
    Entry &e = it->second;
    {
        std::lock_guard lock(m_router->mutex);
        e.route->nextRevision = anchorRevision;
    }
    report(EtcdMetrics::WatchRecovery::Resynced);
    tell(e, [c = e.compactRevision, anchorRevision](WatchObserver *o) {
        o->watchResynced(c, anchorRevision);
    });
    enqueue(id);
    sendNextCreate();
}

void WatchHub::ensureStream()
{
    if (m_stream || m_entries.empty())
        return;
    const quint64 gen = ++m_generation;
    {
        std::lock_guard lock(m_router->mutex);
        m_router->generation = gen;
    }
    StreamCallbacks<WatchResponseData> cb;
    cb.mailbox = m_self;
    cb.intercept = [router = m_router, gen](WatchResponseData &r) { return router->route(gen, r); };
    cb.response = [this, gen](WatchResponseData &&r) {
        if (gen == m_generation)
            onResponse(std::move(r));
    };
    cb.done = [this, gen](const EtcdStatus &s) {
        if (gen == m_generation)
            onStreamDone(s);
    };
    m_stream = m_transport.openWatch(std::move(cb));
    if (!m_stream)
        return; // shutting down
    m_router->heard = true;
    m_progressAsked = false;
    m_liveness.start();
    sendNextCreate();
}

void WatchHub::enqueue(quint64 id)
{
    Entry &e = m_entries.at(id);
    e.phase = Phase::Queued;
    e.serverId = -1;
    m_queue.push_back(id);
}

void WatchHub::sendNextCreate()
{
    quint64 id = 0;
    do {
        if (!m_stream || m_creating || m_queue.empty() || m_authPending)
            return;
        id = m_queue.front();
        m_queue.pop_front();
    } while (join(id));
    Entry &e = m_entries.at(id);
    e.phase = Phase::Creating;
    m_creating = id;
    m_creatingOrphan = false;
    WatchCreate request = e.spec.request;
    {
        std::lock_guard lock(m_router->mutex);
        m_router->creating = e.route;
        request.startRevision = e.route->nextRevision;
    }
    m_stream->create(request);
}

// What the router left: creations and cancellations.
void WatchHub::onResponse(WatchResponseData &&r)
{
    if (r.created) {
        onCreated(r);
        return;
    }
    if (r.canceled && m_groups.count(r.watchId))
        onCanceled(r.watchId, r);
}

void WatchHub::onCreated(const WatchResponseData &r)
{
    const auto id = std::exchange(m_creating, std::nullopt);
    m_failures = 0;
    if (!id || m_creatingOrphan || !m_entries.count(*id)) {
        if (r.watchId >= 0 && m_stream)
            m_stream->cancelWatch(r.watchId);
    } else if (r.canceled || r.watchId < 0) {
        const EtcdStatus why
            = statusFromGrpc(int(Etcd::ErrorCode::FailedPrecondition), r.cancelReason);
        if (why.code() == Etcd::ErrorCode::InvalidAuthToken)
            return reauthenticate(*id);
        fail(*id, why);
    } else {
        Entry &e = m_entries.at(*id); // the router has bound it and told its owner
        e.phase = Phase::Active;
        e.serverId = r.watchId;
        const ShareKey key = shareKey(e.spec.request);
        m_groups[r.watchId] = Group {key, {*id}};
        m_shared[key] = r.watchId; // watches created from now on join this one
    }
    sendNextCreate();
}

// The stream carries the token it was opened with: after a fresh token, open a new stream.
void WatchHub::reauthenticate(quint64 id)
{
    m_entries.at(id).phase = Phase::Queued;
    m_queue.push_front(id);
    if (std::exchange(m_authPending, true))
        return;
    m_transport.refreshToken([mailbox = m_self, this](const EtcdStatus &) {
        mailbox->post([this] {
            m_authPending = false;
            if (m_stream)
                m_stream->cancel(); // recovery reopens it, now with the new token
            else
                ensureStream();
        });
    });
}

// etcd ended a server watch: each watch it served recovers on its own.
void WatchHub::onCanceled(qint64 serverId, const WatchResponseData &r)
{
    const Group group = forget(m_groups.find(serverId));
    for (quint64 id : group.members)
        cancelMember(id, r);
    sendNextCreate();
}

void WatchHub::cancelMember(quint64 id, const WatchResponseData &r)
{
    const auto it = m_entries.find(id);
    if (it == m_entries.end())
        return;
    Entry &e = it->second;
    e.serverId = -1;
    if (r.compactRevision <= 0) {
        fail(id, EtcdStatus(Etcd::ErrorCode::Cancelled, r.cancelReason));
        return;
    }
    qint64 next = 0;
    {
        std::lock_guard lock(m_router->mutex);
        next = e.route->nextRevision;
    }
    if (next >= r.compactRevision) {
        enqueue(id); // it joined past the compacted history and lost nothing: created again
        return;
    }
    // The resume revision was compacted away: events in between are lost for good.
    e.compactRevision = r.compactRevision;
    if (e.spec.awaitResync) {
        e.phase = Phase::AwaitingResync;
        tell(e, [c = r.compactRevision](WatchObserver *o) { o->watchResyncRequested(c); });
        return;
    }
    {
        std::lock_guard lock(m_router->mutex);
        e.route->nextRevision = r.compactRevision;
    }
    report(EtcdMetrics::WatchRecovery::Resynced);
    tell(e, [c = r.compactRevision](WatchObserver *o) { o->watchResynced(c, c); });
    enqueue(id);
}

void WatchHub::onStreamDone(const EtcdStatus &status)
{
    m_stream.reset();
    m_liveness.stop();
    m_groups.clear();
    m_shared.clear();
    m_creating.reset();
    m_queue.clear();
    if (m_failures++ == 0)
        m_outage.start();
    {
        // The stream is done: the router hears nothing more from it.
        std::lock_guard lock(m_router->mutex);
        m_router->byServerId.clear();
        m_router->creating.reset();
        for (auto &[id, e] : m_entries) {
            e.route->serverId = -1;
            if (e.phase == Phase::AwaitingResync)
                continue;
            // Only a watch that was live is suspended; one still being created just waits.
            if (e.phase == Phase::Active && !std::exchange(e.route->suspended, true)) {
                report(EtcdMetrics::WatchRecovery::Suspended);
                tell(e, [status](WatchObserver *o) { o->watchSuspended(status); });
            }
            enqueue(id);
        }
    }
    if (m_entries.empty())
        return;
    const auto delay = m_recovery.nextDelay(m_failures, milliseconds(m_outage.elapsed()));
    if (!delay) {
        const auto ids = m_queue;
        for (quint64 id : ids)
            fail(id, status);
        return;
    }
    m_reconnect.start(timerDelay(*delay));
}

void WatchHub::onLivenessTick()
{
    if (!m_stream)
        return;
    if (m_router->heard.exchange(false)) {
        m_progressAsked = false;
        return;
    }
    if (!m_progressAsked) {
        m_progressAsked = true;
        m_stream->requestProgress(); // anything at all answers "alive"
        return;
    }
    qCInfo(lcEtcdWatch) << "watch stream silent for" << 2 * m_liveness.interval()
                        << "ms; reconnecting";
    m_stream->cancel(); // done follows and recovery starts
}

void WatchHub::fail(quint64 id, const EtcdStatus &status)
{
    auto it = m_entries.find(id);
    if (it == m_entries.end())
        return;
    {
        std::lock_guard lock(m_router->mutex);
        it->second.route->closed = true;
    }
    detach(id);
    report(EtcdMetrics::WatchRecovery::Failed);
    tell(it->second, [status](WatchObserver *o) { o->watchFailed(status); });
    std::erase(m_queue, id);
    m_entries.erase(it);
}

} // namespace Etcd::Internal
