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
#include <vector>

namespace Etcd::Internal {

// One blocking lock() or tryLock() of a worker thread. Guarded by its HoldBook.
struct MutexRequest
{
    enum class Outcome { Pending, Acquired, Failed };
    Outcome outcome = Outcome::Pending;
    bool abandoned = false; // the caller stopped waiting: a late win must be given back
};

// What worker threads and a lock's own thread share: the holds won and the answers that
// blocked lock() calls wait for. The owner thread decides; workers read, count and wait. One
// mutex, one condition: the calls are short and the waits few. How holds are kept (per
// thread and reentrant for locks, a stack of permits for a semaphore) is the subclass's.
class HoldBook
{
public:
    using ThreadId = std::thread::id;
    using TimePoint = std::chrono::steady_clock::time_point;
    enum class Release { Nested, Last, Dispossessed, NotHeld };

    virtual ~HoldBook() = default;

    // Owner thread: `request`'s acquisition won. False when its caller gave up meanwhile (or
    // the book closed): the win is not recorded and must be given back.
    bool grant(MutexRequest &request, ThreadId t, const EtcdFencingToken &token, quint64 id);
    // Owner thread: a hold won without a waiting caller (the owner thread's acquire()).
    void hold(ThreadId t, const EtcdFencingToken &token, quint64 id);
    // Owner thread: `request` failed for good; its caller returns false.
    void fail(MutexRequest &request);
    // Worker: waits until `request` is answered or the book closed; with `giveUp`, at most
    // until then, after which the request is marked abandoned. True when it acquired.
    bool await(MutexRequest &request, std::optional<TimePoint> giveUp);
    // Owner thread: acquisition `id` lost its hold; its pending releases return false.
    // False when no hold of `id` was recorded (its last release is in flight).
    bool dispossess(quint64 id);
    // close() or destruction: every hold dispossessed, every wait answered with false.
    void close();
    [[nodiscard]] bool isClosed() const;

protected:
    // Called with `mutex` held.
    virtual void record(ThreadId t, const EtcdFencingToken &token, quint64 id) = 0;
    virtual bool dispossessLocked(quint64 id) = 0;
    virtual void dispossessAllLocked() = 0;

    mutable std::mutex mutex;

private:
    std::condition_variable changed;
    bool closed = false;
};

// A lock's holds: per thread, reentrant, with the token of each thread's hold, and how many
// of a thread's unlock()s must return false (its hold was lost or closed).
class MutexSync : public HoldBook
{
public:
    // A nested lock() by a thread that holds already: counted, true. False when it does not
    // hold (or the lock is closed).
    bool reenter(ThreadId t);
    // One unlock() by `t`: a nested hold (Nested), the last one (Last: `*id` is the
    // acquisition to release), one whose hold was lost or closed, or none at all.
    Release release(ThreadId t, quint64 *id);

    [[nodiscard]] int holdCount(ThreadId t) const;
    [[nodiscard]] EtcdFencingToken token(ThreadId t) const;
    [[nodiscard]] bool holdsId(ThreadId t, quint64 id) const;

protected:
    void record(ThreadId t, const EtcdFencingToken &token, quint64 id) override;
    bool dispossessLocked(quint64 id) override;
    void dispossessAllLocked() override;

private:
    struct Hold
    {
        int count = 0;
        EtcdFencingToken token;
        quint64 id = 0; // the owner thread's acquisition behind it
    };
    std::map<ThreadId, Hold> holds;
    std::map<ThreadId, int> dispossessed;
};

// A semaphore's permits: not reentrant and not per thread; release() gives back the most
// recent one (lost ones included, which then answer false).
class PermitSync : public HoldBook
{
public:
    Release release(quint64 *id);
    [[nodiscard]] int liveCount() const;
    [[nodiscard]] EtcdFencingToken latestToken() const; // of the most recent live permit

protected:
    void record(ThreadId t, const EtcdFencingToken &token, quint64 id) override;
    bool dispossessLocked(quint64 id) override;
    void dispossessAllLocked() override;

private:
    struct Permit
    {
        quint64 id = 0;
        EtcdFencingToken token;
        bool lost = false;
    };
    std::vector<Permit> permits;
};

} // namespace Etcd::Internal
