// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdmetrics.h>

#include <QtCore/qbytearray.h>

#include <functional>
#include <memory>

class EtcdMetricsRegistryPrivate;

class ETCDQT_EXPORT EtcdMetricsRegistry final : public EtcdMetrics
{
public:
    using PathLabeler = std::function<QByteArray(QByteArrayView path)>;

    EtcdMetricsRegistry();
    ~EtcdMetricsRegistry() override;

    void setPathLabeler(PathLabeler labeler);
    [[nodiscard]] int maximumPathLabels() const;
    void setMaximumPathLabels(int count);

    [[nodiscard]] QByteArray prometheusText() const;

    void recordRpc(Rpc rpc, Duration latency, int attempts, Etcd::ErrorCode code) override;
    void recordWatchRecovery(WatchRecovery kind) override;
    void recordKeepAlive(KeepAlive event) override;
    void recordHeal(Heal event) override;
    void recordLockWait(Lock lock, QByteArrayView path, Duration wait, Outcome outcome) override;
    void recordLockHold(Lock lock, QByteArrayView path, Duration hold) override;
    void recordLeadershipTransition(QByteArrayView path, Transition transition) override;
    void recordWait(Wait wait, QByteArrayView path, Duration duration, Outcome outcome) override;
    void recordQueueOperation(
        QueueOperation operation, QByteArrayView path, Duration duration) override;
    void recordCacheSync(QByteArrayView path, Duration duration, qsizetype size) override;

private:
    std::unique_ptr<EtcdMetricsRegistryPrivate> const d;
};
