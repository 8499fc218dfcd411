// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "recipeview.h"

#include <algorithm>

namespace Etcd::Decode {

QList<Entry> Recipe::withRole(Role role) const
{
    QList<Entry> found;
    for (const Entry &e : entries) {
        if (e.role == role)
            found.append(e);
    }
    return found;
}

const Entry *Recipe::first(Role role) const
{
    const auto it = std::find_if(
        entries.cbegin(), entries.cend(), [role](const Entry &e) { return e.role == role; });
    return it == entries.cend() ? nullptr : &*it;
}

qsizetype Recipe::count(Role role) const
{
    return std::count_if(
        entries.cbegin(), entries.cend(), [role](const Entry &e) { return e.role == role; });
}

QString serviceEndpoint(const EtcdServiceInstance &s)
{
    const int port = s.port >= 0 ? s.port : s.sslPort;
    if (!s.address.isEmpty())
        return port >= 0 ? QStringLiteral("%1:%2").arg(s.address).arg(port) : s.address;
    return s.uri;
}

QString serviceRegistrant(const EtcdServiceInstance &s)
{
    const QString endpoint = serviceEndpoint(s);
    return endpoint.isEmpty() ? s.id : endpoint;
}

QString serviceName(const Recipe &r)
{
    return QString::fromUtf8(r.path.mid(r.path.lastIndexOf('/') + 1));
}

// The names are the JSON vocabulary of `etcdqt inspect --json`: stable, lower-case.
QString kindName(Kind kind)
{
    switch (kind) {
    case Kind::Election:
        return QStringLiteral("election");
    case Kind::Mutex:
        return QStringLiteral("mutex");
    case Kind::ReadWriteLock:
        return QStringLiteral("rwlock");
    case Kind::Semaphore:
        return QStringLiteral("semaphore");
    case Kind::Barrier:
        return QStringLiteral("barrier");
    case Kind::CountedBarrier:
        return QStringLiteral("counted-barrier");
    case Kind::DoubleBarrier:
        return QStringLiteral("double-barrier");
    case Kind::Number:
        return QStringLiteral("number");
    case Kind::TransientKey:
        return QStringLiteral("transient");
    case Kind::Service:
        return QStringLiteral("service");
    }
    return {};
}

QString roleName(Role role)
{
    switch (role) {
    case Role::Leader:
        return QStringLiteral("leader");
    case Role::Participant:
        return QStringLiteral("participant");
    case Role::Holder:
        return QStringLiteral("holder");
    case Role::Waiter:
        return QStringLiteral("waiter");
    case Role::Unranked:
        return QStringLiteral("unranked");
    case Role::Ready:
        return QStringLiteral("ready");
    case Role::Member:
        return QStringLiteral("member");
    case Role::Setter:
        return QStringLiteral("setter");
    case Role::Value:
        return QStringLiteral("value");
    case Role::Instance:
        return QStringLiteral("instance");
    }
    return {};
}

QString sideName(Side side)
{
    switch (side) {
    case Side::None:
        return {};
    case Side::Read:
        return QStringLiteral("read");
    case Side::Write:
        return QStringLiteral("write");
    case Side::Enter:
        return QStringLiteral("enter");
    case Side::Leave:
        return QStringLiteral("leave");
    }
    return {};
}

} // namespace Etcd::Decode
