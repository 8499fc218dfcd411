// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "etcdqmlcache.h"
#include "etcdqmlconvert_p.h"

#include <EtcdQt/etcdnodecache.h>
#include <EtcdQt/etcdstatus.h>

namespace {
QString text(const QByteArray &bytes)
{
    return QString::fromUtf8(bytes);
}
} // namespace

/*!
    \class EtcdQmlCache
    \internal
    The base of NodeCache and PathChildrenCache: \c ready and resynced(revision). A library
    cache stops for good when its first read fails (etcd unreachable for longer than the
    client's retries) or its watch ends; the item then starts over when its client is
    connected again, so that a cache started before etcd was up still fills.
*/

EtcdQmlCache::EtcdQmlCache(QObject *parent) : EtcdQmlRecipe(parent)
{
    connect(this, &EtcdQmlRecipe::clientChanged, this, &EtcdQmlCache::followClientState);
}

EtcdQmlCache::~EtcdQmlCache() = default;

void EtcdQmlCache::recipeStopped()
{
    m_failed = false;
    setReady(false);
}

void EtcdQmlCache::followClientState()
{
    disconnect(m_clientState);
    if (!client())
        return;
    m_clientState = connect(client(), &EtcdQmlClient::stateChanged, this, [this] {
        if (m_failed && client()->state() == EtcdQmlClient::Connected)
            restart();
    });
}

void EtcdQmlCache::setReady(bool ready)
{
    if (ready == m_ready)
        return;
    m_ready = ready;
    Q_EMIT readyChanged();
}

/*!
    \qmltype NodeCache
    \inqmlmodule EtcdQt
    \brief A live copy of the key \c key while \c active (EtcdNodeCache underneath).

    \c ready turns true once the key was read and the watch is live; from then on \c value
    (the value as UTF-8 text), \c exists and \c modRevision follow every change, and each
    change comes as created(value, revision), updated(value, previous, revision) or
    deleted(previous, revision), in etcd's order, with the properties already updated. The
    value found by the first read is no change: it is in \c value when \c ready turns true.
    After a re-read that a compaction forced, resynced(revision) follows the differences.
    An empty \c key is refused with \c EtcdError.InvalidArgument through errorOccurred(). While
    inactive, \c value is empty, \c exists false and \c modRevision 0. The cache writes
    nothing to etcd.
*/

EtcdQmlNodeCache::EtcdQmlNodeCache(QObject *parent) : EtcdQmlCache(parent) { }

EtcdQmlNodeCache::~EtcdQmlNodeCache() = default;

void EtcdQmlNodeCache::setKey(const QString &key)
{
    changeSetting(m_key, key, &EtcdQmlNodeCache::keyChanged);
}

QString EtcdQmlNodeCache::invalidSetting() const
{
    return m_key.isEmpty() ? tr("a NodeCache needs a key") : QString();
}

QObject *EtcdQmlNodeCache::startRecipe(EtcdClient *client)
{
    auto *cache = new EtcdNodeCache(client, m_key.toUtf8());
    // The properties show the change before its signal does.
    const auto showCache = [this, cache] {
        show(text(cache->value()), cache->exists(), double(cache->modRevision()));
    };
    followCache(cache, showCache);
    connect(cache, &EtcdNodeCache::created, this,
        [this, showCache](const QByteArray &value, qint64 revision) {
            showCache();
            Q_EMIT created(text(value), double(revision));
        });
    connect(cache, &EtcdNodeCache::updated, this,
        [this, showCache](const QByteArray &value, const QByteArray &previous, qint64 revision) {
            showCache();
            Q_EMIT updated(text(value), text(previous), double(revision));
        });
    connect(cache, &EtcdNodeCache::deleted, this,
        [this, showCache](const QByteArray &previous, qint64 revision) {
            showCache();
            Q_EMIT deleted(text(previous), double(revision));
        });
    connect(cache, &EtcdNodeCache::valueChanged, this, showCache);
    cache->start();
    return cache;
}

void EtcdQmlNodeCache::recipeStopped()
{
    show(QString(), false, 0);
    EtcdQmlCache::recipeStopped();
}

void EtcdQmlNodeCache::show(const QString &value, bool exists, double modRevision)
{
    if (value == m_value && exists == m_exists && modRevision == m_modRevision)
        return;
    m_value = value;
    m_exists = exists;
    m_modRevision = modRevision;
    Q_EMIT valueChanged();
}

QVariant EtcdQmlPathChildrenModel::data(const QModelIndex &index, int role) const
{
    const QVariant field = EtcdPathChildrenModel::data(index, role);
    if (role != LeaseRole || !field.isValid())
        return field;
    return Etcd::Qml::leaseIdToString(field.toLongLong());
}

/*!
    \qmltype PathChildrenCache
    \inqmlmodule EtcdQt
    \brief A live copy of every key under \c path while \c active (EtcdPathChildrenCache
    underneath), as the list model \c model.

    The children are the keys under \c path plus '/', named relative to it; nested keys keep
    their '/' (\c{eu/worker-1}). \c model is the library's EtcdPathChildrenModel, the one a
    Widgets view shows: one row per child, sorted by name, with the roles \c name, \c key,
    \c value (text, or hex when the bytes are not UTF-8), \c rawValue, \c createRevision,
    \c modRevision, \c version and \c lease (the lease id as a decimal string, empty for
    none). It follows the cache row by row (a put inserts or changes one row, a deletion
    removes one) and is empty while inactive; \c count is its number of rows.

    \c startMode is PathChildrenCache.Normal (no first read: the cache fills from changes),
    PathChildrenCache.BuildInitialCache (the default: every child is read first, silently)
    or PathChildrenCache.PostInitializedEvent (as BuildInitialCache, then
    initialized(revision) once \c model holds the snapshot). Changing it starts over.
    \c ready turns true once the watch is live.

    Each change after that comes as childAdded(name, value), childUpdated(name, value,
    previous) or childRemoved(name, previous), with \c model already showing it. value(name)
    is one child's value as text (undefined when absent); rebuild() reads every child again
    and reports the differences as changes, then rebuilt(); clear() empties the copy (etcd
    is untouched; later changes fill it again). Both return false when the item is not
    running. An empty \c path is refused with \c EtcdError.InvalidArgument through
    errorOccurred(). The cache writes nothing to etcd.
*/

EtcdQmlPathChildrenCache::EtcdQmlPathChildrenCache(QObject *parent)
    : EtcdQmlCache(parent), m_model(new EtcdQmlPathChildrenModel(this))
{
    connect(m_model, &EtcdPathChildrenModel::countChanged, this,
        &EtcdQmlPathChildrenCache::countChanged);
}

EtcdQmlPathChildrenCache::~EtcdQmlPathChildrenCache() = default;

void EtcdQmlPathChildrenCache::setPath(const QString &path)
{
    changeSetting(m_path, path, &EtcdQmlPathChildrenCache::pathChanged);
}

void EtcdQmlPathChildrenCache::setStartMode(StartMode mode)
{
    changeSetting(m_startMode, mode, &EtcdQmlPathChildrenCache::startModeChanged);
}

int EtcdQmlPathChildrenCache::count() const
{
    return m_model->rowCount();
}

QAbstractItemModel *EtcdQmlPathChildrenCache::model() const
{
    return m_model;
}

/*! \qmlmethod var PathChildrenCache::value(string name)
    The value of the child \a name as UTF-8 text; undefined when the cache does not hold it
    (or the item is not running). */
QVariant EtcdQmlPathChildrenCache::value(const QString &name) const
{
    const auto *cache = currentAs<EtcdPathChildrenCache>();
    const std::optional<EtcdKeyValue> child = cache ? cache->currentData(name) : std::nullopt;
    return child ? QVariant(text(child->value)) : QVariant();
}

/*! \qmlmethod bool PathChildrenCache::rebuild()
    Reads every child again; differences come as changes, then rebuilt(). Returns \c false
    when the item is not running. */
bool EtcdQmlPathChildrenCache::rebuild()
{
    auto *cache = currentAs<EtcdPathChildrenCache>();
    if (!cache)
        return false;
    cache->rebuild();
    return true;
}

/*! \qmlmethod bool PathChildrenCache::clear()
    Empties the copy (and \c model) here; the watch goes on. Returns \c false when the item
    is not running. */
bool EtcdQmlPathChildrenCache::clear()
{
    auto *cache = currentAs<EtcdPathChildrenCache>();
    if (!cache)
        return false;
    cache->clear();
    return true;
}

QString EtcdQmlPathChildrenCache::invalidSetting() const
{
    return m_path.isEmpty() ? tr("a PathChildrenCache needs a path") : QString();
}

QObject *EtcdQmlPathChildrenCache::startRecipe(EtcdClient *client)
{
    using C = EtcdPathChildrenCache;
    static_assert(int(Normal) == int(C::StartMode::Normal)
        && int(BuildInitialCache) == int(C::StartMode::BuildInitialCache)
        && int(PostInitializedEvent) == int(C::StartMode::PostInitializedEvent));
    auto *cache = new C(client, m_path.toUtf8());
    // The model first: the signals below find it up to date.
    m_model->setCache(cache);
    m_initializedAt.reset();
    // The library says initialized() before started(), when the model takes the snapshot.
    connect(cache, &C::initialized, this,
        [this](const QList<EtcdKeyValue> &, qint64 revision) { m_initializedAt = revision; });
    followCache(cache, [this] {
        if (const std::optional<qint64> revision = std::exchange(m_initializedAt, std::nullopt))
            Q_EMIT initialized(double(*revision));
    });
    connect(cache, &C::childAdded, this, [this](const QString &name, const EtcdKeyValue &child) {
        Q_EMIT childAdded(name, text(child.value));
    });
    connect(cache, &C::childUpdated, this,
        [this](const QString &name, const EtcdKeyValue &child, const EtcdKeyValue &previous) {
            Q_EMIT childUpdated(name, text(child.value), text(previous.value));
        });
    connect(
        cache, &C::childRemoved, this, [this](const QString &name, const EtcdKeyValue &previous) {
            Q_EMIT childRemoved(name, text(previous.value));
        });
    connect(cache, &C::rebuilt, this, &EtcdQmlPathChildrenCache::rebuilt);
    cache->start(C::StartMode(m_startMode));
    return cache;
}

void EtcdQmlPathChildrenCache::recipeStopped()
{
    m_model->setCache(nullptr); // one removal of every row
    m_initializedAt.reset();
    EtcdQmlCache::recipeStopped();
}
