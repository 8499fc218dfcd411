// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "recipelayer_p.h"
#include "recipepaths_p.h"

#include <EtcdQt/etcdpathchildrencache.h>
#include <EtcdQt/etcdservicecache.h>

#include <QtCore/qpointer.h>

#include <map>

using namespace Etcd::Internal;

/*!
    \class EtcdServiceCache
    \inmodule EtcdQt
    \brief The live instances of one service, kept up to date by a watch.

    An EtcdPathChildrenCache of \c{<servicePath>/names/<name>/} underneath (etcd-recipes'
    ServiceCache reads the same prefix): start() reads every instance at one revision, then
    watches from the revision after it. Each instance's JSON is decoded once, when it
    changes, so instances() and instance() cost no parsing; an instance whose JSON does not
    parse is left out and reported (errorOccurred()), never dropped silently.

    After a compaction or a long outage the cache re-reads and reports what changed meanwhile
    as ordinary instanceAdded(), instanceUpdated() and instanceRemoved() signals, then
    resynced(): a listener never misses an instance that came or went during the gap
    (etcd-recipes' cache updates itself silently then).
*/

class EtcdServiceCachePrivate
{
public:
    struct Entry
    {
        EtcdServiceInstance instance;
        qint64 lease = 0;
    };

    explicit EtcdServiceCachePrivate(EtcdServiceCache *q) : q_ptr(q) { }
    void connectChildren();
    void load();
    std::optional<EtcdServiceInstance> decode(const EtcdKeyValue &kv) const;
    void put(const QString &id, const EtcdKeyValue &kv);
    void remove(const QString &id);
    void changed();

    EtcdServiceCache *q_ptr;
    QByteArray servicePath;
    QString serviceName;
    std::unique_ptr<EtcdPathChildrenCache> children;
    std::map<QString, Entry> byId;
    mutable std::optional<QList<EtcdServiceInstance>> list; // instances(), until a change
    Q_DECLARE_PUBLIC(EtcdServiceCache)
};

void EtcdServiceCachePrivate::connectChildren()
{
    Q_Q(EtcdServiceCache);
    EtcdPathChildrenCache *c = children.get();
    QObject::connect(c, &EtcdPathChildrenCache::started, q, [this, q] {
        load();
        Q_EMIT q->started();
    });
    QObject::connect(c, &EtcdPathChildrenCache::childAdded, q,
        [this](const QString &id, const EtcdKeyValue &kv) { put(id, kv); });
    QObject::connect(c, &EtcdPathChildrenCache::childUpdated, q,
        [this](const QString &id, const EtcdKeyValue &kv) { put(id, kv); });
    QObject::connect(
        c, &EtcdPathChildrenCache::childRemoved, q, [this](const QString &id) { remove(id); });
    QObject::connect(c, &EtcdPathChildrenCache::resynced, q, &EtcdServiceCache::resynced);
    QObject::connect(c, &EtcdPathChildrenCache::failed, q, &EtcdServiceCache::failed);
    RecipeLayer::adopt(q, c);
}

// The snapshot start() read, silently: started() says it is there.
void EtcdServiceCachePrivate::load()
{
    byId.clear();
    for (const EtcdKeyValue &kv : children->currentData()) {
        if (auto s = decode(kv)) {
            const QString id = children->nameOf(kv.key);
            s->id = id;
            byId[id] = {*std::move(s), kv.lease};
        }
    }
    list.reset();
    Q_Q(EtcdServiceCache);
    Q_EMIT q->countChanged();
    Q_EMIT q->instancesChanged();
}

// Parsed once, here (no validator in the children cache: that would parse it twice).
std::optional<EtcdServiceInstance> EtcdServiceCachePrivate::decode(const EtcdKeyValue &kv) const
{
    EtcdStatus why;
    std::optional<EtcdServiceInstance> s = EtcdServiceInstance::fromJson(kv.value, &why);
    if (!s) {
        const auto q = const_cast<EtcdServiceCache *>(q_func());
        q->recordError(EtcdStatus(why.code(),
            EtcdServiceCache::tr("%1 at revision %2 is left out: %3")
                .arg(QString::fromUtf8(kv.key))
                .arg(kv.modRevision)
                .arg(why.message())));
    }
    return s;
}

void EtcdServiceCachePrivate::put(const QString &id, const EtcdKeyValue &kv)
{
    Q_Q(EtcdServiceCache);
    std::optional<EtcdServiceInstance> s = decode(kv);
    if (!s)
        return remove(id); // what it held before is not what etcd holds now
    s->id = id; // the key names the instance, as it does for etcd-recipes' cache
    const auto it = byId.find(id);
    QPointer<EtcdServiceCache> guard(q);
    if (it == byId.end()) {
        byId[id] = {*s, kv.lease};
        changed();
        if (guard)
            Q_EMIT q->countChanged();
        if (guard)
            Q_EMIT q->instanceAdded(*s);
        return;
    }
    const EtcdServiceInstance previous = std::exchange(it->second, {*s, kv.lease}).instance;
    changed();
    if (guard)
        Q_EMIT q->instanceUpdated(*s, previous);
}

void EtcdServiceCachePrivate::remove(const QString &id)
{
    Q_Q(EtcdServiceCache);
    const auto it = byId.find(id);
    if (it == byId.end())
        return;
    const EtcdServiceInstance previous = it->second.instance;
    byId.erase(it);
    QPointer<EtcdServiceCache> guard(q);
    changed();
    if (guard)
        Q_EMIT q->countChanged();
    if (guard)
        Q_EMIT q->instanceRemoved(previous);
}

void EtcdServiceCachePrivate::changed()
{
    list.reset();
    Q_EMIT q_func()->instancesChanged();
}

/*!
    Constructs a cache of the instances of \a serviceName registered under \a servicePath
    on \a client. Call start(). The object is a child of \a parent.
*/
EtcdServiceCache::EtcdServiceCache(
    EtcdClient *client, const QByteArray &servicePath, const QString &serviceName, QObject *parent)
    : EtcdRecipe(client,
        QStringLiteral("ServiceCache[%1/%2]").arg(QString::fromUtf8(servicePath), serviceName),
        parent),
      d_ptr(new EtcdServiceCachePrivate(this))
{
    Q_D(EtcdServiceCache);
    d->servicePath = servicePath;
    d->serviceName = serviceName;
    d->children = std::make_unique<EtcdPathChildrenCache>(
        client, RecipePaths::serviceInstancesPath(servicePath, serviceName));
    d->connectChildren();
}

/*! Stops watching. */
EtcdServiceCache::~EtcdServiceCache()
{
    d_func()->children->disconnect(this);
}

/*! \property EtcdServiceCache::servicePath
    The path the service is registered under. */
QByteArray EtcdServiceCache::servicePath() const
{
    return d_func()->servicePath;
}

/*! \property EtcdServiceCache::serviceName
    The service whose instances this cache holds. */
QString EtcdServiceCache::serviceName() const
{
    return d_func()->serviceName;
}

/*! \property EtcdServiceCache::count
    How many instances the cache holds (those whose JSON parses). */
int EtcdServiceCache::count() const
{
    return int(d_func()->byId.size());
}

/*! \property EtcdServiceCache::started
    Whether the first read is done and the watch follows the instances. */
bool EtcdServiceCache::isStarted() const
{
    return d_func()->children->isStarted();
}

/*! The revision of etcd the cache reflects. */
qint64 EtcdServiceCache::revision() const
{
    return d_func()->children->revision();
}

/*! The instances, in id order; decoded when they changed, so a call costs a list copy. */
QList<EtcdServiceInstance> EtcdServiceCache::instances() const
{
    Q_D(const EtcdServiceCache);
    if (!d->list) {
        QList<EtcdServiceInstance> out;
        out.reserve(qsizetype(d->byId.size()));
        for (const auto &[id, e] : d->byId)
            out.append(e.instance);
        d->list = std::move(out);
    }
    return *d->list;
}

/*! The instance registered with \a id; nothing when the cache holds none. */
std::optional<EtcdServiceInstance> EtcdServiceCache::instance(const QString &id) const
{
    Q_D(const EtcdServiceCache);
    const auto it = d->byId.find(id);
    return it == d->byId.end() ? std::nullopt : std::optional(it->second.instance);
}

/*! The lease the instance \a id is registered on; 0 when the cache holds no such instance. */
qint64 EtcdServiceCache::leaseOf(const QString &id) const
{
    Q_D(const EtcdServiceCache);
    const auto it = d->byId.find(id);
    return it == d->byId.end() ? 0 : it->second.lease;
}

/*! The path-children cache underneath, for its raw key-values (EtcdPathChildrenModel). */
EtcdPathChildrenCache *EtcdServiceCache::childrenCache() const
{
    return d_func()->children.get();
}

/*!
    Reads every instance, then follows them; started() follows, or failed(). One-shot, as
    etcd-recipes' start().
*/
void EtcdServiceCache::start()
{
    Q_D(EtcdServiceCache);
    if (isActive() || isClosed())
        return;
    setActive(true);
    d->children->start(EtcdPathChildrenCache::StartMode::BuildInitialCache);
}

/*! Stops watching for good; closed() follows. The instances stay as they were. */
void EtcdServiceCache::close()
{
    Q_D(EtcdServiceCache);
    if (isClosed())
        return;
    markClosed();
    setActive(false);
    d->children->close();
}

/*! \fn void EtcdServiceCache::started()
    Emitted once the first read is in: instances() holds every instance. */

/*! \fn void EtcdServiceCache::countChanged()
    Emitted when an instance came or went. */

/*! \fn void EtcdServiceCache::instancesChanged()
    Emitted after every change of instances(), before the signal that names it. */

/*! \fn void EtcdServiceCache::instanceAdded(const EtcdServiceInstance &instance)
    Emitted when \a instance was registered (or its JSON parses again). */

// clang-format off
/*! \fn void EtcdServiceCache::instanceUpdated(const EtcdServiceInstance &instance, const EtcdServiceInstance &previous)
    Emitted when a registered instance's JSON changed from \a previous to \a instance. */
// clang-format on

/*! \fn void EtcdServiceCache::instanceRemoved(const EtcdServiceInstance &previous)
    Emitted when the instance \a previous went: unregistered, its lease gone, or its JSON no
    longer parses. */

/*! \fn void EtcdServiceCache::resynced(qint64 revision)
    Emitted after a re-read at \a revision (a compaction, a long outage) reported what
    changed meanwhile. */

/*! \fn void EtcdServiceCache::failed(const EtcdStatus &reason)
    Emitted when the cache cannot follow the instances any more, for \a reason. */
