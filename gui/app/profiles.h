// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// Saved connection profiles (QSettings, group "profiles"). A profile holds where and how to
// connect: endpoints, prefix, the *paths* of TLS files, a user name. Never a password: it
// is asked for at connect time (or read from ETCDQT_PASSWORD) and kept in memory only.
#pragma once

#include "inspectorsession.h"

#include <QtCore/qstringlist.h>

#include <optional>

namespace Inspector {

struct ConnectionProfile
{
    QString name;
    QString endpoints; // comma-separated, as typed
    QString prefix = QStringLiteral("/");
    QString caCertificate;
    QString clientCertificate;
    QString clientKey;
    QString user;
};

QStringList profileNames();
std::optional<ConnectionProfile> loadProfile(const QString &name);
void saveProfile(const ConnectionProfile &profile);
void removeProfile(const QString &name);

InspectorSession::Options sessionOptions(const ConnectionProfile &p, const QString &password);
ConnectionProfile profileFrom(const QString &name, const InspectorSession::Options &o);

} // namespace Inspector
