// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "completionqueue_p.h"

#include "handover_p.h"

#include <grpcpp/alarm.h>

#include <pthread.h>

#include <algorithm>

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

namespace {
// The wake-up of a driving thread: an alarm due at once, on its queue.
struct WakeTag final : QueueTag
{
    void completed(bool) override { delete this; }
    grpc::Alarm alarm;
};

gpr_timespec gprDeadline(ThreadQueue::TimePoint deadline)
{
    const auto left = std::chrono::duration_cast<std::chrono::microseconds>(
        deadline - std::chrono::steady_clock::now());
    return gpr_time_add(gpr_now(GPR_CLOCK_MONOTONIC),
        gpr_time_from_micros(std::max(left, left.zero()).count(), GPR_TIMESPAN));
}
} // namespace

ThreadQueue &ThreadQueue::current()
{
    thread_local ThreadQueue queue;
    return queue;
}

ThreadQueue::~ThreadQueue()
{
    m_queue.Shutdown();
    void *tag = nullptr;
    bool ok = false;
    while (m_queue.Next(&tag, &ok)) {
        handOverAcquire(tag);
        static_cast<QueueTag *>(tag)->completed(ok);
    }
}

bool ThreadQueue::driveUntil(const std::function<bool()> &done, std::optional<TimePoint> deadline)
{
    const gpr_timespec forever = gpr_inf_future(GPR_CLOCK_MONOTONIC);
    while (!done()) {
        void *tag = nullptr;
        bool ok = false;
        const auto next = m_queue.AsyncNext(&tag, &ok, deadline ? gprDeadline(*deadline) : forever);
        if (next != grpc::CompletionQueue::GOT_EVENT)
            return done(); // the deadline (or a shutdown, which only the destructor makes)
        handOverAcquire(tag);
        static_cast<QueueTag *>(tag)->completed(ok);
    }
    return true;
}

void ThreadQueue::wake()
{
    auto *tag = new WakeTag;
    handOverRelease(tag);
    tag->alarm.Set(&m_queue, gpr_now(GPR_CLOCK_MONOTONIC), tag);
}

} // namespace Etcd::Internal
