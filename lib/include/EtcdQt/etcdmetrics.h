// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdqtglobal.h>

#include <QtCore/qbytearrayview.h>
#include <QtCore/qobjectdefs.h>

#include <chrono>

class ETCDQT_EXPORT EtcdMetrics
{
    Q_GADGET
public:
    enum class Rpc : quint8 {
        Range,
        Put,
        DeleteRange,
        Txn,
        Compact,
        LeaseGrant,
        LeaseRevoke,
        LeaseTimeToLive,
        LeaseLeases,
        MemberList,
        Status,
        Lock,
        Unlock,
        Authenticate,
    };
    Q_ENUM(Rpc)
    enum class WatchRecovery : quint8 { Suspended, Resubscribed, Resynced, Failed };
    Q_ENUM(WatchRecovery)
    enum class KeepAlive : quint8 { Renewed, Suspended, Resumed, Expired };
    Q_ENUM(KeepAlive)
    enum class Heal : quint8 { Attempted, Restored, Failed };
    Q_ENUM(Heal)
    enum class Lock : quint8 { Mutex, Read, Write, Permit };
    Q_ENUM(Lock)
    enum class Outcome : quint8 { Succeeded, TimedOut, Cancelled, Failed };
    Q_ENUM(Outcome)
    enum class Transition : quint8 { Acquired, Relinquished, Lost };
    Q_ENUM(Transition)
    enum class Wait : quint8 { Barrier, CountedBarrier, Latch };
    Q_ENUM(Wait)
    enum class QueueOperation : quint8 { Enqueue, Dequeue, Acknowledge, Requeue, DeadLetter };
    Q_ENUM(QueueOperation)

    using Duration = std::chrono::nanoseconds;

    EtcdMetrics() = default;
    virtual ~EtcdMetrics();

    virtual void recordRpc(Rpc rpc, Duration latency, int attempts, Etcd::ErrorCode code);
    virtual void recordWatchRecovery(WatchRecovery kind);
    virtual void recordKeepAlive(KeepAlive event);
    virtual void recordHeal(Heal event);
    virtual void recordLockWait(Lock lock, QByteArrayView path, Duration wait, Outcome outcome);
    virtual void recordLockHold(Lock lock, QByteArrayView path, Duration hold);
    virtual void recordLeadershipTransition(QByteArrayView path, Transition transition);
    virtual void recordWait(Wait wait, QByteArrayView path, Duration duration, Outcome outcome);
    virtual void recordQueueOperation(
        QueueOperation operation, QByteArrayView path, Duration duration);
    virtual void recordCacheSync(QByteArrayView path, Duration duration, qsizetype size);
};
