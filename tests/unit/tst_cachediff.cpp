// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// cacheDiff, what a cache reports after a re-read (rebuild() or a resync over a compacted
// gap): every difference once, with the exact value held before, in key order, additions
// and updates before removals so that a reader never sees the cache shrink below both ends.
#include "cachecore_p.h"

#include <QtCore/qrandom.h>
#include <QtTest/qtest.h>

#include <algorithm>

using namespace Qt::StringLiterals;
using Etcd::Internal::CacheChange;
using Kind = CacheChange::Kind;

namespace {

// The test's view of a cache's contents: by name, which keeps the expectations short.
using Entries = QMap<QString, EtcdKeyValue>;

EtcdKeyValue kv(const QString &name, const QByteArray &value, qint64 mod, qint64 create = 0)
{
    EtcdKeyValue k;
    k.key = "/p/" + name.toUtf8();
    k.value = value;
    k.createRevision = create ? create : mod;
    k.modRevision = mod;
    k.version = 1 + mod - k.createRevision;
    return k;
}

Entries entries(const QList<EtcdKeyValue> &kvs)
{
    Entries out;
    for (const EtcdKeyValue &k : kvs)
        out.insert(QString::fromUtf8(k.key.mid(3)), k);
    return out;
}

// cacheDiff as a cache calls it: what it holds, and a read's key-values in key order.
QList<CacheChange> cacheDiff(const Entries &from, const Entries &to, qint64 revision)
{
    Etcd::Internal::CacheEntries held;
    for (const EtcdKeyValue &k : from)
        held.insert(k);
    QList<EtcdKeyValue> read = to.values();
    std::sort(read.begin(), read.end(), Etcd::Internal::ByKey());
    return Etcd::Internal::cacheDiff(
        held, read, revision, [](const QByteArray &key) { return QString::fromUtf8(key.mid(3)); });
}

QStringList namesOf(const QList<CacheChange> &changes)
{
    QStringList out;
    for (const CacheChange &c : changes)
        out.append(c.name);
    return out;
}

// Applies `c` as a cache does; false when it does not fit what `state` holds.
bool applyTo(Entries &state, const CacheChange &c)
{
    const bool held = state.contains(c.name);
    switch (c.kind) {
    case Kind::Added:
        if (held)
            return false;
        state.insert(c.name, c.current);
        return true;
    case Kind::Updated:
        if (!held || !(state.value(c.name) == c.previous))
            return false;
        state.insert(c.name, c.current);
        return true;
    case Kind::Removed:
        if (!held || !(state.value(c.name) == c.previous))
            return false;
        state.remove(c.name);
        return true;
    }
    return false;
}

// Random entries over a small name space (flat and nested names), for the properties.
Entries randomEntries(QRandomGenerator &random, qint64 maxRevision)
{
    Entries out;
    const int n = int(random.bounded(12));
    for (int i = 0; i < n; ++i) {
        const int id = int(random.bounded(16));
        const QString name = id % 3 ? u"n%1"_s.arg(id) : u"g%1/n%2"_s.arg(id % 2).arg(id);
        const qint64 mod = 1 + random.bounded(maxRevision);
        out.insert(name, kv(name, "v" + QByteArray::number(random.bounded(3)), mod));
    }
    return out;
}

} // namespace

class tst_CacheDiff : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void nothingToNothing();
    void equalEndsNeedNothing();
    void emptyToFull();
    void fullToEmpty();
    void updatesByModRevisionOrValue();
    void nameOrderWithNestedNames();
    void removalsComeLast();
    void properties();
};

void tst_CacheDiff::nothingToNothing()
{
    QVERIFY(cacheDiff({}, {}, 10).isEmpty());
}

void tst_CacheDiff::equalEndsNeedNothing()
{
    const Entries same = entries({kv(u"a"_s, "1", 3), kv(u"b/c"_s, "2", 4)});
    QVERIFY(cacheDiff(same, same, 9).isEmpty());
}

// Each addition carries the added key-value and its own modRevision, not the read's.
void tst_CacheDiff::emptyToFull()
{
    const Entries to = entries({kv(u"c"_s, "3", 7), kv(u"a"_s, "1", 5), kv(u"b"_s, "2", 6, 2)});
    const QList<CacheChange> changes = cacheDiff({}, to, 20);
    QCOMPARE(namesOf(changes), QStringList({u"a"_s, u"b"_s, u"c"_s}));
    for (const CacheChange &c : changes) {
        QCOMPARE(c.kind, Kind::Added);
        QCOMPARE(c.current, to.value(c.name));
        QCOMPARE(c.previous, EtcdKeyValue());
        QCOMPARE(c.revision, to.value(c.name).modRevision);
    }
    QCOMPARE(changes.at(1).current.createRevision, 2);
}

// A removal found by a re-read has no revision of its own: it carries the read's, and the
// key-value it had, every field.
void tst_CacheDiff::fullToEmpty()
{
    EtcdKeyValue leased = kv(u"b"_s, "2", 6, 4);
    leased.lease = 0x1234;
    const Entries from = entries({kv(u"a"_s, "1", 5), leased});
    const QList<CacheChange> changes = cacheDiff(from, {}, 20);
    QCOMPARE(namesOf(changes), QStringList({u"a"_s, u"b"_s}));
    for (const CacheChange &c : changes) {
        QCOMPARE(c.kind, Kind::Removed);
        QCOMPARE(c.previous, from.value(c.name));
        QCOMPARE(c.current, EtcdKeyValue());
        QCOMPARE(c.revision, 20);
    }
    QCOMPARE(changes.at(1).previous.lease, 0x1234);
    QCOMPARE(changes.at(1).previous.version, 3);
}

// A put of the same bytes is a change (its modRevision moved); so is any other field.
void tst_CacheDiff::updatesByModRevisionOrValue()
{
    const Entries from = entries({kv(u"same"_s, "x", 5), kv(u"rewritten"_s, "x", 5),
        kv(u"revalued"_s, "x", 5), kv(u"released"_s, "x", 5)});
    Entries to = from;
    to[u"rewritten"_s].modRevision = 9; // put again with the same value
    to[u"rewritten"_s].version = 2;
    to[u"revalued"_s].value = "y";
    to[u"released"_s].lease = 77;
    const QList<CacheChange> changes = cacheDiff(from, to, 20);
    QCOMPARE(namesOf(changes), QStringList({u"released"_s, u"revalued"_s, u"rewritten"_s}));
    for (const CacheChange &c : changes) {
        QCOMPARE(c.kind, Kind::Updated);
        QCOMPARE(c.previous, from.value(c.name));
        QCOMPARE(c.current, to.value(c.name));
        QCOMPARE(c.revision, to.value(c.name).modRevision);
    }
    QCOMPARE(changes.at(2).revision, 9);
}

// Keys compare as etcd's bytes: "a" < "a/b" < "a0" < "b" ('/' sorts before the digits).
void tst_CacheDiff::nameOrderWithNestedNames()
{
    const Entries from = entries({kv(u"a0"_s, "1", 2), kv(u"b"_s, "1", 2)});
    const Entries to = entries({kv(u"b"_s, "2", 8), kv(u"a/b"_s, "1", 7), kv(u"a"_s, "1", 6)});
    const QList<CacheChange> changes = cacheDiff(from, to, 20);
    QCOMPARE(namesOf(changes), QStringList({u"a"_s, u"a/b"_s, u"b"_s, u"a0"_s}));
    QCOMPARE(changes.at(0).kind, Kind::Added);
    QCOMPARE(changes.at(1).kind, Kind::Added);
    QCOMPARE(changes.at(2).kind, Kind::Updated);
    QCOMPARE(changes.at(2).previous.value, "1"_ba);
    QCOMPARE(changes.at(3).kind, Kind::Removed);
    QCOMPARE(changes.at(3).revision, 20);
}

// A removal whose name sorts first still comes after every addition and update: a reader
// applying them one by one sees at least as many entries as both ends hold.
void tst_CacheDiff::removalsComeLast()
{
    const Entries from = entries({kv(u"a"_s, "1", 2), kv(u"b"_s, "1", 2)});
    const Entries to = entries({kv(u"b"_s, "2", 8), kv(u"c"_s, "1", 9)});
    const QList<CacheChange> changes = cacheDiff(from, to, 20);
    QCOMPARE(namesOf(changes), QStringList({u"b"_s, u"c"_s, u"a"_s}));
    QCOMPARE(changes.last().kind, Kind::Removed);
    Entries state = from;
    for (const CacheChange &c : changes) {
        QVERIFY(applyTo(state, c));
        QVERIFY(state.size() >= 2);
    }
    QCOMPARE(state, to);
}

// Over random pairs: applying the changes in order turns `from` into `to` exactly, each
// name once, every previous the value held then; all removals last, each part in name
// order; the size never dips below both ends'.
void tst_CacheDiff::properties()
{
    QRandomGenerator random(17);
    for (int round = 0; round < 2000; ++round) {
        const Entries from = randomEntries(random, 10);
        const Entries to = randomEntries(random, 20);
        const qint64 at = 30;
        const QList<CacheChange> changes = cacheDiff(from, to, at);
        Entries state = from;
        const qsizetype floor = std::min(from.size(), to.size());
        QStringList seen;
        bool removing = false;
        QString last;
        for (const CacheChange &c : changes) {
            const bool removal = c.kind == Kind::Removed;
            QVERIFY2(!removing || removal, "an addition or update after a removal");
            if (removal != removing)
                last.clear(); // the removals start their own name order
            removing = removal;
            QVERIFY2(last.isEmpty() || last < c.name, qPrintable(last + u" then "_s + c.name));
            last = c.name;
            QVERIFY(!seen.contains(c.name));
            seen.append(c.name);
            QCOMPARE(c.revision, removal ? at : c.current.modRevision);
            QVERIFY2(applyTo(state, c), qPrintable(c.name));
            QVERIFY(state.size() >= floor);
        }
        QCOMPARE(state, to);
    }
}

QTEST_APPLESS_MAIN(tst_CacheDiff)
#include "tst_cachediff.moc"
