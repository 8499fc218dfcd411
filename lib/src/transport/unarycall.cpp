// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "unarycall_p.h"

#include "handover_p.h"
#include "statusmapping_p.h"

#include <QtCore/qcoreapplication.h>
#include <QtCore/qmetaobject.h>

namespace Etcd::Internal {

using std::chrono::milliseconds;

CallBase::CallBase(std::shared_ptr<TransportPrivate> transport, const CallOptions &options,
    CallTarget target, EtcdMetrics::Rpc rpc)
    : keySpace(options.prefix), m_transport(std::move(transport)), m_options(options), m_rpc(rpc),
      m_target(std::move(target))
{ }

void CallBase::configure(grpc::ClientContext &context) const
{
    std::optional<Clock::time_point> deadline;
    if (m_options.deadline.count() > 0)
        deadline = m_started + m_options.deadline;
    const milliseconds perAttempt = m_options.resilience.attemptTimeout;
    if (perAttempt.count() > 0) {
        const auto attemptEnd = Clock::now() + perAttempt;
        deadline = deadline ? std::min(*deadline, attemptEnd) : attemptEnd;
    }
    // gRPC takes system_clock deadlines; the arithmetic stays monotonic until here.
    if (deadline)
        context.set_deadline(std::chrono::system_clock::now() + (*deadline - Clock::now()));
    context.set_wait_for_ready(m_options.waitForReady);
    m_transport->authenticate(context);
}

void CallBase::attempt()
{
    std::unique_ptr<grpc::ClientContext> context;
    {
        // The context is gRPC's: its call's completion writes to it in gRPC's threads.
        const GrpcCallSection grpcCall;
        context = std::make_unique<grpc::ClientContext>();
        configure(*context);
    }
    grpc::ClientContext *raw = context.get();
    {
        std::lock_guard lock(m_mutex);
        if (m_cancelled)
            return;
        ++m_attempt;
        m_context = std::move(context);
    }
    if (!m_transport->begin(shared_from_this(), m_options.drainOnShutdown)) {
        deliver(EtcdStatus(Etcd::ErrorCode::Cancelled,
                    QCoreApplication::translate("EtcdClient", "client shut down")),
            {});
        return;
    }
    const int endpoint = m_transport->current.load(std::memory_order_relaxed);
    // Not under m_mutex: gRPC may run the callback inline.
    handOverRelease(this);
    const GrpcCallSection grpcCall;
    invoke(
        m_transport->stubs[endpoint], raw, [self = shared_from_this(), endpoint](grpc::Status s) {
            handOverAcquire(self.get());
            self->onDone(s, endpoint);
        });
}

void CallBase::cancel()
{
    std::lock_guard lock(m_mutex);
    m_cancelled = true;
    m_target = {};
    if (m_context)
        m_context->TryCancel();
}

std::optional<milliseconds> CallBase::retryDelay(int grpcCode)
{
    if (!m_options.retriable || !isRetriableGrpcCode(grpcCode))
        return std::nullopt;
    std::lock_guard lock(m_mutex);
    if (m_cancelled)
        return std::nullopt;
    const auto elapsed = std::chrono::duration_cast<milliseconds>(Clock::now() - m_started);
    auto delay = m_options.resilience.retryPolicy.nextDelay(m_attempt, elapsed);
    if (delay && m_options.deadline.count() > 0 && elapsed + *delay >= m_options.deadline)
        return std::nullopt; // the next attempt could not start before the deadline
    return delay;
}

void CallBase::onDone(const grpc::Status &s, int endpoint)
{
    handOverAcquire(m_transport.get()); // see the end of TransportPrivate's constructor
    const EtcdStatus status
        = statusFromGrpc(s.error_code(), QString::fromStdString(s.error_message()));
    m_transport->noteOutcome(endpoint, s.error_code(), status);
    // The token expired (or none was sent yet): authenticate again, then repeat. More than
    // once, as a short token TTL can run out again before a slow repeat reaches etcd (a
    // loaded machine, --auth-token-ttl of 1-2 s: a fault-matrix run and a TSan stress run
    // each saw calls fail after their one refresh); bounded, as each refresh that fails
    // answers the call with its own error.
    constexpr int kAuthRefreshes = 3;
    if (status.code() == Etcd::ErrorCode::InvalidAuthToken && m_authRefreshes < kAuthRefreshes
        && m_transport->hasCredentials()) {
        ++m_authRefreshes;
        m_transport->refreshToken([self = shared_from_this()](const EtcdStatus &auth) {
            if (auth.isOk())
                self->attempt();
            else
                self->deliver(auth, {});
        });
        m_transport->end(this);
        return;
    }
    const auto delay = s.ok() ? std::nullopt : retryDelay(s.error_code());
    if (!delay || !m_transport->scheduleRetry(shared_from_this(), *delay))
        deliver(status, s.ok() ? decode() : ReplyData {});
    m_transport->end(this);
}

void CallBase::deliver(const EtcdStatus &status, ReplyData &&data)
{
    std::unique_lock lock(m_mutex);
    if (EtcdMetrics *metrics = m_transport->metrics->sink()) {
        const int attempts = m_attempt;
        lock.unlock(); // the sink is the user's code
        metrics->recordRpc(m_rpc, Clock::now() - m_started, attempts, status.code());
        lock.lock();
    }
    if (m_target.inCompletionThread) {
        // Out of m_mutex: the worker it wakes may cancel the call at once.
        const auto fn = std::exchange(m_target, {}).deliver;
        lock.unlock();
        fn(status, std::move(data));
        return;
    }
    if (!m_target.context)
        return;
    // Posted under m_mutex: cancel() clears the target under it before the context may die.
    postQueued(m_target.context,
        [fn = std::move(m_target.deliver), status, data = std::move(data)]() mutable {
            fn(status, std::move(data));
        });
    m_target = {};
}

} // namespace Etcd::Internal
