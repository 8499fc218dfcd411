// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// What the ownership recipes share under a fault (locks, permits, leadership): a holder on
// the faulted client, a contender queued behind it on the clean one. Invariant: never more
// holders than the recipe's capacity, by the holders' own word; after the fault, the lost
// hold was reported, the contender got in, etcd refuses the old holder's fencing token and
// takes the new one's; then the faulted recipe can own again. A fault the lease outlives
// (a failover) keeps the hold instead: no loss, and etcd still takes the holder's token.
#pragma once

#include "../matrix.h"

#include <QtCore/qelapsedtimer.h>

namespace FaultMatrix {

class OwnershipSubject : public Subject
{
public:
    void start(EtcdClient *faulted, EtcdClient *clean, const QByteArray &path) override;
    bool steady() override;
    void sample() override;
    QString afterFault(const FaultFacts &facts) override;
    QString recover() override;
    bool close() override;
    void handOverFaulted() override;
    [[nodiscard]] QList<qint64> faultedLeases() const override;
    [[nodiscard]] bool tookOver() const override { return contenderHolds(); }

protected:
    // The faulted recipe on m_faulted (again after handOverFaulted() or releaseFaulted()).
    virtual void createFaulted() = 0;
    // The contender on m_clean, with a lease of m_cleanTtl (and any others).
    virtual void createContenders() = 0;
    // Every recipe (the faulted one null while handed over), for close().
    [[nodiscard]] virtual QList<EtcdRecipe *> recipes() const = 0;
    // The faulted recipe, no longer the subject's (null pointers from now on).
    virtual std::unique_ptr<EtcdRecipe> takeFaulted() = 0;
    virtual void acquireFaulted() = 0;
    // Gives up the hold (a latch, which cannot, closes and makes a new one); true when asked.
    virtual bool releaseFaulted() = 0;
    virtual void acquireContender() = 0;
    virtual bool releaseContender() = 0;
    // The contender is queued behind the holder (etcd shows its entry, or it said started).
    virtual bool contenderQueued() = 0;
    // How many hold now, each by its own word (isLocked, heldPermits, isLeader).
    [[nodiscard]] virtual int holders() const = 0;
    [[nodiscard]] virtual int capacity() const { return 1; }
    [[nodiscard]] virtual bool faultedHolds() const = 0;
    [[nodiscard]] virtual bool contenderHolds() const = 0;
    [[nodiscard]] virtual EtcdFencingToken faultedToken() const = 0;
    [[nodiscard]] virtual EtcdFencingToken contenderToken() const = 0;
    virtual EtcdTxnReply *faultedGuardedTxn(const EtcdTxn &txn) = 0;
    virtual EtcdTxnReply *contenderGuardedTxn(const EtcdTxn &txn) = 0;

    // A recipe that contests again by itself may win the race back when the fault hit the
    // contender too.
    [[nodiscard]] virtual bool faultedMayWinAgain(const FaultFacts &) const { return false; }

    // For the recipes' signals: the faulted holder acquired / reported its loss.
    void onFaultedAcquired();
    void onFaultedLost();

    int m_faultedLost = 0;

private:
    [[nodiscard]] EtcdTxn write(const QByteArray &value) const;
    QString etcdTakesOnlyTheNewOwner(bool contenderWon);
    QString afterLoss(const FaultFacts &facts);
    QString afterKeptHold();
    QString afterDestroy();
    void sendLateWrite();
    QString lateWriteRefused();

    EtcdFencingToken m_stale; // the faulted holder's token from before the fault
    bool m_contenderAsked = false;
    QElapsedTimer m_handedOver; // since the faulted client began to go (destroy column)
    qint64 m_takeoverMs = -1; // when the contender held, on m_handedOver
    std::shared_ptr<bool> m_lateAnswered; // null until the late write was sent
};

} // namespace FaultMatrix
