// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "snippets.h"

#include <EtcdQt/EtcdQt>

#include <QtCore/qdebug.h>
#include <QtCore/qjsonobject.h>

using namespace Qt::StringLiterals;

namespace snippets {

EtcdNodeCache *followMaintenanceFlag(EtcdClient *client, QObject *owner)
{
    //! [nodecache]
    // A live copy of one key: read once, then followed by a watch from the read's revision
    // plus one, so no change is missed and none is seen twice.
    auto *flag = new EtcdNodeCache(client, "/config/maintenance"_ba, owner);
    QObject::connect(flag, &EtcdNodeCache::started, owner, [flag] {
        qInfo().noquote() << "maintenance is" << (flag->exists() ? flag->value() : "unset"_ba);
    });
    QObject::connect(flag, &EtcdNodeCache::updated, owner,
        [](const QByteArray &value, const QByteArray &previous, qint64 revision) {
            qInfo().noquote() << "maintenance" << previous << "->" << value << "at" << revision;
        });
    QObject::connect(flag, &EtcdNodeCache::deleted, owner,
        [](const QByteArray &, qint64 revision) { qInfo() << "maintenance unset at" << revision; });
    flag->start();
    //! [nodecache]
    return flag;
}

EtcdPathChildrenCache *followWorkers(EtcdClient *client, QObject *owner)
{
    //! [pathchildren]
    // Every key under /workers/, named relative to it ("eu/w1" for /workers/eu/w1).
    auto *workers = new EtcdPathChildrenCache(client, "/workers"_ba, owner);
    QObject::connect(workers, &EtcdPathChildrenCache::initialized, owner,
        [](const QList<EtcdKeyValue> &snapshot, qint64 revision) {
            qInfo() << snapshot.size() << "workers at revision" << revision;
        });
    QObject::connect(workers, &EtcdPathChildrenCache::childAdded, owner,
        [](const QString &name, const EtcdKeyValue &child) {
            qInfo().noquote() << "joined:" << name << child.value;
        });
    QObject::connect(workers, &EtcdPathChildrenCache::childRemoved, owner,
        [](const QString &name, const EtcdKeyValue &previous, qint64) {
            qInfo().noquote() << "left:" << name << "was" << previous.value;
        });
    // After a compacted gap: the differences came as the signals above, then this.
    QObject::connect(workers, &EtcdPathChildrenCache::resynced, owner, [workers](qint64 revision) {
        qInfo().noquote() << "resynced at" << revision << workers->names().join(u", "_s);
    });
    workers->start(EtcdPathChildrenCache::StartMode::PostInitializedEvent);
    //! [pathchildren]
    return workers;
}

EtcdPathChildrenModel *workersModel(EtcdPathChildrenCache *workers, QObject *owner)
{
    //! [model]
    // A list model over the cache, for a QListView, a QTableView through a proxy, or QML:
    // rows are inserted, removed and changed one by one, never reset after the first load.
    auto *model = new EtcdPathChildrenModel(workers, owner);
    QObject::connect(
        model, &QAbstractItemModel::rowsInserted, owner, [model](const QModelIndex &, int first) {
            const QModelIndex row = model->index(first);
            qInfo().noquote() << "row" << first
                              << row.data(EtcdPathChildrenModel::NameRole).toString()
                              << row.data(EtcdPathChildrenModel::ValueRole).toString();
        });
    //! [model]
    return model;
}

std::unique_ptr<EtcdTypedPathChildrenCache<EtcdJsonCodec>> followServices(
    EtcdClient *client, QObject *owner)
{
    //! [typed]
    // Values decoded with a codec. A value that does not decode is still cached and
    // signalled (its Child::value is nullopt) and reported through errorOccurred().
    auto services
        = std::make_unique<EtcdTypedPathChildrenCache<EtcdJsonCodec>>(client, "/services"_ba);
    EtcdPathChildrenCache *untyped = services->untyped();
    using Typed = EtcdTypedPathChildrenCache<EtcdJsonCodec>;
    QObject::connect(untyped, &EtcdPathChildrenCache::childAdded, owner,
        [](const QString &name, const EtcdKeyValue &child) {
            if (const std::optional<QJsonDocument> doc = Typed::decode(child))
                qInfo().noquote() << name << "on port" << doc->object().value(u"port"_s).toInt();
        });
    QObject::connect(
        untyped, &EtcdRecipe::errorOccurred, owner, [](const QString &, const EtcdStatus &status) {
            qWarning().noquote() << "bad service entry:" << status.message();
        });
    services->start(EtcdPathChildrenCache::StartMode::BuildInitialCache);
    //! [typed]
    return services;
}

} // namespace snippets
