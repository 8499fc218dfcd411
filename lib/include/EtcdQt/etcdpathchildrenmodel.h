// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdpathchildrencache.h>

#include <QtCore/qabstractitemmodel.h>

#include <memory>

class EtcdPathChildrenModelPrivate;

class ETCDQT_EXPORT EtcdPathChildrenModel : public QAbstractListModel
{
    Q_OBJECT
    Q_PROPERTY(EtcdPathChildrenCache *cache READ cache WRITE setCache NOTIFY cacheChanged)
    Q_PROPERTY(
        ValueFormat valueFormat READ valueFormat WRITE setValueFormat NOTIFY valueFormatChanged)
    Q_PROPERTY(int count READ rowCount NOTIFY countChanged)
public:
    enum Role {
        NameRole = Qt::UserRole + 1,
        KeyRole,
        ValueRole,
        RawValueRole,
        CreateRevisionRole,
        ModRevisionRole,
        VersionRole,
        LeaseRole
    };
    Q_ENUM(Role)
    enum class ValueFormat { Auto, Text, Hex };
    Q_ENUM(ValueFormat)

    explicit EtcdPathChildrenModel(QObject *parent = nullptr);
    explicit EtcdPathChildrenModel(EtcdPathChildrenCache *cache, QObject *parent = nullptr);
    ~EtcdPathChildrenModel() override;

    [[nodiscard]] EtcdPathChildrenCache *cache() const;
    void setCache(EtcdPathChildrenCache *cache);
    [[nodiscard]] ValueFormat valueFormat() const;
    void setValueFormat(ValueFormat format);

    [[nodiscard]] int rowCount(const QModelIndex &parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex &index, int role) const override;
    [[nodiscard]] QHash<int, QByteArray> roleNames() const override;
    [[nodiscard]] int rowOf(const QString &name) const;

Q_SIGNALS:
    void cacheChanged();
    void valueFormatChanged();
    void countChanged();

private:
    Q_DECLARE_PRIVATE(EtcdPathChildrenModel)
    std::unique_ptr<EtcdPathChildrenModelPrivate> const d_ptr;
};
