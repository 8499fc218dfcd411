// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API.
#pragma once

#include "etcdqt_internal_p.h"
#include "leaseshared_p.h"
#include "sharedstate_p.h"

#include <EtcdQt/etcdfencing.h>

#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <thread>

namespace Etcd::Internal {

// One blocking lock() or tryLock() of a worker thread. Guarded by its HoldBook's lock.
struct MutexRequest
{
    enum class Outcome { Pending, Acquired, Failed };
    Outcome outcome = Outcome::Pending;
    bool abandoned = false; // the caller stopped waiting: a late win must be given back
};

// What worker threads and a lock's own thread share: the holds won and the answers that
// blocked lock() calls wait for. The owner thread records wins and releases; a loss is
// decided where it is first known: in the engine thread when a hold's lease is gone
// (loseLease(), before the owner thread hears of it), and a hold whose lease's deadline
// passed reads as not held whoever is late. Workers read, count and wait. All of it is one
// SharedState: the calls are short and the waits few. How holds are kept (per thread and
// reentrant for locks, a stack of permits for a semaphore) is the subclass's Holds, kept in
// the same state.
class ETCDQT_AUTOTEST_EXPORT HoldBook
{
public:
    using ThreadId = std::thread::id;
    using TimePoint = std::chrono::steady_clock::time_point;
    enum class Release { Nested, Last, Dispossessed, NotHeld };
    // A hold as the engine judges it: its token and its lease's state.
    struct Lease
    {
        EtcdFencingToken token; // the hold's key, lease and create revision
        std::shared_ptr<LeaseShared> state;
    };

    virtual ~HoldBook() = default;

    // Owner thread: `request`'s acquisition won. False when its caller gave up meanwhile (or
    // the book closed): the win is not recorded and must be given back.
    // `lease`: the hold's lease, whose deadline bounds the hold.
    bool grant(MutexRequest &request, ThreadId t, const EtcdFencingToken &token, quint64 id,
        std::shared_ptr<LeaseShared> lease);
    // Owner thread: a hold won without a waiting caller (the owner thread's acquire()).
    void hold(
        ThreadId t, const EtcdFencingToken &token, quint64 id, std::shared_ptr<LeaseShared> lease);
    // Worker: an entry under `key` is about to be created from this thread (LockQueue's worker
    // path): from now on a deletion of it is remembered, as the engine sees it.
    void expect(const QByteArray &key);
    // Worker: the entry expected under `token.key` was created at `token.revision` and holds.
    // Recorded as a hold of `t` unless it was deleted after its creation (Deleted) or the book
    // closed (Closed); in every case it is no longer expected.
    enum class Settled { Held, Deleted, Closed };
    Settled settle(
        ThreadId t, const EtcdFencingToken &token, quint64 id, std::shared_ptr<LeaseShared> lease);
    void unexpect(const QByteArray &key); // Worker: the entry is the lock's thread's now
    // Owner thread: `request` failed for good; its caller returns false.
    void fail(MutexRequest &request);
    // Worker: waits until `request` is answered or the book closed; with `giveUp`, at most
    // until then, after which the request is marked abandoned. True when it acquired.
    bool await(MutexRequest &request, std::optional<TimePoint> giveUp);
    // Owner thread: whether the last release of hold `id` was made (by its holder, in any
    // thread) and not heard of here yet; with `take`, it is heard of now. A worker's release
    // deletes the hold's key without telling the lock's thread first: that deletion, seen
    // here, is then no loss.
    bool released(quint64 id, bool take = false);
    // Whether hold `id` is recorded (neither released nor dispossessed), whatever its deadline.
    [[nodiscard]] bool isRecorded(quint64 id) const;
    // Owner thread: acquisition `id` lost its hold; its pending releases return false.
    // False when no hold of `id` was recorded (its last release is in flight).
    bool dispossess(quint64 id);
    // Any thread (the engine's): lease `leaseId` is gone; every hold on it is dispossessed.
    void loseLease(qint64 leaseId);
    // Any thread (the engine's, on the lock's watch): a hold's key was deleted after it was
    // created; that hold is dispossessed.
    void loseKey(const QByteArray &key, qint64 deletedAt);
    // Whether any hold is recorded now: lock-free, for the watch guard's gRPC-thread check.
    [[nodiscard]] std::shared_ptr<const std::atomic<bool>> holding() const;
    // The remaining lease time of the hold `token` belongs to (0 when it is not held here, or
    // its deadline passed).
    [[nodiscard]] std::chrono::milliseconds remainingValidity(const EtcdFencingToken &token) const;
    // close() or destruction: every hold dispossessed, every wait answered with false.
    void close();
    [[nodiscard]] bool isClosed() const;

protected:
    // The subclass's record of the holds, called under the state's lock.
    struct Holds
    {
        virtual ~Holds() = default;
        virtual void record(ThreadId t, const EtcdFencingToken &token, quint64 id) = 0;
        // False when no hold of `id` is recorded.
        virtual bool dispossess(quint64 id) = 0;
        virtual void dispossessAll() = 0;
    };
    struct State
    {
        bool closed = false;
        std::map<quint64, Lease> leases; // of the holds recorded, by hold id
        // The entries workers are creating, with the last revision each was deleted at (0:
        // not deleted): the engine's loseKey() cannot miss a hold being recorded.
        std::map<QByteArray, qint64> expected;
        std::unique_ptr<Holds> holds;
        std::shared_ptr<std::atomic<bool>> holding = std::make_shared<std::atomic<bool>>(false);
        std::set<quint64> released; // last releases the lock's thread has not heard of yet

        // Whether hold `id` still stands on a live lease.
        [[nodiscard]] bool live(quint64 id) const;
        // Returns the hold (empty when none was recorded).
        Lease forgetLease(quint64 id)
        {
            Lease hold;
            if (const auto it = leases.find(id); it != leases.end()) {
                hold = std::move(it->second);
                leases.erase(it);
            }
            noteHolds();
            return hold;
        }
        // Hold `id` is lost: its lease forgotten, its holder's pending releases return false.
        // False when no hold of `id` was recorded.
        bool dispossess(quint64 id)
        {
            forgetLease(id);
            return holds->dispossess(id);
        }
        // The hold's last release: forgotten, and noted until the lock's thread hears of it.
        Lease releaseLease(quint64 id)
        {
            released.insert(id);
            return forgetLease(id);
        }
        void noteHolds() { holding->store(!leases.empty() || !expected.empty()); }
    };

    explicit HoldBook(std::unique_ptr<Holds> holds);
    // f(holds, state) under the lock, `H` being the subclass's Holds.
    template <typename H, typename F>
    auto readHolds(F &&f) const
    {
        return m_state.read(
            [&f](const State &s) { return f(static_cast<const H &>(*s.holds), s); });
    }
    template <typename H, typename F>
    auto updateHolds(F &&f)
    {
        return m_state.update([&f](State &s) { return f(static_cast<H &>(*s.holds), s); });
    }

private:
    SharedState<State> m_state;
    template <typename Match>
    static void loseWhere(State &s, Match match); // under the lock
};

} // namespace Etcd::Internal
