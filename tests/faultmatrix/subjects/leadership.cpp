// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// Leadership under a fault: the leader selector (no body: leadership until resign()), the
// leader latch (it contests again by itself after a loss) with a selector contending on the
// same election, and etcd's own election.
#include "ownership.h"
#include "subjects.h"

#include <EtcdQt/etcdelection.h>
#include <EtcdQt/etcdleaderlatch.h>
#include <EtcdQt/etcdleaderselector.h>

using namespace Qt::StringLiterals;

namespace FaultMatrix {
namespace {

EtcdLeaderSelectorOptions candidate(const QString &id)
{
    EtcdLeaderSelectorOptions o;
    o.ttl = kTtl;
    o.clientId = id;
    return o;
}

// A clean selector contending with the faulted recipe; queued once it said started().
class SelectorContender
{
public:
    void create(EtcdClient *clean, const QByteArray &path, const std::function<void()> &sample)
    {
        m_selector = std::make_unique<EtcdLeaderSelector>(clean, path, candidate(u"clean"_s));
        QObject::connect(m_selector.get(), &EtcdLeaderSelector::started, [this] { ++m_started; });
        QObject::connect(m_selector.get(), &EtcdLeaderSelector::elected, sample);
    }
    EtcdLeaderSelector *operator->() const { return m_selector.get(); }
    EtcdLeaderSelector *get() const { return m_selector.get(); }
    [[nodiscard]] bool queued() const { return m_started > 0; }
    bool resign()
    {
        m_selector->resign();
        return true;
    }

private:
    std::unique_ptr<EtcdLeaderSelector> m_selector;
    int m_started = 0;
};

class SelectorSubject : public OwnershipSubject
{
protected:
    QList<EtcdRecipe *> create() override
    {
        m_leader = std::make_unique<EtcdLeaderSelector>(m_faulted, m_path, candidate(u"faulted"_s));
        QObject::connect(
            m_leader.get(), &EtcdLeaderSelector::elected, [this] { onFaultedAcquired(); });
        QObject::connect(
            m_leader.get(), &EtcdLeaderSelector::leadershipLost, [this] { onFaultedLost(); });
        m_contender.create(m_clean, m_path, [this] { sample(); });
        return {m_leader.get(), m_contender.get()};
    }
    // A selector runs again once its last term finished (after the loss, a moment later).
    void acquireFaulted() override
    {
        waitFor([this] { return m_leader->state() == EtcdLeaderSelector::State::Idle; });
        m_leader->start();
    }
    void acquireContender() override { m_contender->start(); }
    bool releaseContender() override { return m_contender.resign(); }
    bool contenderQueued() override { return m_contender.queued(); }
    int holders() const override { return int(faultedHolds()) + int(contenderHolds()); }
    bool faultedHolds() const override { return m_leader->isLeader(); }
    bool contenderHolds() const override { return m_contender->isLeader(); }
    EtcdFencingToken faultedToken() const override { return m_leader->fencingToken(); }
    EtcdFencingToken contenderToken() const override { return m_contender->fencingToken(); }
    EtcdTxnReply *faultedGuardedTxn(const EtcdTxn &t) override { return m_leader->guardedTxn(t); }
    EtcdTxnReply *contenderGuardedTxn(const EtcdTxn &t) override
    {
        return m_contender->guardedTxn(t);
    }

private:
    std::unique_ptr<EtcdLeaderSelector> m_leader;
    SelectorContender m_contender;
};

class LatchSubject : public OwnershipSubject
{
protected:
    QList<EtcdRecipe *> create() override
    {
        m_latch = std::make_unique<EtcdLeaderLatch>(m_faulted, m_path, candidate(u"faulted"_s));
        QObject::connect(m_latch.get(), &EtcdLeaderLatch::elected, [this] { onFaultedAcquired(); });
        QObject::connect(
            m_latch.get(), &EtcdLeaderLatch::leadershipLost, [this] { onFaultedLost(); });
        m_contender.create(m_clean, m_path, [this] { sample(); });
        return {m_latch.get(), m_contender.get()};
    }
    // Started once: after a loss the latch contests again by itself.
    void acquireFaulted() override
    {
        if (!m_started)
            m_started = m_latch->start();
    }
    bool faultedMayWinAgain(const FaultFacts &facts) const override { return facts.cleanHit; }
    void acquireContender() override { m_contender->start(); }
    bool releaseContender() override { return m_contender.resign(); }
    bool contenderQueued() override { return m_contender.queued(); }
    int holders() const override { return int(faultedHolds()) + int(contenderHolds()); }
    bool faultedHolds() const override { return m_latch->hasLeadership(); }
    bool contenderHolds() const override { return m_contender->isLeader(); }
    EtcdFencingToken faultedToken() const override { return m_latch->fencingToken(); }
    EtcdFencingToken contenderToken() const override { return m_contender->fencingToken(); }
    EtcdTxnReply *faultedGuardedTxn(const EtcdTxn &t) override { return m_latch->guardedTxn(t); }
    EtcdTxnReply *contenderGuardedTxn(const EtcdTxn &t) override
    {
        return m_contender->guardedTxn(t);
    }

private:
    std::unique_ptr<EtcdLeaderLatch> m_latch;
    SelectorContender m_contender;
    bool m_started = false;
};

class ElectionSubject : public OwnershipSubject
{
protected:
    QList<EtcdRecipe *> create() override
    {
        EtcdElectionOptions o;
        o.ttl = kTtl;
        m_leader = std::make_unique<EtcdElection>(m_faulted, m_path, o);
        m_contender = std::make_unique<EtcdElection>(m_clean, m_path, o);
        QObject::connect(m_leader.get(), &EtcdElection::elected, [this] { onFaultedAcquired(); });
        QObject::connect(
            m_leader.get(), &EtcdElection::leadershipLost, [this] { onFaultedLost(); });
        QObject::connect(m_contender.get(), &EtcdElection::elected, [this] { sample(); });
        return {m_leader.get(), m_contender.get()};
    }
    // After a loss the election is idle again once it has stepped down.
    void acquireFaulted() override
    {
        waitFor([this] { return m_leader->state() == EtcdElection::State::Idle; });
        m_leader->campaign("faulted");
    }
    void acquireContender() override { m_contender->campaign("clean"); }
    bool releaseContender() override { return m_contender->resign(); }
    bool contenderQueued() override { return keyCount(*m_clean, m_path) == 2; }
    int holders() const override { return int(faultedHolds()) + int(contenderHolds()); }
    bool faultedHolds() const override { return m_leader->isLeader(); }
    bool contenderHolds() const override { return m_contender->isLeader(); }
    EtcdFencingToken faultedToken() const override { return m_leader->fencingToken(); }
    EtcdFencingToken contenderToken() const override { return m_contender->fencingToken(); }
    EtcdTxnReply *faultedGuardedTxn(const EtcdTxn &t) override { return m_leader->guardedTxn(t); }
    EtcdTxnReply *contenderGuardedTxn(const EtcdTxn &t) override
    {
        return m_contender->guardedTxn(t);
    }

private:
    std::unique_ptr<EtcdElection> m_leader, m_contender;
};

} // namespace

std::unique_ptr<Subject> makeSelector()
{
    return std::make_unique<SelectorSubject>();
}
std::unique_ptr<Subject> makeLatch()
{
    return std::make_unique<LatchSubject>();
}
std::unique_ptr<Subject> makeElection()
{
    return std::make_unique<ElectionSubject>();
}

} // namespace FaultMatrix
