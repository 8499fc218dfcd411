// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "etcdqmlclient.h"
#include "etcdqmlconnection_p.h"
#include "etcdqmlconvert_p.h"

#include <EtcdQt/etcdclient.h>
#include <EtcdQt/etcdstatus.h>

#include <utility>

/*!
    \qmltype EtcdError
    \inqmlmodule EtcdQt
    \brief The error codes of \c errorCode, by name (uncreatable).

    The values are those of Etcd::ErrorCode, so a handler compares \c errorCode with
    \c EtcdError.NotFound, \c EtcdError.LeaseExpired, \c EtcdError.InvalidArgument and so on.
    A code added to the library without a name here still reaches QML as its number.
*/

/*!
    \qmltype EtcdClient
    \inqmlmodule EtcdQt
    \brief A connection to an etcd cluster, shared by the recipes that name it as their client.

    The connection is made once the component is complete and \c active is true (the default).
    Changing endpoints, credentials, TLS files or the key prefix while active reconnects; the
    recipes using this client restart on the new connection.
*/

struct EtcdQmlClient::Private
{
    QList<QUrl> endpoints;
    QString keyPrefix;
    QString user;
    QString password;
    EtcdTlsFiles tls;
    int callDeadline = 0; // 0: the library's default
    bool active = true;
    bool complete = false;
    State state = Disconnected;
    EtcdStatus error;
    EtcdQmlConnection *connection = nullptr; // owned until retired
};

EtcdQmlClient::EtcdQmlClient(QObject *parent) : QObject(parent), d(new Private) { }

// Recipes let go of the client first, so their leases are revoked through it.
EtcdQmlClient::~EtcdQmlClient()
{
    retireClient();
}

QVariantList EtcdQmlClient::endpoints() const
{
    QVariantList list;
    for (const QUrl &url : d->endpoints)
        list.append(url.toString());
    return list;
}

void EtcdQmlClient::setEndpoints(const QVariantList &endpoints)
{
    const QList<QUrl> urls = Etcd::Qml::toEndpoints(endpoints);
    if (urls == d->endpoints)
        return;
    d->endpoints = urls;
    Q_EMIT endpointsChanged();
    rebuild();
}

QString EtcdQmlClient::keyPrefix() const
{
    return d->keyPrefix;
}

void EtcdQmlClient::setKeyPrefix(const QString &prefix)
{
    if (prefix == d->keyPrefix)
        return;
    d->keyPrefix = prefix;
    Q_EMIT keyPrefixChanged();
    rebuild();
}

QString EtcdQmlClient::user() const
{
    return d->user;
}

void EtcdQmlClient::setUser(const QString &user)
{
    if (user == d->user)
        return;
    d->user = user;
    Q_EMIT userChanged();
    rebuild();
}

QString EtcdQmlClient::password() const
{
    return d->password;
}

void EtcdQmlClient::setPassword(const QString &password)
{
    if (password == d->password)
        return;
    d->password = password;
    Q_EMIT passwordChanged();
    rebuild();
}

QString EtcdQmlClient::caCertificate() const
{
    return d->tls.caCertificate;
}

void EtcdQmlClient::setCaCertificate(const QString &path)
{
    if (path == d->tls.caCertificate)
        return;
    d->tls.caCertificate = path;
    Q_EMIT tlsChanged();
    rebuild();
}

QString EtcdQmlClient::clientCertificate() const
{
    return d->tls.clientCertificate;
}

void EtcdQmlClient::setClientCertificate(const QString &path)
{
    if (path == d->tls.clientCertificate)
        return;
    d->tls.clientCertificate = path;
    Q_EMIT tlsChanged();
    rebuild();
}

QString EtcdQmlClient::clientKey() const
{
    return d->tls.clientKey;
}

void EtcdQmlClient::setClientKey(const QString &path)
{
    if (path == d->tls.clientKey)
        return;
    d->tls.clientKey = path;
    Q_EMIT tlsChanged();
    rebuild();
}

/*! \qmlproperty int EtcdClient::callDeadline
    Deadline of each call in milliseconds; 0 keeps the library's default. */
int EtcdQmlClient::callDeadline() const
{
    return d->callDeadline;
}

void EtcdQmlClient::setCallDeadline(int ms)
{
    if (ms == d->callDeadline)
        return;
    d->callDeadline = ms;
    Q_EMIT callDeadlineChanged();
    if (d->connection && ms > 0)
        d->connection->client()->setCallDeadline(std::chrono::milliseconds(ms));
}

bool EtcdQmlClient::isActive() const
{
    return d->active;
}

void EtcdQmlClient::setActive(bool active)
{
    if (active == d->active)
        return;
    d->active = active;
    Q_EMIT activeChanged();
    rebuild();
}

EtcdQmlClient::State EtcdQmlClient::state() const
{
    return d->state;
}

/*! \qmlproperty int EtcdClient::errorCode
    The last error's Etcd::ErrorCode (0: none); errorString says it in words. */
int EtcdQmlClient::errorCode() const
{
    return int(d->error.code());
}

QString EtcdQmlClient::errorString() const
{
    return d->error.message();
}

EtcdClient *EtcdQmlClient::etcdClient() const
{
    return d->connection ? d->connection->client() : nullptr;
}

void EtcdQmlClient::adopt(QObject *object)
{
    if (d->connection)
        d->connection->adopt(object);
}

void EtcdQmlClient::classBegin() { }

void EtcdQmlClient::componentComplete()
{
    d->complete = true;
    rebuild();
}

// A new library client for the current settings (none while inactive or without endpoints).
void EtcdQmlClient::rebuild()
{
    if (!d->complete)
        return;
    retireClient();
    const State previous = d->state;
    d->state = Disconnected;
    if (d->active && !d->endpoints.isEmpty()) {
        auto client = std::make_unique<EtcdClient>(d->endpoints);
        client->setKeyPrefix(d->keyPrefix.toUtf8());
        if (!d->user.isEmpty())
            client->setCredentials(d->user, d->password);
        if (!d->tls.caCertificate.isEmpty() || !d->tls.clientCertificate.isEmpty())
            client->setTlsFiles(d->tls);
        if (d->callDeadline > 0)
            client->setCallDeadline(std::chrono::milliseconds(d->callDeadline));
        connect(client.get(), &EtcdClient::stateChanged, this, [this](EtcdClient::State state) {
            if (State(state) == d->state)
                return;
            d->state = State(state);
            Q_EMIT stateChanged();
        });
        connect(client.get(), &EtcdClient::errorOccurred, this, &EtcdQmlClient::setError);
        client->connectToEndpoints();
        d->state = State(client->state());
        d->connection = new EtcdQmlConnection(std::move(client));
    }
    if (previous != d->state)
        Q_EMIT stateChanged();
    Q_EMIT etcdClientChanged();
}

// Recipes close on the old client while it exists (resign, unlock, revoke): deleting it at
// once would cancel those calls and leave the leases to their TTL. The retired connection
// deletes the client once every recipe on it reported closed() (EtcdQmlConnection).
void EtcdQmlClient::retireClient()
{
    if (!d->connection)
        return;
    Q_EMIT etcdClientAboutToReset();
    d->connection->client()->disconnect(this);
    std::exchange(d->connection, nullptr)->retire();
}

void EtcdQmlClient::setError(const EtcdStatus &status)
{
    d->error = status;
    Q_EMIT errorChanged();
    Q_EMIT errorOccurred(int(status.code()), status.message());
}
