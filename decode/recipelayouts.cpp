// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "recipelayouts_p.h"

#include <QtCore/qcoreapplication.h>

#include <EtcdQt/etcdcodec.h>

#include <QtCore/qset.h>

#include <algorithm>

namespace Etcd::Decode::Layouts {

namespace {
constexpr qsizetype kTagLength = 7; // the random part of a token

bool byCreateRevision(const EtcdKeyValue &a, const EtcdKeyValue &b)
{
    return a.createRevision < b.createRevision;
}

QString text(const QByteArray &bytes)
{
    return QString::fromUtf8(bytes);
}

// The recipe paths a family of keys names: "<path><suffix>" for an exact suffix, or
// "<path><infix><rest>" for a child folder, sorted and unique.
QList<QByteArray> pathsNamed(const Pool &pool, const QByteArray &suffix, const QByteArray &infix)
{
    QSet<QByteArray> paths;
    for (const QByteArray &key : pool.keys.keys()) {
        if (key.endsWith(suffix))
            paths.insert(key.chopped(suffix.size()));
        const qsizetype at = key.lastIndexOf(infix);
        if (at >= 0 && at + infix.size() < key.size())
            paths.insert(key.left(at));
    }
    QList<QByteArray> sorted = paths.values();
    std::sort(sorted.begin(), sorted.end());
    return sorted;
}

QList<Recipe> nonEmpty(QList<Recipe> recipes)
{
    recipes.removeIf([](const Recipe &r) { return r.entries.isEmpty(); });
    return recipes;
}

// Printable ASCII throughout: text, whatever its length.
bool isPrintable(const QByteArray &bytes)
{
    return std::all_of(bytes.cbegin(), bytes.cend(), [](char c) { return c >= 0x20 && c < 0x7f; });
}
} // namespace

QList<EtcdKeyValue> Pool::under(const QByteArray &prefix) const
{
    QList<EtcdKeyValue> found;
    for (auto it = keys.lowerBound(prefix); it != keys.cend() && it.key().startsWith(prefix); ++it)
        found.append(it.value());
    std::stable_sort(found.begin(), found.end(), byCreateRevision);
    return found;
}

// By value: `kv` may be the very node this removes from the map.
Entry Pool::take(EtcdKeyValue kv, Role role, const QString &owner)
{
    keys.remove(kv.key);
    return {role, Side::None, owner, kv.key, kv.value, kv.createRevision, kv.modRevision,
        kv.version, kv.lease, kv.lease != 0 ? ttls.value(kv.lease, -1) : -1, std::nullopt,
        std::nullopt};
}

bool isToken(const QByteArray &bytes)
{
    if (bytes.size() < kTagLength + 2 || bytes.at(bytes.size() - kTagLength - 1) != ':')
        return false;
    const QByteArray tag = bytes.right(kTagLength);
    return std::all_of(tag.cbegin(), tag.cend(), [](char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    });
}

QString tokenOwner(const QByteArray &token)
{
    return text(token.chopped(kTagLength + 1));
}

// <E>/LEADER = "<clientId>:<7>" on the leadership lease; <E>/participants/<clientId> on the
// participation lease.
namespace {
Recipe takeElection(Pool &pool, const QByteArray &path)
{
    Recipe r {Kind::Election, path, {}, {}, {}};
    const QByteArray leaderKey = path + "/LEADER";
    if (const auto it = pool.keys.constFind(leaderKey); it != pool.keys.cend()) {
        if (it->lease != 0 && isToken(it->value))
            r.entries.append(pool.take(*it, Role::Leader, tokenOwner(it->value)));
        else
            r.notes.append(QCoreApplication::translate("Etcd::Decode",
                "%1 is not a leased \"<clientId>:<7>\" value: not read as the leader")
                               .arg(text(leaderKey)));
    }
    const QByteArray folder = path + "/participants/";
    for (const EtcdKeyValue &kv : pool.under(folder)) {
        const QByteArray id = kv.key.mid(folder.size());
        if (kv.lease != 0 && !id.isEmpty() && !id.contains('/'))
            r.entries.append(pool.take(kv, Role::Participant, text(id)));
        else
            r.notes.append(QCoreApplication::translate(
                "Etcd::Decode", "%1 is not a participation key: not read as one")
                               .arg(text(kv.key)));
    }
    return r;
}
} // namespace

QList<Recipe> takeElections(Pool &pool)
{
    QList<Recipe> found;
    for (const QByteArray &path : pathsNamed(pool, "/LEADER", "/participants/"))
        found.append(takeElection(pool, path));
    return nonEmpty(found);
}

// <S>/permits = 4 bytes big-endian, no lease; <S>/holders/<clientId>:<7>, one lease each.
// Rank among the holders by create revision < permits: holds; otherwise queued.
namespace {
std::optional<qint64> takePermits(Pool &pool, const QByteArray &path, Recipe &r)
{
    const auto it = pool.keys.constFind(path + "/permits");
    if (it == pool.keys.cend())
        return std::nullopt;
    const std::optional<qint32> permits = Etcd::decodeInt32(it->value);
    if (it->lease != 0 || !permits || *permits < 1) {
        r.notes.append(QCoreApplication::translate("Etcd::Decode",
            "%1 is not an unleased 4-byte count of 1 or more: not read as the permits")
                           .arg(text(it.key())));
        return std::nullopt;
    }
    r.entries.append(pool.take(*it, Role::Value));
    return *permits;
}

Recipe takeSemaphore(Pool &pool, const QByteArray &path)
{
    Recipe r {Kind::Semaphore, path, {}, {}, {}};
    r.number = takePermits(pool, path, r);
    const QByteArray folder = path + "/holders/";
    qint64 rank = 0;
    for (const EtcdKeyValue &kv : pool.under(folder)) {
        const QByteArray token = kv.key.mid(folder.size());
        if (kv.lease == 0 || !isToken(token)) {
            r.notes.append(QCoreApplication::translate(
                "Etcd::Decode", "%1 is not a holder entry: not read as one")
                               .arg(text(kv.key)));
            continue;
        }
        const Role role = !r.number ? Role::Unranked
            : rank++ < *r.number    ? Role::Holder
                                    : Role::Waiter;
        r.entries.append(pool.take(kv, role, tokenOwner(token)));
    }
    if (!r.number && r.count(Role::Unranked) > 0)
        r.notes.append(QCoreApplication::translate(
            "Etcd::Decode", "no readable permits key: which entries hold is unknown"));
    return r;
}
} // namespace

QList<Recipe> takeSemaphores(Pool &pool)
{
    QList<Recipe> found;
    for (const QByteArray &path : pathsNamed(pool, "/permits", "/holders/"))
        found.append(takeSemaphore(pool, path));
    return nonEmpty(found);
}

// <B>/ready = "<clientId>:<7>" with no lease; <B>/waiting/<token> = the same token, leased.
// A double barrier is two of them, <B>/enter and <B>/leave.
namespace {
Recipe takeCountedBarrier(Pool &pool, const QByteArray &path)
{
    Recipe r {Kind::CountedBarrier, path, {}, {}, {}};
    if (const auto it = pool.keys.constFind(path + "/ready"); it != pool.keys.cend()) {
        if (it->lease == 0 && isToken(it->value))
            r.entries.append(pool.take(*it, Role::Ready, tokenOwner(it->value)));
        else
            r.notes.append(QCoreApplication::translate("Etcd::Decode",
                "%1 is not an unleased \"<clientId>:<7>\": not read as the round marker")
                               .arg(text(it.key())));
    }
    const QByteArray folder = path + "/waiting/";
    for (const EtcdKeyValue &kv : pool.under(folder)) {
        const QByteArray token = kv.key.mid(folder.size());
        if (kv.lease != 0 && isToken(token))
            r.entries.append(pool.take(kv, Role::Member, tokenOwner(token)));
        else
            r.notes.append(QCoreApplication::translate(
                "Etcd::Decode", "%1 is not a waiting member: not read as one")
                               .arg(text(kv.key)));
    }
    if (!r.entries.isEmpty())
        r.notes.append(QCoreApplication::translate(
            "Etcd::Decode", "the expected member count is not stored in etcd"));
    return r;
}

// Folds "<B>/enter" and "<B>/leave" into one double barrier at <B>, entries by side.
QList<Recipe> foldDoubleBarriers(QList<Recipe> counted)
{
    QList<Recipe> result;
    QMap<QByteArray, Recipe> doubles;
    for (Recipe &r : counted) {
        const bool enter = r.path.endsWith("/enter");
        if (!enter && !r.path.endsWith("/leave")) {
            result.append(std::move(r));
            continue;
        }
        Recipe &d = doubles[r.path.chopped(6)];
        d.kind = Kind::DoubleBarrier;
        d.path = r.path.chopped(6);
        for (Entry &e : r.entries)
            e.side = enter ? Side::Enter : Side::Leave;
        d.entries.append(r.entries);
        for (const QString &note : std::as_const(r.notes)) {
            if (!d.notes.contains(note))
                d.notes.append(note);
        }
    }
    for (Recipe &d : doubles) {
        const bool both = std::any_of(d.entries.cbegin(), d.entries.cend(), [](const Entry &e) {
            return e.side == Side::Enter;
        }) && std::any_of(d.entries.cbegin(), d.entries.cend(), [](const Entry &e) {
            return e.side == Side::Leave;
        });
        if (!both)
            d.notes.append(QCoreApplication::translate("Etcd::Decode",
                "one phase only: a counted barrier named .../enter or "
                ".../leave looks the same"));
        result.append(std::move(d));
    }
    return result;
}
} // namespace

QList<Recipe> takeCountedBarriers(Pool &pool)
{
    QList<Recipe> found;
    for (const QByteArray &path : pathsNamed(pool, "/ready", "/waiting/"))
        found.append(takeCountedBarrier(pool, path));
    QList<Recipe> result = foldDoubleBarriers(nonEmpty(found));
    std::sort(result.begin(), result.end(),
        [](const Recipe &a, const Recipe &b) { return a.path < b.path; });
    return result;
}

// <L>/read-<clientId>:<7> and <L>/write-<clientId>:<7>, one lease each, value the client id.
namespace {
struct ReadWriteShape
{
    Side side = Side::None;
    QByteArray token;
};

std::optional<ReadWriteShape> readWriteShape(const EtcdKeyValue &kv)
{
    if (kv.lease == 0)
        return std::nullopt;
    const QByteArray segment = lastSegment(kv.key);
    const std::pair<QByteArray, Side> shapes[] = {{"read-", Side::Read}, {"write-", Side::Write}};
    for (const auto &[prefix, side] : shapes) {
        if (segment.startsWith(prefix) && isToken(segment.mid(prefix.size())))
            return ReadWriteShape {side, segment.mid(prefix.size())};
    }
    return std::nullopt;
}

// etcd-recipes' rule: a writer holds when no entry came before it, a reader when no writer
// did, except a write hold of the reader's own client (its downgrade: a snapshot cannot tell
// threads apart, so "same client id" stands for "same thread").
bool blocks(const Entry &earlier, const Entry &later)
{
    if (later.side == Side::Write)
        return true;
    return earlier.side == Side::Write
        && !(earlier.role == Role::Holder && earlier.owner == later.owner);
}

void rankReadWrite(Recipe &r)
{
    for (qsizetype i = 0; i < r.entries.size(); ++i) {
        const bool blocked = std::any_of(r.entries.cbegin(), r.entries.cbegin() + i,
            [&](const Entry &earlier) { return blocks(earlier, r.entries.at(i)); });
        r.entries[i].role = blocked ? Role::Waiter : Role::Holder;
        const bool downgrade = !blocked && r.entries.at(i).side == Side::Read
            && std::any_of(r.entries.cbegin(), r.entries.cbegin() + i,
                [](const Entry &e) { return e.side == Side::Write; });
        if (downgrade)
            r.notes.append(QCoreApplication::translate(
                "Etcd::Decode", "%1 reads under its own write hold (a downgrade)")
                               .arg(r.entries.at(i).owner));
    }
}
} // namespace

QList<Recipe> takeReadWriteLocks(Pool &pool)
{
    QMap<QByteArray, Recipe> locks;
    for (const EtcdKeyValue &kv : pool.keys.values()) {
        const std::optional<ReadWriteShape> shape = readWriteShape(kv);
        if (!shape)
            continue;
        Recipe &r = locks[parentOf(kv.key)];
        r.kind = Kind::ReadWriteLock;
        r.path = parentOf(kv.key);
        Entry e = pool.take(kv, Role::Waiter, tokenOwner(shape->token));
        e.side = shape->side;
        r.entries.append(e);
    }
    for (Recipe &r : locks) {
        std::stable_sort(r.entries.begin(), r.entries.end(),
            [](const Entry &a, const Entry &b) { return a.createRevision < b.createRevision; });
        rankReadWrite(r);
    }
    return locks.values();
}

// <P>/<lease id in lowercase hex> on that very lease: etcd's concurrency package. Empty
// values are a Mutex (etcdctl lock, Go, EtcdMutex); values are an Election's proclamations.
// Either way the earliest create revision owns, the rest queue in create-revision order.
QList<Recipe> takeLeaseNamedKeys(Pool &pool)
{
    QMap<QByteArray, QList<EtcdKeyValue>> groups;
    for (const EtcdKeyValue &kv : std::as_const(pool.keys)) {
        if (kv.lease > 0 && lastSegment(kv.key) == QByteArray::number(kv.lease, 16))
            groups[parentOf(kv.key)].append(kv);
    }
    QList<Recipe> found;
    for (auto it = groups.begin(); it != groups.end(); ++it) {
        std::stable_sort(it->begin(), it->end(), byCreateRevision);
        const bool proclaimed = std::any_of(
            it->cbegin(), it->cend(), [](const EtcdKeyValue &kv) { return !kv.value.isEmpty(); });
        Recipe r {proclaimed ? Kind::Election : Kind::Mutex, it.key(), {}, {}, {}};
        for (const EtcdKeyValue &kv : std::as_const(*it)) {
            const bool first = r.entries.isEmpty();
            const Role role = proclaimed ? (first ? Role::Leader : Role::Participant)
                                         : (first ? Role::Holder : Role::Waiter);
            r.entries.append(pool.take(kv, role));
        }
        r.notes.append(proclaimed
                ? QCoreApplication::translate("Etcd::Decode",
                    "etcd's concurrency.Election layout: the earliest key leads; "
                    "values are proclamations")
                : QCoreApplication::translate("Etcd::Decode",
                    "etcd's concurrency.Mutex layout; a concurrency.Election with "
                    "empty values looks the same"));
        found.append(r);
    }
    return found;
}

// What single keys remain: a leased "<clientId>:<7>" is a barrier (EtcdBarrier), any other
// leased key transient; an unleased 8-byte binary value is a counter or a latch.
QList<Recipe> takeSingleKeys(Pool &pool)
{
    QList<Recipe> found;
    for (const EtcdKeyValue &kv : pool.keys.values()) {
        if (kv.lease != 0) {
            const bool gate = isToken(kv.value);
            Recipe r {gate ? Kind::Barrier : Kind::TransientKey, kv.key, {}, {}, {}};
            r.entries.append(pool.take(
                kv, gate ? Role::Setter : Role::Value, gate ? tokenOwner(kv.value) : QString()));
            if (gate)
                r.notes.append(QCoreApplication::translate("Etcd::Decode",
                    "a transient key holding a \"<clientId>:<7>\" value "
                    "looks the same"));
            found.append(r);
        } else if (kv.value.size() == 8 && !isPrintable(kv.value)) {
            // Eight printable bytes are far more likely text than a number above 2^61.
            Recipe r {Kind::Number, kv.key, {}, Etcd::decodeInt64(kv.value), {}};
            r.entries.append(pool.take(kv, Role::Value));
            r.notes.append(QCoreApplication::translate("Etcd::Decode",
                "an atomic counter, or a count-down latch (open at 0): "
                "the layouts are the same"));
            found.append(r);
        }
    }
    return found;
}

} // namespace Etcd::Decode::Layouts
