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
        it->second->serverId = -1;
        byServerId.erase(it);
        return false; // compaction or refusal: the engine decides what follows
    }
    deliver(*it->second, r);
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
    byServerId[r.watchId] = route;
    if (route->nextRevision == 0)
        route->nextRevision = r.revision + 1; // everything up to the header is covered
    const bool again = std::exchange(route->suspended, false);
    if (again)
        metrics->report([](EtcdMetrics &m) {
            m.recordWatchRecovery(EtcdMetrics::WatchRecovery::Resubscribed);
        });
    route->mailbox->post(
        [o = route->observer, next = route->nextRevision, again] { o->watchCreated(next, again); });
}

void WatchRouter::deliver(WatchRoute &route, WatchResponseData &r)
{
    if (r.events.isEmpty()) {
        route.nextRevision = std::max(route.nextRevision, r.revision + 1); // progress notify
    } else {
        route.nextRevision = std::max(route.nextRevision, r.events.last().revision + 1);
        for (EtcdWatchEvent &ev : r.events) {
            ev.keyValue.key = route.keySpace.strip(ev.keyValue.key);
            ev.prevKeyValue.key = route.keySpace.strip(ev.prevKeyValue.key);
        }
    }
    const ArmedGuard *armed = route.guard ? route.guard.target<ArmedGuard>() : nullptr;
    if (route.guard && !r.events.isEmpty() && (!armed || armed->armed()))
        route.guardMailbox->post([g = route.guard, events = r.events] { g(events); });
    // nextRevision moved before the delivery is posted: a break from here never replays.
    route.mailbox->post([o = route.observer, events = std::move(r.events),
                            next = route.nextRevision] { o->watchEvents(events, next); });
}

} // namespace Etcd::Internal
