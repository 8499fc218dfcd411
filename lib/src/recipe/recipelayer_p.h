// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API.
#pragma once

#include "leaseshared_p.h"
#include "watchrouter_p.h"

#include <EtcdQt/etcdkeepalive.h>
#include <EtcdQt/etcdrecipe.h>
#include <EtcdQt/etcdwatch.h>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>

namespace Etcd::Internal {

// What a recipe does when the watch it follows reports. Every member may be empty.
struct WatchFollower
{
    std::function<void(const QList<EtcdWatchEvent> &events)> events;
    std::function<void()> active; // the watch went live (also again after a resync)
    // After a reconnect: the stream resumed where it left off (`compactedAt` 0), or the
    // history it needs was compacted at `compactedAt` (AwaitResync: re-read, then
    // EtcdWatch::resync(); ResumeAtCompaction: it resumed there, re-read what it skipped).
    std::function<void(qint64 compactedAt)> reconnected;
    std::function<void(const EtcdStatus &why)> failed;
    WatchGuard guard; // sees the events in the engine thread first (ownership decisions)
};

// Where a follower that is not itself a recipe (a part a recipe is made of: an arrival, a
// wait, an owned key) reports the connection state of what it follows. May be empty.
using ConnectionSink = std::function<void(EtcdRecipe::ConnectionState state)>;

// What a recipe does when the keep-alive of a lease it owns reports. Every member may be empty.
struct KeepAliveFollower
{
    std::function<void()> resumed; // renewals acknowledged again after a suspension
    std::function<void(const EtcdStatus &why)> failed; // expired, or the client went away
    LeaseShared::LossHook lost; // the engine thread, the moment it decides the lease is gone
    // Renewals stopped getting through (after the sink heard Suspended).
    std::function<void(const EtcdStatus &why)> suspended;
    // The lease is gone: etcd said so, or no renewal was acknowledged for a TTL (before
    // `failed`).
    std::function<void(const EtcdStatus &why)> expired;
    // Renewal stopped without an expiry: the client went away (after `failed`).
    std::function<void(const EtcdStatus &why)> abandoned;
    // A lease expired on the client's clock is the follower's to revoke (revokeAbandonedLease()),
    // once its keys are off it; otherwise the keep-alive revokes it at once.
    bool revokesAbandonedLease = false;
};

// The plumbing every recipe shares (issue 16's recipe layer): following a watch, following a
// keep-alive, adopting an inner recipe. A friend of EtcdRecipe, so that what a watch or lease
// reports becomes the recipe's connection state in one place, the same way for every recipe.
class RecipeLayer
{
public:
    // See workerMailboxOf() (handoff_p.h).
    static MailboxPtr workerMailbox(QObject *recipe);

    // What `recipe` reports when something it follows changes connection state.
    static ConnectionSink sinkOf(EtcdRecipe *recipe);
    // The same for a part's watch (a wait, an arrival, a participant queue) that reports only
    // an outage of the stream: it never moves `recipe` out of Lost. Lost was decided by what
    // the recipe owns (an expired lease, a key taken), and only that lifts it (a heal).
    static ConnectionSink partSinkOf(EtcdRecipe *recipe);

    // A started watch on `key`: its suspensions make `recipe` Suspended, its resumptions
    // Reconnected (then `follower.reconnected`). `mode`: what a compacted start does.
    static std::unique_ptr<EtcdWatch> followWatch(EtcdRecipe *recipe, const QByteArray &key,
        const EtcdWatchOptions &options, EtcdWatch::ResyncMode mode, WatchFollower follower);
    // The same for a part of a recipe: `follower`'s callbacks run in `context`'s thread, while
    // `context` lives; the connection state goes to `sink`.
    static std::unique_ptr<EtcdWatch> followWatch(EtcdClient *client, QObject *context,
        const QByteArray &key, const EtcdWatchOptions &options, EtcdWatch::ResyncMode mode,
        WatchFollower follower, ConnectionSink sink = {});

    // A started keep-alive of `leaseId` (granted with `ttl`): its suspension makes `recipe`
    // Suspended, its resumption Reconnected (then `follower.resumed`).
    static std::unique_ptr<EtcdKeepAlive> followKeepAlive(
        EtcdRecipe *recipe, qint64 leaseId, std::chrono::seconds ttl, KeepAliveFollower follower);
    // The same for a part of a recipe (see followWatch()).
    static std::unique_ptr<EtcdKeepAlive> followKeepAlive(EtcdClient *client, QObject *context,
        qint64 leaseId, std::chrono::seconds ttl, KeepAliveFollower follower,
        ConnectionSink sink = {});

    // The key an ownership stood on went away while its lease was still kept alive here. etcd
    // deletes the keys of an expired or revoked lease at once, so the deletion is often the
    // first word of a lost lease: this asks etcd whether lease `leaseId` still lives and calls
    // `decided` in `context`'s thread with the answer (nullopt: etcd did not answer, or there
    // is no client), so that leaseLost() is reported whenever the lease was what ended,
    // whichever came first.
    // When the engine has decided already that the lease is lost (`known`, the lease's shared
    // state, isLost()), the answer is that, on the next turn, without asking etcd.
    // Whether `status` is an outage of an etcd `client` had reached (Unavailable,
    // DeadlineExceeded or NoLeader while the client is not still connecting for the first
    // time): a waiting recipe rides it out and asks again, as its watch does.
    [[nodiscard]] static bool isOutageOfReachedEtcd(
        const EtcdClient *client, const EtcdStatus &status);
    static void askWhetherLeaseIsGone(EtcdClient *client, QObject *context, qint64 leaseId,
        std::function<void(std::optional<bool> gone, const EtcdStatus &status)> decided,
        const std::shared_ptr<LeaseShared> &known = {});

    // `outer` is made of `inner`: the inner recipe's connection state, errors, lease losses
    // and closed() become the outer's.
    static void adopt(EtcdRecipe *outer, EtcdRecipe *inner);
};

} // namespace Etcd::Internal
