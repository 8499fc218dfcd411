// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "recipetext.h"

#include "leaseclock.h"

#include <QtCore/qdatetime.h>
#include <QtCore/qlocale.h>
#include <QtCore/qstringlist.h>

#include <algorithm>

using namespace Etcd::Decode;

namespace Inspector {

namespace {
// A read-write lock can have many readers holding at once; a summary names a few.
constexpr qsizetype kNamesInSummary = 3;
constexpr qsizetype kValueInSummary = 60;

bool isText(QStringView text)
{
    return std::none_of(text.cbegin(), text.cend(),
        [](QChar c) { return (c.unicode() < 0x20 && c != u'\t') || c.unicode() == 0x7f; });
}
} // namespace

QString RecipeText::kind(Kind kind)
{
    switch (kind) {
    case Kind::Election:
        return tr("election");
    case Kind::Mutex:
        return tr("mutex");
    case Kind::ReadWriteLock:
        return tr("read-write lock");
    case Kind::Semaphore:
        return tr("semaphore");
    case Kind::Barrier:
        return tr("barrier");
    case Kind::CountedBarrier:
        return tr("counted barrier");
    case Kind::DoubleBarrier:
        return tr("double barrier");
    case Kind::Number:
        return tr("counter or latch");
    case Kind::TransientKey:
        return tr("transient key");
    case Kind::Service:
        return tr("service");
    case Kind::Queue:
        return tr("queue");
    case Kind::PriorityQueue:
        return tr("priority queue");
    case Kind::WorkQueue:
        return tr("work queue");
    }
    return {};
}

QString RecipeText::role(Role role)
{
    switch (role) {
    case Role::Leader:
        return tr("leader");
    case Role::Participant:
        return tr("candidate");
    case Role::Holder:
        return tr("holder");
    case Role::Waiter:
        return tr("waiter");
    case Role::Unranked:
        return tr("holder or waiter");
    case Role::Ready:
        return tr("ready marker");
    case Role::Member:
        return tr("member");
    case Role::Setter:
        return tr("setter");
    case Role::Value:
        return tr("value");
    case Role::Instance:
        return tr("instance");
    case Role::Item:
        return tr("item");
    case Role::Marker:
        return tr("level marker", "priority queue: the marker key of one priority level");
    case Role::Claimed:
        return tr("in flight", "work queue: an item a consumer has claimed");
    case Role::Claim:
        return tr("claim", "work queue: the consumer's leased claim key");
    case Role::Attempts:
        return tr("attempt count");
    case Role::DeadLetter:
        return tr("dead letter");
    case Role::Delayed:
        return tr("delayed");
    }
    return {};
}

QString RecipeText::roleWithSide(const Entry &entry)
{
    if (entry.queue && entry.queue->priority >= 0)
        return tr("%1 (priority %2)", "role (priority level)")
            .arg(role(entry.role), QString::number(entry.queue->priority));
    return roleWithSide(entry.role, entry.side);
}

QString RecipeText::roleWithSide(Role r, Side side)
{
    switch (side) {
    case Side::None:
        return role(r);
    case Side::Read:
        return tr("%1 (read)", "role, read side of a read-write lock").arg(role(r));
    case Side::Write:
        return tr("%1 (write)", "role, write side of a read-write lock").arg(role(r));
    case Side::Enter:
        return tr("%1 (enter)", "role, entry phase of a double barrier").arg(role(r));
    case Side::Leave:
        return tr("%1 (leave)", "role, exit phase of a double barrier").arg(role(r));
    }
    return role(r);
}

namespace {
// A queue entry's "who": the item's value, or who claims it, or how often it went out.
QString queueWho(const Entry &e)
{
    switch (e.role) {
    case Role::Claimed:
        return e.queue->orphaned ? RecipeText::tr("orphaned: reclaimable")
                                 : RecipeText::preview(e.queue->consumer.toUtf8());
    case Role::Claim:
        return RecipeText::preview(e.owner.toUtf8()); // anybody's bytes too
    case Role::Attempts:
        return RecipeText::tr("%n attempt(s)", nullptr, int(e.queue->attempts.value_or(0)));
    case Role::Marker:
        return RecipeText::tr("level %1").arg(e.queue->priority);
    default:
        return RecipeText::preview(e.value);
    }
}
} // namespace

QString RecipeText::underPrefix(const QByteArray &key, const QByteArray &prefix)
{
    if (prefix.size() <= 1 || key.size() <= prefix.size() || !key.startsWith(prefix))
        return printable(key);
    const bool slash = prefix.endsWith('/');
    return (slash ? QStringLiteral("…/") : QStringLiteral("…")) + printable(key.mid(prefix.size()));
}

bool RecipeText::shortensDifferently(const QByteArray &prefix, const QByteArray &other)
{
    return prefix != other && std::max(prefix.size(), other.size()) > 1;
}

QString RecipeText::lastSegment(const QByteArray &path)
{
    const QByteArray trimmed = path.endsWith('/') ? path.chopped(1) : path;
    return QString::fromUtf8(trimmed.mid(trimmed.lastIndexOf('/') + 1));
}

QString RecipeText::who(const Entry &entry)
{
    if (entry.service)
        return instance(*entry.service);
    if (entry.queue)
        return queueWho(entry);
    if (!entry.owner.isEmpty())
        return entry.owner;
    if (!entry.value.isEmpty())
        return printable(entry.value, kValueInSummary);
    return tr("lease %1").arg(leaseHex(entry.lease));
}

namespace {
QString names(const QList<Entry> &entries)
{
    QStringList names;
    for (qsizetype i = 0; i < std::min(entries.size(), kNamesInSummary); ++i)
        names.append(RecipeText::who(entries.at(i)));
    if (entries.size() > kNamesInSummary)
        names.append(QStringLiteral("…"));
    return names.join(QStringLiteral(", "));
}
} // namespace

namespace {
// Where a service's instances are reached, a few of them.
QString endpoints(const QList<Entry> &entries)
{
    QStringList shown;
    for (qsizetype i = 0; i < std::min(entries.size(), kNamesInSummary); ++i) {
        const Entry &e = entries.at(i);
        shown.append(e.service ? serviceRegistrant(*e.service) : e.owner);
    }
    if (entries.size() > kNamesInSummary)
        shown.append(QStringLiteral("…"));
    return shown.join(QStringLiteral(", "));
}
} // namespace

QString RecipeText::instance(const EtcdServiceInstance &s)
{
    const QString endpoint = serviceEndpoint(s);
    const QString who = endpoint.isEmpty() || endpoint == s.id
        ? s.id
        : tr("%1 at %2", "service instance id at address:port").arg(s.id, endpoint);
    return s.enabled ? who : tr("%1 (disabled)", "a disabled service instance").arg(who);
}

QString RecipeText::registered(const EtcdServiceInstance &s)
{
    return QLocale().toString(
        QDateTime::fromMSecsSinceEpoch(s.registrationTimeUtc).toLocalTime(), QLocale::ShortFormat);
}

namespace {
qint64 wallOrNow(qint64 wallNowMs)
{
    return wallNowMs > 0 ? wallNowMs : QDateTime::currentMSecsSinceEpoch();
}

// "p0: 2, p5: 1": the items per priority level.
QString levelCounts(const Recipe &r)
{
    QStringList levels;
    for (const PriorityLevel &level : priorityLevels(r))
        levels.append(RecipeText::tr("p%1: %2", "priority level: items waiting")
                          .arg(level.priority)
                          .arg(level.depth));
    return levels.join(QStringLiteral(", "));
}

QString queueSummary(const Recipe &r, qint64 wallNowMs)
{
    const int depth = int(r.number.value_or(0));
    const Entry *head = queueHead(r);
    switch (r.kind) {
    case Kind::Queue:
        if (!head)
            return RecipeText::tr("empty");
        if (head->queue->millis < 0)
            return RecipeText::tr("%n item(s); head %1", nullptr, depth)
                .arg(RecipeText::preview(head->value));
        return RecipeText::tr("%n item(s); head %1, enqueued %2 ago", nullptr, depth)
            .arg(
                RecipeText::preview(head->value), RecipeText::age(wallNowMs - head->queue->millis));
    case Kind::PriorityQueue:
        if (!head)
            return RecipeText::tr("empty (%1)", "priority queue: no items; per-level counts")
                .arg(levelCounts(r));
        return RecipeText::tr("%n item(s) (%1); next %2 at priority %3", nullptr, depth)
            .arg(levelCounts(r), RecipeText::preview(head->value),
                QString::number(head->queue->priority));
    default:
        break;
    }
    QString text = RecipeText::tr("%1 pending, %2 in flight, %3 dead, %4 delayed")
                       .arg(depth)
                       .arg(r.count(Role::Claimed))
                       .arg(r.count(Role::DeadLetter))
                       .arg(r.count(Role::Delayed));
    if (const qsizetype orphaned = orphanedClaims(r))
        text += RecipeText::tr(", %n orphaned: reclaimable", nullptr, int(orphaned));
    return text;
}
} // namespace

QString RecipeText::summary(const Recipe &r, qint64 wallNowMs)
{
    const int waiting = int(r.count(Role::Waiter));
    switch (r.kind) {
    case Kind::Election:
        if (const Entry *leader = r.first(Role::Leader))
            return tr("leader %1 since revision %2 (%n candidate(s))", nullptr,
                int(r.count(Role::Participant)))
                .arg(who(*leader), QString::number(leader->createRevision));
        return tr("no leader");
    case Kind::Mutex:
    case Kind::ReadWriteLock:
        if (r.count(Role::Holder) > 0)
            return tr("held by %1, %n waiting", nullptr, waiting)
                .arg(names(r.withRole(Role::Holder)));
        return tr("free");
    case Kind::Semaphore:
        if (!r.number)
            return tr("permits unknown, %n entries", nullptr, int(r.count(Role::Unranked)));
        return tr("%1 of %2 permits used, %n waiting", nullptr, waiting)
            .arg(r.count(Role::Holder))
            .arg(*r.number);
    case Kind::Barrier:
        if (const Entry *setter = r.first(Role::Setter))
            return tr("set by %1").arg(who(*setter));
        return tr("lifted");
    case Kind::CountedBarrier:
    case Kind::DoubleBarrier:
        if (r.count(Role::Ready) > 0)
            return tr("%n member(s) arrived, tripped", nullptr, int(r.count(Role::Member)));
        return tr("%n member(s) arrived", nullptr, int(r.count(Role::Member)));
    case Kind::Number:
        return r.number ? tr("value %1").arg(*r.number) : tr("no value");
    case Kind::TransientKey:
        return r.entries.isEmpty() ? QString()
                                   : printable(r.entries.first().value, kValueInSummary);
    case Kind::Service:
        if (r.entries.isEmpty())
            return tr("no instances");
        return tr("%n instance(s): %1", nullptr, int(r.entries.size())).arg(endpoints(r.entries));
    case Kind::Queue:
    case Kind::PriorityQueue:
    case Kind::WorkQueue:
        return queueSummary(r, wallOrNow(wallNowMs));
    }
    return {};
}

namespace {
// A long queue would make a pane of thousands of lines: each list shows its first few.
constexpr qsizetype kDetailsPerList = 20;

QString localTime(qint64 ms)
{
    const QLocale locale;
    return locale.toString(QDateTime::fromMSecsSinceEpoch(ms).toLocalTime(),
        locale.dateFormat(QLocale::ShortFormat) + QStringLiteral(" HH:mm:ss"));
}

QString itemLine(const Entry &e, qint64 wallNowMs)
{
    const QueueItem &q = *e.queue;
    if (q.priority >= 0)
        return RecipeText::tr("%1 (priority %2, sequence %3)")
            .arg(RecipeText::preview(e.value))
            .arg(q.priority)
            .arg(q.sequence);
    if (q.millis < 0)
        return RecipeText::preview(e.value);
    return RecipeText::tr("%1 (%2), enqueued %3, %4 ago")
        .arg(RecipeText::preview(e.value), QString::fromUtf8(q.id), localTime(q.millis),
            RecipeText::age(wallNowMs - q.millis));
}

// The first kDetailsPerList entries of `role`, one line each, and how many more there are.
template <typename Line>
void appendList(QStringList &lines, const Recipe &r, Role role, Line line)
{
    qsizetype shown = 0;
    const qsizetype all = r.count(role);
    for (const Entry &e : r.entries) {
        if (e.role != role || !e.queue)
            continue;
        if (shown++ == kDetailsPerList) {
            lines.append(RecipeText::tr("… and %n more", nullptr, int(all - kDetailsPerList)));
            return;
        }
        lines.append(QStringLiteral("    ") + line(e));
    }
}

QString claimTtl(const QueueItem &q, const LeaseClock *clock, qint64 monotonicNowMs)
{
    if (q.claimTtl >= 0)
        return RecipeText::seconds(q.claimTtl);
    return RecipeText::ttl(clock, q.claimLease, monotonicNowMs);
}

void workQueueDetails(QStringList &lines, const Recipe &r, qint64 wallNowMs,
    const LeaseClock *clock, qint64 monotonicNowMs)
{
    lines.append(RecipeText::tr("In flight: %1").arg(r.count(Role::Claimed)));
    appendList(lines, r, Role::Claimed, [&](const Entry &e) {
        const QueueItem &q = *e.queue;
        const QString attempt = q.attempts ? QString::number(*q.attempts) : RecipeText::none();
        if (q.orphaned)
            return RecipeText::tr("%1: orphaned: reclaimable (attempt %2, no claim: its consumer's "
                                  "lease ended)")
                .arg(QString::fromUtf8(q.id), attempt);
        return RecipeText::tr("%1: consumer %2, attempt %3, lease %4, TTL %5")
            .arg(QString::fromUtf8(q.id), RecipeText::preview(q.consumer.toUtf8()), attempt,
                RecipeText::leaseHex(q.claimLease), claimTtl(q, clock, monotonicNowMs));
    });
    lines.append(RecipeText::tr("Dead letters: %1").arg(r.count(Role::DeadLetter)));
    appendList(lines, r, Role::DeadLetter, [](const Entry &e) {
        return RecipeText::tr("%1: %n attempt(s), %2", nullptr, int(e.queue->attempts.value_or(0)))
            .arg(QString::fromUtf8(e.queue->id), RecipeText::preview(e.value));
    });
    lines.append(RecipeText::tr("Delayed: %1").arg(r.count(Role::Delayed)));
    appendList(lines, r, Role::Delayed, [&](const Entry &e) {
        const qint64 until = e.queue->millis - wallNowMs;
        return RecipeText::tr("%1: due %2 (%3), %4")
            .arg(QString::fromUtf8(e.queue->id), localTime(e.queue->millis),
                until >= 0 ? RecipeText::tr("in %1").arg(RecipeText::age(until))
                           : RecipeText::tr("%1 overdue").arg(RecipeText::age(-until)),
                RecipeText::preview(e.value));
    });
}
} // namespace

QStringList RecipeText::details(
    const Recipe &r, qint64 wallNowMs, const LeaseClock *clock, qint64 monotonicNowMs)
{
    if (!isQueue(r.kind))
        return {};
    wallNowMs = wallOrNow(wallNowMs);
    QStringList lines;
    const int depth = int(r.number.value_or(0));
    lines.append(r.kind == Kind::WorkQueue ? tr("Pending: %n item(s)", nullptr, depth)
                                           : tr("Depth: %n item(s)", nullptr, depth));
    if (r.kind == Kind::PriorityQueue) {
        for (const PriorityLevel &level : priorityLevels(r)) {
            QString line
                = tr("Priority %1: %n item(s)", nullptr, int(level.depth)).arg(level.priority);
            if (!level.marked)
                line += tr(" (its marker key was not read)");
            lines.append(QStringLiteral("    ") + line);
        }
    }
    const Entry *head = queueHead(r);
    lines.append(head ? (r.kind == Kind::PriorityQueue ? tr("Next: %1") : tr("Head: %1"))
                            .arg(itemLine(*head, wallNowMs))
                      : tr("Nothing waits to be taken."));
    if (r.kind == Kind::WorkQueue)
        workQueueDetails(lines, r, wallNowMs, clock, monotonicNowMs);
    return lines;
}

QString RecipeText::queueNote(const Entry &e, qint64 wallNowMs)
{
    if (!e.queue)
        return {};
    const QueueItem &q = *e.queue;
    wallNowMs = wallOrNow(wallNowMs);
    const int attempts = int(q.attempts.value_or(0));
    switch (e.role) {
    case Role::Item: {
        QStringList notes;
        if (q.millis >= 0)
            notes.append(tr("enqueued %1 ago").arg(age(wallNowMs - q.millis)));
        if (q.attempts)
            notes.append(tr("delivered %n time(s) before", nullptr, attempts));
        return notes.join(QStringLiteral("; "));
    }
    case Role::Claimed:
        if (q.orphaned)
            return tr("orphaned: reclaimable (attempt %1)").arg(attempts);
        return tr("attempt %1").arg(attempts);
    case Role::DeadLetter:
        return tr("dead after %n attempt(s)", nullptr, attempts);
    case Role::Delayed:
        if (q.millis >= wallNowMs)
            return tr("due in %1").arg(age(q.millis - wallNowMs));
        return tr("due %1 ago, not yet promoted").arg(age(wallNowMs - q.millis));
    default:
        return {};
    }
}

QString RecipeText::preview(const QByteArray &bytes)
{
    return previewBytes(bytes, kValueInSummary);
}

QString RecipeText::age(qint64 ms)
{
    ms = std::max<qint64>(ms, 0); // a producer's clock ahead of ours: just now
    if (ms < 1000)
        return tr("%1 ms").arg(ms);
    const qint64 s = ms / 1000;
    if (s < 60)
        return seconds(s);
    if (s < 3600)
        return tr("%1 min %2 s").arg(s / 60).arg(s % 60);
    if (s < 86'400)
        return tr("%1 h %2 min").arg(s / 3600).arg(s % 3600 / 60);
    return tr("%1 d %2 h").arg(s / 86'400).arg(s % 86'400 / 3600);
}

QString RecipeText::printable(const QByteArray &bytes, qsizetype maxChars)
{
    QString text;
    if (QUtf8StringView(bytes).isValidUtf8())
        text = QString::fromUtf8(bytes);
    if (!isText(text) || (text.isEmpty() && !bytes.isEmpty()))
        text = QString::fromLatin1(bytes.toHex(' '));
    if (text.size() > maxChars)
        return text.left(maxChars - 1) + QStringLiteral("…");
    return text;
}

QString RecipeText::leaseHex(qint64 lease)
{
    return lease == 0 ? none() : QString::number(quint64(lease), 16);
}

QString RecipeText::ttl(const LeaseClock *clock, qint64 lease, qint64 nowMs)
{
    if (lease == 0)
        return none();
    const std::optional<LeaseClock::Sample> sample = clock ? clock->sample(lease) : std::nullopt;
    if (!sample)
        return tr("?", "TTL not known yet");
    // etcd answered -1 (lease not found) or a negative TTL: either way nothing keeps it alive.
    if (sample->ttlSeconds < 0)
        return tr("expired");
    // The countdown ran out but etcd last said it lives: a renewal is likely on its way and
    // the poller asks again first thing; "expired" is only what etcd itself says.
    const qint64 leftMs = clock->remainingMs(lease, nowMs).value_or(0);
    if (leftMs <= 0)
        return tr("due", "TTL countdown ran out; etcd is asked again");
    return seconds((leftMs + 999) / 1000); // "1 s" until the very end, as a countdown reads
}

QString RecipeText::seconds(qint64 seconds)
{
    return tr("%n s", "seconds", int(seconds));
}

QString RecipeText::none()
{
    return QStringLiteral("—");
}

} // namespace Inspector
