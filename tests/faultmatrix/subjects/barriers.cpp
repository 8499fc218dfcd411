// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// The barriers under a fault. The barrier is of the heal group: its setter's key heals, and a
// waiter may be released only when the lease really went (the documented spurious lift), never
// while it lived. The counted and double barriers are rendezvous of three members: the faulted
// one and a clean one arrive before the fault, the third after it; nobody passes before all
// three arrived, the faulted member's waiting key heals, and the round completes. The
// countdown latch is counted down from both clients through the fault (counting.h): no count
// lost or doubled, never open above zero, and both objects follow etcd's count after it.
#include "counting.h"
#include "healing.h"
#include "subjects.h"

#include <EtcdQt/etcdbarrier.h>
#include <EtcdQt/etcdcountdownlatch.h>
#include <EtcdQt/etcdcountedbarrier.h>
#include <EtcdQt/etcddoublebarrier.h>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace FaultMatrix {
namespace {

// The setter on the faulted client, a waiter on the clean one.
class BarrierSubject : public HealingKeySubject
{
public:
    BarrierSubject() : HealingKeySubject("gate") { }
    void start(EtcdClient *faulted, EtcdClient *clean, const QByteArray &path) override
    {
        HealingKeySubject::start(faulted, clean, path);
        m_waiter = std::make_unique<EtcdBarrier>(clean, m_key, options(u"clean"_s, m_cleanTtl));
        QObject::connect(m_waiter.get(), &EtcdBarrier::lifted, [this] { ++m_lifts; });
        m_waiter->startWaiting();
    }
    bool steady() override { return alive() && m_waiter->waiterCount() > 0; }
    QString afterFault(const FaultFacts &facts) override;
    QString recover() override;
    bool close() override { return closeAll({recipe(), m_waiter.get()}); }

protected:
    void create() override
    {
        m_failed = false;
        m_setter = std::make_unique<EtcdBarrier>(m_faulted, m_key, options(u"faulted"_s, kTtl));
        EtcdBarrier *b = m_setter.get();
        QObject::connect(b, &EtcdBarrier::leaseIdChanged, [this](qint64 id) {
            if (id > 0)
                onLease(id);
        });
        QObject::connect(
            b, &EtcdBarrier::leaseEvent, [this](const EtcdLeaseEvent &e) { onLeaseEvent(e); });
        QObject::connect(b, &EtcdBarrier::failed, [this] { m_failed = true; });
        b->setBarrier();
    }
    EtcdRecipe *recipe() const override { return m_setter.get(); }
    std::unique_ptr<EtcdRecipe> takeRecipe() override { return std::move(m_setter); }
    bool alive() const override { return m_setter && m_setter->state() == EtcdBarrier::State::Set; }
    bool gaveUp() const override { return m_failed; }
    qint64 currentLease() const override { return m_setter ? m_setter->leaseId() : 0; }
    QString stateText() const override
    {
        return u"state "_s
            + QString::fromLatin1(
                QMetaEnum::fromType<EtcdBarrier::State>().valueToKey(int(m_setter->state())));
    }
    QByteArray value() const override { return {}; } // the setter's random token

private:
    static EtcdBarrierOptions options(const QString &id, std::chrono::seconds ttl)
    {
        EtcdBarrierOptions o;
        o.ttl = ttl;
        o.clientId = id;
        o.resilience = fastHealing();
        return o;
    }
    QString removalLifts();

    std::unique_ptr<EtcdBarrier> m_setter, m_waiter;
    bool m_failed = false;
    int m_lifts = 0; // lifted() of the waiter's waits
};

// A lift is a deletion of the key: the deleted client revoked it, or its lease ended (the
// spurious lift the docs own up to); while the lease lived, nothing may release a waiter.
QString BarrierSubject::afterFault(const FaultFacts &facts)
{
    const QString healed = HealingKeySubject::afterFault(facts);
    if (!healed.isEmpty() || facts.faultedDestroyed)
        return healed;
    if (m_lifts > 0 && !expiryReported())
        return u"a waiter was released while the barrier's lease lived (no Expired)"_s;
    return {};
}

// Healed after a revoke (which lifts any parked wait), then a new wait parks behind the
// barrier and lifts on the setter's removeBarrier().
QString BarrierSubject::recover()
{
    if (const QString r = HealingKeySubject::recover(); !r.isEmpty())
        return r;
    return removalLifts();
}

QString BarrierSubject::removalLifts()
{
    if (m_waiter->waiterCount() == 0)
        m_waiter->startWaiting();
    if (!waitFor([this] { return m_waiter->waiterCount() > 0; }))
        return u"a new wait never parked behind the healed barrier"_s;
    const int before = m_lifts;
    const auto removed = await(m_setter->removeBarrier());
    if (!removed.status.isOk() || !removed->result())
        return u"removeBarrier() failed: %1; etcd holds %2"_s.arg(
            removed.status.toString(), keysText(*m_clean, m_path));
    if (!waitFor([&] { return m_lifts > before; }))
        return u"the parked wait never lifted after removeBarrier()"_s;
    return {};
}

// One member of a rendezvous, and what it went through.
struct Member
{
    std::unique_ptr<EtcdRecipe> recipe;
    int passed = 0; // rounds it passed (tripped / entered)
    QString failed; // why it failed, if it did
    bool lost = false; // connectionState() went Lost
};

class RendezvousSubject : public Subject
{
public:
    void start(EtcdClient *faulted, EtcdClient *clean, const QByteArray &path) override;
    bool steady() override { return waitingKeys() == 2; }
    void sample() override;
    QString afterFault(const FaultFacts &facts) override;
    QString recover() override;
    bool close() override;
    // Mid-operation: the faulted member is waiting at the barrier as its client goes.
    void handOverFaulted() override { m_members[0].recipe.release()->setParent(m_faulted); }
    // The leases of the faulted member's waiting keys.
    [[nodiscard]] QList<qint64> faultedLeases() const override;

protected:
    static constexpr int kMembers = 3;
    using Counts = std::array<int, kMembers>; // per member
    // Every member's count went up since `before`.
    static bool allAbove(const Counts &now, const Counts &before);
    // Member `member`'s recipe on `client`, `id` in its keys, with a lease of `ttl`.
    virtual std::unique_ptr<EtcdRecipe> make(
        int member, EtcdClient *client, const QString &id, std::chrono::seconds ttl)
        = 0;
    virtual void arrive(EtcdRecipe *member) = 0;
    // Where the members' waiting keys are while they wait to pass.
    [[nodiscard]] virtual QByteArray waitingPath() const = 0;
    // After every member passed: what the round still has to do (the double barrier leaves).
    virtual QString finishRound() { return {}; }
    // For the recipes' signals.
    void onPassed(int member);
    void onFailed(int member, const EtcdStatus &why) { m_members[member].failed = why.toString(); }

    std::array<Member, kMembers> m_members; // the faulted one first
    int m_arrived = 0; // arrivals in this round

private:
    void create(int member);
    void arriveNow(int member);
    [[nodiscard]] int waitingKeys() const { return keyCount(*m_clean, waitingPath()); }
    [[nodiscard]] Counts passed() const;
    QString roundCompletes(const QList<int> &arriving, const QString &when);
};

void RendezvousSubject::start(EtcdClient *faulted, EtcdClient *clean, const QByteArray &path)
{
    m_faulted = faulted;
    m_clean = clean;
    m_path = path;
    for (int i = 0; i < kMembers; ++i)
        create(i);
    arriveNow(0);
    arriveNow(1);
}

void RendezvousSubject::create(int member)
{
    Member &m = m_members[member];
    m = Member {};
    m.recipe = member == 0 ? make(member, m_faulted, u"faulted"_s, kTtl)
                           : make(member, m_clean, u"clean%1"_s.arg(member), m_cleanTtl);
    QObject::connect(m.recipe.get(), &EtcdRecipe::connectionStateChanged,
        [this, member](EtcdRecipe::ConnectionState s) {
            if (s == EtcdRecipe::ConnectionState::Lost)
                m_members[member].lost = true;
        });
}

void RendezvousSubject::arriveNow(int member)
{
    ++m_arrived;
    arrive(m_members[member].recipe.get());
}

void RendezvousSubject::onPassed(int member)
{
    ++m_members[member].passed;
    if (m_arrived < kMembers)
        violate(u"a member passed with only %1 of %2 arrived"_s.arg(m_arrived).arg(kMembers));
}

void RendezvousSubject::sample()
{
    for (int i = 0; i < kMembers; ++i) {
        if (!m_members[i].failed.isEmpty())
            violate(u"member %1 failed (gave up waiting): %2"_s.arg(i).arg(m_members[i].failed));
    }
}

bool RendezvousSubject::allAbove(const Counts &now, const Counts &before)
{
    return std::equal(now.begin(), now.end(), before.begin(), std::greater<>());
}

RendezvousSubject::Counts RendezvousSubject::passed() const
{
    Counts n {};
    for (int i = 0; i < kMembers; ++i)
        n[i] = m_members[i].passed;
    return n;
}

QString RendezvousSubject::afterFault(const FaultFacts &facts)
{
    if (facts.faultedDestroyed) {
        if (!waitFor([this] { return waitingKeys() == 1; }, kTtlMs))
            return u"the faulted member's key outlived its client's destructor: "_s
                + keysText(*m_clean, m_path);
        return {};
    }
    const bool &lost = m_members[0].lost;
    if (facts.outlastsTtl && !waitFor([&] { return lost; }))
        return u"the loss was never reported (connectionState never Lost)"_s;
    if (lost && !facts.outlastsTtl && !facts.mayOutlastTtl)
        return u"reported a loss (Lost) its lease outlived"_s;
    // The faulted member's waiting key is there again, on a lease (etcd deletes it with one).
    if (!waitFor([this] { return !faultedLeases().isEmpty() && waitingKeys() == 2; }))
        return u"the waiting keys did not heal: "_s + keysText(*m_clean, m_path);
    return roundCompletes({2}, u"after the fault"_s);
}

// Usable again: a whole new round (on the deleted client's successor, the old round with the
// clean member still in it).
QString RendezvousSubject::recover()
{
    if (std::exchange(m_faultedReplaced, false)) {
        create(0);
        return roundCompletes({0, 2}, u"on a new client"_s);
    }
    return roundCompletes({0, 1, 2}, u"in a new round"_s);
}

QString RendezvousSubject::roundCompletes(const QList<int> &arriving, const QString &when)
{
    const Counts before = passed();
    if (arriving.size() == kMembers)
        m_arrived = 0;
    for (const int i : arriving)
        arriveNow(i);
    if (!waitFor([&] { return allAbove(passed(), before); }))
        return u"the round never completed %1; etcd holds %2"_s.arg(
            when, keysText(*m_clean, m_path));
    return finishRound();
}

bool RendezvousSubject::close()
{
    QList<EtcdRecipe *> open;
    for (const Member &m : m_members) {
        if (m.recipe)
            open.append(m.recipe.get());
    }
    return closeAll(open);
}

QList<qint64> RendezvousSubject::faultedLeases() const
{
    QList<qint64> ids;
    for (const EtcdKeyValue &kv :
        keysUnder(*m_clean, waitingPath()).value_or(QList<EtcdKeyValue> {})) {
        if (kv.key.startsWith(waitingPath() + "/faulted:") && kv.lease != 0)
            ids.append(kv.lease);
    }
    return ids;
}

EtcdCountedBarrierOptions countedOptions(const QString &id, std::chrono::seconds ttl)
{
    EtcdCountedBarrierOptions o;
    o.ttl = ttl;
    o.clientId = id;
    o.resilience = fastHealing();
    return o;
}

class CountedBarrierSubject : public RendezvousSubject
{
protected:
    std::unique_ptr<EtcdRecipe> make(
        int member, EtcdClient *client, const QString &id, std::chrono::seconds ttl) override
    {
        auto b = std::make_unique<EtcdCountedBarrier>(
            client, m_path, kMembers, countedOptions(id, ttl));
        QObject::connect(
            b.get(), &EtcdCountedBarrier::tripped, [this, member] { onPassed(member); });
        QObject::connect(b.get(), &EtcdCountedBarrier::failed,
            [this, member](const EtcdStatus &why) { onFailed(member, why); });
        return b;
    }
    void arrive(EtcdRecipe *member) override
    {
        static_cast<EtcdCountedBarrier *>(member)->arrive();
    }
    QByteArray waitingPath() const override { return m_path + "/waiting"; }
};

// Members pass when all entered; then the round leaves together.
class DoubleBarrierSubject : public RendezvousSubject
{
protected:
    std::unique_ptr<EtcdRecipe> make(
        int member, EtcdClient *client, const QString &id, std::chrono::seconds ttl) override
    {
        auto b = std::make_unique<EtcdDoubleBarrier>(
            client, m_path, kMembers, countedOptions(id, ttl));
        m_left[member] = 0;
        QObject::connect(
            b.get(), &EtcdDoubleBarrier::entered, [this, member] { onPassed(member); });
        QObject::connect(b.get(), &EtcdDoubleBarrier::left, [this, member] { ++m_left[member]; });
        QObject::connect(b.get(), &EtcdDoubleBarrier::failed,
            [this, member](const EtcdStatus &why) { onFailed(member, why); });
        return b;
    }
    void arrive(EtcdRecipe *member) override
    {
        static_cast<EtcdDoubleBarrier *>(member)->startEnter();
    }
    QByteArray waitingPath() const override { return m_path + "/enter/waiting"; }
    QString finishRound() override
    {
        const Counts before = m_left;
        for (const Member &m : m_members)
            static_cast<EtcdDoubleBarrier *>(m.recipe.get())->startLeave();
        if (!waitFor([&] { return allAbove(m_left, before); }))
            return u"the members entered but never all left; etcd holds "_s
                + keysText(*m_clean, m_path);
        return {};
    }

private:
    Counts m_left {}; // left() per member
};

// A count far above what the fault's changes take off: it opens only when recover() brings it
// down to zero on purpose.
constexpr qint64 kLatchCount = 1'000'000;

class CountDownLatchSubject : public CountingSubject
{
public:
    void sample() override
    {
        CountingSubject::sample();
        if ((m_faultedOpened || m_cleanOpened) && !m_mayOpen)
            violate(u"opened while its count was above zero"_s);
    }
    QString recover() override;

protected:
    qint64 startValue() const override { return kLatchCount; }
    int direction() const override { return -1; }
    void createFaulted() override
    {
        m_faultedOpened = false;
        m_latch = std::make_unique<EtcdCountDownLatch>(m_faulted, countKey());
        QObject::connect(
            m_latch.get(), &EtcdCountDownLatch::opened, [this] { m_faultedOpened = true; });
        m_latch->start();
    }
    // The clean object creates the latch and counts down too.
    void createClean() override
    {
        m_waiter = std::make_unique<EtcdCountDownLatch>(m_clean, countKey());
        QObject::connect(
            m_waiter.get(), &EtcdCountDownLatch::opened, [this] { m_cleanOpened = true; });
        m_waiter->start();
        QObject::connect(m_waiter->create(kLatchCount), &EtcdReply::finished,
            [this](const EtcdStatus &s) { m_created = s.isOk(); });
    }
    bool ready() const override
    {
        return m_created && m_latch->count() > 0 && m_waiter->count() > 0;
    }
    EtcdValueReply *faultedChange() override { return m_latch->countDown(); }
    EtcdValueReply *cleanChange() override { return m_waiter->countDown(); }
    QList<EtcdRecipe *> recipes() const override { return {m_latch.get(), m_waiter.get()}; }
    std::unique_ptr<EtcdRecipe> takeFaulted() override { return std::move(m_latch); }
    // Both objects' watches caught up with etcd (a restart or a compaction in between).
    QString afterSettled(qint64 value) override
    {
        const auto follows
            = [&] { return m_waiter->count() == value && (!m_latch || m_latch->count() == value); };
        if (!waitFor(follows))
            return u"the objects follow counts %1 (faulted) and %2 (clean); etcd has %3"_s
                .arg(m_latch ? m_latch->count() : -2)
                .arg(m_waiter->count())
                .arg(value);
        return {};
    }

private:
    std::unique_ptr<EtcdCountDownLatch> m_latch, m_waiter;
    bool m_created = false;
    bool m_faultedOpened = false, m_cleanOpened = false;
    bool m_mayOpen = false; // recover() counts it down to zero
};

// Usable again: brought down to one, the faulted object's countDown() opens it for both.
QString CountDownLatchSubject::recover()
{
    if (std::exchange(m_faultedReplaced, false))
        createFaulted(); // on the deleted client's replacement
    const auto value = count();
    if (!value)
        return u"etcd did not answer for the count"_s;
    const auto down = await(reader().subtract(*value - 1));
    if (!down.status.isOk() || down->value() != 1)
        return u"bringing the count down to 1 failed: "_s + down.status.toString();
    if (!waitFor([this] { return m_latch->count() == 1; }))
        return u"the faulted object never saw the count at 1"_s;
    m_mayOpen = true;
    const auto last = await(m_latch->countDown());
    if (!last.status.isOk() || last->value() != 0)
        return u"the last countDown() failed: %1 (value %2)"_s.arg(
            last.status.toString(), QString::number(last->value()));
    if (!waitFor([this] { return m_faultedOpened && m_cleanOpened; }))
        return u"not opened at zero (faulted %1, clean %2)"_s.arg(m_faultedOpened)
            .arg(m_cleanOpened);
    return {};
}

} // namespace

std::unique_ptr<Subject> makeBarrier()
{
    return std::make_unique<BarrierSubject>();
}
std::unique_ptr<Subject> makeCountedBarrier()
{
    return std::make_unique<CountedBarrierSubject>();
}
std::unique_ptr<Subject> makeDoubleBarrier()
{
    return std::make_unique<DoubleBarrierSubject>();
}
std::unique_ptr<Subject> makeCountDownLatch()
{
    return std::make_unique<CountDownLatchSubject>();
}

} // namespace FaultMatrix
