// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API.
#pragma once

#include "engine_p.h"
#include "etcdreply_p.h"
#include "handover_p.h"

#include <EtcdQt/etcdclient.h>

#include <QtCore/qpointer.h>
#include <QtCore/qset.h>
#include <QtCore/qthread.h>

#include <mutex>
#include <optional>
#include <unordered_map>

namespace Etcd::Internal {
// What worker threads use to send a call without the client's own thread (whose event loop
// may be busy): the current session's transport, the engine its answers are delivered in, and
// the call options. A call is started with `mutex` held, and a session clears the door under
// it before its transport shuts down, so every call started here is cancelled (never
// delivered to a dead engine). Shared: a recipe keeps it past its client's death (then empty).
struct WorkerDoor
{
    std::mutex mutex;
    std::shared_ptr<Transport> transport;
    Engine *engine = nullptr;
    CallOptions options;
};
} // namespace Etcd::Internal

class EtcdClientPrivate
{
    Q_DECLARE_PUBLIC(EtcdClient)
public:
    explicit EtcdClientPrivate(EtcdClient *q) : q_ptr(q) { }
    static EtcdClientPrivate *get(EtcdClient *client) { return client->d_func(); }

    // Runs `fn(engine)` in the engine thread; false (and nothing runs) when disconnected.
    template <class F>
    bool inEngine(F &&fn)
    {
        Etcd::Internal::Engine *e = engine.data();
        if (!e)
            return false;
        postQueued(e, [e, fn = std::forward<F>(fn)] { fn(e); });
        return true;
    }

    using Transport = Etcd::Internal::Transport;
    using CallOptions = Etcd::Internal::CallOptions;
    using CallTarget = Etcd::Internal::CallTarget;

    // Creates a reply of type R and starts `start(options, target)`, or finishes the reply on
    // the next turn with `early` (bad input) or with the client's own reason to refuse.
    template <class R, class Start>
    R *call(Start &&start, std::optional<EtcdStatus> early = {}, bool retriable = true);

    // A reply of type R that belongs to no client and finishes with `status` on the next
    // turn: the answer to a call that cannot be made (no client, a foreign thread).
    template <class R>
    static R *refused(const EtcdStatus &status);

    [[nodiscard]] std::optional<EtcdStatus> refusal() const;
    [[nodiscard]] CallOptions callOptions(bool retriable) const;
    void setState(EtcdClient::State next, const EtcdStatus &reason = {});
    void onEngineState(quint64 session, EtcdClient::State next, const EtcdStatus &reason);
    void startSession(
        const QList<Etcd::Internal::Endpoint> &endpoints, const Etcd::Internal::TlsMaterial &tls);
    // Ends the session: waits up to `revokeGrace` for revokes in flight (the destructor's
    // only wait), hands out the answers that came, then aborts every other reply. With
    // EndThread::Yes the engine thread quits too (the destructor then waits for it).
    enum class EndThread { No, Yes };
    void stopSession(std::chrono::milliseconds revokeGrace = std::chrono::milliseconds(0),
        EndThread endThread = EndThread::No);
    void endEngineThread(Etcd::Internal::Engine *e);
    // Recipes and other non-reply children first (their destructors may still make calls and
    // finish replies); All once the session is over.
    enum class Children { NotReplies, All };
    void deleteChildren(Children which = Children::NotReplies);
    [[nodiscard]] QList<QPointer<EtcdReply>> outstandingReplies() const;
    // Grants answered while the client went (listed before the drain): nobody renews them.
    void revokeOrphanedGrants(
        const QList<QPointer<EtcdReply>> &grants, std::chrono::milliseconds bound);
    // Grants whose answer never came, still being revoked (revokeAbandonedLease's rechecks):
    // etcd may apply one after saying "not found", so the client going revokes them once more.
    QSet<qint64> unresolvedGrants;

    EtcdClient *q_ptr;
    QList<QUrl> endpoints;
    QByteArray keyPrefix;
    EtcdClient::State state = EtcdClient::State::Disconnected;
    std::optional<EtcdStatus> endpointError;
    std::chrono::milliseconds callDeadline {0};
    std::chrono::milliseconds connectTimeout {5000};
    std::chrono::milliseconds streamLiveness {5000};
    std::chrono::milliseconds leaseSafetyMargin {100};
    // When each lease this client granted was asked for (the reply's creation: no later than
    // the request left), so its first deadline counts from then. Taken by the lease's
    // keep-alive; bounded, since a granted lease may never be kept alive here.
    std::unordered_map<qint64, std::chrono::steady_clock::time_point> grantSent;
    // Worker threads' way in (above); refreshed whenever the session or the options change.
    std::shared_ptr<Etcd::Internal::WorkerDoor> door
        = std::make_shared<Etcd::Internal::WorkerDoor>();
    void refreshDoor();
    void recordGrant(qint64 leaseId, std::chrono::steady_clock::time_point sent);
    [[nodiscard]] std::chrono::steady_clock::time_point takeGrant(qint64 leaseId);
    EtcdRpcResilience resilience;
    // The user's metrics sink, shared with the transport, the engine and the recipes.
    const std::shared_ptr<Etcd::Internal::MetricsSlot> metrics
        = std::make_shared<Etcd::Internal::MetricsSlot>();
    EtcdTlsFiles tlsFiles;
    QString user;
    QString password; // held in memory only, never logged
    bool reportedOutage = false;
    bool destroying = false; // ~EtcdClient has begun: calls are refused

    QThread engineThread;
    QPointer<Etcd::Internal::Engine> engine;
    std::shared_ptr<Transport> transport;
    quint64 session = 0;
    QSet<EtcdReply *> pending;
};

template <class R>
R *EtcdClientPrivate::refused(const EtcdStatus &status)
{
    auto *stray = new R(nullptr);
    EtcdReplyPrivate::get(stray)->finishLater(status);
    return stray;
}

template <class R, class Start>
R *EtcdClientPrivate::call(Start &&start, std::optional<EtcdStatus> early, bool retriable)
{
    Q_Q(EtcdClient);
    if (QThread::currentThread() != q->thread()) {
        qCWarning(lcEtcdClient, "EtcdClient: calls must be made from the client's thread");
        return refused<R>(EtcdStatus(
            Etcd::ErrorCode::WrongThread, EtcdClient::tr("call made from a foreign thread")));
    }
    auto *reply = new R(q);
    auto *rd = EtcdReplyPrivate::get(reply);
    if (!early)
        early = refusal();
    if (early) {
        rd->finishLater(*early);
        return reply;
    }
    pending.insert(reply);
    rd->onDone = [this](EtcdReply *r) { pending.remove(r); };
    CallTarget target {reply, [reply](const EtcdStatus &s, Etcd::Internal::ReplyData &&data) {
                           EtcdReplyPrivate::get(reply)->finish(s, std::move(data));
                       }};
    rd->call = start(*transport, callOptions(retriable), std::move(target));
    return reply;
}
