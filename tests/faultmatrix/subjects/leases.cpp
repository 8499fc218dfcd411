// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// The lease recipes under a fault. The heal group (the self-healing lease, which owns one key
// through its establish hook, and the transient key) must report the loss, heal to a new
// lease that owns the key again, and never give up (Failed) on a fault it can heal. The
// never-heal group (leased keys) must report the loss once, let its keys go with the lease,
// and never move them to another lease; a new one is usable after the fault.
#include "healing.h"
#include "subjects.h"

#include <EtcdQt/etcdleasedkeys.h>
#include <EtcdQt/etcdselfhealingkeepalive.h>
#include <EtcdQt/etcdtransientkeyvalue.h>

using namespace Qt::StringLiterals;

namespace FaultMatrix {
namespace {

class SelfHealingSubject : public HealingKeySubject
{
protected:
    void create() override
    {
        m_owner = 0;
        m_lease = std::make_unique<EtcdSelfHealingKeepAlive>(
            m_faulted, kTtl, [this](qint64 id, auto done) { establish(id, done); }, fastHealing());
        QObject::connect(m_lease.get(), &EtcdSelfHealingKeepAlive::established, [this](qint64 id) {
            m_owner = id;
            onLease(id);
        });
        QObject::connect(m_lease.get(), &EtcdSelfHealingKeepAlive::leaseEvent,
            [this](const EtcdLeaseEvent &e) { onLeaseEvent(e); });
        m_lease->start();
    }
    EtcdRecipe *recipe() const override { return m_lease.get(); }
    std::unique_ptr<EtcdRecipe> takeRecipe() override { return std::move(m_lease); }
    bool alive() const override
    {
        return m_lease && m_lease->state() == EtcdSelfHealingKeepAlive::State::Alive;
    }
    bool gaveUp() const override
    {
        return m_lease && m_lease->state() == EtcdSelfHealingKeepAlive::State::Failed;
    }
    qint64 currentLease() const override { return m_lease ? m_lease->currentLeaseId() : 0; }
    QString stateText() const override
    {
        return u"state "_s
            + QString::fromLatin1(QMetaEnum::fromType<EtcdSelfHealingKeepAlive::State>().valueToKey(
                int(m_lease->state())));
    }

private:
    // Creates the key under `id` if nobody holds it, or takes it over from our own last lease
    // (a restarted etcd restores that lease for another TTL).
    void establish(qint64 id, const EtcdSelfHealingKeepAlive::EstablishDone &done)
    {
        EtcdPutOptions put;
        put.lease = id;
        EtcdTxn txn;
        txn.compares = {m_owner > 0 ? EtcdCompare::lease(m_key, Etcd::CompareResult::Equal, m_owner)
                                    : EtcdCompare::version(m_key, Etcd::CompareResult::Equal, 0)};
        txn.success = {EtcdTxnOp::put(m_key, kValue.toByteArray(), put)};
        EtcdTxnReply *reply = m_faulted->txn(txn);
        QObject::connect(reply, &EtcdReply::finished, m_lease.get(),
            [this, reply, txn, put, done](const EtcdStatus &s) mutable {
                if (!s.isOk() || reply->succeeded() || m_owner == 0)
                    return done(s.isOk() && reply->succeeded());
                // Not ours any more: only a free key may be taken.
                txn.compares = {EtcdCompare::version(m_key, Etcd::CompareResult::Equal, 0)};
                EtcdTxnReply *again = m_faulted->txn(txn);
                QObject::connect(again, &EtcdReply::finished, m_lease.get(),
                    [again, done](const EtcdStatus &s2) { done(s2.isOk() && again->succeeded()); });
            });
    }

    std::unique_ptr<EtcdSelfHealingKeepAlive> m_lease;
    qint64 m_owner = 0; // the lease that last established the key
};

// The transient key: the heal group's one-key recipe (create-if-absent on every heal).
class TransientKeySubject : public HealingKeySubject
{
protected:
    void create() override
    {
        m_started = false;
        m_failed = false;
        m_kv = std::make_unique<EtcdTransientKeyValue>(
            m_faulted, m_key, kValue.toByteArray(), kTtl, fastHealing());
        EtcdTransientKeyValue *kv = m_kv.get();
        QObject::connect(kv, &EtcdTransientKeyValue::started, [this] { m_started = true; });
        QObject::connect(kv, &EtcdTransientKeyValue::leaseIdChanged, [this](qint64 id) {
            if (id > 0)
                onLease(id);
        });
        QObject::connect(kv, &EtcdTransientKeyValue::leaseEvent,
            [this](const EtcdLeaseEvent &e) { onLeaseEvent(e); });
        QObject::connect(kv, &EtcdTransientKeyValue::failed, [this] { m_failed = true; });
        kv->start();
    }
    EtcdRecipe *recipe() const override { return m_kv.get(); }
    std::unique_ptr<EtcdRecipe> takeRecipe() override { return std::move(m_kv); }
    bool alive() const override { return m_kv && m_started && !m_failed && m_kv->leaseId() > 0; }
    bool gaveUp() const override { return m_failed; }
    qint64 currentLease() const override { return m_kv ? m_kv->leaseId() : 0; }
    QString stateText() const override
    {
        return u"started %1, failed %2"_s.arg(m_started).arg(m_failed);
    }

private:
    std::unique_ptr<EtcdTransientKeyValue> m_kv;
    bool m_started = false;
    bool m_failed = false;
};

// Leased keys: two keys on one lease, never healed. Recovery is a new one, made the way an
// application makes one (Etcd::putWithKeepAlive()).
class LeasedKeysSubject : public Subject
{
public:
    void start(EtcdClient *faulted, EtcdClient *clean, const QByteArray &path) override
    {
        m_faulted = faulted;
        m_clean = clean;
        m_path = path;
        adopt(std::make_unique<EtcdLeasedKeys>(m_faulted,
            EtcdKeyValueList {
                {path + "/a", kValue.toByteArray()}, {path + "/b", kValue.toByteArray()}},
            kTtl));
        m_keys->start();
    }
    bool steady() override { return m_keys->state() == EtcdLeasedKeys::State::Alive; }
    // Never healed: the keys stay on the lease they were written under.
    void sample() override
    {
        if (m_keys && m_lease > 0 && m_keys->leaseId() != m_lease)
            violate(u"moved to another lease (%1 to %2): the never-heal group healed"_s.arg(
                QString::number(m_lease, 16), QString::number(m_keys->leaseId(), 16)));
    }
    QString afterFault(const FaultFacts &facts) override;
    QString recover() override;
    bool close() override { return closeAll({m_keys.get()}); }
    // Mid-operation: besides the live keys, a grant of new ones is in flight as the client goes
    // (its destructor drains and revokes it; a put it let through would leave a key).
    void handOverFaulted() override
    {
        m_keys.release()->setParent(m_faulted);
        Etcd::putWithKeepAlive(
            m_faulted, m_path + "/in-flight", kValue.toByteArray(), kTtl, m_faulted);
    }
    QList<qint64> faultedLeases() const override
    {
        return m_lease > 0 ? QList<qint64> {m_lease} : QList<qint64> {};
    }

private:
    void adopt(std::unique_ptr<EtcdLeasedKeys> keys)
    {
        m_keys = std::move(keys);
        m_lease = 0;
        m_lost = 0;
        QObject::connect(m_keys.get(), &EtcdLeasedKeys::established, [this](qint64 id) {
            m_lease = id;
            noteLease(id);
        });
        QObject::connect(m_keys.get(), &EtcdLeasedKeys::keepAliveFailed, [this] { ++m_lost; });
    }
    QString afterLoss();
    QString afterKeptKeys();

    std::unique_ptr<EtcdLeasedKeys> m_keys;
    std::vector<std::unique_ptr<EtcdLeasedKeys>> m_closed; // closed before recovery
    qint64 m_lease = 0; // the lease the keys were written under
    int m_lost = 0; // keepAliveFailed() reports
};

QString LeasedKeysSubject::afterFault(const FaultFacts &facts)
{
    if (facts.faultedDestroyed)
        return keysGoneWithClient(*m_clean, m_path);
    if (facts.outlastsTtl && !waitFor([this] { return m_lost > 0; }))
        return u"the loss was never reported (no keepAliveFailed)"_s;
    if (m_lost > 0 && !facts.outlastsTtl && !facts.mayOutlastTtl)
        return u"reported a loss its lease outlived"_s;
    return m_lost > 0 ? afterLoss() : afterKeptKeys();
}

// Reported once, Failed, and the keys gone with the lease (not written again anywhere).
QString LeasedKeysSubject::afterLoss()
{
    if (m_lost != 1)
        return u"the loss was reported %1 times"_s.arg(m_lost);
    if (m_keys->state() != EtcdLeasedKeys::State::Failed)
        return u"reported the loss but is not Failed"_s;
    if (!waitFor([this] { return keyCount(*m_clean, m_path) == 0; }))
        return u"the lost lease's keys stayed: "_s + keysText(*m_clean, m_path);
    return {};
}

QString LeasedKeysSubject::afterKeptKeys()
{
    if (m_keys->state() != EtcdLeasedKeys::State::Alive)
        return u"not Alive after a fault its lease outlived, and no loss reported"_s;
    if (!heldBy(*m_clean, m_path, m_lease, 2, kValue.toByteArray()))
        return u"the keys are not on the lease it renews: "_s + keysText(*m_clean, m_path);
    return {};
}

// The old keys close (their keys go at once, by revoke), and new ones are written.
QString LeasedKeysSubject::recover()
{
    if (!std::exchange(m_faultedReplaced, false)) {
        if (!closeAll({m_keys.get()}))
            return u"the old keys never said closed()"_s;
        m_closed.push_back(std::move(m_keys));
        if (!waitFor([this] { return keyCount(*m_clean, m_path) == 0; }, kLeaseGoneMs))
            return u"close() left the keys: "_s + keysText(*m_clean, m_path);
    }
    adopt(std::unique_ptr<EtcdLeasedKeys>(
        Etcd::putWithKeepAlive(m_faulted, m_path + "/a", kValue.toByteArray(), kTtl)));
    if (!waitFor([this] {
            return m_lease > 0 && heldBy(*m_clean, m_path, m_lease, 1, kValue.toByteArray());
        }))
        return u"a new one never held its key: "_s + keysText(*m_clean, m_path);
    return {};
}

} // namespace

std::unique_ptr<Subject> makeSelfHealingLease()
{
    return std::make_unique<SelfHealingSubject>();
}
std::unique_ptr<Subject> makeTransientKey()
{
    return std::make_unique<TransientKeySubject>();
}
std::unique_ptr<Subject> makeLeasedKeys()
{
    return std::make_unique<LeasedKeysSubject>();
}

} // namespace FaultMatrix
