// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// The lease recipes under a fault. The self-healing lease owns one key through its establish
// hook; it must report the loss, heal to a new lease that owns the key again, and never give
// up (Failed) on a fault it can heal.
#include "../matrix.h"
#include "subjects.h"

#include <EtcdQt/etcdselfhealingkeepalive.h>

using namespace Qt::StringLiterals;

namespace FaultMatrix {
namespace {

EtcdLeaseResilience fastHealing()
{
    EtcdLeaseResilience r;
    r.retryPolicy = EtcdRetryPolicy::exponentialBackoff(std::chrono::milliseconds(100), 1s);
    r.healOperationTimeout = 1s;
    return r;
}

class SelfHealingSubject : public Subject
{
public:
    void start(EtcdClient *faulted, EtcdClient *clean, const QByteArray &path) override
    {
        m_faulted = faulted;
        m_clean = clean;
        m_path = path;
        m_key = path + "/owned";
        createLease();
    }
    bool steady() override
    {
        return m_lease && m_lease->state() == EtcdSelfHealingKeepAlive::State::Alive;
    }
    void sample() override
    {
        if (m_lease && m_lease->state() == EtcdSelfHealingKeepAlive::State::Failed)
            violate(u"gave up healing (Failed)"_s);
    }
    QString afterFault(const FaultFacts &facts) override
    {
        using Type = EtcdLeaseEvent::Type;
        if (facts.faultedDestroyed)
            return afterDestroy();
        if (facts.outlastsTtl && !waitFor([this] { return m_events.contains(Type::Expired); }))
            return u"the loss was never reported (no Expired event)"_s;
        const bool lost = m_events.contains(Type::Expired);
        if (!facts.outlastsTtl && !facts.mayOutlastTtl && lost)
            return u"reported an expiry the lease outlived"_s;
        if (!facts.outlastsTtl && !lost && m_lease->currentLeaseId() != m_first)
            return u"changed its lease without reporting an expiry"_s;
        return ownsTheKey(lost ? u"healing"_s : u"riding out the fault"_s);
    }
    // Usable again: a revoke from elsewhere is healed too.
    QString recover() override
    {
        if (std::exchange(m_faultedReplaced, false)) {
            createLease(); // on the deleted client's replacement, for the now free key
            if (const QString r = ownsTheKey(u"a new client's start"_s); !r.isEmpty())
                return r;
        }
        const qint64 before = m_lease->currentLeaseId();
        const auto revoked = await(m_clean->revokeLease(before));
        if (!revoked.status.isOk())
            return u"revoking its lease failed: "_s + revoked.status.toString();
        if (!waitFor([&] { return m_lease->currentLeaseId() != before; }))
            return u"never healed after a revoke"_s;
        return ownsTheKey(u"a revoke"_s);
    }
    bool close() override { return closeAll({m_lease.get()}); }
    // The lease goes with the client's recipes; no call is in flight between heals.
    void handOverFaulted() override { m_lease.release()->setParent(m_faulted); }
    QList<qint64> faultedLeases() const override
    {
        return m_lease ? QList<qint64> {m_lease->currentLeaseId()} : QList<qint64> {};
    }

private:
    void createLease()
    {
        m_owner = 0;
        m_first = 0;
        m_events.clear();
        m_lease = std::make_unique<EtcdSelfHealingKeepAlive>(
            m_faulted, kTtl, [this](qint64 id, auto done) { establish(id, done); }, fastHealing());
        QObject::connect(m_lease.get(), &EtcdSelfHealingKeepAlive::established, [this](qint64 id) {
            m_owner = id;
            if (m_first == 0)
                m_first = id;
            noteLease(id);
        });
        QObject::connect(m_lease.get(), &EtcdSelfHealingKeepAlive::leaseEvent,
            [this](const EtcdLeaseEvent &e) { m_events.append(e.type); });
        m_lease->start();
    }
    // The deleted client revoked the lease: the key goes with it at once.
    QString afterDestroy()
    {
        if (!waitFor([this] { return keyCount(*m_clean, m_path) == 0; }, kTtlMs))
            return u"the key outlived its client's destructor: "_s + keysText(*m_clean, m_path);
        return {};
    }

    // Creates the key under `id` if nobody holds it, or takes it over from our own last lease
    // (a restarted etcd restores that lease for another TTL).
    void establish(qint64 id, const EtcdSelfHealingKeepAlive::EstablishDone &done)
    {
        EtcdPutOptions put;
        put.lease = id;
        EtcdTxn txn;
        txn.compares = {m_owner > 0 ? EtcdCompare::lease(m_key, Etcd::CompareResult::Equal, m_owner)
                                    : EtcdCompare::version(m_key, Etcd::CompareResult::Equal, 0)};
        txn.success = {EtcdTxnOp::put(m_key, "v", put)};
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
    // Alive, and etcd's key is held by the lease the recipe says it has.
    QString ownsTheKey(const QString &after)
    {
        const auto held = [this] {
            const auto keys = keysUnder(*m_clean, m_path);
            return m_lease->state() == EtcdSelfHealingKeepAlive::State::Alive && keys
                && keys->size() == 1 && keys->first().lease == m_lease->currentLeaseId();
        };
        if (!waitFor(held))
            return u"after %1 the key is not held by the lease the recipe reports (state %2)"_s
                .arg(after)
                .arg(QString::fromLatin1(
                    QMetaEnum::fromType<EtcdSelfHealingKeepAlive::State>().valueToKey(
                        int(m_lease->state()))));
        return {};
    }

    std::unique_ptr<EtcdSelfHealingKeepAlive> m_lease;
    QByteArray m_key;
    qint64 m_owner = 0; // the lease that last established the key
    qint64 m_first = 0; // the lease that first established it
    QList<EtcdLeaseEvent::Type> m_events;
};

} // namespace

std::unique_ptr<Subject> makeSelfHealingLease()
{
    return std::make_unique<SelfHealingSubject>();
}

} // namespace FaultMatrix
