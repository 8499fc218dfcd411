// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API.
#pragma once

#include "queuekeys_p.h"
#include "queuetaker_p.h"

#include <EtcdQt/etcdselfhealingkeepalive.h>
#include <EtcdQt/etcdworkqueue.h>

#include <QtCore/qhash.h>
#include <QtCore/qtimer.h>

#include <functional>
#include <memory>
#include <vector>

class EtcdWatch;
struct EtcdWatchEvent;

// The consumer side of a work queue: the taker claims instead of deleting (hooks below), on
// the consumer's self-healing lease; a sweeper reclaims orphans; delayed items are promoted as
// they fall due (their puts are watched, so an earlier due time re-arms the wait); a waiting
// consumer watches claims end, so an item whose consumer's lease expired is delivered again
// at once, not at the next sweep.
class EtcdWorkQueuePrivate
{
    Q_DECLARE_PUBLIC(EtcdWorkQueue)
public:
    EtcdWorkQueuePrivate(EtcdWorkQueue *q, const QByteArray &path, const EtcdWorkQueue::Options &o);

    void startConsumer(); // the lease, the sweeper and the delayed watch; idempotent
    void readHead(Etcd::Internal::QueueTaker::HeadRead done, int promotions);
    void takeTxn(const EtcdKeyValue &head, Etcd::Internal::QueueTaker::TxnReady ready);
    void claimWith(
        const EtcdKeyValue &head, int attempt, Etcd::Internal::QueueTaker::TxnReady ready);
    void refill(qint64 revision, std::function<void(bool moved)> done);
    [[nodiscard]] std::chrono::milliseconds recheckAfter();
    void sweep(std::function<void(int moved, const EtcdStatus &status)> done);
    void watchArea(std::unique_ptr<EtcdWatch> &slot, Etcd::Internal::QueueKeys::Area area,
        bool deletes, qint64 revision, std::function<void(const EtcdWatchEvent &)> onEvent);
    void onClaimEnded(const EtcdKeyValue &claim);
    [[nodiscard]] EtcdWorkItem itemOf(const EtcdKeyValue &claimed, qint64 revision);
    EtcdReply *release(const EtcdKeyValue &claimed, qint64 revision); // a kept claim, on close()
    [[nodiscard]] Etcd::Internal::QueueTaker::Hooks hooks();
    [[nodiscard]] EtcdStatus refusal(qsizetype bytes) const;
    EtcdBoolReply *guarded(const EtcdWorkItem &item, const EtcdTxn &txn);
    EtcdWorkItemReply *receive(bool wait);

    EtcdWorkQueue *q_ptr;
    QByteArray path;
    EtcdWorkQueue::Options options;
    Etcd::Internal::QueueTaker *taker = nullptr; // a child of the queue
    std::unique_ptr<EtcdSelfHealingKeepAlive> lease; // the consumer's, from startConsumer()
    std::vector<std::function<void()>> leaseWaiters; // claims waiting for the first lease
    struct Pending
    {
        int attempt = 0;
        qint64 leaseId = 0;
    };
    QHash<QByteArray, Pending> pending; // claims on the wire, by item key
    QTimer sweeper;
    std::unique_ptr<EtcdWatch> delayedWatch;
    std::unique_ptr<EtcdWatch> claimsWatch; // a claim ended: its item may be an orphan now
    qint64 nextDueMillis = 0; // the earliest delayed item seen not yet due; 0: none
    qint64 lastReadRevision = 0;
};
