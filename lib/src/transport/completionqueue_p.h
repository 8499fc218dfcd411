// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API. Includes gRPC.
#pragma once

#include <grpcpp/completion_queue.h>

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

} // namespace Etcd::Internal
