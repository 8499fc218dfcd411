// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "clientcalls_p.h"
#include "etcdreply_p.h"
#include "recipepaths_p.h"

#include <EtcdQt/etcdclient.h>
#include <EtcdQt/etcdreplies.h>
#include <EtcdQt/etcdservicediscovery.h>

#include <QtCore/qpointer.h>

#include <map>

using namespace Etcd::Internal;
using namespace std::chrono;

/*!
    \class EtcdServiceQueryReply
    \inmodule EtcdQt
    \brief One read of the service registry: the names of the services, or instances of one.
*/

struct EtcdServiceQueryReplyAccess
{
    static void fill(EtcdServiceQueryReply *r, const EtcdRangeReply &read, bool namesOnly,
        const QByteArray &namesPrefix)
    {
        r->m_revision = read.revision();
        for (const EtcdKeyValue &kv : read.keyValues()) {
            if (namesOnly) {
                // "<names>/<service>/<id>": the service is the part before the next '/'.
                const QString name
                    = QString::fromUtf8(kv.key.mid(namesPrefix.size())).section(u'/', 0, 0);
                if (!name.isEmpty() && (r->m_names.isEmpty() || r->m_names.last() != name))
                    r->m_names.append(name); // keys come sorted, so one service's are together
            } else if (auto s = EtcdServiceInstance::fromJson(kv.value)) {
                r->m_instances.append(*std::move(s));
            } else {
                r->m_undecodable.append(kv.key);
            }
        }
    }
};

/*! Constructs a reply, a child of \a parent; EtcdServiceDiscovery's queries make them. */
EtcdServiceQueryReply::EtcdServiceQueryReply(QObject *parent) : EtcdReply(parent) { }

/*! The service names queryForNames() found, sorted, each once. */
QStringList EtcdServiceQueryReply::names() const
{
    return m_names;
}

/*! The instances the query found, in key (so id) order. */
QList<EtcdServiceInstance> EtcdServiceQueryReply::instances() const
{
    return m_instances;
}

/*! The revision of etcd the answer reflects. */
qint64 EtcdServiceQueryReply::revision() const
{
    return m_revision;
}

/*! The keys whose JSON did not parse (left out of instances()). */
QList<QByteArray> EtcdServiceQueryReply::undecodableKeys() const
{
    return m_undecodable;
}

namespace {

EtcdServiceQueryReply *refused(QObject *parent, Etcd::ErrorCode code, const QString &why)
{
    auto *reply = new EtcdServiceQueryReply(parent);
    EtcdReplyPrivate::get(reply)->finishLater(EtcdStatus(code, why));
    return reply;
}

// Reads `key` (a prefix unless `exact`) into a new reply; `expectOne`: NotFound when empty.
EtcdServiceQueryReply *query(EtcdClient *client, QObject *parent, const QByteArray &key,
    const QByteArray &namesPrefix, bool namesOnly, bool exact)
{
    auto *reply = new EtcdServiceQueryReply(parent);
    EtcdRangeOptions o;
    o.prefix = !exact;
    o.keysOnly = namesOnly;
    EtcdRangeReply *read = getOn(client, key, o);
    QObject::connect(reply, &EtcdReply::finished, read, &EtcdReply::abort);
    QObject::connect(read, &EtcdReply::finished, reply, [=](const EtcdStatus &s) {
        auto *d = EtcdReplyPrivate::get(reply);
        if (!s.isOk())
            return d->finish(s, {});
        if (exact && read->keyValues().isEmpty())
            return d->finish(
                EtcdStatus(Etcd::ErrorCode::NotFound,
                    EtcdServiceDiscovery::tr("no instance at %1").arg(QString::fromUtf8(key))),
                {});
        EtcdServiceQueryReplyAccess::fill(reply, *read, namesOnly, namesPrefix);
        d->finish({}, {});
    });
    return reply;
}

} // namespace

/*!
    \class EtcdServiceDiscovery
    \inmodule EtcdQt
    \brief The façade of service discovery under one service path, as etcd-recipes'
    ServiceDiscovery.

    It registers this process's instances (registry(), an EtcdServiceRegistry), keeps one
    started EtcdServiceCache per service it is asked about, makes EtcdServiceProvider load
    balancers on those caches, and answers one-shot queries. queryForNames() returns the
    services' names; etcd-recipes' returns the full keys of every instance instead, which is
    not copied.

    Everything it made is its child and closes with close(); the instances it registered are
    unregistered then (their leases revoked).
*/

class EtcdServiceDiscoveryPrivate
{
public:
    QPointer<EtcdClient> client;
    QByteArray servicePath;
    EtcdServiceRegistry *registry = nullptr;
    std::map<QString, QPointer<EtcdServiceCache>> caches;
};

/*!
    Constructs the façade of \a servicePath on \a client; instances it registers have
    leases of \a ttl. The object is a child of \a parent. No I/O until it is used.
*/
EtcdServiceDiscovery::EtcdServiceDiscovery(
    EtcdClient *client, const QByteArray &servicePath, seconds ttl, QObject *parent)
    : QObject(parent), d_ptr(new EtcdServiceDiscoveryPrivate)
{
    Q_D(EtcdServiceDiscovery);
    d->client = client;
    d->servicePath = servicePath;
    d->registry = new EtcdServiceRegistry(client, servicePath, ttl, {}, this);
}

/*! Closes everything it made; see close(). */
EtcdServiceDiscovery::~EtcdServiceDiscovery() = default;

/*! \property EtcdServiceDiscovery::servicePath
    The path every service is registered under. */
QByteArray EtcdServiceDiscovery::servicePath() const
{
    return d_func()->servicePath;
}

/*! The registry of this process's instances (its lease events and connection state). */
EtcdServiceRegistry *EtcdServiceDiscovery::registry() const
{
    return d_func()->registry;
}

/*! See EtcdServiceRegistry::registerService(); registers \a instance. */
EtcdBoolReply *EtcdServiceDiscovery::registerService(const EtcdServiceInstance &instance)
{
    return d_func()->registry->registerService(instance);
}

/*! See EtcdServiceRegistry::updateService(); updates \a instance. */
EtcdBoolReply *EtcdServiceDiscovery::updateService(const EtcdServiceInstance &instance)
{
    return d_func()->registry->updateService(instance);
}

/*! See EtcdServiceRegistry::unregisterService(); unregisters \a instance. */
EtcdBoolReply *EtcdServiceDiscovery::unregisterService(const EtcdServiceInstance &instance)
{
    return d_func()->registry->unregisterService(instance);
}

/*!
    The cache of \a serviceName's instances, started, a child of this object: the same one
    every time it is asked for the same name (until it is deleted).
*/
EtcdServiceCache *EtcdServiceDiscovery::serviceCache(const QString &serviceName)
{
    Q_D(EtcdServiceDiscovery);
    QPointer<EtcdServiceCache> &cache = d->caches[serviceName];
    if (!cache) {
        cache = new EtcdServiceCache(d->client, d->servicePath, serviceName, this);
        cache->start();
    }
    return cache;
}

/*!
    A new load balancer over serviceCache(\a serviceName), picking by \a strategy; a child
    of this object.
*/
EtcdServiceProvider *EtcdServiceDiscovery::serviceProvider(
    const QString &serviceName, EtcdServiceProvider::Strategy strategy)
{
    return new EtcdServiceProvider(serviceCache(serviceName), strategy, this);
}

/*! Reads the names of every service that has an instance registered, sorted. */
EtcdServiceQueryReply *EtcdServiceDiscovery::queryForNames()
{
    Q_D(EtcdServiceDiscovery);
    if (d->servicePath.isEmpty())
        return refused(this, Etcd::ErrorCode::InvalidArgument, tr("empty service path"));
    const QByteArray prefix = RecipePaths::serviceNamesPath(d->servicePath) + '/';
    return query(d->client, this, prefix, prefix, true, false);
}

/*! Reads the instances of \a serviceName, in id order (those whose JSON does not parse are
    in EtcdServiceQueryReply::undecodableKeys()). */
EtcdServiceQueryReply *EtcdServiceDiscovery::queryForInstances(const QString &serviceName)
{
    Q_D(EtcdServiceDiscovery);
    if (d->servicePath.isEmpty() || serviceName.isEmpty() || serviceName.contains(u'/'))
        return refused(this, Etcd::ErrorCode::InvalidArgument,
            tr("a service path and a service name without '/' are needed"));
    const QByteArray prefix = RecipePaths::serviceInstancesPath(d->servicePath, serviceName) + '/';
    return query(d->client, this, prefix, {}, false, false);
}

/*! Reads the instance \a id of \a serviceName; fails with NotFound when there is none. */
EtcdServiceQueryReply *EtcdServiceDiscovery::queryForInstance(
    const QString &serviceName, const QString &id)
{
    Q_D(EtcdServiceDiscovery);
    EtcdServiceInstance probe;
    probe.name = serviceName;
    probe.id = id;
    if (d->servicePath.isEmpty() || !probe.validate().isOk())
        return refused(this, Etcd::ErrorCode::InvalidArgument,
            tr("a service path, and a service name and id without '/' are needed"));
    const QByteArray key = RecipePaths::serviceInstanceKey(d->servicePath, serviceName, id);
    return query(d->client, this, key, {}, false, true);
}

/*!
    Closes every cache and provider it made and the registry (unregistering its instances).
*/
void EtcdServiceDiscovery::close()
{
    Q_D(EtcdServiceDiscovery);
    for (auto &[name, cache] : d->caches) {
        if (cache)
            cache->close();
    }
    for (EtcdServiceProvider *p : findChildren<EtcdServiceProvider *>(Qt::FindDirectChildrenOnly))
        p->close();
    d->registry->close();
}
