// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API.
#pragma once

#include "keepalivehub_p.h"
#include "transport_p.h"
#include "watchhub_p.h"

#include <EtcdQt/etcdclient.h>

#include <QtCore/qobject.h>
#include <QtCore/qtimer.h>

#include <functional>

namespace Etcd::Internal {

// Lives in the client's engine thread for one connection session (connect .. disconnect).
// Watches the connection: probes until an endpoint answers, notices failures reported by
// calls, and reports state to the owner thread. Retry timers of unary calls run here too.
class Engine : public QObject, public TransportListener
{
    Q_OBJECT
public:
    struct Config
    {
        std::chrono::milliseconds connectTimeout {5000};
        std::chrono::milliseconds streamLiveness {5000};
        TlsMaterial tls;
        QByteArray user;
        QByteArray password;
        std::chrono::milliseconds leaseSafetyMargin {0};
        MetricsSlotPtr metrics = std::make_shared<MetricsSlot>();
    };
    Engine(const QList<Endpoint> &endpoints, const Config &config);
    ~Engine() override;

    [[nodiscard]] std::shared_ptr<Transport> transport() const { return m_transport; }
    // Engine thread only.
    [[nodiscard]] WatchHub *watches() { return &m_watches; }
    [[nodiscard]] KeepAliveHub *keepAlives() { return &m_keepAlives; }
    void start(); // engine thread

    void endpointFailed(int index, const EtcdStatus &status) override;
    void endpointHealthy(int index) override;

    // Where state changes go, called in the engine thread; set before start(). A callback
    // rather than a queued signal: the owner side posts through postQueued(), whose hand-over
    // TSan sees (the arguments of a queued signal are copied inside Qt, where it does not).
    using StateSink = std::function<void(EtcdClient::State state, const EtcdStatus &reason)>;
    void setStateSink(StateSink sink) { m_stateSink = std::move(sink); }

private:
    void reportState(EtcdClient::State state, const EtcdStatus &reason);
    void probe();
    void onProbeDone(const EtcdStatus &status);
    void setState(EtcdClient::State state, const EtcdStatus &reason = {});

    std::shared_ptr<Transport> m_transport;
    std::chrono::milliseconds m_connectTimeout;
    WatchHub m_watches; // children: they move to the engine thread with us
    KeepAliveHub m_keepAlives;
    EtcdClient::State m_state = EtcdClient::State::Connecting;
    StateSink m_stateSink;
    QTimer m_probeTimer; // a child, so it moves to the engine thread with us
    Transport::Handle m_probe;
    int m_failedProbes = 0;
    bool m_authenticate = false;
    EtcdRetryPolicy m_backoff;
};

} // namespace Etcd::Internal
