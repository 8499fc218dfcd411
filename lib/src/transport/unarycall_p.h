// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API. Includes gRPC.
#pragma once

#include "completionqueue_p.h"
#include "handover_p.h"
#include "keyspace_p.h"
#include "transport_grpc_p.h"

#include <chrono>
#include <optional>

namespace Etcd::Internal {

// One unary RPC with its attempts. The completion thread runs onDone(): copy, decide, post;
// never block.
class CallBase : public CallHandle, public std::enable_shared_from_this<CallBase>
{
public:
    using Clock = std::chrono::steady_clock;
    CallBase(std::shared_ptr<TransportPrivate> transport, const CallOptions &options,
        CallTarget target, EtcdMetrics::Rpc rpc);

    void attempt();
    void cancel() override;

protected:
    using Done = std::function<void(grpc::Status)>;
    virtual void invoke(Stubs &stubs, grpc::ClientContext *context, Done done) = 0;
    virtual ReplyData decode() = 0;
    const KeySpace keySpace;

private:
    void onDone(const grpc::Status &status, int endpoint);
    std::optional<std::chrono::milliseconds> retryDelay(int grpcCode);
    void deliver(const EtcdStatus &status, ReplyData &&data);
    void configure(grpc::ClientContext &context) const;

    std::shared_ptr<TransportPrivate> m_transport;
    const CallOptions m_options;
    const EtcdMetrics::Rpc m_rpc;
    const Clock::time_point m_started = Clock::now();
    std::mutex m_mutex;
    CallTarget m_target;
    std::unique_ptr<grpc::ClientContext> m_context;
    bool m_cancelled = false;
    int m_attempt = 0;
    int m_authRefreshes = 0; // token refreshes this call asked for (each then repeats it)
};

// One attempt's completion: gRPC's reader for it, the status it fills in, and what to do then.
template <class Response>
struct UnaryAttempt final : QueueTag
{
    explicit UnaryAttempt(std::function<void(grpc::Status)> d) : done(std::move(d)) { }
    void completed(bool) override
    {
        reader.reset(); // lives in its call's arena: goes before the next attempt's context
        done(std::move(status));
        delete this;
    }
    std::function<void(grpc::Status)> done;
    grpc::Status status;
    std::unique_ptr<grpc::ClientAsyncResponseReader<Response>> reader;
};

template <class Request, class Response>
class UnaryCall final : public CallBase
{
public:
    using Invoker = std::unique_ptr<grpc::ClientAsyncResponseReader<Response>> (*)(
        Stubs &, grpc::ClientContext *, const Request &, grpc::CompletionQueue *);
    using Decoder = ReplyData (*)(const Response &, const KeySpace &);

    UnaryCall(std::shared_ptr<TransportPrivate> transport, const CallOptions &options,
        CallTarget target, EtcdMetrics::Rpc rpc, Request request, Invoker invoker, Decoder decoder)
        : CallBase(std::move(transport), options, std::move(target), rpc),
          m_request(std::move(request)), m_invoker(invoker), m_decoder(decoder)
    { }

protected:
    void invoke(Stubs &stubs, grpc::ClientContext *context, Done done) override
    {
        m_response.Clear();
        auto *attempt = new UnaryAttempt<Response>(std::move(done));
        attempt->reader = m_invoker(stubs, context, m_request, completionQueue());
        attempt->reader->StartCall();
        handOverRelease(attempt); // not touched here after Finish(): it may be gone already
        attempt->reader->Finish(&m_response, &attempt->status, attempt);
    }
    ReplyData decode() override { return m_decoder(m_response, keySpace); }

private:
    const Request m_request;
    Response m_response;
    Invoker m_invoker;
    Decoder m_decoder;
};

} // namespace Etcd::Internal
