// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API.
#pragma once

#include <EtcdQt/etcdfencing.h>

#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <optional>
#include <thread>

namespace Etcd::Internal {

// One blocking lock() or tryLock() of a worker thread. Guarded by its MutexSync.
struct MutexRequest
{
    enum class Outcome { Pending, Acquired, Failed };
    Outcome outcome = Outcome::Pending;
    bool abandoned = false; // the caller stopped waiting: a late win must be given back
};

// What worker threads and the mutex's own thread share: which thread holds the lock how
// many times and with which token, how many of a thread's unlock()s must return false (its
// hold was lost or closed), and the answers blocked lock() calls wait for. The owner thread
// decides; workers read, count their nested holds and wait. One mutex, one condition: the
// calls are short and the waits few.
class MutexSync
{
public:
    using ThreadId = std::thread::id;
    using TimePoint = std::chrono::steady_clock::time_point;
    enum class Release { Nested, Last, Dispossessed, NotHeld };

    // A nested lock() by a thread that holds already: counted, true. False when it does not
    // hold (or the mutex is closed).
    bool reenter(ThreadId t);
    // Owner thread: `request`'s acquisition won. False when its caller gave up meanwhile (or
    // the mutex closed): the win is not recorded and must be given back.
    bool grant(MutexRequest &request, ThreadId t, const EtcdFencingToken &token, quint64 id);
    // Owner thread: a hold won without a waiting caller (the owner thread's acquire()).
    void hold(ThreadId t, const EtcdFencingToken &token, quint64 id);
    // Owner thread: `request` failed for good; its caller returns false.
    void fail(MutexRequest &request);
    // Worker: waits until `request` is answered or the mutex closed; with `giveUp`, at most
    // until then, after which the request is marked abandoned. True when it acquired.
    bool await(MutexRequest &request, std::optional<TimePoint> giveUp);
    // One unlock() by `t`: a nested hold (Nested), the last one (Last: `*id` is the
    // acquisition to release), one whose hold was lost or closed, or none at all.
    Release release(ThreadId t, quint64 *id);
    // Owner thread: acquisition `id` lost its hold; the thread's pending unlock()s return
    // false. False when no hold of `id` was recorded (its last unlock() is in flight).
    bool dispossess(quint64 id);
    // close() or destruction: every hold dispossessed, every wait answered with false.
    void close();

    [[nodiscard]] bool isClosed() const;
    [[nodiscard]] int holdCount(ThreadId t) const;
    [[nodiscard]] EtcdFencingToken token(ThreadId t) const;

private:
    struct Hold
    {
        int count = 0;
        EtcdFencingToken token;
        quint64 id = 0; // the owner thread's acquisition behind it
    };

    mutable std::mutex mutex;
    std::condition_variable changed;
    std::map<ThreadId, Hold> holds;
    std::map<ThreadId, int> dispossessed;
    bool closed = false;
};

} // namespace Etcd::Internal
