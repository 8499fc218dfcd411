// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdrecipe.h>
#include <EtcdQt/etcdserviceinstance.h>

#include <QtCore/qlist.h>

#include <memory>
#include <optional>

class EtcdPathChildrenCache;
class EtcdServiceCachePrivate;

// The live instances of one service, kept by a watch: an EtcdPathChildrenCache of
// <servicePath>/names/<name>/ whose children are decoded once, as they change.
class ETCDQT_EXPORT EtcdServiceCache : public EtcdRecipe
{
    Q_OBJECT
    Q_PROPERTY(QByteArray servicePath READ servicePath CONSTANT)
    Q_PROPERTY(QString serviceName READ serviceName CONSTANT)
    Q_PROPERTY(int count READ count NOTIFY countChanged)
    Q_PROPERTY(bool started READ isStarted NOTIFY started)

public:
    EtcdServiceCache(EtcdClient *client, const QByteArray &servicePath, const QString &serviceName,
        QObject *parent = nullptr);
    ~EtcdServiceCache() override;

    [[nodiscard]] QByteArray servicePath() const;
    [[nodiscard]] QString serviceName() const;
    [[nodiscard]] int count() const;
    [[nodiscard]] bool isStarted() const;
    [[nodiscard]] qint64 revision() const;
    // Sorted by id; decoded when they changed, not when asked for.
    [[nodiscard]] QList<EtcdServiceInstance> instances() const;
    [[nodiscard]] std::optional<EtcdServiceInstance> instance(const QString &id) const;
    [[nodiscard]] qint64 leaseOf(const QString &id) const;
    // The path-children cache underneath (for EtcdPathChildrenModel and the like).
    [[nodiscard]] EtcdPathChildrenCache *childrenCache() const;

public Q_SLOTS:
    void start();
    void close();

Q_SIGNALS:
    void started();
    void countChanged();
    void instancesChanged();
    void instanceAdded(const EtcdServiceInstance &instance);
    void instanceUpdated(const EtcdServiceInstance &instance, const EtcdServiceInstance &previous);
    void instanceRemoved(const EtcdServiceInstance &previous);
    void resynced(qint64 revision);
    void failed(const EtcdStatus &reason);

private:
    Q_DECLARE_PRIVATE(EtcdServiceCache)
    std::unique_ptr<EtcdServiceCachePrivate> const d_ptr;
};
