// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "engine_p.h"
#include "handover_p.h"

namespace Etcd::Internal {

using namespace std::chrono_literals;

Engine::Engine(const QList<Endpoint> &endpoints, const Config &config)
    : m_transport(std::make_shared<Transport>(endpoints, config.tls, this, this, config.metrics)),
      m_connectTimeout(config.connectTimeout),
      m_watches(*m_transport, EtcdRetryPolicy::exponentialBackoff(), config.streamLiveness, this),
      m_keepAlives(*m_transport, EtcdRetryPolicy::exponentialBackoff(), config.streamLiveness,
          config.leaseSafetyMargin, this),
      m_probeTimer(this), m_backoff(EtcdRetryPolicy::exponentialBackoff(250ms, 5s))
{
    m_authenticate = !config.user.isEmpty();
    m_transport->setCredentials(config.user, config.password);
    m_probeTimer.setSingleShot(true);
    connect(&m_probeTimer, &QTimer::timeout, this, &Engine::probe);
}

Engine::~Engine()
{
    // Every call is cancelled and handed back before the listener (this) goes away.
    m_transport->shutdown();
}

void Engine::start()
{
    if (!m_authenticate) {
        probe();
        return;
    }
    // Authenticate first, so that the first calls already carry a token.
    m_transport->refreshToken([this](const EtcdStatus &status) {
        postQueued(this, [this, status] {
            if (!status.isOk())
                reportState(m_state, status);
            probe();
        });
    });
}

void Engine::probe()
{
    if (m_probe)
        return;
    CallOptions options;
    options.deadline = m_connectTimeout;
    options.resilience = EtcdRpcResilience::disabled();
    options.retriable = false;
    options.waitForReady = true; // answered as soon as a channel to the endpoint is up
    m_probe = m_transport->status(
        options, CallTarget {this, [this](const EtcdStatus &s, ReplyData &&) { onProbeDone(s); }});
}

void Engine::onProbeDone(const EtcdStatus &status)
{
    m_probe.reset();
    if (status.isOk()) {
        m_failedProbes = 0;
        setState(EtcdClient::State::Connected);
        return;
    }
    qCDebug(lcEtcdClient) << "connection probe failed:" << status;
    if (m_state == EtcdClient::State::Connected)
        setState(EtcdClient::State::Reconnecting, status);
    else
        reportState(m_state, status); // still (re)connecting: say why
    m_transport->rotateEndpoint();
    const auto delay = m_backoff.nextDelay(++m_failedProbes, 0ms).value_or(5s);
    m_probeTimer.start(delay);
}

void Engine::endpointFailed(int index, const EtcdStatus &status)
{
    qCDebug(lcEtcdClient) << "endpoint" << index << "failed:" << status;
    if (m_state == EtcdClient::State::Connected)
        setState(EtcdClient::State::Reconnecting, status);
    if (!m_probe && !m_probeTimer.isActive())
        probe();
}

void Engine::endpointHealthy(int)
{
    m_probeTimer.stop();
    setState(EtcdClient::State::Connected);
}

void Engine::setState(EtcdClient::State state, const EtcdStatus &reason)
{
    if (std::exchange(m_state, state) != state)
        reportState(state, reason);
}

void Engine::reportState(EtcdClient::State state, const EtcdStatus &reason)
{
    if (m_stateSink)
        m_stateSink(state, reason);
}

} // namespace Etcd::Internal
