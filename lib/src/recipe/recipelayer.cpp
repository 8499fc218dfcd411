// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "recipelayer_p.h"

#include "clientcalls_p.h"
#include "handover_p.h"

#include <EtcdQt/etcdclient.h>
#include <EtcdQt/etcdreplies.h>

#include <QtCore/qpointer.h>

namespace Etcd::Internal {

using State = EtcdRecipe::ConnectionState;

ConnectionSink RecipeLayer::sinkOf(EtcdRecipe *recipe)
{
    return [recipe](State state) { recipe->reportConnectionState(state); };
}

ConnectionSink RecipeLayer::partSinkOf(EtcdRecipe *recipe)
{
    return [recipe](State state) {
        if (recipe->connectionState() != State::Lost)
            recipe->reportConnectionState(state);
    };
}

std::unique_ptr<EtcdWatch> RecipeLayer::followWatch(EtcdRecipe *recipe, const QByteArray &key,
    const EtcdWatchOptions &options, EtcdWatch::ResyncMode mode, WatchFollower f)
{
    return followWatch(recipe->client(), recipe, key, options, mode, std::move(f), sinkOf(recipe));
}

std::unique_ptr<EtcdWatch> RecipeLayer::followWatch(EtcdClient *client, QObject *context,
    const QByteArray &key, const EtcdWatchOptions &options, EtcdWatch::ResyncMode mode,
    WatchFollower f, ConnectionSink sink)
{
    auto watch = std::make_unique<EtcdWatch>(client, key, options);
    EtcdWatch *w = watch.get();
    w->setResyncMode(mode);
    if (f.guard)
        setWatchGuard(*w, std::move(f.guard));
    if (f.events)
        QObject::connect(w, &EtcdWatch::eventsReceived, context, std::move(f.events));
    if (f.active)
        QObject::connect(w, &EtcdWatch::stateChanged, context,
            [active = std::move(f.active)](EtcdWatch::State s) {
                if (s == EtcdWatch::State::Active)
                    active();
            });
    const auto report = [sink](State s) {
        if (sink)
            sink(s);
    };
    QObject::connect(w, &EtcdWatch::suspended, context, [report] { report(State::Suspended); });
    // A handler of the report may destroy the follower: then its own callback is not called.
    const auto reconnected
        = [report, alive = QPointer<QObject>(context), r = f.reconnected](qint64 compactedAt) {
              report(State::Reconnected);
              if (r && alive)
                  r(compactedAt);
          };
    QObject::connect(w, &EtcdWatch::resubscribed, context, [reconnected] { reconnected(0); });
    QObject::connect(w, &EtcdWatch::resyncRequested, context,
        [reconnected](qint64 compactedAt) { reconnected(std::max<qint64>(compactedAt, 1)); });
    // Resuming at the compaction by itself, the watch skipped the changes compacted away: the
    // follower re-reads as after a resync request (with AwaitResync, resynced() answers the
    // follower's own resync() and must not ask again).
    if (mode == EtcdWatch::ResyncMode::ResumeAtCompaction)
        QObject::connect(
            w, &EtcdWatch::resynced, context, [reconnected](qint64 compactedAt, qint64) {
                reconnected(std::max<qint64>(compactedAt, 1));
            });
    if (f.failed)
        QObject::connect(w, &EtcdWatch::failed, context, std::move(f.failed));
    w->start();
    return watch;
}

std::unique_ptr<EtcdKeepAlive> RecipeLayer::followKeepAlive(
    EtcdRecipe *recipe, qint64 leaseId, std::chrono::seconds ttl, KeepAliveFollower f)
{
    return followKeepAlive(recipe->client(), recipe, leaseId, ttl, std::move(f), sinkOf(recipe));
}

std::unique_ptr<EtcdKeepAlive> RecipeLayer::followKeepAlive(EtcdClient *client, QObject *context,
    qint64 leaseId, std::chrono::seconds ttl, KeepAliveFollower f, ConnectionSink sink)
{
    auto keepAlive = std::make_unique<EtcdKeepAlive>(client, leaseId, ttl);
    EtcdKeepAlive *k = keepAlive.get();
    leaseStateOf(*k)->ownerRevokesAbandoned = f.revokesAbandonedLease;
    const auto report = [sink](State s) {
        if (sink)
            sink(s);
    };
    // A handler of the report may destroy the follower: then its own callback is not called.
    const QPointer<QObject> alive(context);
    QObject::connect(k, &EtcdKeepAlive::suspended, context,
        [report, alive, suspended = f.suspended](const EtcdStatus &why) {
            report(State::Suspended);
            if (suspended && alive)
                suspended(why);
        });
    QObject::connect(k, &EtcdKeepAlive::resumed, context, [report, alive, resumed = f.resumed] {
        report(State::Reconnected);
        if (resumed && alive)
            resumed();
    });
    if (f.expired)
        QObject::connect(k, &EtcdKeepAlive::expired, context, std::move(f.expired));
    if (f.failed)
        QObject::connect(k, &EtcdKeepAlive::keepAliveFailed, context, std::move(f.failed));
    if (f.abandoned)
        QObject::connect(k, &EtcdKeepAlive::keepAliveFailed, context,
            [k, abandoned = std::move(f.abandoned)](const EtcdStatus &why) {
                if (k->state() == EtcdKeepAlive::State::Failed)
                    abandoned(why);
            });
    k->start();
    if (f.lost)
        leaseStateOf(*k)->onLoss(std::move(f.lost));
    return keepAlive;
}

bool RecipeLayer::isOutageOfReachedEtcd(const EtcdClient *client, const EtcdStatus &status)
{
    const auto code = status.code();
    const bool outage = code == Etcd::ErrorCode::Unavailable
        || code == Etcd::ErrorCode::DeadlineExceeded || code == Etcd::ErrorCode::NoLeader;
    return outage && client && client->state() != EtcdClient::State::Connecting;
}

void RecipeLayer::askWhetherLeaseIsGone(EtcdClient *client, QObject *context, qint64 leaseId,
    std::function<void(std::optional<bool> gone, const EtcdStatus &status)> decided,
    const std::shared_ptr<LeaseShared> &known)
{
    if (known && known->isLost()) {
        postQueued(context, [decided] { decided(true, EtcdStatus()); });
        return;
    }
    if (!client || leaseId <= 0) {
        postQueued(context, [decided] { decided(std::nullopt, clientGone()); });
        return;
    }
    EtcdLeaseTimeToLiveReply *reply = client->leaseTimeToLive(leaseId);
    QObject::connect(reply, &EtcdReply::finished, context, [reply, decided](const EtcdStatus &s) {
        if (s.code() == Etcd::ErrorCode::LeaseNotFound || (s.isOk() && reply->ttl().count() <= 0))
            return decided(true, s);
        decided(s.isOk() ? std::optional(false) : std::nullopt, s);
    });
}

void RecipeLayer::adopt(EtcdRecipe *outer, EtcdRecipe *inner)
{
    QObject::connect(inner, &EtcdRecipe::connectionStateChanged, outer,
        [outer](State state) { outer->reportConnectionState(state); });
    QObject::connect(inner, &EtcdRecipe::errorOccurred, outer,
        [outer](const QString &, const EtcdStatus &status) { outer->keepError(status); });
    QObject::connect(inner, &EtcdRecipe::leaseLost, outer, &EtcdRecipe::leaseLost);
    QObject::connect(inner, &EtcdRecipe::closed, outer, &EtcdRecipe::closed);
}

} // namespace Etcd::Internal
