// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "healing.h"

#include <EtcdQt/etcdretrypolicy.h>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace FaultMatrix {

EtcdLeaseResilience fastHealing()
{
    EtcdLeaseResilience r;
    r.retryPolicy = EtcdRetryPolicy::exponentialBackoff(std::chrono::milliseconds(100), 1s);
    r.healOperationTimeout = 1s;
    return r;
}

bool heldBy(
    EtcdClient &client, const QByteArray &path, qint64 lease, int count, const QByteArray &value)
{
    const auto keys = keysUnder(client, path);
    return keys && keys->size() == count && lease > 0
        && std::all_of(keys->begin(), keys->end(), [&](const EtcdKeyValue &kv) {
               return kv.lease == lease && (value.isEmpty() || kv.value == value);
           });
}

QString keysGoneWithClient(EtcdClient &client, const QByteArray &path)
{
    if (!waitFor([&] { return keyCount(client, path) == 0; }, kTtlMs))
        return u"the keys outlived their client's destructor: "_s + keysText(client, path);
    return {};
}

void HealingKeySubject::start(EtcdClient *faulted, EtcdClient *clean, const QByteArray &path)
{
    m_faulted = faulted;
    m_clean = clean;
    m_path = path;
    m_key = path + '/' + m_name;
    create();
}

void HealingKeySubject::sample()
{
    if (gaveUp())
        violate(u"gave up healing (Failed)"_s);
}

QList<qint64> HealingKeySubject::faultedLeases() const
{
    return recipe() ? QList<qint64> {currentLease()} : QList<qint64> {};
}

void HealingKeySubject::onLease(qint64 id)
{
    if (m_first == 0)
        m_first = id;
    noteLease(id);
}

bool HealingKeySubject::expiryReported() const
{
    return m_events.contains(EtcdLeaseEvent::Type::Expired);
}

QString HealingKeySubject::afterFault(const FaultFacts &facts)
{
    if (facts.faultedDestroyed)
        return keysGoneWithClient(*m_clean, m_path);
    if (facts.outlastsTtl && !waitFor([this] { return expiryReported(); }))
        return u"the loss was never reported (no Expired event)"_s;
    const bool lost = expiryReported();
    if (!facts.outlastsTtl && !facts.mayOutlastTtl && lost)
        return u"reported an expiry the lease outlived"_s;
    if (!facts.outlastsTtl && !lost && currentLease() != m_first)
        return u"changed its lease without reporting an expiry"_s;
    return ownsTheKey(lost ? u"healing"_s : u"riding out the fault"_s);
}

QString HealingKeySubject::recover()
{
    if (std::exchange(m_faultedReplaced, false)) {
        m_first = 0;
        m_events.clear();
        create(); // on the deleted client's replacement, for the now free key
        if (const QString r = ownsTheKey(u"a new client's start"_s); !r.isEmpty())
            return r;
    }
    const qint64 before = currentLease();
    const auto revoked = await(m_clean->revokeLease(before));
    if (!revoked.status.isOk())
        return u"revoking its lease failed: "_s + revoked.status.toString();
    if (!waitFor([&] { return currentLease() != before; }))
        return u"never healed after a revoke"_s;
    return ownsTheKey(u"a revoke"_s);
}

QString HealingKeySubject::ownsTheKey(const QString &after)
{
    if (!waitFor(
            [this] { return alive() && heldBy(*m_clean, m_path, currentLease(), 1, value()); }))
        return u"after %1 the key is not held by the lease the recipe reports (%2, lease %3; "
               u"etcd holds %4)"_s.arg(after, stateText(), QString::number(currentLease(), 16),
                   keysText(*m_clean, m_path));
    return {};
}

} // namespace FaultMatrix
