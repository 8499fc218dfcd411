// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdservicecache.h>

#include <QtCore/qabstractitemmodel.h>

#include <memory>

class EtcdServiceModelPrivate;

// The instances of an EtcdServiceCache as a list model, one row per instance in id order,
// for Widgets views and QML.
class ETCDQT_EXPORT EtcdServiceModel : public QAbstractListModel
{
    Q_OBJECT
    Q_PROPERTY(EtcdServiceCache *cache READ cache WRITE setCache NOTIFY cacheChanged)
    Q_PROPERTY(int count READ rowCount NOTIFY countChanged)

public:
    enum Role {
        IdRole = Qt::UserRole + 1,
        NameRole,
        AddressRole,
        PortRole,
        SslPortRole,
        EndpointRole, // "address:port"
        UriRole,
        EnabledRole,
        PayloadRole,
        ServiceTypeRole, // the JSON's name: "DYNAMIC", ...
        RegistrationTimeRole, // QDateTime, UTC
        LeaseRole, // the instance key's lease, decimal text
        InstanceRole // the EtcdServiceInstance
    };
    Q_ENUM(Role)

    explicit EtcdServiceModel(QObject *parent = nullptr);
    explicit EtcdServiceModel(EtcdServiceCache *cache, QObject *parent = nullptr);
    ~EtcdServiceModel() override;

    [[nodiscard]] EtcdServiceCache *cache() const;
    void setCache(EtcdServiceCache *cache);

    [[nodiscard]] int rowCount(const QModelIndex &parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex &index, int role) const override;
    [[nodiscard]] QHash<int, QByteArray> roleNames() const override;
    [[nodiscard]] int rowOf(const QString &id) const;

Q_SIGNALS:
    void cacheChanged();
    void countChanged();

private:
    Q_DECLARE_PRIVATE(EtcdServiceModel)
    std::unique_ptr<EtcdServiceModelPrivate> const d_ptr;
};
