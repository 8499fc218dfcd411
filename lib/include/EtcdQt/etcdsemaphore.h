// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdfencing.h>
#include <EtcdQt/etcdrecipe.h>

#include <chrono>
#include <memory>

class EtcdSemaphorePrivate;
class EtcdTxnReply;

struct EtcdSemaphoreOptions
{
    // Of each permit's lease: how long a crashed holder keeps its permit, and how long a
    // holder may go unheard before etcd gives its permit away. As EtcdMutexOptions::ttl.
    std::chrono::seconds ttl {10};
    QString clientId; // empty: "DistributedSemaphore:<7 random>"
    bool interruptOnPermitLoss = false; // requestInterruption() on the holder's thread on loss
};

// A permit alone is advisory: writes that must respect the capacity go through guardedTxn()
// or commitGuarded(). Keys: etcd-recipes' layout, "<path>/permits" (the count, 4-byte
// big-endian) and "<path>/holders/<clientId>:<7>".
class ETCDQT_EXPORT EtcdSemaphore : public EtcdRecipe
{
    Q_OBJECT
    Q_PROPERTY(QByteArray path READ path CONSTANT)
    Q_PROPERTY(int permits READ permits CONSTANT)
    Q_PROPERTY(QString clientId READ clientId CONSTANT)
public:
    EtcdSemaphore(EtcdClient *client, const QByteArray &path, int permits,
        const EtcdSemaphoreOptions &options = {}, QObject *parent = nullptr);
    ~EtcdSemaphore() override;

    [[nodiscard]] QByteArray path() const;
    [[nodiscard]] int permits() const;
    [[nodiscard]] QString clientId() const;
    [[nodiscard]] std::chrono::seconds ttl() const;

    // Worker threads (refused in this object's thread):
    bool waitForPermit();
    bool tryAcquire(std::chrono::milliseconds timeout);
    [[nodiscard]] int availablePermits() const;
    bool commitGuarded(
        const EtcdTxn &txn, std::chrono::milliseconds timeout, EtcdStatus *status = nullptr);

    // Any thread:
    [[nodiscard]] int heldPermits() const;
    [[nodiscard]] EtcdFencingToken fencingToken() const;
    [[nodiscard]] std::chrono::milliseconds remainingValidity() const;

    // This object's thread:
    EtcdTxnReply *guardedTxn(const EtcdTxn &txn);

public Q_SLOTS:
    bool acquire();
    bool release();
    void close();

Q_SIGNALS:
    void acquired();
    void permitLost(const EtcdStatus &reason);

private:
    Q_DECLARE_PRIVATE(EtcdSemaphore)
    std::unique_ptr<EtcdSemaphorePrivate> const d_ptr;
};
