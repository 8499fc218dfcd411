// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdrecipe.h>
#include <EtcdQt/etcdrecipereplies.h>

#include <chrono>
#include <memory>
#include <optional>

class EtcdAbstractQueuePrivate;

// The take side of EtcdQueue and EtcdPriorityQueue: the head, in the queue's order, is taken
// by deleting it while it is unchanged, so every item is taken once (at most once: a taker
// that dies after the take loses it; EtcdWorkQueue is the at-least-once queue).
class ETCDQT_EXPORT EtcdAbstractQueue : public EtcdRecipe
{
    Q_OBJECT
    Q_PROPERTY(QByteArray path READ path CONSTANT)
public:
    ~EtcdAbstractQueue() override;

    [[nodiscard]] QByteArray path() const;

    // This object's thread. dequeue() waits for an item as long as it takes (until close());
    // tryDequeue() answers found() false at once when the queue is empty.
    EtcdQueueItemReply *dequeue();
    EtcdQueueItemReply *tryDequeue();
    EtcdValueReply *size();

    // Worker threads (refused in this object's thread): the value taken, or nullopt with
    // `status` set (DeadlineExceeded: nothing came within `timeout`).
    std::optional<QByteArray> take(std::chrono::milliseconds timeout, EtcdStatus *status = nullptr);
    std::optional<QByteArray> tryTake(EtcdStatus *status = nullptr);

public Q_SLOTS:
    void start();
    void close();

Q_SIGNALS:
    void itemAvailable(); // while started: an item was put (another taker may get it first)

protected:
    enum class Order { ModRevision, Key };
    EtcdAbstractQueue(EtcdClient *client, const QByteArray &path, Order order,
        const QString &errorContext, QObject *parent);
    // Why an operation carrying `payloadBytes` is refused before any RPC; OK when it is not.
    [[nodiscard]] EtcdStatus refusal(qsizetype payloadBytes) const;
    // Where close() puts back what a cancelled take had taken already.
    virtual void putBack(const QByteArray &key, const QByteArray &value) = 0;

private:
    Q_DECLARE_PRIVATE(EtcdAbstractQueue)
    std::unique_ptr<EtcdAbstractQueuePrivate> const d_ptr;
};
