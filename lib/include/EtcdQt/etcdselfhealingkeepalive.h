// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdrecipe.h>
#include <EtcdQt/etcdretrypolicy.h>

#include <chrono>
#include <functional>
#include <memory>

class EtcdSelfHealingKeepAlive;
class EtcdSelfHealingKeepAlivePrivate;
namespace Etcd::Internal { // the library's own access to the lease's remaining validity
class LeaseView;
std::shared_ptr<LeaseView> leaseViewOf(const EtcdSelfHealingKeepAlive &lease);
} // namespace Etcd::Internal

class ETCDQT_EXPORT EtcdSelfHealingKeepAlive : public EtcdRecipe
{
    Q_OBJECT
    Q_PROPERTY(qint64 currentLeaseId READ currentLeaseId NOTIFY currentLeaseIdChanged)
    Q_PROPERTY(State state READ state NOTIFY stateChanged)
public:
    enum class State { Inactive, Establishing, Alive, Suspended, Healing, Expired, Failed, Closed };
    Q_ENUM(State)

    using EstablishDone = std::function<void(bool owned)>;
    using EstablishHook = std::function<void(qint64 leaseId, EstablishDone done)>;

    EtcdSelfHealingKeepAlive(EtcdClient *client, std::chrono::seconds ttl, EstablishHook establish,
        const EtcdLeaseResilience &resilience = {}, QObject *parent = nullptr);
    ~EtcdSelfHealingKeepAlive() override;

    [[nodiscard]] std::chrono::seconds ttl() const;
    [[nodiscard]] qint64 currentLeaseId() const;
    [[nodiscard]] State state() const;
    [[nodiscard]] bool isHealthy() const override;
    [[nodiscard]] std::chrono::milliseconds remainingValidity() const;

public Q_SLOTS:
    void start();
    void close();

Q_SIGNALS:
    void stateChanged(EtcdSelfHealingKeepAlive::State state);
    void currentLeaseIdChanged(qint64 leaseId);
    void established(qint64 leaseId);
    void leaseEvent(const EtcdLeaseEvent &event);
    void failed(const EtcdStatus &reason);

private:
    friend std::shared_ptr<Etcd::Internal::LeaseView> Etcd::Internal::leaseViewOf(
        const EtcdSelfHealingKeepAlive &);
    Q_DECLARE_PRIVATE(EtcdSelfHealingKeepAlive)
    std::unique_ptr<EtcdSelfHealingKeepAlivePrivate> const d_ptr;
};
