// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API. Includes gRPC.
#pragma once

#include <grpcpp/completion_queue.h>

#include <chrono>
#include <functional>
#include <optional>

namespace Etcd::Internal {

// What a call or stream does when gRPC hands one of its operations back: runs in the
// completion thread, never blocks, and must not start a wait on that thread.
class QueueTag
{
public:
    virtual void completed(bool ok) = 0;

protected:
    ~QueueTag() = default;
};

// The process's one completion queue for every etcd call and stream, drained by one thread of
// ours (created on first use, alive until the process ends), so an answer reaches the caller's
// event loop in one hop. gRPC's callback API takes two (its poller, then a thread of its own)
// and keeps two more threads polling, which made even a synchronous call beside it ~10 %
// slower (bench/put_paths.cpp). Tags are QueueTag pointers; start each operation after
// handOverRelease(tag): the thread acquires the tag before completed().
grpc::CompletionQueue *completionQueue();

// A completion queue that the calling thread drains itself, one per thread, made on first
// use: a worker blocked on its own call runs the call's completion where it waits, as gRPC's
// synchronous path does, instead of waking the completion thread that then wakes it (issue 21
// item 1; the hop cost 4-12 % of a round trip in bench/put_paths).
class ThreadQueue
{
public:
    using TimePoint = std::chrono::steady_clock::time_point;
    static ThreadQueue &current();
    ThreadQueue() = default;
    ~ThreadQueue(); // shut down; completions still queued run here
    ThreadQueue(const ThreadQueue &) = delete;
    ThreadQueue &operator=(const ThreadQueue &) = delete;

    [[nodiscard]] grpc::CompletionQueue *queue() { return &m_queue; }
    // In its thread: runs completions until `done()` holds (asked before each wait) or
    // `deadline` passed (none: no bound). Returns done().
    bool driveUntil(const std::function<bool()> &done, std::optional<TimePoint> deadline);
    // Any thread: a driveUntil() in progress asks done() again.
    void wake();

private:
    grpc::CompletionQueue m_queue;
};

} // namespace Etcd::Internal
