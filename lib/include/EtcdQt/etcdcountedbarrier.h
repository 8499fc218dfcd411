// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdrecipe.h>
#include <EtcdQt/etcdretrypolicy.h>

#include <chrono>
#include <memory>

class EtcdCountedBarrierPrivate;

struct EtcdCountedBarrierOptions
{
    std::chrono::seconds ttl {2}; // of each parked member's lease
    QString clientId; // empty: "DistributedBarrierWithCount:<7 random>"
    EtcdLeaseResilience resilience {};
};

// An N-party rendezvous: etcd-recipes' DistributedBarrierWithCount. Members arrive with
// waitOnBarrier() (or arrive()); all are released when memberCount have arrived. Keys
// "<path>/ready" ("<clientId>:<7>", no lease) and "<path>/waiting/<clientId>:<7>" (the same
// token, on a self-healing lease while the member waits).
class ETCDQT_EXPORT EtcdCountedBarrier : public EtcdRecipe
{
    Q_OBJECT
    Q_PROPERTY(QByteArray path READ path CONSTANT)
    Q_PROPERTY(int memberCount READ memberCount CONSTANT)
    Q_PROPERTY(QString clientId READ clientId CONSTANT)
    Q_PROPERTY(int waiterCount READ waiterCount NOTIFY waiterCountChanged)
public:
    EtcdCountedBarrier(EtcdClient *client, const QByteArray &path, int memberCount,
        const EtcdCountedBarrierOptions &options = {}, QObject *parent = nullptr);
    ~EtcdCountedBarrier() override;

    [[nodiscard]] QByteArray path() const;
    [[nodiscard]] int memberCount() const;
    [[nodiscard]] QString clientId() const;
    [[nodiscard]] std::chrono::seconds ttl() const;
    // Members parked at the barrier as last seen in etcd (advisory); 0 when not waiting.
    [[nodiscard]] int waiterCount() const;

    // Worker threads (refused in this object's thread): true when all arrived, false on
    // timeout (this member leaves the barrier) or close().
    bool waitOnBarrier();
    bool waitOnBarrier(std::chrono::milliseconds timeout);

public Q_SLOTS:
    // The non-blocking arrival: tripped() follows when all arrived, failed() if it cannot.
    void arrive();
    // Leaves the barrier if arrived, releases every waiter (false). Idempotent.
    void close();

Q_SIGNALS:
    void waiterCountChanged(int count);
    void tripped();
    void failed(const EtcdStatus &reason);

private:
    Q_DECLARE_PRIVATE(EtcdCountedBarrier)
    std::unique_ptr<EtcdCountedBarrierPrivate> const d_ptr;
};
