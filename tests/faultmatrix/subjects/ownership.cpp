// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "ownership.h"

using namespace Qt::StringLiterals;

namespace FaultMatrix {

void OwnershipSubject::start(EtcdClient *faulted, EtcdClient *clean, const QByteArray &path)
{
    m_faulted = faulted;
    m_clean = clean;
    m_path = path;
    m_recipes = create();
    acquireFaulted();
}

// The contender asks only once the holder holds: then it queues behind it.
bool OwnershipSubject::steady()
{
    if (!faultedHolds())
        return false;
    if (!m_contenderAsked) {
        m_contenderAsked = true;
        m_stale = faultedToken();
        noteLease(m_stale.leaseId);
        acquireContender();
    }
    return contenderQueued();
}

void OwnershipSubject::sample()
{
    if (const int n = holders(); n > capacity())
        violate(u"%1 holders at once, capacity %2"_s.arg(n).arg(capacity()));
}

void OwnershipSubject::onFaultedAcquired()
{
    sample();
}

void OwnershipSubject::onFaultedLost()
{
    ++m_faultedLost;
    sample();
}

QString OwnershipSubject::afterFault(const FaultFacts &facts)
{
    if (facts.outlastsTtl && !waitFor([this] { return m_faultedLost > 0; }))
        return u"the faulted holder never reported its loss"_s;
    if (facts.outlastsTtl && faultedHolds() && faultedToken() == m_stale)
        return u"the faulted holder still claims its old hold after reporting the loss"_s;
    const bool eitherMayWin = faultedMayWinAgain(facts);
    if (!waitFor([&] { return contenderHolds() || (eitherMayWin && faultedHolds()); }))
        return u"the contender never got in; etcd holds "_s + keysText(*m_clean, m_path);
    const bool contenderWon = contenderHolds();
    noteLease(contenderWon ? contenderToken().leaseId : faultedToken().leaseId);
    return etcdTakesOnlyTheNewOwner(contenderWon);
}

EtcdTxn OwnershipSubject::write(const QByteArray &value) const
{
    EtcdTxn t;
    t.success = {EtcdTxnOp::put("/fm-data"_ba + m_path, value)};
    return t;
}

// etcd's word on who owns: the stale token's guarded write is refused, the new owner's
// commits.
QString OwnershipSubject::etcdTakesOnlyTheNewOwner(bool contenderWon)
{
    const auto late = await(m_clean->txn(m_stale.guard(write("stale"))));
    if (!late.status.isOk())
        return u"the stale token's write failed: "_s + late.status.toString();
    if (late->succeeded())
        return u"etcd took the old holder's fencing token after the contender got in"_s;
    const EtcdTxn txn = write("fresh");
    const auto fresh = await(contenderWon ? contenderGuardedTxn(txn) : faultedGuardedTxn(txn));
    if (!fresh.status.isOk() || !fresh->succeeded()) {
        const EtcdFencingToken t = contenderWon ? contenderToken() : faultedToken();
        return u"the new owner's guarded write was refused (%1; its token: %2, lease %3, "
               u"revision %4; etcd holds %5)"_s.arg(fresh.status.toString(),
                   QString::fromUtf8(t.key), QString::number(t.leaseId, 16),
                   QString::number(t.revision), keysText(*m_clean, m_path));
    }
    return {};
}

QString OwnershipSubject::recover()
{
    acquireFaulted();
    if (!releaseContender())
        return u"the contender could not release"_s;
    // A new ownership, not the one from before the fault.
    if (!waitFor([&] { return faultedHolds() && !(faultedToken() == m_stale); }))
        return u"the faulted recipe never owned again; etcd holds "_s + keysText(*m_clean, m_path);
    noteLease(faultedToken().leaseId);
    const auto txn = await(faultedGuardedTxn(write("recovered")));
    if (!txn.status.isOk() || !txn->succeeded())
        return u"the recovered holder's guarded write was refused: "_s + txn.status.toString();
    return {};
}

bool OwnershipSubject::close()
{
    return closeAll(m_recipes);
}

} // namespace FaultMatrix
