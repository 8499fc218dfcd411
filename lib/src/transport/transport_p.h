// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API.
#pragma once

#include "callhandle_p.h"
#include "endpoint_p.h"
#include "metricsslot_p.h"
#include "streams_p.h"

#include <EtcdQt/etcdtxn.h>

#include <memory>

class QObject;

namespace Etcd::Internal {

class TransportPrivate;

// Receives transport events in the engine thread (queued).
class TransportListener
{
public:
    virtual ~TransportListener() = default;
    virtual void endpointFailed(int index, const EtcdStatus &status) = 0;
    virtual void endpointHealthy(int index) = 0;
};

// The only door to gRPC. Thread-safe: calls may start from any thread; results go to each
// call's CallTarget. Retries are timed in the engine thread, which `engine` lives in.
class Transport
{
public:
    Transport(const QList<Endpoint> &endpoints, const TlsMaterial &tls, QObject *engine,
        TransportListener *listener, MetricsSlotPtr metrics = std::make_shared<MetricsSlot>());
    ~Transport();
    Transport(const Transport &) = delete;
    Transport &operator=(const Transport &) = delete;

    using Handle = std::shared_ptr<CallHandle>;
    Handle range(
        const QByteArray &key, const EtcdRangeOptions &o, const CallOptions &c, CallTarget t);
    Handle put(const QByteArray &key, const QByteArray &value, const EtcdPutOptions &o,
        const CallOptions &c, CallTarget t);
    Handle remove(
        const QByteArray &key, const EtcdDeleteOptions &o, const CallOptions &c, CallTarget t);
    Handle txn(const EtcdTxn &txn, const CallOptions &c, CallTarget t);
    Handle compact(qint64 revision, bool physical, const CallOptions &c, CallTarget t);
    Handle leaseGrant(qint64 ttl, qint64 id, const CallOptions &c, CallTarget t);
    Handle leaseRevoke(qint64 id, const CallOptions &c, CallTarget t);
    Handle leaseTimeToLive(qint64 id, bool keys, const CallOptions &c, CallTarget t);
    Handle leaseList(const CallOptions &c, CallTarget t);
    Handle memberList(const CallOptions &c, CallTarget t);
    Handle status(const CallOptions &c, CallTarget t);
    Handle lock(const QByteArray &name, qint64 lease, const CallOptions &c, CallTarget t);
    Handle unlock(const QByteArray &key, const CallOptions &c, CallTarget t);

    // nullptr when the transport is shutting down.
    std::shared_ptr<WatchStream> openWatch(StreamCallbacks<WatchResponseData> callbacks);
    std::shared_ptr<KeepAliveStream> openKeepAlive(StreamCallbacks<KeepAliveAck> callbacks);

    // User and password for etcd's auth; every call and stream then carries the token etcd
    // issues, fetched again (once, shared) whenever etcd calls it invalid or missing.
    void setCredentials(const QByteArray &user, const QByteArray &password);
    void refreshToken(std::function<void(const EtcdStatus &)> done);

    [[nodiscard]] int endpointCount() const;
    // The client's metrics sink, for the streams' reports.
    [[nodiscard]] const MetricsSlotPtr &metrics() const;
    void rotateEndpoint();
    // Cancels every call in flight and waits (bounded) for gRPC to hand each one back.
    void shutdown();
    // Blocks until every call started with CallOptions::drainOnShutdown was answered, or
    // `bound` passed: what the client's destructor lets through before shutdown().
    void drain(std::chrono::milliseconds bound);

private:
    std::shared_ptr<TransportPrivate> d;
};

} // namespace Etcd::Internal
