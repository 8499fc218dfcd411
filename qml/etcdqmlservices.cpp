// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "etcdqmlservices.h"
#include "etcdqmlconvert_p.h"

#include <EtcdQt/etcdboolreply.h>
#include <EtcdQt/etcdleaseevent.h>
#include <EtcdQt/etcdservicecache.h>
#include <EtcdQt/etcdserviceregistry.h>
#include <EtcdQt/etcdstatus.h>

#include <QtCore/qjsondocument.h>

/*!
    \qmltype ServiceRegistration
    \inqmlmodule EtcdQt
    \brief Registers one instance of the service \c name under \c servicePath while \c active
    (EtcdServiceRegistry underneath).

    The instance is etcd-recipes' ServiceInstance: \c instanceId (empty: a random one is
    picked when it starts, and kept in \c instanceId from then on), \c address, \c port and
    \c sslPort (-1: none), \c payload (JSON text, or empty), \c uri and \c enabled. Its JSON is
    written at \c{<servicePath>/names/<name>/<instanceId>} on a lease of \c ttl milliseconds
    (default 2000, rounded up to whole seconds) that heals: a lost lease is re-granted and the
    key written again with the latest fields, unless someone else took the id meanwhile.

    \c registered is true while the key is known to be in etcd, and \c leaseId (a decimal
    string; empty while there is none) is the lease it is on. Each lease step arrives as
    leaseEvent(event) (\c event.type a \c LeaseEvent value), leaseLost(code, message) when
    the key went with its lease (healing follows), and registrationFailed(code, message) when
    the registration ended for good: the id is registered by someone else
    (\c EtcdError.FailedPrecondition) or healing gave up. The causes of all of these are
    reported through errorOccurred() as well (\c errorCode, \c errorString).

    Changing \c address, \c port, \c sslPort, \c payload, \c uri or \c enabled once the
    instance was registered updates it in place (same key, same lease; while the lease heals,
    the heal writes the new fields); before that, and on changing \c servicePath, \c name,
    \c instanceId or \c ttl, the item starts over. Switching \c active off revokes the
    lease, so the instance is gone at once. An empty \c servicePath or \c name,
    a port outside -1..65535, a \c ttl of 0 or less, a \c payload that is not JSON, or a '/'
    in \c name or \c instanceId is refused: errorOccurred(code, message) with
    \c EtcdError.InvalidArgument, and the instance is not (or no longer) registered.
*/

EtcdQmlServiceRegistration::EtcdQmlServiceRegistration(QObject *parent) : EtcdQmlRecipe(parent) { }

EtcdQmlServiceRegistration::~EtcdQmlServiceRegistration() = default;

void EtcdQmlServiceRegistration::setServicePath(const QString &path)
{
    changeSetting(m_servicePath, path, &EtcdQmlServiceRegistration::servicePathChanged);
}

void EtcdQmlServiceRegistration::setName(const QString &name)
{
    changeSetting(m_name, name, &EtcdQmlServiceRegistration::nameChanged);
}

void EtcdQmlServiceRegistration::setInstanceId(const QString &id)
{
    changeSetting(m_instanceId, id, &EtcdQmlServiceRegistration::instanceIdChanged);
}

void EtcdQmlServiceRegistration::setAddress(const QString &address)
{
    changeField(m_address, address, &EtcdQmlServiceRegistration::addressChanged);
}

void EtcdQmlServiceRegistration::setPort(int port)
{
    changeField(m_port, port, &EtcdQmlServiceRegistration::portChanged);
}

void EtcdQmlServiceRegistration::setSslPort(int port)
{
    changeField(m_sslPort, port, &EtcdQmlServiceRegistration::sslPortChanged);
}

void EtcdQmlServiceRegistration::setPayload(const QString &payload)
{
    changeField(m_payload, payload, &EtcdQmlServiceRegistration::payloadChanged);
}

void EtcdQmlServiceRegistration::setUri(const QString &uri)
{
    changeField(m_uri, uri, &EtcdQmlServiceRegistration::uriChanged);
}

void EtcdQmlServiceRegistration::setEnabled(bool enabled)
{
    changeField(m_enabled, enabled, &EtcdQmlServiceRegistration::enabledChanged);
}

void EtcdQmlServiceRegistration::setTtl(int ms)
{
    changeSetting(m_ttl, ms, &EtcdQmlServiceRegistration::ttlChanged);
}

/*! \qmlproperty string ServiceRegistration::leaseId
    The lease of the instance's key in decimal (a string: ids use more bits than a JS number
    holds); empty while there is none. */
QString EtcdQmlServiceRegistration::leaseIdString() const
{
    return Etcd::Qml::leaseIdToString(m_leaseId);
}

// `instance` (its id and registration time) with the fields as the properties say.
EtcdServiceInstance EtcdQmlServiceRegistration::fromSettings(EtcdServiceInstance instance) const
{
    instance.name = m_name;
    instance.jsonPayload = m_payload;
    instance.address = m_address;
    instance.port = m_port;
    instance.sslPort = m_sslPort;
    instance.uri = m_uri;
    instance.enabled = m_enabled;
    if (!m_instanceId.isEmpty())
        instance.id = m_instanceId;
    return instance;
}

QString EtcdQmlServiceRegistration::invalidSetting() const
{
    if (m_servicePath.isEmpty())
        return tr("a ServiceRegistration needs a servicePath");
    if (m_name.isEmpty())
        return tr("a ServiceRegistration needs a name");
    if (const QString problem = Etcd::Qml::ttlProblem(m_ttl); !problem.isEmpty())
        return problem;
    QJsonParseError error;
    if (!m_payload.isEmpty()) {
        QJsonDocument::fromJson(m_payload.toUtf8(), &error);
        if (error.error != QJsonParseError::NoError)
            return tr("the payload is not JSON: %1").arg(error.errorString());
    }
    EtcdServiceInstance probe;
    probe.id = QStringLiteral("probe"); // an empty id is picked at the start
    const EtcdStatus invalid = fromSettings(probe).validate();
    return invalid.isOk() ? QString() : invalid.message();
}

QObject *EtcdQmlServiceRegistration::startRecipe(EtcdClient *client)
{
    m_instance = fromSettings(EtcdServiceInstance::create(m_name));
    if (m_instanceId.isEmpty()) {
        // Not a setting change: the instance registers with this id, and keeps it.
        m_instanceId = m_instance.id;
        Q_EMIT instanceIdChanged();
    }
    auto *registry = new EtcdServiceRegistry(
        client, m_servicePath.toUtf8(), Etcd::Qml::ttlFromMilliseconds(m_ttl));
    follow(registry);
    // The reply is the registry's child: detached with it once it is let go.
    EtcdBoolReply *reply = registry->registerService(m_instance);
    connect(reply, &EtcdReply::finished, this, [this](const EtcdStatus &status) {
        if (!status.isOk())
            ended(status);
    });
    return registry;
}

void EtcdQmlServiceRegistration::follow(EtcdServiceRegistry *registry)
{
    using R = EtcdServiceRegistry;
    followRecipe(registry);
    // A handler of leaseIdChanged() may switch the item off: then the registry is let go.
    connect(registry, &R::registered, this, [this, registry](const EtcdServiceInstance &s) {
        showLease(registry->leaseIdOf(s));
        if (current() != registry)
            return;
        m_written = true;
        setRegistered(true);
    });
    connect(registry, &R::leaseEvent, this,
        [this, registry](const EtcdServiceInstance &s, const EtcdLeaseEvent &event) {
            showLease(registry->leaseIdOf(s));
            if (current() != registry)
                return;
            if (event.type == EtcdLeaseEvent::Type::Restored)
                setRegistered(true);
            Q_EMIT leaseEvent(EtcdQmlLeaseEvent(event));
        });
    connect(registry, &R::instanceLost, this,
        [this](const EtcdServiceInstance &, const EtcdStatus &reason) {
            setRegistered(false);
            Q_EMIT leaseLost(int(reason.code()), reason.message());
        });
    connect(registry, &R::failed, this,
        [this](const EtcdServiceInstance &, const EtcdStatus &reason) { ended(reason); });
}

// Updates the instance in place once it was written (while it heals, the heal writes the
// update); anything else starts over (an invalid setting then stops the instance and reports
// why).
void EtcdQmlServiceRegistration::updateInstance()
{
    auto *registry = currentAs<EtcdServiceRegistry>();
    if (!registry || !m_written || !invalidSetting().isEmpty())
        return restart();
    m_instance = fromSettings(m_instance);
    EtcdBoolReply *reply = registry->updateService(m_instance);
    connect(reply, &EtcdReply::finished, this, [this](const EtcdStatus &status) {
        if (!status.isOk())
            setError(status);
    });
}

// The registration ended for good: the library no longer holds the instance. Its cause came
// through errorOccurred() already (followRecipe()).
void EtcdQmlServiceRegistration::ended(const EtcdStatus &reason)
{
    m_written = false;
    showLease(0);
    setRegistered(false);
    Q_EMIT registrationFailed(int(reason.code()), reason.message());
}

void EtcdQmlServiceRegistration::recipeStopped()
{
    m_instance = {};
    m_written = false;
    showLease(0);
    setRegistered(false);
}

void EtcdQmlServiceRegistration::showLease(qint64 leaseId)
{
    leaseId = qMax<qint64>(leaseId, 0); // leaseIdOf(): -1 when not held
    if (leaseId == m_leaseId)
        return;
    m_leaseId = leaseId;
    Q_EMIT leaseIdChanged();
}

void EtcdQmlServiceRegistration::setRegistered(bool registered)
{
    if (registered == m_registered)
        return;
    m_registered = registered;
    Q_EMIT registeredChanged();
}

QVariant EtcdQmlServiceModel::data(const QModelIndex &index, int role) const
{
    const QVariant field = EtcdServiceModel::data(index, role);
    if (role != LeaseRole || !field.isValid())
        return field;
    return Etcd::Qml::leaseIdToString(field.toString().toLongLong());
}

QVariant EtcdQmlServiceModel::rowObject(const QString &id) const
{
    const int row = rowOf(id);
    if (row < 0)
        return {};
    QVariantMap object;
    const QHash<int, QByteArray> roles = roleNames();
    for (auto it = roles.cbegin(); it != roles.cend(); ++it) {
        if (it.key() != Qt::DisplayRole && it.key() != InstanceRole)
            object.insert(QString::fromLatin1(it.value()), data(index(row), it.key()));
    }
    return object;
}

/*!
    \qmltype ServiceList
    \inqmlmodule EtcdQt
    \brief The live instances of the service \c name under \c servicePath while \c active
    (EtcdServiceCache underneath), as the list model \c model.

    \c model is the library's EtcdServiceModel: one row per instance, sorted by id, with the
    roles \c id, \c name, \c address, \c port, \c sslPort (-1: none), \c endpoint
    ("address:port"), \c uri, \c enabled, \c payload, \c serviceType ("DYNAMIC", ...),
    \c registrationTime (a date) and \c lease (the lease id as a decimal string, empty for
    none). A delegate reads \c id as \c{model.id} (QML reserves the name \c id). It follows
    the cache row by row and is empty while inactive; \c count is its number of rows.
    \c ready turns true once the instances there were read and the watch is live.

    Each change after that comes as instanceAdded(instance), instanceUpdated(instance) or
    instanceRemoved(instanceId), with \c model already showing it; \c instance is a JS object
    with one field per role (as instance(instanceId) returns it; undefined when absent).
    An empty \c servicePath or \c name is refused with \c EtcdError.InvalidArgument through
    errorOccurred(). The list writes nothing to etcd.
*/

EtcdQmlServiceList::EtcdQmlServiceList(QObject *parent)
    : EtcdQmlCache(parent), m_model(new EtcdQmlServiceModel(this))
{
    connect(m_model, &EtcdServiceModel::countChanged, this, &EtcdQmlServiceList::countChanged);
}

EtcdQmlServiceList::~EtcdQmlServiceList() = default;

void EtcdQmlServiceList::setServicePath(const QString &path)
{
    changeSetting(m_servicePath, path, &EtcdQmlServiceList::servicePathChanged);
}

void EtcdQmlServiceList::setName(const QString &name)
{
    changeSetting(m_name, name, &EtcdQmlServiceList::nameChanged);
}

int EtcdQmlServiceList::count() const
{
    return m_model->rowCount();
}

QAbstractItemModel *EtcdQmlServiceList::model() const
{
    return m_model;
}

/*! \qmlmethod var ServiceList::instance(string instanceId)
    The instance \a instanceId as a JS object (one field per role of \c model); undefined
    when the list does not hold it. */
QVariant EtcdQmlServiceList::instance(const QString &instanceId) const
{
    return m_model->rowObject(instanceId);
}

QString EtcdQmlServiceList::invalidSetting() const
{
    if (m_servicePath.isEmpty())
        return tr("a ServiceList needs a servicePath");
    if (m_name.isEmpty())
        return tr("a ServiceList needs a name");
    return {};
}

QObject *EtcdQmlServiceList::startRecipe(EtcdClient *client)
{
    using C = EtcdServiceCache;
    auto *cache = new C(client, m_servicePath.toUtf8(), m_name);
    // The model first: the signals below find it up to date.
    m_model->setCache(cache);
    followCache(cache);
    connect(cache, &C::instanceAdded, this,
        [this](const EtcdServiceInstance &s) { Q_EMIT instanceAdded(m_model->rowObject(s.id)); });
    connect(cache, &C::instanceUpdated, this,
        [this](const EtcdServiceInstance &s) { Q_EMIT instanceUpdated(m_model->rowObject(s.id)); });
    connect(cache, &C::instanceRemoved, this,
        [this](const EtcdServiceInstance &previous) { Q_EMIT instanceRemoved(previous.id); });
    cache->start();
    return cache;
}

void EtcdQmlServiceList::recipeStopped()
{
    m_model->setCache(nullptr);
    EtcdQmlCache::recipeStopped();
}
