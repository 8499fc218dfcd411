// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "leaderview_p.h"

#include "clientcalls_p.h"
#include "handover_p.h"
#include "recipelayer_p.h"
#include "recipepaths_p.h"
#include "termsync_p.h"
#include "watchrouter_p.h"
#include "weakregistry_p.h"

#include <EtcdQt/etcdclient.h>
#include <EtcdQt/etcdreplies.h>
#include <EtcdQt/etcdwatch.h>

#include <QtCore/qthread.h>

#include <algorithm>
#include <climits>
#include <tuple>

namespace Etcd::Internal {

namespace {

// The wait per place in the queue when LEADER is vacated: longer than a compare-and-set and
// its watch event take on a LAN, short next to any TTL.
constexpr int kTurnStepMs = 5;
constexpr int kMaxTurnSteps = 20;
constexpr int kRereadMinMs = 100;
constexpr std::chrono::seconds kRereadCap {5};

using SharedViews
    = WeakRegistry<std::tuple<const EtcdClient *, const QThread *, QByteArray>, LeaderView>;
Q_GLOBAL_STATIC(SharedViews, sharedViews)

} // namespace

// `armed` is read lock-free by the gRPC thread before every delivery: whether anyone here
// leads; see() runs in the engine thread.
struct LeaderView::Guard
{
    std::atomic<int> armed {0};
    QMutex mutex;
    std::vector<std::shared_ptr<TermSync>> leaders; // usually one; two while a win is reaped

    void see(const QList<EtcdWatchEvent> &events)
    {
        std::vector<std::shared_ptr<TermSync>> now;
        {
            QMutexLocker lock(&mutex);
            now = leaders;
        }
        for (const auto &sync : now)
            sync->seeKeyEvents(events);
    }
};

LeaderView::Seat::Seat(std::shared_ptr<LeaderView> view, LeaderViewMember *member)
    : m_view(std::move(view)), m_member(member)
{
    m_view->add(m_member);
}

LeaderView::Seat::~Seat()
{
    if (m_armed)
        m_view->disarm(m_armed);
    m_view->remove(m_member); // passes a turn it had, once it is out of the choice
}

void LeaderView::Seat::beginTerm()
{
    if (!m_view->m_watch)
        m_view->startWatch();
    m_view->m_queue->start(); // a failed read of the queue is tried again by the next term
}

void LeaderView::Seat::endTerm()
{
    if (m_armed)
        m_view->disarm(std::exchange(m_armed, nullptr));
    m_view->passTurnOf(m_member);
}

void LeaderView::Seat::arm(const std::shared_ptr<TermSync> &sync)
{
    if (m_armed == sync.get())
        return;
    if (m_armed)
        m_view->disarm(m_armed);
    m_armed = sync.get();
    m_view->arm(sync);
}

LeaderView::LeaderView(EtcdClient *client, const QByteArray &electionPath)
    : m_client(client), m_key(client), m_path(electionPath),
      m_leaderKey(RecipePaths::leaderKey(electionPath)),
      m_queue(ParticipantQueue::sharedFor(client, electionPath)), m_guard(std::make_shared<Guard>())
{
    m_turnTimer.setSingleShot(true);
    // The turn came: campaign, but behind the events already queued for this thread, so a
    // new leader whose key arrived while the thread was busy is seen first.
    connect(
        &m_turnTimer, &QTimer::timeout, this, [this] { postQueued(this, [this] { onTurn(); }); });
    m_rereadTimer.setSingleShot(true);
    connect(&m_rereadTimer, &QTimer::timeout, this, [this] { reread(true); });
}

LeaderView::~LeaderView()
{
    if (!sharedViews.isDestroyed())
        sharedViews->forget({m_key, thread(), m_path});
}

std::unique_ptr<LeaderView::Seat> LeaderView::join(
    EtcdClient *client, const QByteArray &electionPath, LeaderViewMember *member)
{
    auto view = sharedViews->obtain(
        {client, QThread::currentThread(), electionPath},
        [client](const LeaderView &v) { return v.m_client == client && !v.m_failed; },
        [client, &electionPath] { return std::make_shared<LeaderView>(client, electionPath); });
    return std::make_unique<Seat>(std::move(view), member);
}

void LeaderView::add(LeaderViewMember *member)
{
    m_members.push_back(member);
}

void LeaderView::remove(LeaderViewMember *member)
{
    const auto it = std::find(m_members.begin(), m_members.end(), member);
    if (it == m_members.end())
        return;
    if (m_telling > 0)
        *it = nullptr; // swept after the outermost telling
    else
        m_members.erase(it);
    passTurnOf(member);
}

void LeaderView::passTurnOf(LeaderViewMember *member)
{
    if (m_turnOf == member)
        chooseTurn(QString()); // the next of this view's members in line
}

template <class F>
void LeaderView::forEachMember(F &&f)
{
    const auto keep = shared_from_this(); // a handler may destroy the last member
    ++m_telling;
    const size_t count = m_members.size(); // members seated meanwhile saw nothing of this
    for (size_t i = 0; i < count; ++i) {
        if (LeaderViewMember *m = m_members[i])
            f(m);
    }
    if (--m_telling == 0)
        std::erase(m_members, nullptr);
}

// The watch goes live from "now": it misses no DELETE after a member's first compare-and-set
// (that is sent after it is live), and etcd serves it from its synced group. A watch anchored
// at an older revision, even by one write, is caught up only by etcd's 100 ms loop.
void LeaderView::startWatch()
{
    WatchFollower follow;
    follow.events = [this](const QList<EtcdWatchEvent> &events) { onEvents(events); };
    follow.active = [this] { onActive(); };
    // Reconnected is reported here, not by the sink: a handler that destroys the last member
    // must not leave the re-read to a destroyed view.
    follow.reconnected = [this](qint64 compactedAt) {
        const auto keep = shared_from_this();
        forEachMember([](LeaderViewMember *m) {
            m->reportConnection(EtcdRecipe::ConnectionState::Reconnected);
        });
        onReconnected(compactedAt);
    };
    follow.failed = [this](const EtcdStatus &why) { onFailed(why); };
    follow.guard = ArmedGuard {[g = m_guard] { return g->armed.load() > 0; },
        [g = m_guard](const QList<EtcdWatchEvent> &events) { g->see(events); }};
    const auto sink = [this](EtcdRecipe::ConnectionState s) {
        if (s != EtcdRecipe::ConnectionState::Reconnected)
            forEachMember([s](LeaderViewMember *m) { m->reportConnection(s); });
    };
    m_watch = RecipeLayer::followWatch(m_client, this, m_leaderKey, {},
        EtcdWatch::ResyncMode::AwaitResync, std::move(follow), sink);
}

// The vacancy is settled first, so the compare-and-set whose turn it is leaves before the
// members hear of the change; then each member sees the events in order.
void LeaderView::onEvents(const QList<EtcdWatchEvent> &events)
{
    QList<QString> leaders;
    leaders.reserve(events.size());
    bool vacant = false;
    QString lastLeader; // the leader whose key the last DELETE removed
    for (const EtcdWatchEvent &e : events) {
        const bool deleted = e.type == EtcdWatchEvent::Type::Delete;
        leaders.append(deleted ? QString() : RecipePaths::stripUniqueSuffix(e.keyValue.value));
        if (deleted) {
            m_lastDelete = std::max(m_lastDelete, e.revision);
            lastLeader = std::exchange(m_holder, QString());
        } else {
            m_holder = leaders.constLast();
        }
        vacant = deleted;
    }
    if (vacant) {
        chooseTurn(lastLeader);
    } else if (!events.isEmpty()) {
        m_turnTimer.stop(); // someone won: no attempt needed
        m_turnOf = nullptr;
    }
    forEachMember([&](LeaderViewMember *m) { m->sawLeaderEvents(events, leaders); });
}

// LEADER was vacated: of this view's members, the first in the queue tries now, or after a
// few milliseconds per candidate ahead of it (in other processes), unless the new leader's
// key shows up first. `lastLeader` just left: it is no rival for this turn.
void LeaderView::chooseTurn(const QString &lastLeader)
{
    m_turnTimer.stop();
    m_turnOf = nullptr;
    int best = INT_MAX;
    for (LeaderViewMember *m : m_members) {
        if (!m || !m->awaitsTurn())
            continue;
        const int place = m_queue->placeOf(m->viewId(), lastLeader);
        if (place < best) {
            best = place;
            m_turnOf = m;
        }
        if (place == 0)
            break;
    }
    if (!m_turnOf)
        return;
    if (best == 0)
        return std::exchange(m_turnOf, nullptr)->takeTurn();
    m_turnTimer.start(std::min(best, kMaxTurnSteps) * kTurnStepMs);
}

void LeaderView::onTurn()
{
    LeaderViewMember *m = std::exchange(m_turnOf, nullptr);
    if (!m || !m_holder.isEmpty())
        return;
    if (m->awaitsTurn())
        return m->takeTurn();
    chooseTurn(QString()); // it left the running meanwhile: the next one's turn
}

void LeaderView::noteHolder(const QString &id)
{
    m_holder = id;
}

void LeaderView::onActive()
{
    m_live = true;
    forEachMember([](LeaderViewMember *m) { m->watchWentLive(); });
}

// After a reconnect the stream may have missed nothing, but LEADER is re-read anyway, once
// for every member: a leader's key must still be its own. `compactedAt` > 0: the watch lost
// its history and resumes from this read.
void LeaderView::onReconnected(qint64 compactedAt)
{
    if (compactedAt == 0)
        return requestReread();
    m_rereadTimer.stop();
    reread(true);
}

void LeaderView::requestReread()
{
    if (!std::exchange(m_rereadAsked, true))
        postQueued(this, [this] {
            m_rereadAsked = false;
            reread(false);
        });
}

void LeaderView::reread(bool resync)
{
    if (!m_client)
        return;
    auto *reply = getOn(m_client, m_leaderKey);
    connect(reply, &EtcdReply::finished, this, [this, reply, resync](const EtcdStatus &s) {
        if (!s.isOk()) {
            if (!resync)
                return; // the watch resumed where it left off: its events still come
            m_rereadDelayMs = backoffMs(m_rereadDelayMs, kRereadMinMs, kRereadCap);
            return m_rereadTimer.start(m_rereadDelayMs);
        }
        m_rereadDelayMs = 0;
        if (resync && m_watch)
            m_watch->resync(reply->revision() + 1);
        const QList<EtcdKeyValue> leader = reply->keyValues();
        const qint64 at = reply->revision();
        forEachMember([&](LeaderViewMember *m) { m->sawLeaderRead(leader, at); });
    });
}

void LeaderView::onFailed(const EtcdStatus &why)
{
    m_failed = true; // the next term's members get a new view
    m_live = false;
    m_turnTimer.stop();
    m_turnOf = nullptr;
    m_watch.release()->deleteLater(); // we are inside its signal
    forEachMember([&why](LeaderViewMember *m) { m->watchFailed(why); });
}

void LeaderView::arm(const std::shared_ptr<TermSync> &sync)
{
    QMutexLocker lock(&m_guard->mutex);
    m_guard->leaders.push_back(sync);
    m_guard->armed.store(int(m_guard->leaders.size()));
}

void LeaderView::disarm(const TermSync *sync)
{
    QMutexLocker lock(&m_guard->mutex);
    std::erase_if(m_guard->leaders, [sync](const auto &s) { return s.get() == sync; });
    m_guard->armed.store(int(m_guard->leaders.size()));
}

} // namespace Etcd::Internal
