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

EtcdLeaderSelectorOptions candidate(const QString &id, std::chrono::seconds ttl = kTtl)
{
    EtcdLeaderSelectorOptions o;
    o.ttl = ttl;
    o.clientId = id;
    return o;
}

// A clean selector contending with the faulted recipe; queued once it said started().
class SelectorContender
{
public:
    void create(EtcdClient *clean, const QByteArray &path, std::chrono::seconds ttl,
        const std::function<void()> &sample)
    {
        m_selector = std::make_unique<EtcdLeaderSelector>(clean, path, candidate(u"clean"_s, ttl));
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
    void createFaulted() override
    {
        m_leader = std::make_unique<EtcdLeaderSelector>(m_faulted, m_path, candidate(u"faulted"_s));
        QObject::connect(
            m_leader.get(), &EtcdLeaderSelector::elected, [this] { onFaultedAcquired(); });
        QObject::connect(
            m_leader.get(), &EtcdLeaderSelector::leadershipLost, [this] { onFaultedLost(); });
    }
    void createContenders() override
    {
        m_contender.create(m_clean, m_path, m_cleanTtl, [this] { sample(); });
    }
    QList<EtcdRecipe *> recipes() const override { return {m_leader.get(), m_contender.get()}; }
    std::unique_ptr<EtcdRecipe> takeFaulted() override { return std::move(m_leader); }
    bool releaseFaulted() override
    {
        m_leader->resign();
        return true;
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
    bool faultedHolds() const override { return m_leader && m_leader->isLeader(); }
    bool contenderHolds() const override { return m_contender->isLeader(); }
    EtcdFencingToken faultedToken() const override
    {
        return m_leader ? m_leader->fencingToken() : EtcdFencingToken {};
    }
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
    void createFaulted() override
    {
        m_latch = std::make_unique<EtcdLeaderLatch>(m_faulted, m_path, candidate(u"faulted"_s));
        m_started = false;
        QObject::connect(m_latch.get(), &EtcdLeaderLatch::elected, [this] { onFaultedAcquired(); });
        QObject::connect(
            m_latch.get(), &EtcdLeaderLatch::leadershipLost, [this] { onFaultedLost(); });
    }
    void createContenders() override
    {
        m_contender.create(m_clean, m_path, m_cleanTtl, [this] { sample(); });
    }
    QList<EtcdRecipe *> recipes() const override { return {m_latch.get(), m_contender.get()}; }
    std::unique_ptr<EtcdRecipe> takeFaulted() override { return std::move(m_latch); }
    // A latch leads until closed: a closed one is kept aside and a new one contests later.
    bool releaseFaulted() override
    {
        if (!closeAll({m_latch.get()}))
            return false;
        m_closed.push_back(std::move(m_latch));
        createFaulted();
        return true;
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
    bool faultedHolds() const override { return m_latch && m_latch->hasLeadership(); }
    bool contenderHolds() const override { return m_contender->isLeader(); }
    EtcdFencingToken faultedToken() const override
    {
        return m_latch ? m_latch->fencingToken() : EtcdFencingToken {};
    }
    EtcdFencingToken contenderToken() const override { return m_contender->fencingToken(); }
    EtcdTxnReply *faultedGuardedTxn(const EtcdTxn &t) override { return m_latch->guardedTxn(t); }
    EtcdTxnReply *contenderGuardedTxn(const EtcdTxn &t) override
    {
        return m_contender->guardedTxn(t);
    }

private:
    std::unique_ptr<EtcdLeaderLatch> m_latch;
    std::vector<std::unique_ptr<EtcdLeaderLatch>> m_closed;
    SelectorContender m_contender;
    bool m_started = false;
};

class ElectionSubject : public OwnershipSubject
{
protected:
    void createFaulted() override
    {
        m_leader = std::make_unique<EtcdElection>(m_faulted, m_path, withTtl(kTtl));
        QObject::connect(m_leader.get(), &EtcdElection::elected, [this] { onFaultedAcquired(); });
        QObject::connect(
            m_leader.get(), &EtcdElection::leadershipLost, [this] { onFaultedLost(); });
    }
    void createContenders() override
    {
        m_contender = std::make_unique<EtcdElection>(m_clean, m_path, withTtl(m_cleanTtl));
        QObject::connect(m_contender.get(), &EtcdElection::elected, [this] { sample(); });
    }
    QList<EtcdRecipe *> recipes() const override { return {m_leader.get(), m_contender.get()}; }
    std::unique_ptr<EtcdRecipe> takeFaulted() override { return std::move(m_leader); }
    bool releaseFaulted() override { return m_leader->resign(); }
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
    bool faultedHolds() const override { return m_leader && m_leader->isLeader(); }
    bool contenderHolds() const override { return m_contender->isLeader(); }
    EtcdFencingToken faultedToken() const override
    {
        return m_leader ? m_leader->fencingToken() : EtcdFencingToken {};
    }
    EtcdFencingToken contenderToken() const override { return m_contender->fencingToken(); }
    EtcdTxnReply *faultedGuardedTxn(const EtcdTxn &t) override { return m_leader->guardedTxn(t); }
    EtcdTxnReply *contenderGuardedTxn(const EtcdTxn &t) override
    {
        return m_contender->guardedTxn(t);
    }

private:
    static EtcdElectionOptions withTtl(std::chrono::seconds ttl)
    {
        EtcdElectionOptions o;
        o.ttl = ttl;
        return o;
    }

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
