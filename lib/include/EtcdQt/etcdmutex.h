// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdfencing.h>
#include <EtcdQt/etcdrecipe.h>

#include <chrono>
#include <memory>

class EtcdMutexPrivate;
class EtcdTxnReply;

struct EtcdMutexOptions
{
    // Of each acquisition's lease: how long a crashed holder blocks everyone else, and how
    // long a holder may go unheard (paused, partitioned) before etcd gives its lock away.
    // 10 s is etcdctl lock's default.
    std::chrono::seconds ttl {10};
    bool interruptOnLockLoss = false; // requestInterruption() on the holder's thread on loss
};

// The lock alone is advisory: writes that must not interleave go through guardedTxn() or
// commitGuarded(). Keys: etcd's own concurrency.Mutex layout, "<path>/<lease id hex>".
class ETCDQT_EXPORT EtcdMutex : public EtcdRecipe
{
    Q_OBJECT
    Q_PROPERTY(QByteArray path READ path CONSTANT)
public:
    EtcdMutex(EtcdClient *client, const QByteArray &path, const EtcdMutexOptions &options = {},
        QObject *parent = nullptr);
    ~EtcdMutex() override;

    [[nodiscard]] QByteArray path() const;
    [[nodiscard]] std::chrono::seconds ttl() const;
    [[nodiscard]] bool interruptOnLockLoss() const;

    // Worker threads (refused in this object's thread):
    bool lock();
    bool tryLock(std::chrono::milliseconds timeout);
    bool unlock();
    [[nodiscard]] bool isLocked() const;
    bool commitGuarded(
        const EtcdTxn &txn, std::chrono::milliseconds timeout, EtcdStatus *status = nullptr);

    // Any thread, about the calling thread's hold:
    [[nodiscard]] int holdCount() const;
    [[nodiscard]] bool isHeldByCurrentThread() const;
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
    void lockLost(const EtcdStatus &reason);

private:
    Q_DECLARE_PRIVATE(EtcdMutex)
    std::unique_ptr<EtcdMutexPrivate> const d_ptr;
};
