// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// What the counting recipes share under a fault (the atomic counter, the countdown latch):
// a count in etcd with no lease, changed one at a time by compare-and-set from both clients
// all through the fault. Invariant: no change lost or doubled. Every acknowledged change
// answered a value no other change answered, and etcd's count afterwards is at least the
// acknowledged changes and at most those plus the ones whose outcome is unknown (failed or
// timed out: they may have committed). Nothing is leased, so the lease cells (a loss to
// report, leases to leak) hold trivially: the recipes must merely ride out every fault.
#pragma once

#include "../matrix.h"

#include <EtcdQt/etcdatomiccounter.h>

#include <QtCore/qelapsedtimer.h>

namespace FaultMatrix {

// One change after another, the next `paceMs` after the last answered, while running.
class PacedChanges
{
public:
    using Change = std::function<EtcdValueReply *()>;

    explicit PacedChanges(int paceMs) : m_paceMs(paceMs) { }

    void setChange(Change change) { m_change = std::move(change); }
    void setRunning(bool on) { m_running = on; }
    // Sends the next change when it is due (called on every event-loop turn).
    void pump();
    // Sends the next change now unless one is in flight.
    void sendNow();
    // A change in flight as its recipe is deleted: its outcome is unknown, its answer (if
    // any comes) ignored.
    void abandon();
    [[nodiscard]] bool idle() const { return !m_inFlight; }

    QList<qint64> acked; // the values acknowledged changes answered
    int unknown = 0; // changes that failed: they may or may not have committed

private:
    int m_paceMs;
    Change m_change;
    bool m_running = false;
    bool m_inFlight = false;
    std::unique_ptr<QObject> m_context = std::make_unique<QObject>(); // ends stale answers
    QElapsedTimer m_since; // since the last answer
};

class CountingSubject : public Subject
{
public:
    void start(EtcdClient *faulted, EtcdClient *clean, const QByteArray &path) override;
    // The changes begin once both recipes are set up, and run until afterFault().
    bool steady() override;
    void sample() override;
    QString afterFault(const FaultFacts &facts) override;
    bool close() override;
    // Mid-operation: a change of the faulted recipe is in flight as its client goes.
    void handOverFaulted() override;
    // Nothing of these recipes is leased.
    [[nodiscard]] QList<qint64> faultedLeases() const override { return {}; }

protected:
    // The count's key and where it starts.
    [[nodiscard]] QByteArray countKey() const { return m_path + "/count"; }
    [[nodiscard]] virtual qint64 startValue() const = 0;
    // +1 when a change adds one, -1 when it takes one off.
    [[nodiscard]] virtual int direction() const = 0;
    // The recipes on m_faulted (again on its successor) and m_clean; ready once steady.
    virtual void createFaulted() = 0;
    virtual void createClean() = 0;
    [[nodiscard]] virtual bool ready() const = 0;
    virtual EtcdValueReply *faultedChange() = 0;
    virtual EtcdValueReply *cleanChange() = 0;
    [[nodiscard]] virtual QList<EtcdRecipe *> recipes() const = 0;
    virtual std::unique_ptr<EtcdRecipe> takeFaulted() = 0;
    // What the recipe checks beyond the count, once it is settled at `value`.
    virtual QString afterSettled(qint64 value) = 0;

    // etcd's count, read through the clean client; nullopt when it did not answer.
    std::optional<qint64> count();
    // A counter on the clean client at countKey(), for the checks.
    [[nodiscard]] EtcdAtomicCounter &reader() const { return *m_reader; }

private:
    QString settled(qint64 value) const;

    std::unique_ptr<EtcdAtomicCounter> m_reader; // reads the count as etcd has it
    // The faulted client stays idle for longer than an auth token lives between its changes
    // (the token column's 2 s of disuse, then "invalid auth token" and a new login); the
    // clean one makes a few hundred per fault, not thousands.
    PacedChanges m_faultedChanges {kTtlMs + kTtlMs / 2};
    PacedChanges m_cleanChanges {50};
};

} // namespace FaultMatrix
