// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "etcdqmlleases.h"
#include "etcdqmlconvert_p.h"

#include <EtcdQt/etcdleaseevent.h>
#include <EtcdQt/etcdselfhealingkeepalive.h>
#include <EtcdQt/etcdtransientkeyvalue.h>

/*!
    \qmltype LeaseEvent
    \inqmlmodule EtcdQt
    \brief The types of a lease event, by name (uncreatable).

    A leaseEvent(type, ...) handler compares its \c type with \c LeaseEvent.Suspended
    (renewals stopped getting through; the lease may still be alive), \c LeaseEvent.Expired
    (it is gone), \c LeaseEvent.Restored (healed under a new lease) or \c LeaseEvent.Failed
    (healing stopped for good). See EtcdLeaseEvent.
*/

/*!
    \qmltype TransientKeyValue
    \inqmlmodule EtcdQt
    \brief Keeps \c key = \c value in etcd under a lease of \c ttl milliseconds while \c active.

    \c ttl is rounded up to whole seconds for etcd (1500 gives 2 s); 0 or less is refused:
    errorOccurred(code, message) with \c EtcdError.InvalidArgument, and nothing starts.

    A lost lease heals (a new lease, the key written again); each step arrives as
    \c leaseEvent(event) with \c event.type one of the \c LeaseEvent values, and
    \c leaseLost(code, message) when the lease that held the key is gone. Switching \c active
    off revokes the lease, so the key is deleted.
*/

EtcdQmlTransientKeyValue::EtcdQmlTransientKeyValue(QObject *parent) : EtcdQmlRecipe(parent) { }

EtcdQmlTransientKeyValue::~EtcdQmlTransientKeyValue() = default;

QString EtcdQmlTransientKeyValue::key() const
{
    return m_key;
}

void EtcdQmlTransientKeyValue::setKey(const QString &key)
{
    if (key == m_key)
        return;
    m_key = key;
    Q_EMIT keyChanged();
    restart();
}

QString EtcdQmlTransientKeyValue::value() const
{
    return m_value;
}

void EtcdQmlTransientKeyValue::setValue(const QString &value)
{
    if (value == m_value)
        return;
    m_value = value;
    Q_EMIT valueChanged();
    restart(); // the library writes the value once per lease
}

int EtcdQmlTransientKeyValue::ttl() const
{
    return m_ttl;
}

void EtcdQmlTransientKeyValue::setTtl(int ms)
{
    if (ms == m_ttl)
        return;
    m_ttl = ms;
    Q_EMIT ttlChanged();
    restart();
}

qint64 EtcdQmlTransientKeyValue::leaseId() const
{
    return m_leaseId;
}

/*! \qmlproperty string TransientKeyValue::leaseId
    The current lease id in decimal (a string: ids use more bits than a JS number holds);
    empty while there is none. */
QString EtcdQmlTransientKeyValue::leaseIdString() const
{
    return Etcd::Qml::leaseIdToString(m_leaseId);
}

/*! \qmlmethod int TransientKeyValue::remainingValidity()
    Milliseconds the key is known to live without another keep-alive answer (0: none). */
int EtcdQmlTransientKeyValue::remainingValidity() const
{
    auto *kv = currentAs<EtcdTransientKeyValue>();
    return kv ? Etcd::Qml::toMilliseconds(kv->remainingValidity()) : 0;
}

bool EtcdQmlTransientKeyValue::isConfigured() const
{
    return !m_key.isEmpty();
}

QString EtcdQmlTransientKeyValue::invalidSetting() const
{
    return Etcd::Qml::ttlProblem(m_ttl);
}

QObject *EtcdQmlTransientKeyValue::startRecipe(EtcdClient *client)
{
    auto *kv = new EtcdTransientKeyValue(
        client, m_key.toUtf8(), m_value.toUtf8(), Etcd::Qml::ttlFromMilliseconds(m_ttl));
    followRecipe(kv);
    connect(
        kv, &EtcdTransientKeyValue::leaseIdChanged, this, &EtcdQmlTransientKeyValue::setLeaseId);
    connect(kv, &EtcdTransientKeyValue::leaseEvent, this,
        [this](const EtcdLeaseEvent &event) { Q_EMIT leaseEvent(EtcdQmlLeaseEvent(event)); });
    connect(kv, &EtcdTransientKeyValue::leaseLost, this, [this](const EtcdStatus &reason) {
        Q_EMIT leaseLost(int(reason.code()), reason.message());
    });
    connect(kv, &EtcdTransientKeyValue::failed, this, &EtcdQmlTransientKeyValue::setError);
    kv->start();
    return kv;
}

void EtcdQmlTransientKeyValue::recipeStopped()
{
    setLeaseId(0);
}

void EtcdQmlTransientKeyValue::setLeaseId(qint64 leaseId)
{
    if (leaseId == m_leaseId)
        return;
    m_leaseId = leaseId;
    Q_EMIT leaseIdChanged();
}

/*!
    \qmltype Lease
    \inqmlmodule EtcdQt
    \brief A self-healing lease of \c ttl milliseconds, kept alive while \c active.

    \c ttl is rounded up to whole seconds for etcd; 0 or less is refused: errorOccurred(code,
    message) with \c EtcdError.InvalidArgument, and nothing starts.

    \c state follows EtcdSelfHealingKeepAlive: an out-of-band revoke or an expiry passes
    through \c Expired and \c Healing back to \c Alive under a new \c leaseId, with
    \c leaseEvent and \c leaseLost along the way. Switching \c active off revokes it.
*/

EtcdQmlLease::EtcdQmlLease(QObject *parent) : EtcdQmlRecipe(parent) { }

EtcdQmlLease::~EtcdQmlLease() = default;

int EtcdQmlLease::ttl() const
{
    return m_ttl;
}

void EtcdQmlLease::setTtl(int ms)
{
    if (ms == m_ttl)
        return;
    m_ttl = ms;
    Q_EMIT ttlChanged();
    restart();
}

qint64 EtcdQmlLease::leaseId() const
{
    return m_leaseId;
}

/*! \qmlproperty string Lease::leaseId
    The current lease id in decimal (a string: ids use more bits than a JS number holds);
    empty while there is none. */
QString EtcdQmlLease::leaseIdString() const
{
    return Etcd::Qml::leaseIdToString(m_leaseId);
}

EtcdQmlLease::State EtcdQmlLease::state() const
{
    return m_state;
}

/*! \qmlmethod int Lease::remainingValidity()
    Milliseconds the lease is known to live without another keep-alive answer (0: none). */
int EtcdQmlLease::remainingValidity() const
{
    auto *lease = currentAs<EtcdSelfHealingKeepAlive>();
    return lease ? Etcd::Qml::toMilliseconds(lease->remainingValidity()) : 0;
}

QString EtcdQmlLease::invalidSetting() const
{
    return Etcd::Qml::ttlProblem(m_ttl);
}

QObject *EtcdQmlLease::startRecipe(EtcdClient *client)
{
    // No key to write under the lease: every lease is ours as soon as it is granted.
    auto establish = [](qint64, EtcdSelfHealingKeepAlive::EstablishDone done) { done(true); };
    auto *lease = new EtcdSelfHealingKeepAlive(
        client, Etcd::Qml::ttlFromMilliseconds(m_ttl), std::move(establish));
    followRecipe(lease);
    connect(
        lease, &EtcdSelfHealingKeepAlive::currentLeaseIdChanged, this, &EtcdQmlLease::setLeaseId);
    connect(lease, &EtcdSelfHealingKeepAlive::stateChanged, this,
        [this](EtcdSelfHealingKeepAlive::State state) { setState(State(int(state))); });
    connect(lease, &EtcdSelfHealingKeepAlive::leaseEvent, this,
        [this](const EtcdLeaseEvent &event) { Q_EMIT leaseEvent(EtcdQmlLeaseEvent(event)); });
    connect(lease, &EtcdSelfHealingKeepAlive::leaseLost, this, [this](const EtcdStatus &reason) {
        Q_EMIT leaseLost(int(reason.code()), reason.message());
    });
    connect(lease, &EtcdSelfHealingKeepAlive::failed, this, &EtcdQmlLease::setError);
    lease->start();
    return lease;
}

void EtcdQmlLease::recipeStopped()
{
    setLeaseId(0);
    setState(Inactive);
}

void EtcdQmlLease::setLeaseId(qint64 leaseId)
{
    if (leaseId == m_leaseId)
        return;
    m_leaseId = leaseId;
    Q_EMIT leaseIdChanged();
}

void EtcdQmlLease::setState(State state)
{
    if (state == m_state)
        return;
    m_state = state;
    Q_EMIT stateChanged();
}
