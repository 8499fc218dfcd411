// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API.
#pragma once

#include <EtcdQt/etcdfencing.h>

#include <chrono>
#include <condition_variable>
#include <mutex>

namespace Etcd::Internal {

// What threads other than the owner may ask of an election term, and wait for. The owner
// thread writes; worker threads (a leadership body, a caller of a blocking wait) read and
// wait. One mutex, one condition: the waits are rare and short-lived.
class TermSync
{
public:
    enum class Phase { Idle, Running, Ending };

    void begin()
    {
        update([this] {
            phase = Phase::Running;
            started = false;
            leader = false;
            token = {};
            ++terms;
        });
    }
    void markStarted()
    {
        update([this] { started = phase == Phase::Running; });
    }
    void markLeader(const EtcdFencingToken &t)
    {
        update([this, &t] {
            leader = true;
            token = t;
        });
    }
    void markEnding()
    {
        update([this] {
            leader = false;
            if (phase != Phase::Idle)
                phase = Phase::Ending;
        });
    }
    void finish()
    {
        update([this] {
            leader = false;
            phase = Phase::Idle;
        });
    }

    [[nodiscard]] bool isLeader() const
    {
        std::lock_guard lock(mutex);
        return leader;
    }
    [[nodiscard]] EtcdFencingToken fencingToken() const
    {
        std::lock_guard lock(mutex);
        return token;
    }
    [[nodiscard]] quint64 termCount() const
    {
        std::lock_guard lock(mutex);
        return terms;
    }

    // Waits at most `timeout` until `done(phase, started)` holds; returns whether it held.
    template <typename Predicate>
    bool waitFor(std::chrono::milliseconds timeout, Predicate done) const
    {
        std::unique_lock lock(mutex);
        return changed.wait_for(lock, timeout, [&] { return done(phase, started); });
    }

private:
    template <typename F>
    void update(F &&f)
    {
        {
            std::lock_guard lock(mutex);
            f();
        }
        changed.notify_all();
    }

    mutable std::mutex mutex;
    mutable std::condition_variable changed;
    Phase phase = Phase::Idle;
    bool started = false; // this term's watch went live: the node is in the running
    bool leader = false;
    quint64 terms = 0;
    EtcdFencingToken token;
};

} // namespace Etcd::Internal
