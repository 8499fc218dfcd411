// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API.
#pragma once

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
        : mailbox(std::move(m)), observer(o), keySpace(k)
    { }
    const MailboxPtr mailbox;
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

    std::mutex mutex;
    quint64 generation = 0;
    WatchRoutePtr creating;
    std::unordered_map<qint64, WatchRoutePtr> byServerId;
    std::atomic<bool> heard {false}; // anything at all arrived: the stream is alive
    MetricsSlotPtr metrics = std::make_shared<MetricsSlot>(); // set before the router is shared

private:
    void bind(const WatchResponseData &response);
    static void deliver(WatchRoute &route, WatchResponseData &response);
};

} // namespace Etcd::Internal
