// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "etcdqt_internal_p.h"
#include "recipepaths_p.h"
#include "recipereplies_p.h"

#include <EtcdQt/etcdserviceregistry.h>
#include <EtcdQt/etcdtransientkeyvalue.h>

#include <QtCore/qpointer.h>
#include <QtCore/qtimer.h>

#include <map>

using namespace Etcd::Internal;
using namespace std::chrono;

/*!
    \class EtcdServiceRegistry
    \inmodule EtcdQt
    \brief The write side of service discovery: this process's instances, each on a
    self-healing lease of its own.

    registerService() writes an instance's JSON (EtcdServiceInstance::toJson()) at
    \c{<servicePath>/names/<name>/<id>}, etcd-recipes' layout, on a lease of ttl() that is
    kept alive and, when it expires anyway (a long pause, a partition, an operator's revoke),
    healed: a new lease and the same key written again with the latest JSON. Every write is
    a create-if-absent transaction, so a registration is restored where it is still free and
    never taken from someone else: if another process registered the same id meanwhile, the
    instance ends with failed() (FailedPrecondition) and their key stays as it is.

    Each instance is an EtcdTransientKeyValue underneath, so it also comes back when someone
    deletes its key while its lease lives, and an update goes through a transaction that
    commits only while the key is still on the instance's lease. Lease events arrive per
    instance (leaseEvent(), instanceLost()); the registry's own connection state and
    EtcdRecipe::leaseLost() sum them up.

    Kotlin's ServiceRegistry throws when the initial registration loses its create; here the
    reply of registerService() fails with FailedPrecondition instead.
*/

namespace {
EtcdStatus refusal(Etcd::ErrorCode code, const QString &text)
{
    return EtcdStatus(code, text);
}
} // namespace

class EtcdServiceRegistryPrivate
{
public:
    struct Registration
    {
        EtcdServiceInstance instance;
        std::unique_ptr<EtcdTransientKeyValue> key;
        QPointer<EtcdBoolReply> pending; // registerService()'s, until started() or failed()
    };

    EtcdServiceRegistryPrivate(EtcdServiceRegistry *q) : q_ptr(q) { }
    void follow(Registration &r);
    void onStarted(const QByteArray &key);
    void onFailed(const QByteArray &key, const EtcdStatus &why);
    std::optional<EtcdStatus> problemWith(const EtcdServiceInstance &instance) const;
    Registration *find(const EtcdServiceInstance &instance);
    void closedOne();

    EtcdServiceRegistry *q_ptr;
    QByteArray servicePath;
    seconds ttl;
    EtcdLeaseResilience resilience;
    std::map<QByteArray, Registration> byKey; // by instance key: count(), instances() in order
    int closing = 0; // keys whose lease revocation close() still waits for
    Q_DECLARE_PUBLIC(EtcdServiceRegistry)
};

// What the instance's key reports becomes the registry's, with the instance attached.
void EtcdServiceRegistryPrivate::follow(Registration &r)
{
    Q_Q(EtcdServiceRegistry);
    EtcdTransientKeyValue *key = r.key.get();
    const QByteArray k = key->key();
    QObject::connect(key, &EtcdTransientKeyValue::started, q, [this, k] { onStarted(k); });
    QObject::connect(key, &EtcdTransientKeyValue::failed, q,
        [this, k](const EtcdStatus &why) { onFailed(k, why); });
    QObject::connect(key, &EtcdTransientKeyValue::leaseEvent, q, [this, q, k](EtcdLeaseEvent e) {
        auto it = byKey.find(k);
        if (it == byKey.end())
            return;
        QPointer<EtcdServiceRegistry> guard(q);
        q->reportLeaseEvent(e);
        if (guard)
            Q_EMIT q->leaseEvent(it->second.instance, e);
    });
    QObject::connect(key, &EtcdRecipe::leaseLost, q, [this, q, k](const EtcdStatus &why) {
        auto it = byKey.find(k);
        if (it == byKey.end())
            return;
        QPointer<EtcdServiceRegistry> guard(q);
        Q_EMIT q->instanceLost(it->second.instance, why);
        if (guard)
            Q_EMIT q->leaseLost(why);
    });
    QObject::connect(key, &EtcdRecipe::errorOccurred, q,
        [q](const QString &, const EtcdStatus &s) { q->keepError(s); });
    QObject::connect(key, &EtcdRecipe::connectionStateChanged, q,
        [q](EtcdRecipe::ConnectionState s) { q->reportConnectionState(s); });
}

void EtcdServiceRegistryPrivate::onStarted(const QByteArray &key)
{
    Q_Q(EtcdServiceRegistry);
    auto it = byKey.find(key);
    if (it == byKey.end() || !it->second.pending)
        return; // a heal writes the key again: leaseEvent(Restored) says so
    qCDebug(lcEtcdDiscovery) << "registered" << key;
    RecipeReplies::finish(it->second.pending.data(), {}, true);
    Q_EMIT q->registered(it->second.instance);
}

// The instance ended for good: its first write lost, its id taken, healing gave up.
void EtcdServiceRegistryPrivate::onFailed(const QByteArray &key, const EtcdStatus &why)
{
    Q_Q(EtcdServiceRegistry);
    auto it = byKey.find(key);
    if (it == byKey.end())
        return;
    qCWarning(lcEtcdDiscovery).noquote() << "registration" << key << "ended:" << why.toString();
    Registration r = std::move(it->second);
    byKey.erase(it);
    r.key.release()->deleteLater(); // the sender; its lease is closed already
    QPointer<EtcdServiceRegistry> guard(q);
    Q_EMIT q->countChanged();
    q->setActive(!byKey.empty());
    if (r.pending) {
        const EtcdStatus failed(why.code(),
            EtcdServiceRegistry::tr("service registration failed for %1: %2")
                .arg(QString::fromUtf8(key), why.message()));
        return RecipeReplies::finish(r.pending.data(), failed, false);
    }
    if (guard)
        Q_EMIT q->failed(r.instance, why);
}

std::optional<EtcdStatus> EtcdServiceRegistryPrivate::problemWith(
    const EtcdServiceInstance &instance) const
{
    const Q_Q(EtcdServiceRegistry);
    if (q->isClosed())
        return refusal(Etcd::ErrorCode::FailedPrecondition, EtcdServiceRegistry::tr("closed"));
    if (servicePath.isEmpty())
        return refusal(
            Etcd::ErrorCode::InvalidArgument, EtcdServiceRegistry::tr("empty service path"));
    const EtcdStatus invalid = instance.validate();
    if (!invalid.isOk())
        return invalid;
    return std::nullopt;
}

EtcdServiceRegistryPrivate::Registration *EtcdServiceRegistryPrivate::find(
    const EtcdServiceInstance &instance)
{
    const auto it = byKey.find(q_func()->keyOf(instance));
    return it == byKey.end() ? nullptr : &it->second;
}

void EtcdServiceRegistryPrivate::closedOne()
{
    if (--closing == 0)
        Q_EMIT q_func()->closed();
}

/*!
    Constructs a registry of instances under \a servicePath on \a client, each on a lease of
    \a ttl healed as \a resilience says. The object is a child of \a parent. No I/O until
    registerService().
*/
EtcdServiceRegistry::EtcdServiceRegistry(EtcdClient *client, const QByteArray &servicePath,
    seconds ttl, const EtcdLeaseResilience &resilience, QObject *parent)
    : EtcdRecipe(
        client, QStringLiteral("ServiceRegistry[%1]").arg(QString::fromUtf8(servicePath)), parent),
      d_ptr(new EtcdServiceRegistryPrivate(this))
{
    Q_D(EtcdServiceRegistry);
    d->servicePath = servicePath;
    d->ttl = ttl;
    d->resilience = resilience;
}

/*! Unregisters every instance: their leases are revoked, so their keys go at once. */
EtcdServiceRegistry::~EtcdServiceRegistry()
{
    // The keys close as they are destroyed below: nothing they report may reach this half-
    // destroyed object.
    for (auto &[key, r] : d_func()->byKey)
        r.key->disconnect(this);
}

/*! \property EtcdServiceRegistry::servicePath
    The path the instances are registered under (as etcd-recipes' \c servicePath). */
QByteArray EtcdServiceRegistry::servicePath() const
{
    return d_func()->servicePath;
}

/*! The TTL of every instance's lease. */
seconds EtcdServiceRegistry::ttl() const
{
    return d_func()->ttl;
}

/*! Returns the key \a instance is registered at: \c{<servicePath>/names/<name>/<id>}. */
QByteArray EtcdServiceRegistry::keyOf(const EtcdServiceInstance &instance) const
{
    return RecipePaths::serviceInstanceKey(d_func()->servicePath, instance.name, instance.id);
}

/*! \property EtcdServiceRegistry::count
    How many instances this registry holds (registered, or on their way). */
int EtcdServiceRegistry::count() const
{
    return int(d_func()->byKey.size());
}

/*! The instances this registry holds, in key order, each as last registered or updated. */
QList<EtcdServiceInstance> EtcdServiceRegistry::instances() const
{
    QList<EtcdServiceInstance> out;
    for (const auto &[key, r] : d_func()->byKey)
        out.append(r.instance);
    return out;
}

/*! Returns \c true when \a instance (its name and id) is held by this registry. */
bool EtcdServiceRegistry::isRegistered(const EtcdServiceInstance &instance) const
{
    return d_func()->byKey.count(keyOf(instance)) > 0;
}

/*! The lease \a instance's key is on now; -1 when it is not held here or not yet granted. */
qint64 EtcdServiceRegistry::leaseIdOf(const EtcdServiceInstance &instance) const
{
    const auto it = d_func()->byKey.find(keyOf(instance));
    return it == d_func()->byKey.end() ? -1 : it->second.key->leaseId();
}

/*! Returns \c true while every instance is written and its lease renewed. */
bool EtcdServiceRegistry::isHealthy() const
{
    for (const auto &[key, r] : d_func()->byKey) {
        if (!r.key->isHealthy())
            return false;
    }
    return EtcdRecipe::isHealthy();
}

/*!
    Registers \a instance: its JSON is created at keyOf() on a lease of its own, if the key
    does not exist. The reply's result() is true once it is written (registered() follows);
    it fails with InvalidArgument (see EtcdServiceInstance::validate(), an empty service
    path), FailedPrecondition (closed, already registered here: use updateService(), or
    the key is held by someone else), or etcd's error.
*/
EtcdBoolReply *EtcdServiceRegistry::registerService(const EtcdServiceInstance &instance)
{
    Q_D(EtcdServiceRegistry);
    if (const auto problem = d->problemWith(instance))
        return RecipeReplies::failedBool(this, *problem);
    const QByteArray key = keyOf(instance);
    if (d->byKey.count(key))
        return RecipeReplies::failedBool(this,
            refusal(Etcd::ErrorCode::FailedPrecondition,
                tr("%1 is registered already; use updateService()").arg(QString::fromUtf8(key))));
    EtcdBoolReply *reply = RecipeReplies::boolReply(this);
    // A child as well as owned: a key released to close (unregisterService(), failed()) is
    // deleted later, and with the registry at the latest if no event loop runs again.
    auto kv = std::make_unique<EtcdTransientKeyValue>(
        client(), key, instance.toJson(), d->ttl, d->resilience, this);
    auto &r = d->byKey[key] = {instance, std::move(kv), reply};
    d->follow(r);
    setActive(true);
    Q_EMIT countChanged();
    r.key->start();
    return reply;
}

/*!
    Replaces the JSON of the registered instance with \a instance's (the same name and id):
    written now, in a transaction that commits only while the key is still on the
    instance's lease, and by every later heal. The reply's result() is true when etcd holds
    the new JSON now, false while the instance is being healed (the heal writes it). Fails
    with FailedPrecondition when the instance is not registered here.
*/
EtcdBoolReply *EtcdServiceRegistry::updateService(const EtcdServiceInstance &instance)
{
    Q_D(EtcdServiceRegistry);
    if (const auto problem = d->problemWith(instance))
        return RecipeReplies::failedBool(this, *problem);
    auto *r = d->find(instance);
    if (!r)
        return RecipeReplies::failedBool(this,
            refusal(Etcd::ErrorCode::FailedPrecondition,
                tr("%1 is not registered here").arg(QString::fromUtf8(keyOf(instance)))));
    r->instance = instance;
    return r->key->setValue(instance.toJson());
}

/*!
    Unregisters \a instance: its lease is revoked, so its key goes at once (if the revoke
    cannot reach etcd, the key goes with the lease's TTL). The reply finishes once the
    revoke was answered (unregistered() then); it fails with FailedPrecondition when the
    instance is not registered here.
*/
EtcdBoolReply *EtcdServiceRegistry::unregisterService(const EtcdServiceInstance &instance)
{
    Q_D(EtcdServiceRegistry);
    auto it = d->byKey.find(keyOf(instance));
    if (it == d->byKey.end())
        return RecipeReplies::failedBool(this,
            refusal(Etcd::ErrorCode::FailedPrecondition,
                tr("%1 is not registered here").arg(QString::fromUtf8(keyOf(instance)))));
    EtcdBoolReply *reply = RecipeReplies::boolReply(this);
    EtcdServiceRegistryPrivate::Registration r = std::move(it->second);
    d->byKey.erase(it);
    if (r.pending)
        RecipeReplies::finish(r.pending.data(),
            refusal(Etcd::ErrorCode::Cancelled, tr("unregistered before it was written")));
    EtcdTransientKeyValue *key = r.key.release();
    key->disconnect(this);
    const EtcdServiceInstance gone = r.instance;
    connect(key, &EtcdRecipe::closed, this, [this, key, reply, gone] {
        key->deleteLater();
        // unregistered() first: close() counts the replies, and its closed() must come last.
        QPointer<EtcdServiceRegistry> guard(this);
        Q_EMIT unregistered(gone);
        if (guard)
            RecipeReplies::finish(reply, {}, true);
    });
    key->close();
    setActive(!d->byKey.empty());
    Q_EMIT countChanged();
    return reply;
}

/*!
    Unregisters every instance and closes the registry for good; closed() follows once
    every lease revocation was answered. Idempotent.
*/
void EtcdServiceRegistry::close()
{
    Q_D(EtcdServiceRegistry);
    if (isClosed())
        return;
    markClosed();
    const QList<EtcdServiceInstance> all = instances();
    d->closing = int(all.size()) + 1; // + 1: closed() only after every close() below ran
    for (const EtcdServiceInstance &instance : all) {
        EtcdBoolReply *reply = unregisterService(instance);
        connect(reply, &EtcdReply::finished, this, [d] { d->closedOne(); });
    }
    QTimer::singleShot(0, this, [d] { d->closedOne(); });
}

/*!
    \fn void EtcdServiceRegistry::countChanged()
    Emitted when an instance was added to or left this registry.
*/

/*!
    \fn void EtcdServiceRegistry::registered(const EtcdServiceInstance &instance)
    Emitted when \a instance was first written (not again after a heal: see leaseEvent()).
*/

/*!
    \fn void EtcdServiceRegistry::unregistered(const EtcdServiceInstance &instance)
    Emitted when unregisterService() or close() removed \a instance.
*/

// clang-format off
/*!
    \fn void EtcdServiceRegistry::leaseEvent(const EtcdServiceInstance &instance, const EtcdLeaseEvent &event)
    Emitted for every Suspended, Expired, Restored and Failed \a event of \a instance's lease.
*/

/*!
    \fn void EtcdServiceRegistry::instanceLost(const EtcdServiceInstance &instance, const EtcdStatus &reason)
    Emitted when \a instance's lease was lost for \a reason: its key is gone from etcd until
    the heal writes it again (leaseEvent() with Restored), or failed() says it will not.
*/

/*!
    \fn void EtcdServiceRegistry::failed(const EtcdServiceInstance &instance, const EtcdStatus &reason)
    Emitted when \a instance ended for good, after it was registered, for \a reason: its id
    is held by someone else now (FailedPrecondition; their key is left as it is) or healing
    gave up.
    The instance is no longer held here.
*/
// clang-format on
