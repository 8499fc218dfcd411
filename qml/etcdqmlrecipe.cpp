// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "etcdqmlrecipe.h"
#include "etcdqmlconvert_p.h"

#include <EtcdQt/etcdclient.h>
#include <EtcdQt/etcdrecipe.h>
#include <EtcdQt/etcdstatus.h>

#include <QtCore/qcoreapplication.h>
#include <QtCore/qmetaobject.h>

/*!
    \class EtcdQmlRecipe
    \internal
    The base of the QML recipe types. A library object exists while the component is
    complete, \c active is true, the client is connected and the type's settings are
    complete; switching any of these off closes it (resign, unlock, revoke) without blocking
    and deletes it on the next loop turn, while its connection still exists.
*/

EtcdQmlRecipe::EtcdQmlRecipe(QObject *parent) : QObject(parent) { }

// Deletes the library object at once: its destructor closes it without blocking.
EtcdQmlRecipe::~EtcdQmlRecipe()
{
    if (m_client)
        m_client->disconnect(this);
    if (m_current)
        detach(m_current); // its destructor's signals must not reach a half-destroyed wrapper
    delete m_current.data();
    for (const QPointer<QObject> &retired : std::as_const(m_retired))
        delete retired.data();
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
    stop(true);
    m_client = client;
    if (client) {
        // The client keeps a retired connection alive for a moment when an application runs
        // (EtcdQmlClient::retireClient), so the closed object can go on the next loop turn,
        // which also spares deleting it inside one of its own signals. Without an application
        // the connection goes at once, and the closed object with it.
        const auto letGo = [this] { stop(QCoreApplication::instance() == nullptr); };
        connect(client, &EtcdQmlClient::etcdClientAboutToReset, this, letGo);
        connect(client, &EtcdQmlClient::etcdClientChanged, this, &EtcdQmlRecipe::update);
        connect(client, &QObject::destroyed, this, letGo);
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

/*! Whether the library object exists now (active, complete, with a client). */
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
    stop(false);
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
        stop(false);
        return;
    }
    if (m_current)
        return;
    purgeRetired();
    m_current = startRecipe(etcd);
    if (m_current)
        Q_EMIT runningChanged();
}

// Closes the library object; `now` deletes it (and earlier closed ones) at once, because
// their client is about to go away or this wrapper is being destroyed.
void EtcdQmlRecipe::stop(bool now)
{
    if (QObject *recipe = m_current.data()) {
        m_current.clear();
        detach(recipe);
        // Every recipe (and EtcdWatch's cancel) ends without blocking: resign, unlock, revoke.
        if (recipe->metaObject()->indexOfMethod("close()") >= 0)
            QMetaObject::invokeMethod(recipe, "close", Qt::DirectConnection);
        else if (recipe->metaObject()->indexOfMethod("cancel()") >= 0)
            QMetaObject::invokeMethod(recipe, "cancel", Qt::DirectConnection);
        m_retired.append(recipe);
        recipe->deleteLater();
        setConnectionState(Inactive);
        recipeStopped();
        Q_EMIT runningChanged();
    }
    if (now) {
        for (const QPointer<QObject> &retired : std::as_const(m_retired))
            delete retired.data();
        m_retired.clear();
    }
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

void EtcdQmlRecipe::purgeRetired()
{
    m_retired.removeAll(QPointer<QObject>());
}
