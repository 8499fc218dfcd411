// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "viewdiff.h"

#include "recipetext.h"

#include <QtCore/qcoreapplication.h>
#include <QtCore/qhash.h>
#include <QtCore/qset.h>

#include <algorithm>

namespace Inspector {

using namespace Etcd::Decode;
using Type = RecipeEvent::Type;

namespace {
QString path(const Recipe &r)
{
    return QString::fromUtf8(r.path);
}

// Keeps the per-recipe comparisons short: every event of one diff shares time and kind.
class Differ
{
    Q_DECLARE_TR_FUNCTIONS(Inspector::ViewDiff)

public:
    Differ(const Recipe &before, const Recipe &after, qint64 since, qint64 revision,
        const QDateTime &now, ViewChanges &out)
        : b(before), a(after), m_since(since), m_revision(revision), m_now(now), m_out(out)
    { }

    void run()
    {
        switch (a.kind) {
        case Kind::Election:
            return election();
        case Kind::Mutex:
        case Kind::ReadWriteLock:
        case Kind::Semaphore:
            return queue();
        case Kind::Barrier:
            return barrier();
        case Kind::CountedBarrier:
        case Kind::DoubleBarrier:
            return counted();
        case Kind::Number:
            return number();
        case Kind::TransientKey:
            return transient();
        case Kind::Service:
            return service();
        case Kind::Queue:
        case Kind::PriorityQueue:
        case Kind::WorkQueue:
            // Items come and go by the thousand: the recipe view shows the depth, the log
            // would only drown the events a person must see.
            return;
        }
    }

private:
    RecipeEvent &add(Type type, const QString &actor, const QString &text, qint64 rev = 0)
    {
        RecipeEvent e;
        e.time = m_now;
        e.revision = rev > 0 ? rev : m_revision;
        e.type = type;
        e.kind = a.kind;
        e.path = a.path;
        e.actor = actor;
        e.text = text;
        m_out.events.append(e);
        return m_out.events.last();
    }

    static QSet<QByteArray> keysOf(const Recipe &r)
    {
        QSet<QByteArray> keys;
        for (const Entry &e : r.entries)
            keys.insert(e.key);
        return keys;
    }

    // The revision an event is logged at: a key's creation when that is news of this diff,
    // else the view's (a waiter promoted now was created long before; what let it through,
    // a release, is logged at the view's revision too, so the log keeps cause before effect).
    qint64 laterOf(qint64 createRevision) const
    {
        return createRevision > m_since ? std::min(createRevision, m_revision) : m_revision;
    }

    static QHash<QByteArray, const Entry *> byKey(const Recipe &r, Role role)
    {
        QHash<QByteArray, const Entry *> keys;
        for (const Entry &e : r.entries) {
            if (e.role == role)
                keys.insert(e.key, &e);
        }
        return keys;
    }

    void election()
    {
        const Entry *was = b.first(Role::Leader);
        const Entry *now = a.first(Role::Leader);
        const bool changed = (was == nullptr) != (now == nullptr)
            || (was && now && (was->createRevision != now->createRevision || was->key != now->key));
        if (changed)
            handOff(was, now);
        joinedAndLeft(Role::Participant, Type::CandidateJoined, Type::CandidateLeft,
            tr("%1 became a candidate in %2"), tr("%1 left the election %2"));
    }

    void handOff(const Entry *was, const Entry *now)
    {
        HandOff h;
        h.election = a.path;
        h.from = was ? actorOf(*was) : QString();
        h.to = now ? actorOf(*now) : QString();
        h.revision = now ? now->createRevision : m_revision;
        h.termToken = now ? now->createRevision : 0;
        h.time = m_now;
        m_out.handOffs.append(h);
        if (now) {
            add(Type::LeaderElected, h.to,
                tr("%1 became leader of %2, term token %3")
                    .arg(h.to, path(a))
                    .arg(now->createRevision),
                laterOf(now->createRevision))
                .token
                = now->createRevision;
        } else {
            add(Type::LeaderLost, h.from, tr("%1 no longer leads %2").arg(h.from, path(a)));
        }
    }

    void joinedAndLeft(
        Role role, Type joined, Type left, const QString &joinedText, const QString &leftText)
    {
        // A key that changes role (a concurrency.Election candidate becoming leader) has
        // neither joined nor left: only keys new to, or gone from, the whole recipe count.
        const QSet<QByteArray> before = keysOf(b);
        const QSet<QByteArray> after = keysOf(a);
        for (const Entry &e : a.entries) {
            if (e.role == role && !before.contains(e.key))
                add(joined, actorOf(e), QString(joinedText).arg(actorOf(e), path(a)),
                    laterOf(e.createRevision));
        }
        for (const Entry &e : b.entries) {
            if (e.role == role && !after.contains(e.key))
                add(left, actorOf(e), QString(leftText).arg(actorOf(e), path(a)));
        }
    }

    // Locks and semaphores: holders acquire and release; new waiters queue. A waiter that
    // is promoted keeps its key, so it shows as one acquisition and no release.
    void queue()
    {
        const auto heldBefore = byKey(b, Role::Holder);
        const auto heldAfter = byKey(a, Role::Holder);
        const auto waitingBefore = byKey(b, Role::Waiter);
        for (auto it = heldBefore.cbegin(); it != heldBefore.cend(); ++it) {
            if (!heldAfter.contains(it.key()))
                add(Type::Released, actorOf(**it),
                    tr("%1 released %2").arg(actorOf(**it), path(a)));
        }
        for (auto it = heldAfter.cbegin(); it != heldAfter.cend(); ++it) {
            if (heldBefore.contains(it.key()))
                continue;
            const Entry &e = **it;
            add(Type::Acquired, actorOf(e),
                tr("%1 acquired %2, token %3").arg(actorOf(e), path(a)).arg(e.createRevision),
                laterOf(e.createRevision))
                .token
                = e.createRevision;
        }
        for (const Entry &e : a.entries) {
            if (e.role == Role::Waiter && !waitingBefore.contains(e.key)
                && !heldBefore.contains(e.key))
                add(Type::Queued, actorOf(e), tr("%1 is waiting for %2").arg(actorOf(e), path(a)),
                    laterOf(e.createRevision));
        }
    }

    void barrier()
    {
        const Entry *was = b.first(Role::Setter);
        const Entry *now = a.first(Role::Setter);
        if (now && (!was || was->createRevision != now->createRevision))
            add(Type::BarrierSet, actorOf(*now),
                tr("%1 set barrier %2").arg(actorOf(*now), path(a)), laterOf(now->createRevision));
        else if (was && !now)
            add(Type::BarrierLifted, actorOf(*was), tr("barrier %1 lifted").arg(path(a)));
    }

    void counted()
    {
        joinedAndLeft(Role::Member, Type::MemberArrived, Type::KeyVanished, tr("%1 arrived at %2"),
            tr("%1 left %2"));
        const auto readyBefore = byKey(b, Role::Ready);
        for (const Entry &e : a.entries) {
            if (e.role == Role::Ready && !readyBefore.contains(e.key))
                add(Type::BarrierTripped, actorOf(e),
                    tr("%1 tripped: every member arrived").arg(path(a)), laterOf(e.createRevision));
        }
    }

    void number()
    {
        if (b.number && a.entries.isEmpty()) {
            add(Type::KeyVanished, QString(), tr("%1 was deleted").arg(path(a)));
            return;
        }
        if (!a.number || a.number == b.number)
            return;
        add(Type::NumberChanged, QString(), tr("%1 is now %2").arg(path(a)).arg(*a.number)).number
            = *a.number;
    }

    void transient()
    {
        if (b.entries.isEmpty() && !a.entries.isEmpty())
            add(Type::KeyAppeared, actorOf(a.entries.first()), tr("%1 appeared").arg(path(a)),
                a.entries.first().createRevision);
        else if (!b.entries.isEmpty() && a.entries.isEmpty())
            add(Type::KeyVanished, actorOf(b.entries.first()), tr("%1 vanished").arg(path(b)));
    }

    // An instance is its key: a new key registered, a gone one ended, a changed value updated
    // (a heal under a new lease keeps the key, and says nothing a person must act on).
    void service()
    {
        const auto before = byKey(b, Role::Instance);
        const auto after = byKey(a, Role::Instance);
        const QString name = serviceName(a);
        for (const Entry &e : a.entries) {
            const Entry *was = before.value(e.key);
            if (!was)
                add(Type::InstanceRegistered, actorOf(e),
                    tr("%1 registered with service %2").arg(RecipeText::who(e), name),
                    laterOf(e.createRevision));
            else if (was->value != e.value)
                add(Type::InstanceUpdated, actorOf(e),
                    tr("%1 of service %2 updated").arg(RecipeText::who(e), name),
                    laterOf(e.modRevision));
        }
        for (const Entry &e : b.entries) {
            if (!after.contains(e.key))
                add(Type::InstanceGone, actorOf(e),
                    tr("%1 left service %2").arg(RecipeText::who(e), name));
        }
    }

    const Recipe &b;
    const Recipe &a;
    qint64 m_since; // the previous view's revision
    qint64 m_revision;
    QDateTime m_now;
    ViewChanges &m_out;
};

// A recipe that is gone is compared as an empty one of its kind, so its holders release,
// its leader is lost and its barrier lifts.
Recipe emptied(const Recipe &r)
{
    Recipe e;
    e.kind = r.kind;
    e.path = r.path;
    return e;
}

// Two recipes can share a path (a leased key /e beside the election /e/LEADER): a recipe's
// identity is its path and its kind.
QByteArray identity(const Recipe &r)
{
    return r.path + '\0' + QByteArray::number(int(r.kind));
}

QHash<QByteArray, const Recipe *> byIdentity(const View &v)
{
    QHash<QByteArray, const Recipe *> recipes;
    recipes.reserve(v.recipes.size());
    for (const Recipe &r : v.recipes)
        recipes.insert(identity(r), &r);
    return recipes;
}
} // namespace

QString actorOf(const Entry &entry)
{
    if (entry.service)
        return serviceRegistrant(*entry.service);
    if (!entry.owner.isEmpty())
        return entry.owner;
    if (entry.lease != 0)
        return QCoreApplication::translate("Inspector::ViewDiff", "lease %1")
            .arg(QString::number(entry.lease, 16));
    return QString::fromUtf8(entry.key);
}

ViewChanges diffViews(const View &before, const View &after, const QDateTime &now)
{
    ViewChanges out;
    const auto previous = byIdentity(before);
    const auto current = byIdentity(after);
    for (const Recipe &r : after.recipes) {
        const Recipe *was = previous.value(identity(r));
        const Recipe empty = emptied(r);
        // A path that changed kind (a transient key that became a barrier) starts afresh.
        const Recipe &base = was ? *was : empty;
        Differ(base, r, before.revision, after.revision, now, out).run();
    }
    for (const Recipe &r : before.recipes) {
        if (current.contains(identity(r)))
            continue;
        const Recipe empty = emptied(r);
        Differ(r, empty, before.revision, after.revision, now, out).run();
    }
    return out;
}

} // namespace Inspector
