// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API.
#pragma once

#include "keepalivehub_p.h"

#include <EtcdQt/etcdfencing.h>
#include <EtcdQt/etcdwatch.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <stop_token>

namespace Etcd::Internal {

// What threads other than the owner may ask of an election term, and wait for. The owner
// thread writes the term's course; the engine thread ends a leadership the moment it decides
// the term's lease is gone (loseLease(), before the owner thread hears of it), and the view
// reads as over once the lease's deadline passed, whoever is late. Worker threads (a
// leadership body, a caller of a blocking wait) read and wait. One mutex, one condition: the
// waits are rare and short-lived.
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
            lostEarly = false;
            loss.reset();
            token = {};
            lease.reset();
            body = std::stop_source(std::nostopstate);
            ++terms;
        });
    }
    void markStarted()
    {
        update([this] { started = phase == Phase::Running; });
    }
    // `l`: the term's lease, whose deadline bounds the leadership; `value`: what this term
    // wrote to the leader key.
    void markLeader(const EtcdFencingToken &t, std::shared_ptr<LeaseShared> l, const QByteArray &value)
    {
        update([this, &t, &l, &value] {
            ownValue = value;
            lostEarly = l && l->isLost(); // lost between the win and this: never led
            leader = !lostEarly;
            token = t;
            lease = std::move(l);
        });
    }
    // The body's thread runs: a loss stops it (`interrupt`), also one decided before this.
    void setBody(std::stop_source stop, bool interrupt)
    {
        std::lock_guard lock(mutex);
        body = stop;
        interruptOnLoss = interrupt;
        if (interrupt && lostEarly)
            body.request_stop();
    }
    // Any thread (the engine's): lease `leaseId` is gone. Ends this term's leadership if it
    // stands on that lease; true when it did.
    bool loseLease(qint64 leaseId, const EtcdStatus &why)
    {
        bool ended = false;
        update([&] {
            if (leader && token.leaseId == leaseId)
                ended = endLocked(Loss {Loss::Lease, why});
        });
        return ended;
    }
    // The engine thread, on the leader key's watch events: a delete of this term's key, or a
    // put of another value, after the revision it was won at ends the leadership.
    void seeKeyEvents(const QList<EtcdWatchEvent> &events)
    {
        update([&] {
            for (const EtcdWatchEvent &e : events) {
                if (leader && e.revision > token.revision
                    && (e.type == EtcdWatchEvent::Type::Delete || e.keyValue.value != ownValue)) {
                    endLocked(Loss {Loss::Key, {}});
                    return;
                }
            }
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
        return leader && (!lease || lease->isValid());
    }
    [[nodiscard]] std::chrono::milliseconds remainingValidity() const
    {
        using namespace std::chrono;
        std::lock_guard lock(mutex);
        if (!leader || !lease)
            return milliseconds(0);
        return std::max(
            duration_cast<milliseconds>(lease->deadline() - steady_clock::now()), milliseconds(0));
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

    // What the engine decided, if it ended this term's leadership: the owner thread may hear
    // of it first from the body's return (its stop was requested), and then says why.
    struct Loss
    {
        enum Cause { Lease, Key } cause;
        EtcdStatus why;
    };
    [[nodiscard]] std::optional<Loss> engineLoss() const
    {
        std::lock_guard lock(mutex);
        return loss;
    }

private:
    bool endLocked(const Loss &what)
    {
        leader = false;
        lostEarly = true;
        loss = what;
        if (phase == Phase::Running)
            phase = Phase::Ending; // waitUntilFinished() returns
        if (interruptOnLoss)
            body.request_stop();
        return true;
    }
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
    bool lostEarly = false; // the engine ended this term's leadership
    std::optional<Loss> loss;
    bool interruptOnLoss = true;
    quint64 terms = 0;
    EtcdFencingToken token;
    QByteArray ownValue;
    std::shared_ptr<LeaseShared> lease;
    std::stop_source body {std::nostopstate};
};

} // namespace Etcd::Internal
