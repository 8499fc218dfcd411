// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "ownership.h"

#include <utility>

using namespace Qt::StringLiterals;

namespace FaultMatrix {

void OwnershipSubject::start(EtcdClient *faulted, EtcdClient *clean, const QByteArray &path)
{
    m_faulted = faulted;
    m_clean = clean;
    m_path = path;
    createFaulted();
    createContenders();
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
    if (m_handedOver.isValid() && m_takeoverMs < 0 && contenderHolds())
        m_takeoverMs = m_handedOver.elapsed();
    if (m_lateWrites && !m_lateAnswered && contenderHolds())
        sendLateWrite();
}

// The old holder's write once the contender holds, guarded by its stale fencing token and
// sent through its own client (under the fault: a delayed answer, a dropped request).
void OwnershipSubject::sendLateWrite()
{
    EtcdTxn t;
    t.success = {EtcdTxnOp::put("/fm-late"_ba + m_path + "/w", "late")};
    m_lateAnswered = std::make_shared<bool>(false);
    EtcdTxnReply *reply = m_faulted->txn(m_stale.guard(t));
    // The reply may finish after the subject is gone (the client goes last).
    QObject::connect(reply, &EtcdReply::finished, reply,
        [answered = m_lateAnswered](const EtcdStatus &) { *answered = true; });
}

// etcd's word, not the reply's (an answer delayed past its call deadline reads as failed):
// the late write's key must not exist, whenever the write reached etcd.
QString OwnershipSubject::lateWriteRefused()
{
    if (!m_lateWritesAsked)
        return {};
    if (!m_lateAnswered)
        return u"the contender never held while the fault was on (no late write made)"_s;
    if (!waitFor([this] { return *m_lateAnswered; }))
        return u"the old holder's late write never finished"_s;
    const int n = keyCount(*m_clean, "/fm-late"_ba + m_path);
    if (n < 0)
        return u"etcd did not answer about the late write"_s;
    if (n > 0)
        return u"etcd took the old holder's late write (its stale fencing token, sent once "
               u"the contender held)"_s;
    return {};
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
    if (facts.faultedDestroyed)
        return afterDestroy();
    if (facts.outlastsTtl || (facts.mayOutlastTtl && m_faultedLost > 0))
        return afterLoss(facts);
    return afterKeptHold();
}

QString OwnershipSubject::afterLoss(const FaultFacts &facts)
{
    if (!waitFor([this] { return m_faultedLost > 0; }))
        return u"the faulted holder never reported its loss"_s;
    if (faultedHolds() && faultedToken() == m_stale)
        return u"the faulted holder still claims its old hold after reporting the loss"_s;
    const bool eitherMayWin = faultedMayWinAgain(facts);
    if (!waitFor([&] { return contenderHolds() || (eitherMayWin && faultedHolds()); }))
        return u"the contender never got in; etcd holds "_s + keysText(*m_clean, m_path);
    const bool contenderWon = contenderHolds();
    noteLease(contenderWon ? contenderToken().leaseId : faultedToken().leaseId);
    if (const QString r = lateWriteRefused(); !r.isEmpty())
        return r;
    return etcdTakesOnlyTheNewOwner(contenderWon);
}

// A fault the lease outlived keeps the hold (DESIGN.md: a stream error inside the TTL is
// Suspended, then Reconnected; the keep-alive stream renews every lease whose deadline has
// not passed on any healthy endpoint): no loss, the same token, and etcd still takes it.
// Then the hand-off still works: the contender's watch sees the release.
QString OwnershipSubject::afterKeptHold()
{
    if (m_faultedLost > 0)
        return u"the faulted holder reported a loss its lease outlived"_s;
    if (!faultedHolds() || !(faultedToken() == m_stale))
        return u"the faulted holder lost its hold without reporting it; etcd holds "_s
            + keysText(*m_clean, m_path);
    if (contenderHolds())
        return u"the contender got in while the holder kept its hold"_s;
    const auto kept = await(faultedGuardedTxn(write("kept")));
    if (!kept.status.isOk() || !kept->succeeded())
        return u"etcd refused the kept hold's guarded write (%1); etcd holds %2"_s.arg(
            kept.status.toString(), keysText(*m_clean, m_path));
    if (!releaseFaulted())
        return u"the faulted holder could not release"_s;
    if (!waitFor([this] { return contenderHolds(); }))
        return u"the contender never got in after the release; etcd holds "_s
            + keysText(*m_clean, m_path);
    noteLease(contenderToken().leaseId);
    return etcdTakesOnlyTheNewOwner(true);
}

// The deleted client revoked its leases: the contender takes over as soon as its watch sees
// the holder's key go, well within a TTL (left to expire, the lease would take a TTL and
// etcd's 500 ms expiry loop). The time is taken by sample(), not by this later check.
QString OwnershipSubject::afterDestroy()
{
    if (!waitFor([this] { return contenderHolds(); }))
        return u"the contender never took over; etcd holds "_s + keysText(*m_clean, m_path);
    if (m_takeoverMs > kTtlMs)
        return u"the contender took over %1 ms after the deletion, over the TTL"_s.arg(
            m_takeoverMs);
    noteLease(contenderToken().leaseId);
    return etcdTakesOnlyTheNewOwner(true);
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
    if (std::exchange(m_faultedReplaced, false))
        createFaulted(); // on the deleted client's replacement
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
    QList<EtcdRecipe *> open = recipes();
    open.removeAll(nullptr);
    return closeAll(open);
}

// Mid-operation: a guarded write of the holder's is still in flight as its client goes.
void OwnershipSubject::handOverFaulted()
{
    if (faultedHolds())
        faultedGuardedTxn(write("in flight"));
    takeFaulted().release()->setParent(m_faulted);
    m_handedOver.start();
}

QList<qint64> OwnershipSubject::faultedLeases() const
{
    QList<qint64> ids {m_stale.leaseId};
    if (faultedHolds() && faultedToken().leaseId != m_stale.leaseId)
        ids.append(faultedToken().leaseId);
    return ids;
}

} // namespace FaultMatrix
