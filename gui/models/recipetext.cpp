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
    }
    return {};
}

QString RecipeText::roleWithSide(const Entry &entry)
{
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

QString RecipeText::who(const Entry &entry)
{
    if (entry.service)
        return instance(*entry.service);
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

QString RecipeText::summary(const Recipe &r)
{
    const int waiting = int(r.count(Role::Waiter));
    switch (r.kind) {
    case Kind::Election:
        if (const Entry *leader = r.first(Role::Leader))
            return tr("leader %1 since revision %2 (%n candidate(s))", nullptr,
                int(r.count(Role::Participant)))
                .arg(who(*leader))
                .arg(leader->createRevision);
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
    }
    return {};
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
