// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API.
#pragma once

#include "leaseshared_p.h"
#include "sharedstate_p.h"

#include <EtcdQt/etcdfencing.h>
#include <EtcdQt/etcdwatch.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <stop_token>

namespace Etcd::Internal {

// What threads other than the owner may ask of an election term, and wait for. The owner
// thread writes the term's course; the engine thread ends a leadership the moment it decides
// the term's lease or key is gone (loseLease(), seeKeyEvents(): before the owner thread hears
// of it), and the view reads as over once the lease's deadline passed, whoever is late.
// Worker threads (a leadership body, a caller of a blocking wait) read and wait.
class TermSync
{
public:
    enum class Phase { Idle, Running, Ending };
    // What the engine decided, if it ended this term's leadership: the owner thread may hear
    // of it first from the body's return (its stop was requested), and then says why.
    struct Loss
    {
        enum Cause { Lease, Key } cause;
        EtcdStatus why;
    };

    // The owner thread's course of a term.
    void begin();
    void markStarted(); // this term's watch went live: the node is in the running
    // `lease`: the term's lease, whose deadline bounds the leadership; `value`: what this
    // term wrote to the leader key.
    void markLeader(
        const EtcdFencingToken &token, std::shared_ptr<LeaseShared> lease, const QByteArray &value);
    // The body's thread runs: a loss stops it (`interrupt`), also one decided before this.
    void setBody(std::stop_source stop, bool interrupt);
    void markEnding();
    void finish();

    // The engine thread. Lease `leaseId` is gone: ends this term's leadership if it stands on
    // that lease. The leader key's watch events: a delete of this term's key, or a put of
    // another value, after the revision it was won at ends it too.
    void loseLease(qint64 leaseId, const EtcdStatus &why);
    void seeKeyEvents(const QList<EtcdWatchEvent> &events);

    // Any thread.
    [[nodiscard]] bool isLeader() const;
    [[nodiscard]] std::chrono::milliseconds remainingValidity() const;
    [[nodiscard]] EtcdFencingToken fencingToken() const;
    [[nodiscard]] quint64 termCount() const;
    [[nodiscard]] std::optional<Loss> engineLoss() const;
    // Whether this term leads now, lock-free: the leader key's watch guard asks it on the
    // gRPC thread before it posts events to the engine.
    [[nodiscard]] std::shared_ptr<const std::atomic<bool>> leading() const { return m_leading; }
    // Waits at most `timeout` until `done(phase, started)` holds; returns whether it held.
    template <typename Predicate>
    bool waitFor(std::chrono::milliseconds timeout, Predicate done) const
    {
        const auto holds = [&done](const View &v) { return done(v.phase, v.started); };
        return m_state.waitFor(timeout, holds, holds);
    }

private:
    struct View
    {
        Phase phase = Phase::Idle;
        bool started = false;
        bool leader = false;
        bool interruptOnLoss = true;
        quint64 terms = 0;
        EtcdFencingToken token;
        QByteArray ownValue;
        std::shared_ptr<LeaseShared> lease;
        std::optional<Loss> loss; // set when the engine ended the leadership
        std::stop_source body {std::nostopstate};

        [[nodiscard]] bool leads() const { return leader && (!lease || lease->isValid()); }
        std::stop_source end(const Loss &why); // returns the body to stop, if any
    };
    // m_leading follows the view's leader flag: called inside the update that changed it.
    void publish(const View &v) const;
    SharedState<View> m_state;
    std::shared_ptr<std::atomic<bool>> m_leading = std::make_shared<std::atomic<bool>>(false);
};

} // namespace Etcd::Internal
