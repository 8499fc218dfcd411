// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API. Includes gRPC.
#pragma once

#include "completionqueue_p.h"
#include "handover_p.h"
#include "statusmapping_p.h"
#include "streams_p.h"
#include "transport_grpc_p.h"

#include <google/protobuf/arena.h>

#include <cstddef>
#include <deque>

namespace Etcd::Internal {

// Where a stream's reads parse to: a message on an arena whose first block is this object's
// own, reset before each read. A message reused instead would allocate on every parse: its
// generated Clear() deletes singular sub-messages (every response's header, each watch
// event's key-value), so each read made them, and their strings, anew (bench/ counted 5 heap
// allocations per watch event that way). A response larger than the block spills into blocks
// the arena allocates, and the next reset frees them.
template <class Message>
class ReadBuffer
{
public:
    ReadBuffer() : m_arena(options(m_block)) { }
    ReadBuffer(const ReadBuffer &) = delete;
    ReadBuffer &operator=(const ReadBuffer &) = delete;

    // An empty message for the next read; the previous one is gone.
    Message *fresh()
    {
        m_arena.Reset();
        return google::protobuf::Arena::CreateMessage<Message>(&m_arena);
    }

private:
    static constexpr std::size_t kBlockSize = 4096;
    static google::protobuf::ArenaOptions options(char *block)
    {
        google::protobuf::ArenaOptions o;
        o.initial_block = block;
        o.initial_block_size = kBlockSize;
        return o;
    }
    alignas(std::max_align_t) char m_block[kBlockSize]; // before m_arena, which uses it
    google::protobuf::Arena m_arena;
};

// A bidirectional stream on the completion queue. Writes may come from the engine thread at any
// time; they are queued and sent one at a time. A read is always outstanding, re-armed when it
// is answered; the first failed read ends the stream (Finish), and done() comes once every
// operation is back. The registry in TransportPrivate owns it while it runs, so shutdown can
// cancel it and wait for it. Every completion runs in the one completion thread.
template <class Request, class Response>
class BidiStream
{
public:
    using Rpc = grpc::ClientAsyncReaderWriter<Request, Response>;
    using Starter
        = std::unique_ptr<Rpc> (*)(Stubs &, grpc::ClientContext *, grpc::CompletionQueue *);
    using ReadHandler = std::function<void(const Response &)>; // completion thread: copy and post
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
        std::lock_guard lock(m_mutex); // the completions wait for the last start below
        const GrpcCallSection grpcCall;
        m_rpc = starter(m_transport->stubs[m_endpoint], &m_context, completionQueue());
        m_pending = 2;
        handOverRelease(&m_startTag);
        m_rpc->StartCall(&m_startTag);
        handOverRelease(&m_readTag);
        m_response = m_readBuffer.fresh();
        m_rpc->Read(m_response, &m_readTag);
        return true;
    }

    void write(Request request)
    {
        std::lock_guard lock(m_mutex);
        if (m_released)
            return;
        m_queue.push_back(std::move(request));
        if (m_open && !m_writing) {
            m_writing = true;
            startWrite();
        }
    }

    void stop()
    {
        m_context.TryCancel(); // the outstanding read fails, and that ends the stream
        std::lock_guard lock(m_mutex);
        m_released = true;
    }

private:
    struct Tag final : QueueTag
    {
        Tag(BidiStream *s, void (BidiStream::*f)(bool)) : stream(s), fn(f) { }
        void completed(bool ok) override { (stream->*fn)(ok); }
        BidiStream *const stream;
        void (BidiStream::*const fn)(bool);
    };

    void onStarted(bool ok)
    {
        {
            std::lock_guard lock(m_mutex);
            --m_pending;
            m_open = ok; // when not, the read fails too, and that ends the stream
            writeNext(ok);
        }
        settle();
    }

    void onRead(bool ok)
    {
        if (ok) {
            {
                // The response is gRPC's: gRPC wrote it in its own code, out of TSan's sight.
                const GrpcCallSection grpcCall;
                m_onRead(*m_response);
            }
            std::lock_guard lock(m_mutex);
            const GrpcCallSection grpcCall;
            m_response = m_readBuffer.fresh(); // m_onRead copied what it needs
            m_rpc->Read(m_response, &m_readTag);
            return;
        }
        std::lock_guard lock(m_mutex);
        m_released = true; // nothing more is written to a stream that ends
        const GrpcCallSection grpcCall;
        m_rpc->Finish(&m_status, &m_finishTag); // takes the read's place in m_pending
    }

    void onWritten(bool ok)
    {
        {
            std::lock_guard lock(m_mutex);
            --m_pending;
            m_queue.pop_front();
            writeNext(ok);
        }
        settle();
    }

    void onFinished(bool)
    {
        {
            std::lock_guard lock(m_mutex);
            --m_pending;
            m_finished = true;
        }
        settle();
    }

    // After the start or a write came back: the next queued request goes, if the stream can
    // still take it. Under m_mutex.
    void writeNext(bool ok)
    {
        m_writing = ok && !m_released && !m_queue.empty();
        if (m_writing)
            startWrite();
    }

    // With more requests queued behind this one, let gRPC hold it back and send the batch in
    // one go (the last write of a batch, without the hint, flushes). Under m_mutex.
    void startWrite()
    {
        grpc::WriteOptions options;
        if (m_queue.size() > 1)
            options.set_buffer_hint();
        ++m_pending;
        handOverRelease(&m_writeTag);
        const GrpcCallSection grpcCall;
        m_rpc->Write(m_queue.front(), options, &m_writeTag);
    }

    // The stream is done once Finish answered and every other operation is back.
    void settle()
    {
        {
            std::lock_guard lock(m_mutex);
            if (!m_finished || m_pending > 0)
                return;
        }
        handOverAcquire(m_transport.get()); // see the end of TransportPrivate's constructor
        const grpc::Status &s = m_status;
        const EtcdStatus status
            = statusFromGrpc(s.error_code(), QString::fromStdString(s.error_message()));
        if (status.code() == Etcd::ErrorCode::InvalidAuthToken && m_transport->hasCredentials())
            m_transport->refreshToken([](const EtcdStatus &) {}); // for the reconnect
        if (s.error_code() == grpc::UNAVAILABLE) // moves unary calls off this endpoint too
            m_transport->noteOutcome(m_endpoint, s.error_code(), status);
        else if (!s.ok()) // broken or silent (cancelled by liveness): try the next endpoint
            m_transport->moveOffEndpoint(m_endpoint);
        {
            const GrpcCallSection grpcCall;
            m_rpc.reset(); // lives in the call's arena, which goes with m_context
        }
        m_onDone(status);
        // Last: the registry may hold the only reference left.
        m_transport->end(m_self);
    }

    std::shared_ptr<TransportPrivate> m_transport;
    ReadHandler m_onRead;
    DoneHandler m_onDone;
    grpc::ClientContext m_context;
    std::unique_ptr<Rpc> m_rpc; // after m_context: destroyed before it
    ReadBuffer<Response> m_readBuffer;
    Response *m_response = nullptr; // in m_readBuffer: the outstanding read's
    grpc::Status m_status;
    Tag m_startTag {this, &BidiStream::onStarted};
    Tag m_readTag {this, &BidiStream::onRead};
    Tag m_writeTag {this, &BidiStream::onWritten};
    Tag m_finishTag {this, &BidiStream::onFinished};
    int m_endpoint = 0;
    CallHandle *m_self = nullptr; // the registry's key for this stream
    std::mutex m_mutex;
    std::deque<Request> m_queue;
    int m_pending = 0; // operations gRPC has not handed back
    bool m_open = false; // started: writes may go
    bool m_writing = false;
    bool m_released = false; // stopped or ending: no more writes
    bool m_finished = false;
};

} // namespace Etcd::Internal
