// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API. Includes gRPC.
#pragma once

#include "transport_p.h"

#include "etcdserverpb/rpc.grpc.pb.h"
#include "v3lockpb/v3lock.grpc.pb.h"

#include <grpcpp/grpcpp.h>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace Etcd::Internal {

struct Stubs
{
    std::shared_ptr<grpc::Channel> channel;
    std::unique_ptr<etcdserverpb::KV::Stub> kv;
    std::unique_ptr<etcdserverpb::Lease::Stub> lease;
    std::unique_ptr<etcdserverpb::Watch::Stub> watch;
    std::unique_ptr<etcdserverpb::Auth::Stub> auth;
    std::unique_ptr<etcdserverpb::Cluster::Stub> cluster;
    std::unique_ptr<etcdserverpb::Maintenance::Stub> maintenance;
    std::unique_ptr<v3lockpb::Lock::Stub> lock;
};

// Shared by the Transport and every call it started, so a late gRPC callback or a retry timer
// never outlives the channels, stubs and bookkeeping it touches.
class TransportPrivate : public std::enable_shared_from_this<TransportPrivate>
{
public:
    TransportPrivate(const QList<Endpoint> &endpoints, const TlsMaterial &tls, QObject *engine,
        TransportListener *listener, MetricsSlotPtr metrics);

    // Registers a call about to be handed to gRPC; false once shutdown() has begun. A
    // `draining` call is one drain() waits for.
    bool begin(const std::shared_ptr<CallHandle> &call, bool draining = false);
    void end(CallHandle *call);
    void drain(std::chrono::milliseconds bound);
    void noteOutcome(int endpoint, int grpcCode, const EtcdStatus &status);
    // Moves the current endpoint past `endpoint`, unless someone already did: several calls
    // and streams failing on one endpoint must not rotate past the healthy ones.
    void moveOffEndpoint(int endpoint);
    bool scheduleRetry(
        const std::shared_ptr<class CallBase> &call, std::chrono::milliseconds delay);
    void authenticate(grpc::ClientContext &context) const;
    void shutdown();

    const QList<Endpoint> endpoints; // one Stubs each (empty after shutdown)
    const MetricsSlotPtr metrics;
    std::vector<Stubs> stubs;
    std::atomic<int> current {0};
    QByteArray authToken; // guarded by tokenMutex, like the rest of the auth state
    QByteArray user;
    QByteArray password;
    bool refreshing = false;
    std::vector<std::function<void(const EtcdStatus &)>> tokenWaiters;
    mutable std::mutex tokenMutex;

    bool hasCredentials() const;
    void refreshToken(std::function<void(const EtcdStatus &)> done);

private:
    std::mutex m_mutex;
    std::condition_variable m_idle;
    QObject *m_engine;
    TransportListener *m_listener;
    bool m_closing = false;
    std::atomic<bool> m_healthy {false};
    struct InFlight
    {
        std::shared_ptr<CallHandle> call;
        bool draining = false;
        int attempts = 0; // begin()s not yet ended
    };
    std::unordered_map<CallHandle *, InFlight> m_inflight;
    int m_draining = 0; // entries of m_inflight with `draining` set
};

} // namespace Etcd::Internal
