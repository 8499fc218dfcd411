// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "inspecttext.h"
#include "cli.h"

#include <QtCore/qdatetime.h>
#include <QtCore/qstringlist.h>

using namespace Etcd::Decode;

namespace Cli {

namespace {
QString lease(qint64 id)
{
    return id == 0 ? QStringLiteral("-") : QString::number(id, 16);
}

// Who an entry stands for: its client id, else a concurrency.Election proclamation, else
// (a mutex key) its lease.
QString who(const Entry &e)
{
    if (!e.owner.isEmpty())
        return e.owner;
    return e.value.isEmpty() ? QStringLiteral("lease ") + lease(e.lease)
                             : QString::fromUtf8(e.value);
}

// id, endpoint, enabled, registration time and payload: what a service instance says.
QString instanceText(const EtcdServiceInstance &s)
{
    QString text = s.id;
    if (const QString endpoint = serviceEndpoint(s); !endpoint.isEmpty())
        text += QLatin1Char(' ') + endpoint;
    text += s.enabled ? QStringLiteral(" enabled") : QStringLiteral(" disabled");
    text += QStringLiteral(" registered ")
        + QDateTime::fromMSecsSinceEpoch(s.registrationTimeUtc, Qt::UTC)
              .toString(Qt::ISODateWithMs);
    if (!s.jsonPayload.isEmpty())
        text += QStringLiteral(" payload ") + shownBytes(s.jsonPayload.toUtf8());
    return text;
}

QString entryLine(const Entry &e)
{
    QString role = roleName(e.role);
    if (e.side != Side::None)
        role += QLatin1Char(' ') + sideName(e.side);
    QString line = QStringLiteral("  %1 %2  %3 rev %4 lease %5")
                       .arg(role.leftJustified(13),
                           e.role == Role::Value ? shownBytes(e.value)
                               : e.service       ? instanceText(*e.service)
                                                 : who(e),
                           QString::fromUtf8(e.key))
                       .arg(e.createRevision)
                       .arg(lease(e.lease));
    if (e.ttl >= 0)
        line += QStringLiteral(" ttl %1s").arg(e.ttl);
    return line;
}

QString electionSummary(const Recipe &r)
{
    const Entry *leader = r.first(Role::Leader);
    if (!leader)
        return QStringLiteral("no leader, %1 participants").arg(r.count(Role::Participant));
    return QStringLiteral("leader %1 since revision %2 (term token %2)")
        .arg(who(*leader))
        .arg(leader->createRevision);
}

QString lockSummary(const Recipe &r)
{
    const Entry *holder = r.first(Role::Holder);
    const QString waiting = QStringLiteral("%1 waiting").arg(r.count(Role::Waiter));
    if (!holder)
        return QStringLiteral("free, ") + waiting;
    return QStringLiteral("held by %1 (fencing token: revision %2, lease %3), %4")
        .arg(who(*holder))
        .arg(holder->createRevision)
        .arg(lease(holder->lease), waiting);
}

QString countedSummary(const Recipe &r, Side side)
{
    qsizetype members = 0;
    bool ready = false;
    for (const Entry &e : r.entries) {
        if (e.side == side) {
            ready = ready || e.role == Role::Ready;
            members += e.role == Role::Member ? 1 : 0;
        }
    }
    return QStringLiteral("%1, %2 waiting of an unknown count")
        .arg(ready ? QStringLiteral("ready") : QStringLiteral("no ready marker"))
        .arg(members);
}

QString summary(const Recipe &r)
{
    switch (r.kind) {
    case Kind::Election:
        return electionSummary(r);
    case Kind::Mutex:
        return lockSummary(r);
    case Kind::ReadWriteLock:
        return QStringLiteral("%1 holding, %2 waiting")
            .arg(r.count(Role::Holder))
            .arg(r.count(Role::Waiter));
    case Kind::Semaphore:
        return QStringLiteral("%1 of %2 permits used, %3 waiting")
            .arg(r.count(Role::Holder))
            .arg(r.number ? QString::number(*r.number) : QStringLiteral("?"))
            .arg(r.count(Role::Waiter));
    case Kind::Barrier:
        return QStringLiteral("set by %1").arg(who(r.entries.first()));
    case Kind::CountedBarrier:
        return countedSummary(r, Side::None);
    case Kind::DoubleBarrier:
        return QStringLiteral("enter: %1; leave: %2")
            .arg(countedSummary(r, Side::Enter), countedSummary(r, Side::Leave));
    case Kind::Number:
        return QStringLiteral("value %1 (a counter, or a latch that is %2)")
            .arg(r.number.value_or(0))
            .arg(r.number.value_or(0) == 0 ? QStringLiteral("open") : QStringLiteral("closed"));
    case Kind::TransientKey:
        return shownBytes(r.entries.first().value);
    case Kind::Service:
        return QStringLiteral("service %1, %2 instances").arg(serviceName(r)).arg(r.entries.size());
    }
    return {};
}
} // namespace

QString inspectText(const View &view)
{
    QStringList lines {QStringLiteral("%1 at revision %2: %3 recipes, %4 raw keys")
                           .arg(QString::fromUtf8(view.prefix))
                           .arg(view.revision)
                           .arg(view.recipes.size())
                           .arg(view.raw.size())};
    for (const Recipe &r : view.recipes) {
        lines.append(QStringLiteral("%1 %2: %3")
                         .arg(kindName(r.kind), QString::fromUtf8(r.path), summary(r)));
        for (const Entry &e : r.entries)
            lines.append(entryLine(e));
        for (const QString &note : r.notes)
            lines.append(QStringLiteral("  note: ") + note);
    }
    for (const EtcdKeyValue &kv : view.raw) {
        lines.append(QStringLiteral("raw %1 = %2 rev %3 lease %4")
                         .arg(QString::fromUtf8(kv.key), shownBytes(kv.value))
                         .arg(kv.createRevision)
                         .arg(lease(kv.lease)));
    }
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

} // namespace Cli
