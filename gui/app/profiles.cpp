// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "profiles.h"

#include <QtCore/qsettings.h>

namespace Inspector {

namespace {
const QString kGroup = QStringLiteral("profiles");

// Profile names become QSettings keys: '/' would nest groups, so it is escaped.
QString keyOf(const QString &name)
{
    return QString::fromLatin1(name.toUtf8().toPercentEncoding());
}
} // namespace

QStringList profileNames()
{
    QSettings s;
    s.beginGroup(kGroup);
    QStringList names;
    for (const QString &k : s.childGroups())
        names.append(QString::fromUtf8(QByteArray::fromPercentEncoding(k.toLatin1())));
    names.sort(Qt::CaseInsensitive);
    return names;
}

std::optional<ConnectionProfile> loadProfile(const QString &name)
{
    QSettings s;
    s.beginGroup(kGroup);
    if (!s.childGroups().contains(keyOf(name)))
        return std::nullopt;
    s.beginGroup(keyOf(name));
    ConnectionProfile p;
    p.name = name;
    p.endpoints = s.value(QStringLiteral("endpoints")).toString();
    p.prefix = s.value(QStringLiteral("prefix"), QStringLiteral("/")).toString();
    p.caCertificate = s.value(QStringLiteral("cacert")).toString();
    p.clientCertificate = s.value(QStringLiteral("cert")).toString();
    p.clientKey = s.value(QStringLiteral("key")).toString();
    p.user = s.value(QStringLiteral("user")).toString();
    return p;
}

void saveProfile(const ConnectionProfile &p)
{
    QSettings s;
    s.beginGroup(kGroup);
    s.beginGroup(keyOf(p.name));
    s.setValue(QStringLiteral("endpoints"), p.endpoints);
    s.setValue(QStringLiteral("prefix"), p.prefix);
    s.setValue(QStringLiteral("cacert"), p.caCertificate);
    s.setValue(QStringLiteral("cert"), p.clientCertificate);
    s.setValue(QStringLiteral("key"), p.clientKey);
    s.setValue(QStringLiteral("user"), p.user);
}

void removeProfile(const QString &name)
{
    QSettings s;
    s.beginGroup(kGroup);
    s.remove(keyOf(name));
}

InspectorSession::Options sessionOptions(const ConnectionProfile &p, const QString &password)
{
    InspectorSession::Options o;
    for (const QString &url : p.endpoints.split(u',', Qt::SkipEmptyParts))
        o.endpoints.append(QUrl(url.trimmed(), QUrl::StrictMode));
    o.prefix = p.prefix.toUtf8();
    o.tls = {p.caCertificate, p.clientCertificate, p.clientKey};
    o.user = p.user;
    o.password = password;
    return o;
}

ConnectionProfile profileFrom(const QString &name, const InspectorSession::Options &o)
{
    ConnectionProfile p;
    p.name = name;
    QStringList urls;
    for (const QUrl &u : o.endpoints)
        urls.append(u.toString());
    p.endpoints = urls.join(u',');
    p.prefix = QString::fromUtf8(o.prefix);
    p.caCertificate = o.tls.caCertificate;
    p.clientCertificate = o.tls.clientCertificate;
    p.clientKey = o.tls.clientKey;
    p.user = o.user;
    return p;
}

} // namespace Inspector
