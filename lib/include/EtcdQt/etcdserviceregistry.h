// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdboolreply.h>
#include <EtcdQt/etcdrecipe.h>
#include <EtcdQt/etcdretrypolicy.h>
#include <EtcdQt/etcdserviceinstance.h>

#include <QtCore/qlist.h>

#include <chrono>
#include <memory>

class EtcdServiceRegistryPrivate;

// The write side of service discovery: every registered instance is a key
// <servicePath>/names/<name>/<id> holding its JSON, on a self-healing lease of its own.
class ETCDQT_EXPORT EtcdServiceRegistry : public EtcdRecipe
{
    Q_OBJECT
    Q_PROPERTY(QByteArray servicePath READ servicePath CONSTANT)
    Q_PROPERTY(int count READ count NOTIFY countChanged)

public:
    EtcdServiceRegistry(EtcdClient *client, const QByteArray &servicePath,
        std::chrono::seconds ttl = std::chrono::seconds(2),
        const EtcdLeaseResilience &resilience = {}, QObject *parent = nullptr);
    ~EtcdServiceRegistry() override;

    [[nodiscard]] QByteArray servicePath() const;
    [[nodiscard]] std::chrono::seconds ttl() const;
    [[nodiscard]] QByteArray keyOf(const EtcdServiceInstance &instance) const;
    [[nodiscard]] int count() const;
    [[nodiscard]] QList<EtcdServiceInstance> instances() const;
    [[nodiscard]] bool isRegistered(const EtcdServiceInstance &instance) const;
    [[nodiscard]] qint64 leaseIdOf(const EtcdServiceInstance &instance) const;
    [[nodiscard]] bool isHealthy() const override;

    EtcdBoolReply *registerService(const EtcdServiceInstance &instance);
    EtcdBoolReply *updateService(const EtcdServiceInstance &instance);
    EtcdBoolReply *unregisterService(const EtcdServiceInstance &instance);

public Q_SLOTS:
    void close();

Q_SIGNALS:
    void countChanged();
    void registered(const EtcdServiceInstance &instance);
    void unregistered(const EtcdServiceInstance &instance);
    void leaseEvent(const EtcdServiceInstance &instance, const EtcdLeaseEvent &event);
    void instanceLost(const EtcdServiceInstance &instance, const EtcdStatus &reason);
    void failed(const EtcdServiceInstance &instance, const EtcdStatus &reason);

private:
    Q_DECLARE_PRIVATE(EtcdServiceRegistry)
    std::unique_ptr<EtcdServiceRegistryPrivate> const d_ptr;
};
