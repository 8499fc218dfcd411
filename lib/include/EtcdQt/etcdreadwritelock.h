// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdfencing.h>
#include <EtcdQt/etcdrecipe.h>

#include <chrono>
#include <memory>

class EtcdReadWriteLockPrivate;
class EtcdTxnReply;

struct EtcdReadWriteLockOptions
{
    // Of each acquisition's lease: how long a crashed holder blocks the others, and how long
    // a holder may go unheard before etcd gives its hold away. As EtcdMutexOptions::ttl.
    std::chrono::seconds ttl {10};
    QString clientId; // empty: "DistributedReadWriteLock:<7 random>"
    bool interruptOnLockLoss = false; // requestInterruption() on the holder's thread on loss
};

// The lock alone is advisory: writes that must not interleave go through guardedTxn() or
// commitGuarded(). Keys: etcd-recipes' layout, "<path>/read-<clientId>:<7>" and
// "<path>/write-<clientId>:<7>".
class ETCDQT_EXPORT EtcdReadWriteLock : public EtcdRecipe
{
    Q_OBJECT
    Q_PROPERTY(QByteArray path READ path CONSTANT)
    Q_PROPERTY(QString clientId READ clientId CONSTANT)
public:
    enum class Mode { Read, Write };
    Q_ENUM(Mode)

    EtcdReadWriteLock(EtcdClient *client, const QByteArray &path,
        const EtcdReadWriteLockOptions &options = {}, QObject *parent = nullptr);
    ~EtcdReadWriteLock() override;

    [[nodiscard]] QByteArray path() const;
    [[nodiscard]] QString clientId() const;
    [[nodiscard]] std::chrono::seconds ttl() const;

    // Worker threads (refused in this object's thread):
    bool lockForRead();
    bool lockForWrite();
    bool tryLockForRead(std::chrono::milliseconds timeout);
    bool tryLockForWrite(std::chrono::milliseconds timeout);
    bool unlock();
    [[nodiscard]] bool isReadLocked() const;
    [[nodiscard]] bool isWriteLocked() const;
    bool commitGuarded(
        const EtcdTxn &txn, std::chrono::milliseconds timeout, EtcdStatus *status = nullptr);

    // Any thread, about the calling thread's holds:
    [[nodiscard]] int readHoldCount() const;
    [[nodiscard]] int writeHoldCount() const;
    [[nodiscard]] EtcdFencingToken fencingToken() const;
    [[nodiscard]] std::chrono::milliseconds remainingValidity() const;

    // This object's thread:
    EtcdTxnReply *guardedTxn(const EtcdTxn &txn);

public Q_SLOTS:
    bool acquire(EtcdReadWriteLock::Mode mode);
    bool release();
    void close();

Q_SIGNALS:
    void acquired(EtcdReadWriteLock::Mode mode);
    void lockLost(EtcdReadWriteLock::Mode mode, const EtcdStatus &reason);

private:
    Q_DECLARE_PRIVATE(EtcdReadWriteLock)
    std::unique_ptr<EtcdReadWriteLockPrivate> const d_ptr;
};
