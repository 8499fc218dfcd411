// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "watchhub_p.h"

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
    m_liveness.setInterval(liveness);
}

WatchHub::~WatchHub()
{
    m_self->close();
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
    e.mailbox->post([o = e.observer, f = std::forward<F>(f)] { f(o); });
}

void WatchHub::add(quint64 id, const WatchSpec &spec, MailboxPtr mailbox, WatchObserver *observer)
{
    Entry &e = m_entries[id];
    e.spec = spec;
    e.mailbox = std::move(mailbox);
    e.observer = observer;
    e.nextRevision = spec.request.startRevision;
    enqueue(id);
    ensureStream();
    sendNextCreate();
}

void WatchHub::remove(quint64 id)
{
    auto it = m_entries.find(id);
    if (it == m_entries.end())
        return;
    Entry &e = it->second;
    if (e.phase == Phase::Active && m_stream) {
        m_stream->cancelWatch(e.serverId);
        m_byServerId.erase(e.serverId);
    }
    if (m_creating == id)
        m_creatingOrphan = true; // its created response still comes; cancel it then
    std::erase(m_queue, id);
    m_entries.erase(it);
}

void WatchHub::resync(quint64 id, qint64 anchorRevision)
{
    auto it = m_entries.find(id);
    if (it == m_entries.end() || it->second.phase != Phase::AwaitingResync)
        return;
    Entry &e = it->second;
    e.nextRevision = anchorRevision;
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
    StreamCallbacks<WatchResponseData> cb;
    cb.mailbox = m_self;
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
    m_heard = true;
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
    if (!m_stream || m_creating || m_queue.empty() || m_authPending)
        return;
    const quint64 id = m_queue.front();
    m_queue.pop_front();
    Entry &e = m_entries.at(id);
    e.phase = Phase::Creating;
    m_creating = id;
    m_creatingOrphan = false;
    WatchCreate request = e.spec.request;
    request.startRevision = e.nextRevision;
    m_stream->create(request);
}

void WatchHub::onResponse(WatchResponseData &&r)
{
    m_heard = true;
    if (r.created) {
        onCreated(r);
        return;
    }
    const auto it = m_byServerId.find(r.watchId);
    if (it == m_byServerId.end())
        return; // progress broadcast (id -1), or a watch we cancelled
    if (r.canceled)
        onCanceled(it->second, r);
    else
        onEvents(it->second, r);
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
        Entry &e = m_entries.at(*id);
        e.phase = Phase::Active;
        e.serverId = r.watchId;
        m_byServerId[r.watchId] = *id;
        // Everything up to the header revision is covered from here on.
        if (e.nextRevision == 0)
            e.nextRevision = r.revision + 1;
        tell(e,
            [next = e.nextRevision, again = std::exchange(e.suspended, false)](
                WatchObserver *o) { o->watchCreated(next, again); });
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

void WatchHub::onCanceled(quint64 id, const WatchResponseData &r)
{
    Entry &e = m_entries.at(id);
    m_byServerId.erase(e.serverId);
    if (r.compactRevision <= 0) {
        fail(id, EtcdStatus(Etcd::ErrorCode::Cancelled, r.cancelReason));
        return;
    }
    // The resume revision was compacted away: events in between are lost for good.
    e.compactRevision = r.compactRevision;
    if (e.spec.awaitResync) {
        e.phase = Phase::AwaitingResync;
        tell(e, [c = r.compactRevision](WatchObserver *o) { o->watchResyncRequested(c); });
        return;
    }
    e.nextRevision = r.compactRevision;
    tell(e, [c = r.compactRevision](WatchObserver *o) { o->watchResynced(c, c); });
    enqueue(id);
    sendNextCreate();
}

void WatchHub::onEvents(quint64 id, const WatchResponseData &r)
{
    Entry &e = m_entries.at(id);
    QList<EtcdWatchEvent> events = r.events;
    if (events.isEmpty()) {
        e.nextRevision = std::max(e.nextRevision, r.revision + 1); // progress notification
    } else {
        e.nextRevision = std::max(e.nextRevision, events.last().revision + 1);
        for (EtcdWatchEvent &ev : events) {
            ev.keyValue.key = e.spec.keySpace.strip(ev.keyValue.key);
            ev.prevKeyValue.key = e.spec.keySpace.strip(ev.prevKeyValue.key);
        }
    }
    // nextRevision moved before the delivery is posted: a break from here never replays.
    tell(e, [events = std::move(events), next = e.nextRevision](WatchObserver *o) {
        o->watchEvents(events, next);
    });
}

void WatchHub::onStreamDone(const EtcdStatus &status)
{
    m_stream.reset();
    m_liveness.stop();
    m_byServerId.clear();
    m_creating.reset();
    m_queue.clear();
    if (m_failures++ == 0)
        m_outage.start();
    for (auto &[id, e] : m_entries) {
        if (e.phase == Phase::AwaitingResync)
            continue;
        // Only a watch that was live is suspended; one still being created just waits.
        if (e.phase == Phase::Active && !std::exchange(e.suspended, true))
            tell(e, [status](WatchObserver *o) { o->watchSuspended(status); });
        enqueue(id);
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
    m_reconnect.start(*delay);
}

void WatchHub::onLivenessTick()
{
    if (!m_stream)
        return;
    if (std::exchange(m_heard, false)) {
        m_progressAsked = false;
        return;
    }
    if (!m_progressAsked) {
        m_progressAsked = true;
        m_stream->requestProgress(); // anything at all answers "alive"
        return;
    }
    qCInfo(lcEtcdClient) << "watch stream silent for" << 2 * m_liveness.interval()
                         << "ms; reconnecting";
    m_stream->cancel(); // done follows and recovery starts
}

void WatchHub::fail(quint64 id, const EtcdStatus &status)
{
    auto it = m_entries.find(id);
    if (it == m_entries.end())
        return;
    tell(it->second, [status](WatchObserver *o) { o->watchFailed(status); });
    std::erase(m_queue, id);
    m_entries.erase(it);
}

} // namespace Etcd::Internal
