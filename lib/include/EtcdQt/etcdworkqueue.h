// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdrecipe.h>
#include <EtcdQt/etcdrecipereplies.h>
#include <EtcdQt/etcdtxn.h>
#include <EtcdQt/etcdworkitem.h>
#include <EtcdQt/etcdworkitemreply.h>

#include <chrono>
#include <memory>
#include <optional>

class EtcdWorkQueuePrivate;

// An at-least-once work queue in etcd-recipes' DistributedWorkQueue layout: items under
// "<q>/items/", claimed by a consumer ("<q>/claimed/<id>", "<q>/claims/<id>" on the consumer's
// lease, "<q>/attempts/<id>"), acknowledged or requeued under the claim's guard, reclaimed when
// the consumer's lease ends, dead-lettered ("<q>/dlq/<id>") after too many deliveries, and
// delayed ("<q>/delayed/<due millis>-<rand3>") until due.
class ETCDQT_EXPORT EtcdWorkQueue : public EtcdRecipe
{
    Q_OBJECT
    Q_PROPERTY(QByteArray path READ path CONSTANT)
    Q_PROPERTY(QString clientId READ clientId CONSTANT)
public:
    struct Options
    {
        // The consumer lease's TTL: a claim lives as long as the consumer renews it.
        std::chrono::seconds visibilityTimeout {30};
        int maxDeliveries = 5; // then the item goes to the dead-letter queue
        std::chrono::milliseconds sweepInterval {30000}; // how often orphans are reclaimed
        QString clientId {}; // empty: "DistributedWorkQueue:<7 random>"
    };

    EtcdWorkQueue(EtcdClient *client, const QByteArray &path, const Options &options,
        QObject *parent = nullptr);
    EtcdWorkQueue(EtcdClient *client, const QByteArray &path, QObject *parent = nullptr);
    ~EtcdWorkQueue() override;

    [[nodiscard]] QByteArray path() const;
    [[nodiscard]] QString clientId() const;
    [[nodiscard]] Options options() const;

    // This object's thread.
    EtcdReply *enqueue(
        const QByteArray &value, std::chrono::milliseconds delay = std::chrono::milliseconds(0));
    EtcdReply *enqueueAll(const QList<QByteArray> &values);
    EtcdWorkItemReply *receive(); // waits until an item is claimed (or close())
    EtcdWorkItemReply *tryReceive();
    EtcdBoolReply *ack(const EtcdWorkItem &item);
    EtcdBoolReply *requeue(const EtcdWorkItem &item);
    // `effects` and the ack in one transaction, committed only while the claim holds.
    EtcdBoolReply *ackWith(const EtcdWorkItem &item, const EtcdTxn &effects);
    EtcdDeadLettersReply *deadLetters();
    EtcdBoolReply *requeueDeadLetter(const QByteArray &id);
    EtcdBoolReply *purgeDeadLetter(const QByteArray &id);
    EtcdValueReply *size(); // items waiting (not claimed, not delayed)
    EtcdValueReply *sweep(); // reclaims orphaned claims now; value(): how many

    // Worker threads (refused in this object's thread).
    std::optional<EtcdWorkItem> receiveAndWait(
        std::chrono::milliseconds timeout, EtcdStatus *status = nullptr);
    bool ackAndWait(
        const EtcdWorkItem &item, std::chrono::milliseconds timeout, EtcdStatus *status = nullptr);
    bool ackWithAndWait(const EtcdWorkItem &item, const EtcdTxn &effects,
        std::chrono::milliseconds timeout, EtcdStatus *status = nullptr);
    bool requeueAndWait(
        const EtcdWorkItem &item, std::chrono::milliseconds timeout, EtcdStatus *status = nullptr);

public Q_SLOTS:
    void start(); // the consumer side: the lease and the sweeper, before the first receive
    void close();

Q_SIGNALS:
    void itemAvailable(); // after start(): an item was put into "<q>/items/"
    void claimsLost(); // the consumer's lease ended: unacknowledged claims can be reclaimed

private:
    Q_DECLARE_PRIVATE(EtcdWorkQueue)
    std::unique_ptr<EtcdWorkQueuePrivate> const d_ptr;
};
