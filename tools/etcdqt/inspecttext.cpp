// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "inspecttext.h"
#include "cli.h"

#include <QtCore/qdatetime.h>
#include <QtCore/qstringlist.h>

#include <cstdlib>

using namespace Etcd::Decode;

namespace Cli {

namespace {
QString lease(qint64 id)
{
    return id == 0 ? QStringLiteral("-") : QString::number(id, 16);
}

// Keys, paths and ids for a terminal: a key is anybody's bytes too, so control bytes are
// escaped rather than let loose on the line.
QString shown(const QByteArray &bytes)
{
    return previewBytes(bytes, -1);
}

QString shown(const QString &text)
{
    return previewBytes(text.toUtf8(), -1);
}

// A queue item's value: quoted, escaped and cut short (a payload can be a megabyte).
QString preview(const QByteArray &value)
{
    return QLatin1Char('"') + previewBytes(value) + QLatin1Char('"');
}

// Who an entry stands for: its client id, else a concurrency.Election proclamation, else
// (a mutex key) its lease.
QString who(const Entry &e)
{
    if (!e.owner.isEmpty())
        return shown(e.owner);
    return e.value.isEmpty() ? QStringLiteral("lease ") + lease(e.lease) : shown(e.value);
}

QString isoTime(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODateWithMs);
}

// "850 ms", "12.3 s", "5 min 3 s", "2 h 5 min", "3 d 4 h".
QString duration(qint64 ms)
{
    ms = std::abs(ms);
    if (ms < 1000)
        return QStringLiteral("%1 ms").arg(ms);
    if (ms < 60'000)
        return QStringLiteral("%1 s").arg(double(ms) / 1000.0, 0, 'f', 1);
    const qint64 s = ms / 1000;
    if (s < 3600)
        return QStringLiteral("%1 min %2 s").arg(s / 60).arg(s % 60);
    if (s < 86'400)
        return QStringLiteral("%1 h %2 min").arg(s / 3600).arg(s % 3600 / 60);
    return QStringLiteral("%1 d %2 h").arg(s / 86'400).arg(s % 86'400 / 3600);
}

// "enqueued <time> (12.3 s ago)", "due <time> (in 30.0 s)": the millis an item's name
// carries, against the clock of the read when there is one.
QString whenText(const Entry &e, qint64 wallClockMs)
{
    const QueueItem &q = *e.queue;
    if (q.millis < 0)
        return {};
    const bool delayed = e.role == Role::Delayed;
    QString text
        = (delayed ? QStringLiteral("due ") : QStringLiteral("enqueued ")) + isoTime(q.millis);
    if (wallClockMs <= 0)
        return text;
    const qint64 past = wallClockMs - q.millis;
    if (delayed)
        return text
            + (past >= 0 ? QStringLiteral(" (due for %1)") : QStringLiteral(" (in %1)"))
                  .arg(duration(past));
    return text
        + (past >= 0 ? QStringLiteral(" (%1 ago)") : QStringLiteral(" (%1 ahead of this clock)"))
              .arg(duration(past));
}

// A queue entry's own column: its value, its consumer, its count or its level.
QString queueWho(const Entry &e)
{
    switch (e.role) {
    case Role::Claim:
        return shown(e.owner);
    case Role::Attempts:
        return e.queue->attempts ? QString::number(*e.queue->attempts) : QStringLiteral("?");
    case Role::Marker:
        return QStringLiteral("priority %1").arg(e.queue->priority);
    default:
        return preview(e.value);
    }
}

// What follows a queue entry's line: its times, attempts, and who claims it.
QString queueDetails(const Entry &e, qint64 wallClockMs)
{
    const QueueItem &q = *e.queue;
    QStringList parts;
    if (e.role == Role::Item && q.priority >= 0)
        parts << QStringLiteral("priority %1 seq %2").arg(q.priority).arg(q.sequence);
    if (e.role != Role::Attempts && e.role != Role::Claim && e.role != Role::Marker)
        parts << whenText(e, wallClockMs);
    if (q.batchIndex >= 0 && e.role == Role::Item)
        parts << QStringLiteral("batch #%1").arg(q.batchIndex);
    if (e.role == Role::Claimed && q.orphaned)
        parts << QStringLiteral("orphaned: reclaimable");
    else if (e.role == Role::Claimed)
        parts << QStringLiteral("consumer %1 claim lease %2%3")
                     .arg(shown(q.consumer), lease(q.claimLease),
                         q.claimTtl >= 0 ? QStringLiteral(" ttl %1s").arg(q.claimTtl) : QString());
    if (q.attempts && e.role != Role::Attempts)
        parts << (e.role == Role::Claimed || e.role == Role::Claim ? QStringLiteral("attempt %1")
                                                                   : QStringLiteral("attempts %1"))
                     .arg(*q.attempts);
    parts.removeAll(QString());
    return parts.isEmpty() ? QString() : QStringLiteral("  ") + parts.join(QStringLiteral(", "));
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

QString entryLine(const Entry &e, qint64 wallClockMs)
{
    QString role = roleName(e.role);
    if (e.side != Side::None)
        role += QLatin1Char(' ') + sideName(e.side);
    QString line = QStringLiteral("  %1 %2  %3 rev %4 lease %5")
                       .arg(role.leftJustified(13),
                           e.role == Role::Value ? shownBytes(e.value)
                               : e.service       ? instanceText(*e.service)
                               : e.queue         ? queueWho(e)
                                                 : who(e),
                           shown(e.key))
                       .arg(e.createRevision)
                       .arg(lease(e.lease));
    if (e.ttl >= 0)
        line += QStringLiteral(" ttl %1s").arg(e.ttl);
    if (e.queue)
        line += queueDetails(e, wallClockMs);
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

// "3 items, head "a" enqueued <time> (2.0 s ago)".
QString headText(const Recipe &r, qint64 wallClockMs)
{
    const Entry *head = queueHead(r);
    if (!head)
        return QStringLiteral("none waiting");
    QString text = QStringLiteral("head ") + preview(head->value);
    if (head->queue->priority >= 0)
        text += QStringLiteral(" at priority %1 (seq %2)")
                    .arg(head->queue->priority)
                    .arg(head->queue->sequence);
    if (const QString when = whenText(*head, wallClockMs); !when.isEmpty())
        text += QLatin1Char(' ') + when;
    return text;
}

QString priorityLevelsText(const Recipe &r)
{
    QStringList levels;
    for (const PriorityLevel &level : priorityLevels(r))
        levels << QStringLiteral("%1: %2%3")
                      .arg(level.priority)
                      .arg(level.depth)
                      .arg(level.marked ? QString() : QStringLiteral(" (no marker read)"));
    return QStringLiteral("by priority {") + levels.join(QStringLiteral(", ")) + QLatin1Char('}');
}

QString workQueueSummary(const Recipe &r, qint64 wallClockMs)
{
    const qsizetype orphaned = orphanedClaims(r);
    return QStringLiteral("%1 pending (%2), %3 in flight%4, %5 dead letter(s), %6 delayed")
        .arg(r.count(Role::Item))
        .arg(headText(r, wallClockMs))
        .arg(r.count(Role::Claimed))
        .arg(orphaned > 0 ? QStringLiteral(" (%1 orphaned: reclaimable)").arg(orphaned) : QString())
        .arg(r.count(Role::DeadLetter))
        .arg(r.count(Role::Delayed));
}

QString summary(const Recipe &r, qint64 wallClockMs)
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
    case Kind::Queue:
        return QStringLiteral("%1 item(s), %2")
            .arg(r.count(Role::Item))
            .arg(headText(r, wallClockMs));
    case Kind::PriorityQueue:
        return QStringLiteral("%1 item(s), %2; %3")
            .arg(r.count(Role::Item))
            .arg(headText(r, wallClockMs), priorityLevelsText(r));
    case Kind::WorkQueue:
        return workQueueSummary(r, wallClockMs);
    }
    return {};
}
} // namespace

QString inspectText(const View &view)
{
    QStringList lines {QStringLiteral("%1 at revision %2: %3 recipes, %4 raw keys")
                           .arg(shown(view.prefix))
                           .arg(view.revision)
                           .arg(view.recipes.size())
                           .arg(view.raw.size())};
    for (const Recipe &r : view.recipes) {
        lines.append(QStringLiteral("%1 %2: %3")
                         .arg(kindName(r.kind), shown(r.path), summary(r, view.wallClockMs)));
        for (const Entry &e : r.entries)
            lines.append(entryLine(e, view.wallClockMs));
        for (const QString &note : r.notes)
            lines.append(QStringLiteral("  note: ") + shown(note));
    }
    for (const EtcdKeyValue &kv : view.raw) {
        lines.append(QStringLiteral("raw %1 = %2 rev %3 lease %4")
                         .arg(shown(kv.key), shownBytes(kv.value))
                         .arg(kv.createRevision)
                         .arg(lease(kv.lease)));
    }
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

} // namespace Cli
