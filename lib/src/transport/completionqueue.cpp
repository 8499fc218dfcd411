// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "completionqueue_p.h"

#include "handover_p.h"

#include <pthread.h>

#include <thread>

namespace Etcd::Internal {

grpc::CompletionQueue *completionQueue()
{
    // Never shut down: a call may end in any thread at any time until the process exits, as
    // gRPC's own callback queue did. Reachable from this static, so not a leak to LSan.
    static grpc::CompletionQueue *const queue = [] {
        auto *q = new grpc::CompletionQueue;
        std::thread([q] {
            pthread_setname_np(pthread_self(), "etcdqt-grpc");
            void *tag = nullptr;
            bool ok = false;
            while (q->Next(&tag, &ok)) {
                handOverAcquire(tag);
                static_cast<QueueTag *>(tag)->completed(ok);
            }
        }).detach();
        return q;
    }();
    return queue;
}

} // namespace Etcd::Internal
