// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "watchrouter_p.h"

#include "watchhub_p.h"

namespace Etcd::Internal {

bool WatchRouter::route(quint64 gen, WatchResponseData &r)
{
    heard.store(true, std::memory_order_relaxed);
    std::lock_guard lock(mutex);
    if (gen != generation)
        return true; // a stream that has since been replaced
    if (r.created) {
        bind(r);
        return false; // the engine still books the creation and sends the next one
    }
    const auto it = byServerId.find(r.watchId);
    if (it == byServerId.end())
        return true; // progress broadcast (id -1), or a watch cancelled meanwhile
    if (r.canceled) {
        for (const WatchRoutePtr &route : it->second.routes)
            route->serverId = -1;
        byServerId.erase(it);
        return false; // compaction or refusal: the engine decides what follows
    }
    deliver(it->second, r);
    return true;
}

// Binds the watch being created to its server id and tells its owner, before any event of it
// can arrive (they come after this response, on this same thread).
void WatchRouter::bind(const WatchResponseData &r)
{
    const WatchRoutePtr route = std::exchange(creating, nullptr);
    if (!route || route->closed || r.canceled || r.watchId < 0)
        return;
    route->serverId = r.watchId;
    if (route->nextRevision == 0)
        route->nextRevision = r.revision + 1; // everything up to the header is covered
    ServerWatch &watch = byServerId[r.watchId];
    watch.routes = {route};
    watch.next = route->nextRevision;
    watch.created = r.revision;
    announce(*route);
}

bool WatchRouter::join(const WatchRoutePtr &route, qint64 serverId)
{
    std::lock_guard lock(mutex);
    const auto it = byServerId.find(serverId);
    if (it == byServerId.end() || route->closed)
        return false;
    ServerWatch &watch = it->second;
    const bool fromNow = route->nextRevision == 0;
    if (fromNow ? watch.next <= watch.created : route->nextRevision < watch.next)
        return false; // history this one must not see, or needs and the watch has passed
    if (fromNow)
        route->nextRevision = watch.next;
    route->serverId = serverId;
    watch.routes.push_back(route);
    announce(*route);
    return true;
}

void WatchRouter::leave(WatchRoute &route)
{
    const auto it = byServerId.find(std::exchange(route.serverId, -1));
    if (it == byServerId.end())
        return;
    std::erase_if(
        it->second.routes, [&route](const WatchRoutePtr &r) { return r.get() == &route; });
    if (it->second.routes.empty())
        byServerId.erase(it);
}

void WatchRouter::announce(WatchRoute &route)
{
    const bool again = std::exchange(route.suspended, false);
    if (again)
        metrics->report([](EtcdMetrics &m) {
            m.recordWatchRecovery(EtcdMetrics::WatchRecovery::Resubscribed);
        });
    route.tell(
        [next = route.nextRevision, again](WatchObserver *o) { o->watchCreated(next, again); });
}

void WatchRouter::deliver(ServerWatch &watch, WatchResponseData &r)
{
    qint64 next = r.revision + 1; // a progress notification: everything up to its header
    if (!r.events.isEmpty()) {
        next = r.events.last().revision + 1;
        const KeySpace &keySpace = watch.routes.front()->keySpace; // one client, one prefix
        for (EtcdWatchEvent &ev : r.events) {
            ev.keyValue.key = keySpace.strip(ev.keyValue.key);
            ev.prevKeyValue.key = keySpace.strip(ev.prevKeyValue.key);
        }
    }
    watch.next = std::max(watch.next, next);
    CourierBatch batch; // the watches it serves mostly live in one thread: one post there
    for (const WatchRoutePtr &route : watch.routes)
        deliver(*route, r.events, next, batch);
    batch.post();
}

void WatchRouter::deliver(
    WatchRoute &route, const QList<EtcdWatchEvent> &all, qint64 next, CourierBatch &batch)
{
    QList<EtcdWatchEvent> events = all; // shared, not copied, unless filtered below
    if (!events.isEmpty() && events.first().revision < route.nextRevision) {
        // A watch that joined after these: it starts later than the one etcd serves.
        events.removeIf(
            [&route](const EtcdWatchEvent &ev) { return ev.revision < route.nextRevision; });
        if (events.isEmpty())
            return;
    }
    route.nextRevision = std::max(route.nextRevision, next);
    const ArmedGuard *armed = route.guard ? route.guard.target<ArmedGuard>() : nullptr;
    if (route.guard && !events.isEmpty() && (!armed || armed->armed()))
        route.guardMailbox->post([g = route.guard, events] { g(events); });
    // nextRevision moved before the delivery is posted: a break from here never replays.
    batch.add(route.courier,
        route.item([events = std::move(events), n = route.nextRevision](
                       WatchObserver *o) { o->watchEvents(events, n); }));
}

} // namespace Etcd::Internal
