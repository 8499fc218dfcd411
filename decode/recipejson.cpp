// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// The JSON form of a decoded view: the facts each kind is read for at the top of its object
// (leader, holder, permits...), every entry with its role below, so a script needs no layout.
#include "recipedecoder.h"

#include <QtCore/qdatetime.h>
#include <QtCore/qjsonarray.h>
#include <QtCore/qjsondocument.h>

namespace Etcd::Decode {

QJsonValue leaseJson(qint64 lease)
{
    return lease == 0 ? QJsonValue(QJsonValue::Null) : QJsonValue(QString::number(lease, 16));
}

void insertBytes(QJsonObject &o, const QString &field, const QByteArray &bytes)
{
    const QString text = QString::fromUtf8(bytes);
    if (text.toUtf8() == bytes)
        o.insert(field, text);
    else
        o.insert(field + QLatin1String("Hex"), QString::fromLatin1(bytes.toHex()));
}

namespace {
QString isoTime(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODateWithMs);
}

// A delayed item's millis say when it is due; every other item's, when it was enqueued.
QString millisField(const Entry &e)
{
    return e.role == Role::Delayed ? QStringLiteral("dueAtMs") : QStringLiteral("enqueuedAtMs");
}

// What a queue key's name and neighbours say, beside the key's own fields.
void insertQueueFields(QJsonObject &o, const Entry &e)
{
    const QueueItem &q = *e.queue;
    o.insert(QStringLiteral("id"), QString::fromUtf8(q.id));
    if (q.millis >= 0)
        o.insert(millisField(e), q.millis);
    if (q.batchIndex >= 0)
        o.insert(QStringLiteral("batchIndex"), q.batchIndex);
    if (q.priority >= 0)
        o.insert(QStringLiteral("priority"), q.priority);
    if (q.sequence >= 0)
        o.insert(QStringLiteral("sequence"), q.sequence);
    if (q.attempts)
        o.insert(QStringLiteral("attempts"), *q.attempts);
    if (!q.consumer.isEmpty())
        o.insert(QStringLiteral("consumer"), q.consumer);
    if (e.role == Role::Claimed)
        o.insert(QStringLiteral("orphaned"), q.orphaned);
}

QJsonObject entryJson(const Entry &e)
{
    QJsonObject o {{QStringLiteral("role"), roleName(e.role)},
        {QStringLiteral("key"), QString::fromUtf8(e.key)},
        {QStringLiteral("createRevision"), e.createRevision},
        {QStringLiteral("modRevision"), e.modRevision},
        {QStringLiteral("lease"), leaseJson(e.lease)}};
    if (e.side != Side::None)
        o.insert(QStringLiteral("side"), sideName(e.side));
    if (!e.owner.isEmpty())
        o.insert(QStringLiteral("owner"), e.owner);
    if (e.ttl >= 0)
        o.insert(QStringLiteral("ttl"), e.ttl);
    insertBytes(o, QStringLiteral("value"), e.value);
    if (e.queue)
        insertQueueFields(o, e);
    return o;
}

// One queue item as the facts name it: its id and key, its value previewed (the entries
// carry it whole), its times and, with the time of the read, its age or how long until due.
QJsonObject itemJson(const Entry &e, qint64 wallClockMs)
{
    const QueueItem &q = *e.queue;
    QJsonObject o {{QStringLiteral("id"), QString::fromUtf8(q.id)},
        {QStringLiteral("key"), QString::fromUtf8(e.key)},
        {QStringLiteral("preview"), previewBytes(e.value)}};
    if (q.millis >= 0) {
        const bool delayed = e.role == Role::Delayed;
        o.insert(
            delayed ? QStringLiteral("dueAt") : QStringLiteral("enqueuedAt"), isoTime(q.millis));
        o.insert(millisField(e), q.millis);
        if (wallClockMs > 0)
            o.insert(delayed ? QStringLiteral("dueInMs") : QStringLiteral("ageMs"),
                delayed ? q.millis - wallClockMs : wallClockMs - q.millis);
    }
    if (q.priority >= 0) {
        o.insert(QStringLiteral("priority"), q.priority);
        o.insert(QStringLiteral("sequence"), q.sequence);
    }
    if (q.attempts)
        o.insert(QStringLiteral("attempts"), *q.attempts);
    return o;
}

QJsonValue headJson(const Recipe &r, qint64 wallClockMs)
{
    const Entry *head = queueHead(r);
    return head ? QJsonValue(itemJson(*head, wallClockMs)) : QJsonValue();
}

QJsonArray itemsJson(const Recipe &r, Role role, qint64 wallClockMs)
{
    QJsonArray items;
    for (const Entry &e : r.entries) {
        if (e.role == role && e.queue)
            items.append(itemJson(e, wallClockMs));
    }
    return items;
}

void insertPriorityQueue(QJsonObject &o, const Recipe &r, qint64 wallClockMs)
{
    QJsonArray levels;
    for (const PriorityLevel &level : priorityLevels(r))
        levels.append(QJsonObject {{QStringLiteral("priority"), level.priority},
            {QStringLiteral("depth"), qint64(level.depth)},
            {QStringLiteral("marker"), level.marked}});
    o.insert(QStringLiteral("levels"), levels);
    o.insert(QStringLiteral("next"), headJson(r, wallClockMs));
}

// Items in flight with who claims them; dead letters with their attempts; delayed items.
void insertWorkQueue(QJsonObject &o, const Recipe &r, qint64 wallClockMs)
{
    o.insert(QStringLiteral("head"), headJson(r, wallClockMs));
    QJsonArray inFlight;
    for (const Entry &e : r.entries) {
        if (e.role != Role::Claimed || !e.queue)
            continue;
        const QueueItem &q = *e.queue;
        QJsonObject claim = itemJson(e, wallClockMs);
        claim.remove(QStringLiteral("attempts"));
        claim.insert(
            QStringLiteral("consumer"), q.orphaned ? QJsonValue() : QJsonValue(q.consumer));
        claim.insert(
            QStringLiteral("attempt"), q.attempts ? QJsonValue(*q.attempts) : QJsonValue());
        claim.insert(QStringLiteral("lease"), leaseJson(q.claimLease));
        if (q.claimTtl >= 0)
            claim.insert(QStringLiteral("ttl"), q.claimTtl);
        claim.insert(QStringLiteral("orphaned"), q.orphaned);
        inFlight.append(claim);
    }
    o.insert(QStringLiteral("inFlight"), inFlight);
    o.insert(QStringLiteral("orphaned"), qint64(orphanedClaims(r)));
    o.insert(QStringLiteral("deadLetters"), itemsJson(r, Role::DeadLetter, wallClockMs));
    o.insert(QStringLiteral("delayed"), itemsJson(r, Role::Delayed, wallClockMs));
}

// A holder's fencing token (a leader's term token); null when nobody holds.
QJsonValue fencingJson(const Entry *e)
{
    if (!e)
        return {};
    return QJsonObject {{QStringLiteral("key"), QString::fromUtf8(e->key)},
        {QStringLiteral("lease"), leaseJson(e->lease)},
        {QStringLiteral("revision"), e->createRevision}};
}

// Who an entry stands for: its client id; else what a concurrency.Election key proclaims;
// else (a mutex key) its lease, which is all etcd's layout records.
QString who(const Entry &e)
{
    if (!e.owner.isEmpty())
        return e.owner;
    return e.value.isEmpty() ? QString::number(e.lease, 16) : QString::fromUtf8(e.value);
}

QJsonArray owners(const QList<Entry> &entries)
{
    QJsonArray a;
    for (const Entry &e : entries)
        a.append(who(e));
    return a;
}

void insertElection(QJsonObject &o, const Recipe &r)
{
    const Entry *leader = r.first(Role::Leader);
    o.insert(QStringLiteral("leader"), leader ? QJsonValue(who(*leader)) : QJsonValue());
    o.insert(QStringLiteral("leaderSince"), leader ? leader->createRevision : 0);
    o.insert(QStringLiteral("termToken"), fencingJson(leader));
    QList<Entry> candidates = r.withRole(Role::Participant);
    if (leader)
        candidates.removeIf(
            [leader](const Entry &e) { return !e.owner.isEmpty() && e.owner == leader->owner; });
    o.insert(QStringLiteral("candidates"), owners(candidates));
    o.insert(QStringLiteral("participants"), owners(r.withRole(Role::Participant)));
}

void insertLock(QJsonObject &o, const Recipe &r)
{
    const Entry *holder = r.first(Role::Holder);
    o.insert(QStringLiteral("holder"), holder ? QJsonValue(who(*holder)) : QJsonValue());
    o.insert(QStringLiteral("fencingToken"), fencingJson(holder));
    o.insert(QStringLiteral("queue"), owners(r.withRole(Role::Waiter)));
}

void insertReadWrite(QJsonObject &o, const Recipe &r)
{
    QList<Entry> readers, writers;
    for (const Entry &e : r.withRole(Role::Holder))
        (e.side == Side::Read ? readers : writers).append(e);
    o.insert(QStringLiteral("readers"), owners(readers));
    o.insert(QStringLiteral("writers"), owners(writers));
    o.insert(QStringLiteral("queue"), owners(r.withRole(Role::Waiter)));
}

void insertSemaphore(QJsonObject &o, const Recipe &r)
{
    o.insert(QStringLiteral("permits"), r.number ? QJsonValue(*r.number) : QJsonValue());
    o.insert(QStringLiteral("used"), qint64(r.count(Role::Holder)));
    o.insert(QStringLiteral("holders"), owners(r.withRole(Role::Holder)));
    o.insert(QStringLiteral("queue"), owners(r.withRole(Role::Waiter)));
    if (r.count(Role::Unranked) > 0)
        o.insert(QStringLiteral("unranked"), owners(r.withRole(Role::Unranked)));
}

// One round of a counted barrier: its "ready" marker present or not, and who waits in it.
QJsonObject countedJson(const Recipe &r, Side side)
{
    QList<Entry> members;
    bool ready = false;
    for (const Entry &e : r.entries) {
        if (e.side != side)
            continue;
        ready = ready || e.role == Role::Ready;
        if (e.role == Role::Member)
            members.append(e);
    }
    return {{QStringLiteral("ready"), ready}, {QStringLiteral("waiting"), owners(members)},
        {QStringLiteral("expected"), QJsonValue()}};
}

// An instance as etcd-recipes writes it (its ten fields), and where etcd keeps it.
QJsonObject instanceJson(const Entry &e)
{
    QJsonObject o = QJsonDocument::fromJson(e.service->toJson()).object();
    o.insert(QStringLiteral("endpoint"), serviceEndpoint(*e.service));
    o.insert(QStringLiteral("key"), QString::fromUtf8(e.key));
    o.insert(QStringLiteral("lease"), leaseJson(e.lease));
    if (e.ttl >= 0)
        o.insert(QStringLiteral("ttl"), e.ttl);
    return o;
}

void insertService(QJsonObject &o, const Recipe &r)
{
    o.insert(QStringLiteral("service"), serviceName(r));
    const QByteArray names = r.path.left(r.path.lastIndexOf('/'));
    // "<P>/names", or "names" alone for a service path that is empty.
    o.insert(QStringLiteral("servicePath"), QString::fromUtf8(names.left(names.size() - 6)));
    QJsonArray instances;
    for (const Entry &e : r.entries) {
        if (e.service)
            instances.append(instanceJson(e));
    }
    o.insert(QStringLiteral("instances"), instances);
}

void insertFacts(QJsonObject &o, const Recipe &r, qint64 wallClockMs)
{
    switch (r.kind) {
    case Kind::Election:
        return insertElection(o, r);
    case Kind::Mutex:
        return insertLock(o, r);
    case Kind::ReadWriteLock:
        return insertReadWrite(o, r);
    case Kind::Semaphore:
        return insertSemaphore(o, r);
    case Kind::Barrier:
        o.insert(QStringLiteral("set"), true);
        o.insert(QStringLiteral("owner"), r.entries.first().owner);
        o.insert(QStringLiteral("token"), QString::fromUtf8(r.entries.first().value));
        return;
    case Kind::CountedBarrier: {
        const QJsonObject round = countedJson(r, Side::None);
        for (auto it = round.constBegin(); it != round.constEnd(); ++it)
            o.insert(it.key(), it.value());
        return;
    }
    case Kind::DoubleBarrier:
        o.insert(QStringLiteral("enter"), countedJson(r, Side::Enter));
        o.insert(QStringLiteral("leave"), countedJson(r, Side::Leave));
        return;
    case Kind::Number:
        // Read as a latch, it is open at zero (countDown() never goes below).
        o.insert(QStringLiteral("value"), r.number ? QJsonValue(*r.number) : QJsonValue());
        o.insert(QStringLiteral("latchOpen"), r.number == 0);
        return;
    case Kind::TransientKey:
        insertBytes(o, QStringLiteral("value"), r.entries.first().value);
        return;
    case Kind::Service:
        return insertService(o, r);
    case Kind::Queue:
        o.insert(QStringLiteral("depth"), r.number.value_or(0));
        o.insert(QStringLiteral("head"), headJson(r, wallClockMs));
        return;
    case Kind::PriorityQueue:
        o.insert(QStringLiteral("depth"), r.number.value_or(0));
        return insertPriorityQueue(o, r, wallClockMs);
    case Kind::WorkQueue:
        o.insert(QStringLiteral("depth"), r.number.value_or(0));
        return insertWorkQueue(o, r, wallClockMs);
    }
}
} // namespace

QJsonObject toJson(const Recipe &r, qint64 wallClockMs)
{
    QJsonObject o {{QStringLiteral("kind"), kindName(r.kind)},
        {QStringLiteral("path"), QString::fromUtf8(r.path)}};
    insertFacts(o, r, wallClockMs);
    QJsonArray entries;
    for (const Entry &e : r.entries)
        entries.append(entryJson(e));
    o.insert(QStringLiteral("entries"), entries);
    if (!r.notes.isEmpty())
        o.insert(QStringLiteral("notes"), QJsonArray::fromStringList(r.notes));
    return o;
}

QJsonObject toJson(const View &view)
{
    QJsonArray recipes, raw;
    for (const Recipe &r : view.recipes)
        recipes.append(toJson(r, view.wallClockMs));
    for (const EtcdKeyValue &kv : view.raw) {
        QJsonObject o {{QStringLiteral("key"), QString::fromUtf8(kv.key)},
            {QStringLiteral("createRevision"), kv.createRevision},
            {QStringLiteral("modRevision"), kv.modRevision},
            {QStringLiteral("version"), kv.version},
            {QStringLiteral("lease"), leaseJson(kv.lease)}};
        insertBytes(o, QStringLiteral("value"), kv.value);
        raw.append(o);
    }
    return {{QStringLiteral("prefix"), QString::fromUtf8(view.prefix)},
        {QStringLiteral("revision"), view.revision}, {QStringLiteral("recipes"), recipes},
        {QStringLiteral("raw"), raw}};
}

} // namespace Etcd::Decode
