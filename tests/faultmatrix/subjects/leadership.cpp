// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// Leadership under a fault: the leader selector (no body: leadership until resign()), the
// leader latch (it contests again by itself after a loss) with a selector contending on the
// same election, etcd's own election, and two views of the selectors' election from the
// faulted client: the leader observer and the participants model.
#include "ownership.h"
#include "subjects.h"

#include <EtcdQt/etcdelection.h>
#include <EtcdQt/etcdleaderlatch.h>
#include <EtcdQt/etcdleaderobserver.h>
#include <EtcdQt/etcdleaderselector.h>
#include <EtcdQt/etcdparticipants.h>

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

// A view of the selectors' election on the faulted client (the leader observer, the
// participants model): after the fault, and after recovering, it must agree with whoever
// leads then and with etcd (a stale leader never kept, a missed term reported late rather
// than never), through a restart, a compaction or its own client's replacement.
class ElectionViewSubject : public SelectorSubject
{
public:
    void start(EtcdClient *faulted, EtcdClient *clean, const QByteArray &path) override
    {
        SelectorSubject::start(faulted, clean, path);
        createView();
    }
    bool steady() override { return viewStarted() && SelectorSubject::steady(); }
    QString afterFault(const FaultFacts &facts) override
    {
        if (const QString r = SelectorSubject::afterFault(facts); !r.isEmpty())
            return r;
        return facts.faultedDestroyed ? QString() : agrees(u"the fault"_s);
    }
    QString recover() override
    {
        if (m_faultedReplaced)
            createView(); // on the deleted client's replacement
        if (const QString r = SelectorSubject::recover(); !r.isEmpty())
            return r;
        return agrees(u"recovering"_s);
    }
    // The view is missing when the destroy column's checks stopped before recover().
    bool close() override
    {
        const bool closed = SelectorSubject::close();
        return (!hasView() || closeView()) && closed;
    }
    void handOverFaulted() override
    {
        SelectorSubject::handOverFaulted();
        handOverView();
    }

protected:
    virtual void createView() = 0;
    [[nodiscard]] virtual bool hasView() const = 0;
    [[nodiscard]] virtual bool viewStarted() const = 0;
    virtual bool closeView() = 0;
    virtual void handOverView() = 0;
    // Empty when the view agrees, else how it differs.
    virtual QString disagreement() = 0;

    // The candidate leading by the selectors' own word; empty when none does.
    [[nodiscard]] QString leaderNow() const
    {
        return faultedHolds() ? u"faulted"_s : contenderHolds() ? u"clean"_s : QString();
    }

private:
    QString agrees(const QString &after)
    {
        QString differs;
        if (!waitFor([&] { return (differs = disagreement()).isEmpty(); }))
            return u"after %1 %2"_s.arg(after, differs);
        return {};
    }
};

class ObserverSubject : public ElectionViewSubject
{
protected:
    void createView() override
    {
        m_observer = std::make_unique<EtcdLeaderObserver>(m_faulted, m_path);
        m_observer->start();
    }
    bool hasView() const override { return bool(m_observer); }
    bool viewStarted() const override { return m_observer->isStarted(); }
    bool closeView() override { return closeAll({m_observer.get()}); }
    void handOverView() override { m_observer.release()->setParent(m_faulted); }
    QString disagreement() override
    {
        const QString leader = leaderNow();
        if (!leader.isEmpty() && m_observer->currentLeader() == leader)
            return {};
        return u"the observer names \"%1\", the leader is \"%2\""_s.arg(
            m_observer->currentLeader(), leader);
    }

private:
    std::unique_ptr<EtcdLeaderObserver> m_observer;
};

// The participants model on the faulted client lists what etcd lists (read through the clean
// client), with the leader marked.
class ParticipantsSubject : public ElectionViewSubject
{
protected:
    void createView() override
    {
        m_model = std::make_unique<EtcdParticipantsModel>(m_faulted, m_path);
        m_started = false;
        QObject::connect(
            m_model.get(), &EtcdParticipantsModel::started, [this] { m_started = true; });
        m_model->start();
    }
    bool hasView() const override { return bool(m_model); }
    bool viewStarted() const override { return m_started; }
    bool closeView() override { return true; } // a model, not a recipe: it closes as it goes
    void handOverView() override { m_model.release()->setParent(m_faulted); }
    QString disagreement() override
    {
        const auto etcd = await(EtcdLeaderSelector::participants(m_clean, m_path));
        if (!etcd.status.isOk())
            return u"etcd did not list the participants: "_s + etcd.status.toString();
        const QStringList listed = names(etcd->participants());
        const QString leader = leaderNow();
        if (!leader.isEmpty() && m_model->leader() == leader && etcd->leader() == leader
            && shown() == listed)
            return {};
        return u"the model shows %1 led by \"%2\"; etcd lists %3 led by \"%4\", the leader is "
               u"\"%5\""_s.arg(shown().join(u','), m_model->leader(), listed.join(u','),
                   etcd->leader(), leader);
    }

private:
    static QStringList names(const QList<EtcdParticipant> &participants)
    {
        QStringList ids;
        for (const EtcdParticipant &p : participants)
            ids.append(p.clientId);
        ids.sort();
        return ids;
    }
    QStringList shown() const
    {
        QStringList ids;
        for (int row = 0; row < m_model->rowCount(); ++row)
            ids.append(
                m_model->data(m_model->index(row), EtcdParticipantsModel::ClientIdRole).toString());
        ids.sort();
        return ids;
    }

    std::unique_ptr<EtcdParticipantsModel> m_model;
    bool m_started = false;
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
std::unique_ptr<Subject> makeObserver()
{
    return std::make_unique<ObserverSubject>();
}
std::unique_ptr<Subject> makeParticipants()
{
    return std::make_unique<ParticipantsSubject>();
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
