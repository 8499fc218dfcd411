// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include <EtcdQt/etcdservicemodel.h>

#include <QtCore/qdatetime.h>
#include <QtCore/qmetaobject.h>
#include <QtCore/qpointer.h>

#include <algorithm>

/*!
    \class EtcdServiceModel
    \inmodule EtcdQt
    \brief The instances of an EtcdServiceCache as a list model, for Widgets and QML.

    One row per instance, in id order, kept in step with the cache's signals: an instance
    that comes is inserted at its place, one that goes is removed, an update changes its row.
    Qt::DisplayRole is "id address:port"; the roles of Role give each field.
*/

/*!
    \enum EtcdServiceModel::Role
    \value IdRole the instance id (QML: \c id)
    \value NameRole the service name (\c name)
    \value AddressRole the address (\c address)
    \value PortRole the port, -1 when none (\c port)
    \value SslPortRole the SSL port, -1 when none (\c sslPort)
    \value EndpointRole "address:port", or the address alone without a port (\c endpoint)
    \value UriRole the URI (\c uri)
    \value EnabledRole whether it is enabled (\c enabled)
    \value PayloadRole the JSON payload text (\c payload)
    \value ServiceTypeRole the type as etcd-recipes spells it, e.g. "DYNAMIC" (\c serviceType)
    \value RegistrationTimeRole when it registered, a UTC QDateTime (\c registrationTime)
    \value LeaseRole the lease of its key, in decimal text (\c lease)
    \value InstanceRole the whole EtcdServiceInstance (\c instance)
*/

class EtcdServiceModelPrivate
{
public:
    struct Row
    {
        EtcdServiceInstance instance;
        qint64 lease = 0;
    };

    [[nodiscard]] qsizetype lowerBound(const QString &id) const
    {
        const auto it = std::lower_bound(rows.begin(), rows.end(), id,
            [](const Row &r, const QString &key) { return r.instance.id < key; });
        return it - rows.begin();
    }
    [[nodiscard]] QVariant field(const Row &row, int role) const;
    void fill()
    {
        rows.clear();
        if (!cache)
            return;
        for (const EtcdServiceInstance &s : cache->instances())
            rows.append({s, cache->leaseOf(s.id)});
    }

    QPointer<EtcdServiceCache> cache;
    QList<Row> rows;
    QList<QMetaObject::Connection> connections;
};

QVariant EtcdServiceModelPrivate::field(const Row &row, int role) const
{
    const EtcdServiceInstance &s = row.instance;
    const QString endpoint = s.port >= 0 ? s.address + u':' + QString::number(s.port) : s.address;
    switch (role) {
    case Qt::DisplayRole:
        return s.id + u' ' + endpoint;
    case EtcdServiceModel::IdRole:
        return s.id;
    case EtcdServiceModel::NameRole:
        return s.name;
    case EtcdServiceModel::AddressRole:
        return s.address;
    case EtcdServiceModel::PortRole:
        return s.port;
    case EtcdServiceModel::SslPortRole:
        return s.sslPort;
    case EtcdServiceModel::EndpointRole:
        return endpoint;
    case EtcdServiceModel::UriRole:
        return s.uri;
    case EtcdServiceModel::EnabledRole:
        return s.enabled;
    case EtcdServiceModel::PayloadRole:
        return s.jsonPayload;
    case EtcdServiceModel::ServiceTypeRole:
        return EtcdServiceInstance::typeName(s.serviceType);
    case EtcdServiceModel::RegistrationTimeRole:
        return QDateTime::fromMSecsSinceEpoch(s.registrationTimeUtc, Qt::UTC);
    case EtcdServiceModel::LeaseRole:
        return QString::number(row.lease);
    case EtcdServiceModel::InstanceRole:
        return QVariant::fromValue(s);
    default:
        return {};
    }
}

/*! Constructs an empty model; setCache() fills it. The object is a child of \a parent. */
EtcdServiceModel::EtcdServiceModel(QObject *parent)
    : QAbstractListModel(parent), d_ptr(new EtcdServiceModelPrivate)
{ }

/*! Constructs a model of \a cache's instances, a child of \a parent. */
EtcdServiceModel::EtcdServiceModel(EtcdServiceCache *cache, QObject *parent)
    : EtcdServiceModel(parent)
{
    setCache(cache);
}

/*! Destroys the model; the cache is not touched. */
EtcdServiceModel::~EtcdServiceModel() = default;

/*! \property EtcdServiceModel::cache
    The cache whose instances the rows show; null for none. */
EtcdServiceCache *EtcdServiceModel::cache() const
{
    return d_func()->cache;
}

void EtcdServiceModel::setCache(EtcdServiceCache *cache)
{
    Q_D(EtcdServiceModel);
    if (d->cache == cache)
        return;
    for (const auto &c : std::as_const(d->connections))
        disconnect(c);
    d->connections.clear();
    beginResetModel();
    d->cache = cache;
    d->fill();
    if (cache) {
        d->connections = {
            connect(cache, &EtcdServiceCache::instanceAdded, this,
                [this, d](const EtcdServiceInstance &s) {
                    const qsizetype at = d->lowerBound(s.id);
                    beginInsertRows({}, int(at), int(at));
                    d->rows.insert(at, {s, d->cache->leaseOf(s.id)});
                    endInsertRows();
                    Q_EMIT countChanged();
                }),
            connect(cache, &EtcdServiceCache::instanceUpdated, this,
                [this, d](const EtcdServiceInstance &s) {
                    const qsizetype at = d->lowerBound(s.id);
                    if (at == d->rows.size() || d->rows[at].instance.id != s.id)
                        return;
                    d->rows[at] = {s, d->cache->leaseOf(s.id)};
                    Q_EMIT dataChanged(index(int(at)), index(int(at)));
                }),
            connect(cache, &EtcdServiceCache::instanceRemoved, this,
                [this, d](const EtcdServiceInstance &s) {
                    const qsizetype at = d->lowerBound(s.id);
                    if (at == d->rows.size() || d->rows[at].instance.id != s.id)
                        return;
                    beginRemoveRows({}, int(at), int(at));
                    d->rows.remove(at);
                    endRemoveRows();
                    Q_EMIT countChanged();
                }),
            // The first read fills the cache silently: it is all new to the rows.
            connect(cache, &EtcdServiceCache::started, this,
                [this, d] {
                    beginResetModel();
                    d->fill();
                    endResetModel();
                    Q_EMIT countChanged();
                }),
            connect(cache, &QObject::destroyed, this, [this] { setCache(nullptr); }),
        };
    }
    endResetModel();
    Q_EMIT cacheChanged();
    Q_EMIT countChanged();
}

/*! \property EtcdServiceModel::count
    The number of rows: rowCount(), for QML. */

/*! Returns the number of instances (none under a valid \a parent: a flat list). */
int EtcdServiceModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(d_func()->rows.size());
}

/*! Returns the \a role of the instance at \a index. */
QVariant EtcdServiceModel::data(const QModelIndex &index, int role) const
{
    Q_D(const EtcdServiceModel);
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    return d->field(d->rows.at(index.row()), role);
}

/*! The QML names of the roles (see Role). */
QHash<int, QByteArray> EtcdServiceModel::roleNames() const
{
    return {{Qt::DisplayRole, "display"}, {IdRole, "id"}, {NameRole, "name"},
        {AddressRole, "address"}, {PortRole, "port"}, {SslPortRole, "sslPort"},
        {EndpointRole, "endpoint"}, {UriRole, "uri"}, {EnabledRole, "enabled"},
        {PayloadRole, "payload"}, {ServiceTypeRole, "serviceType"},
        {RegistrationTimeRole, "registrationTime"}, {LeaseRole, "lease"},
        {InstanceRole, "instance"}};
}

/*! The row of the instance \a id; -1 when there is none. */
int EtcdServiceModel::rowOf(const QString &id) const
{
    Q_D(const EtcdServiceModel);
    const qsizetype at = d->lowerBound(id);
    return at < d->rows.size() && d->rows[at].instance.id == id ? int(at) : -1;
}

/*! \fn void EtcdServiceModel::cacheChanged()
    Emitted when setCache() set another cache. */

/*! \fn void EtcdServiceModel::countChanged()
    Emitted when the number of rows may have changed. */
