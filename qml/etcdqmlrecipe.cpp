// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "etcdqmlrecipe.h"
#include "etcdqmlconnection_p.h"
#include "etcdqmlconvert_p.h"

#include <EtcdQt/etcdclient.h>
#include <EtcdQt/etcdrecipe.h>
#include <EtcdQt/etcdstatus.h>

/*!
    \class EtcdQmlRecipe
    \internal
    The base of the QML recipe types. A library object exists while the component is
    complete, \c active is true, the client is connected and the type's settings are
    complete; switching any of these off closes it (resign, unlock, revoke) without blocking.
    The client's connection owns it and deletes it once it reported closed() (see
    EtcdQmlConnection), so the connection outlives the revokes.
*/

EtcdQmlRecipe::EtcdQmlRecipe(QObject *parent) : QObject(parent) { }

// Closes the library object; its connection deletes it once it reported closed().
EtcdQmlRecipe::~EtcdQmlRecipe()
{
    if (m_client)
        m_client->disconnect(this);
    if (QObject *recipe = m_current.data()) {
        detach(recipe); // its signals must not reach a half-destroyed wrapper
        EtcdQmlConnection::closeAndLetGo(recipe);
    }
}

EtcdQmlClient *EtcdQmlRecipe::client() const
{
    return m_client;
}

void EtcdQmlRecipe::setClient(EtcdQmlClient *client)
{
    if (client == m_client)
        return;
    if (m_client)
        m_client->disconnect(this);
    stop();
    m_client = client;
    if (client) {
        // Before the connection is retired, so that it waits for this recipe's closed().
        connect(client, &EtcdQmlClient::etcdClientAboutToReset, this, &EtcdQmlRecipe::stop);
        connect(client, &EtcdQmlClient::etcdClientChanged, this, &EtcdQmlRecipe::update);
        connect(client, &QObject::destroyed, this, &EtcdQmlRecipe::stop);
    }
    Q_EMIT clientChanged();
    update();
}

bool EtcdQmlRecipe::isActive() const
{
    return m_active;
}

void EtcdQmlRecipe::setActive(bool active)
{
    if (active == m_active)
        return;
    m_active = active;
    Q_EMIT activeChanged();
    update();
}

// Whether the library object exists now (active, complete, with a client).
bool EtcdQmlRecipe::isRunning() const
{
    return m_current;
}

EtcdQmlRecipe::ConnectionState EtcdQmlRecipe::connectionState() const
{
    return m_connectionState;
}

int EtcdQmlRecipe::errorCode() const
{
    return m_errorCode;
}

QString EtcdQmlRecipe::errorString() const
{
    return m_errorString;
}

void EtcdQmlRecipe::classBegin() { }

void EtcdQmlRecipe::componentComplete()
{
    m_complete = true;
    update();
}

void EtcdQmlRecipe::restart()
{
    stop();
    update();
}

void EtcdQmlRecipe::followRecipe(EtcdRecipe *recipe)
{
    connect(recipe, &EtcdRecipe::connectionStateChanged, this,
        [this](EtcdRecipe::ConnectionState state) {
            setConnectionState(ConnectionState(int(state) + 1));
        });
    connect(recipe, &EtcdRecipe::errorOccurred, this,
        [this](const QString &, const EtcdStatus &status) { setError(status); });
    setConnectionState(ConnectionState(int(recipe->connectionState()) + 1));
}

void EtcdQmlRecipe::setError(const EtcdStatus &status)
{
    m_errorCode = int(status.code());
    m_errorString = status.message();
    Q_EMIT errorChanged();
    Q_EMIT errorOccurred(m_errorCode, m_errorString);
}

void EtcdQmlRecipe::update()
{
    EtcdClient *etcd = m_client ? m_client->etcdClient() : nullptr;
    const bool wanted = m_complete && m_active && etcd && isConfigured();
    if (!wanted) {
        stop();
        return;
    }
    if (m_current)
        return;
    if (const QString problem = invalidSetting(); !problem.isEmpty()) {
        setError(EtcdStatus(Etcd::ErrorCode::InvalidArgument, problem));
        return;
    }
    m_current = startRecipe(etcd);
    if (m_current) {
        m_client->adopt(m_current);
        Q_EMIT runningChanged();
    }
}

// Closes the library object (resign, unlock, revoke; a watch session cancels) and lets go
// of it: its connection deletes it once it reported closed().
void EtcdQmlRecipe::stop()
{
    QObject *recipe = m_current.data();
    if (!recipe)
        return;
    m_current.clear();
    detach(recipe);
    EtcdQmlConnection::closeAndLetGo(recipe);
    setConnectionState(Inactive);
    recipeStopped();
    Q_EMIT runningChanged();
}

// Disconnects `object` and its children (a participants model, a watch) from this wrapper.
void EtcdQmlRecipe::detach(QObject *object)
{
    object->disconnect(this);
    const QList<QObject *> children = object->findChildren<QObject *>();
    for (QObject *child : children)
        child->disconnect(this);
}

void EtcdQmlRecipe::setConnectionState(ConnectionState state)
{
    if (state == m_connectionState)
        return;
    m_connectionState = state;
    Q_EMIT connectionStateChanged();
}
