// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API. Includes gRPC.
#pragma once

#include "handover_p.h"
#include "statusmapping_p.h"
#include "streams_p.h"
#include "transport_grpc_p.h"

#include <deque>

namespace Etcd::Internal {

// A bidirectional stream on gRPC's callback API. Writes may come from the engine thread at
// any time (hence the hold); they are queued and sent one at a time. Reads are re-armed from
// the read reaction. The registry in TransportPrivate owns it while it runs, so shutdown can
// cancel it and wait for OnDone.
template <class Request, class Response>
class BidiStream : public grpc::ClientBidiReactor<Request, Response>
{
public:
    using Starter
        = void (*)(Stubs &, grpc::ClientContext *, grpc::ClientBidiReactor<Request, Response> *);
    using ReadHandler = std::function<void(const Response &)>; // gRPC thread: copy and post
    using DoneHandler = std::function<void(const EtcdStatus &)>;

    BidiStream(std::shared_ptr<TransportPrivate> transport, ReadHandler onRead, DoneHandler onDone)
        : m_transport(std::move(transport)), m_onRead(std::move(onRead)),
          m_onDone(std::move(onDone))
    { }

    // Starts on the transport's current endpoint; false when the transport is shutting down.
    bool start(Starter starter, const std::shared_ptr<CallHandle> &self)
    {
        m_self = self.get();
        if (!m_transport->begin(self))
            return false;
        m_transport->authenticate(m_context);
        m_endpoint = m_transport->current.load();
        handOverRelease(this); // to the reactions, in gRPC's threads
        {
            const GrpcCallSection grpcCall;
            starter(m_transport->stubs[m_endpoint], &m_context, this);
            this->AddHold();
            this->StartRead(&m_response);
            this->StartCall();
        }
        // Registered before it was bound: a shutdown may have stopped it meanwhile, and left
        // the hold for here (it cannot be removed from a reactor not yet bound to its call).
        std::lock_guard lock(m_mutex);
        m_started = true;
        if (m_released)
            this->RemoveHold();
        return true;
    }

    void write(Request request)
    {
        std::lock_guard lock(m_mutex);
        if (m_released)
            return;
        m_queue.push_back(std::move(request));
        if (!m_writing) {
            m_writing = true;
            startWrite();
        }
    }

    void stop()
    {
        m_context.TryCancel();
        release();
    }

    void OnWriteDone(bool ok) override
    {
        handOverAcquire(this);
        {
            std::lock_guard lock(m_mutex);
            m_queue.pop_front();
            m_writing = ok && !m_released && !m_queue.empty();
            if (m_writing)
                startWrite();
        }
        // gRPC runs OnDone after every other reaction, in any of its threads; whoever ends the
        // stream after OnDone then owns what the reactions wrote (the queue, at destruction).
        handOverRelease(this);
    }

    void OnReadDone(bool ok) override
    {
        handOverAcquire(this);
        if (!ok) {
            release();
            handOverRelease(this); // to OnDone (see OnWriteDone)
            return;
        }
        {
            // The response is gRPC's: its next read overwrites it in another of gRPC's
            // threads, ordered inside gRPC, before this stream's reaction could acquire.
            const GrpcCallSection grpcCall;
            m_onRead(m_response);
        }
        handOverRelease(this); // the next read may be answered in another of gRPC's threads
        const GrpcCallSection grpcCall;
        this->StartRead(&m_response);
    }

    void OnDone(const grpc::Status &s) override
    {
        handOverAcquire(this);
        handOverAcquire(m_transport.get()); // see the end of TransportPrivate's constructor
        const EtcdStatus status
            = statusFromGrpc(s.error_code(), QString::fromStdString(s.error_message()));
        if (status.code() == Etcd::ErrorCode::InvalidAuthToken && m_transport->hasCredentials())
            m_transport->refreshToken([](const EtcdStatus &) {}); // for the reconnect
        if (s.error_code() == grpc::UNAVAILABLE) // moves unary calls off this endpoint too
            m_transport->noteOutcome(m_endpoint, s.error_code(), status);
        else if (!s.ok()) // broken or silent (cancelled by liveness): try the next endpoint
            m_transport->moveOffEndpoint(m_endpoint);
        m_onDone(status);
        // Last: the registry may hold the only reference left.
        m_transport->end(m_self);
    }

private:
    // With more requests queued behind this one, let gRPC hold it back and send the batch in
    // one go (the last write of a batch, without the hint, flushes).
    void startWrite()
    {
        grpc::WriteOptions options;
        if (m_queue.size() > 1)
            options.set_buffer_hint();
        handOverRelease(this);
        const GrpcCallSection grpcCall;
        this->StartWrite(&m_queue.front(), options);
    }

    void release()
    {
        std::lock_guard lock(m_mutex);
        if (!std::exchange(m_released, true) && m_started)
            this->RemoveHold();
    }

    std::shared_ptr<TransportPrivate> m_transport;
    ReadHandler m_onRead;
    DoneHandler m_onDone;
    grpc::ClientContext m_context;
    Response m_response;
    int m_endpoint = 0;
    CallHandle *m_self = nullptr; // the registry's key for this stream
    std::mutex m_mutex;
    std::deque<Request> m_queue;
    bool m_writing = false;
    bool m_released = false;
    bool m_started = false; // bound to its call and holding
};

} // namespace Etcd::Internal
