// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdservicecache.h>
#include <EtcdQt/etcdserviceinstance.h>
#include <EtcdQt/etcdserviceprovider.h>
#include <EtcdQt/etcdservicequeryreply.h>
#include <EtcdQt/etcdserviceregistry.h>

#include <QtCore/qobject.h>

#include <chrono>
#include <memory>

class EtcdClient;
class EtcdServiceDiscoveryPrivate;

// The façade of service discovery under one service path: a registry for this process's
// instances, one shared cache per service it looks at, providers on them, one-shot queries.
class ETCDQT_EXPORT EtcdServiceDiscovery : public QObject
{
    Q_OBJECT
    Q_PROPERTY(QByteArray servicePath READ servicePath CONSTANT)

public:
    EtcdServiceDiscovery(EtcdClient *client, const QByteArray &servicePath,
        std::chrono::seconds ttl = std::chrono::seconds(2), QObject *parent = nullptr);
    ~EtcdServiceDiscovery() override;

    [[nodiscard]] QByteArray servicePath() const;
    [[nodiscard]] EtcdServiceRegistry *registry() const;

    EtcdBoolReply *registerService(const EtcdServiceInstance &instance);
    EtcdBoolReply *updateService(const EtcdServiceInstance &instance);
    EtcdBoolReply *unregisterService(const EtcdServiceInstance &instance);

    // Started, owned by this object, one per name (asked again: the same object).
    EtcdServiceCache *serviceCache(const QString &serviceName);
    // Owned by this object, on serviceCache(serviceName).
    EtcdServiceProvider *serviceProvider(const QString &serviceName,
        EtcdServiceProvider::Strategy strategy = EtcdServiceProvider::Strategy::Random);

    EtcdServiceQueryReply *queryForNames();
    EtcdServiceQueryReply *queryForInstances(const QString &serviceName);
    EtcdServiceQueryReply *queryForInstance(const QString &serviceName, const QString &id);

public Q_SLOTS:
    void close();

private:
    Q_DECLARE_PRIVATE(EtcdServiceDiscovery)
    std::unique_ptr<EtcdServiceDiscoveryPrivate> const d_ptr;
};
