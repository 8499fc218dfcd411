// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API.
#pragma once

#include "courier_p.h"
#include "keyspace_p.h"
#include "mailbox_p.h"
#include "metricsslot_p.h"
#include "streams_p.h"

#include <EtcdQt/etcdwatch.h>

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace Etcd::Internal {

class WatchObserver;

// Sees a watch's events in the engine thread, in order, as they arrive and independently of
// the owner thread's delivery: where an ownership recipe learns that its own key was deleted
// or taken, and ends the ownership there and then.
using WatchGuard = std::function<void(const QList<EtcdWatchEvent> &events)>;

// A guard that only wants events while its recipe owns something: `armed` is asked on the
// gRPC thread (lock-free atomics only) before the events are posted to the engine, so a
// recipe that owns nothing costs no engine wake-up per event (4 contending locks: 13 % of
// their throughput).
struct ArmedGuard
{
    std::function<bool()> armed;
    WatchGuard see;
    void operator()(const QList<EtcdWatchEvent> &events) const { see(events); }
};

// One watch as the gRPC thread sees it: where its events go and where it resumes from.
struct WatchRoute
{
    WatchRoute(MailboxPtr m, WatchObserver *o, const KeySpace &k)
        : mailbox(std::move(m)), courier(Courier::of(mailbox->thread())), observer(o), keySpace(k)
    { }
    // Every call of the observer goes through its thread's courier, in order.
    template <class F>
    void tell(F &&f) const
    {
        Courier::post(courier, {item(std::forward<F>(f))});
    }
    template <class F>
    [[nodiscard]] CourierItem item(F &&f) const
    {
        return {mailbox, [o = observer, f = std::forward<F>(f)] { f(o); }};
    }
    const MailboxPtr mailbox;
    const std::shared_ptr<Courier> courier;
    WatchObserver *const observer;
    const KeySpace keySpace;
    WatchGuard guard; // with the engine's mailbox: set before the route is shared
    MailboxPtr guardMailbox;
    // Guarded by WatchRouter::mutex.
    qint64 nextRevision = 0;
    qint64 serverId = -1;
    bool suspended = false;
    bool closed = false;
};

using WatchRoutePtr = std::shared_ptr<WatchRoute>;

// One watch on etcd and the client's watches it serves: watches of one key or range with the
// same options share it, so etcd sends an event once per client, not once per watch (1,000
// candidates of one election on 10 clients: 10 events per change, not 1,000).
struct ServerWatch
{
    std::vector<WatchRoutePtr> routes;
    qint64 next = 0; // every event before it has reached every route
    qint64 created = 0; // etcd's revision when it created the watch
};

// Delivers watch responses from the gRPC thread straight to each watch's owner thread, so an
// event crosses one thread, not two (the engine would add a hop to every event). The engine
// keeps the rest: it creates, cancels and recovers, and sees every response this does not
// consume (created, cancelled). Creations are answered in order, one at a time: `creating` is
// the watch the next created response binds.
class WatchRouter
{
public:
    // gRPC thread. True when the response was delivered or is stale; false: the engine's.
    bool route(quint64 generation, WatchResponseData &response);
    // Engine thread. Adds `route` to a live server watch when that watch has delivered nothing
    // the route still needs (its start is not before the watch's `next`), or, for a route
    // "from now" (start 0), when the watch is past its creation (not replaying history the
    // route must not see). The route's owner hears watchCreated before any event of it.
    bool join(const WatchRoutePtr &route, qint64 serverId);
    // Engine thread, under `mutex`. Takes `route` off its server watch; when that watch
    // serves no one now, the server watch is forgotten (the hub cancels it on etcd).
    void leave(WatchRoute &route);

    std::mutex mutex;
    quint64 generation = 0;
    WatchRoutePtr creating;
    std::unordered_map<qint64, ServerWatch> byServerId;
    std::atomic<bool> heard {false}; // anything at all arrived: the stream is alive
    MetricsSlotPtr metrics = std::make_shared<MetricsSlot>(); // set before the router is shared

private:
    void bind(const WatchResponseData &response);
    void announce(WatchRoute &route);
    static void deliver(ServerWatch &watch, WatchResponseData &response);
    static void deliver(
        WatchRoute &route, const QList<EtcdWatchEvent> &events, qint64 next, CourierBatch &batch);
};

} // namespace Etcd::Internal
