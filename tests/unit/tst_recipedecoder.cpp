// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// The recipe decoder on golden key sets: the bytes etcd-recipes (Kotlin), etcdctl and our own
// library write for each recipe, then ambiguous and malformed keys, which must land in raw.
#include <EtcdQt/etcdcodec.h>

#include "queuekeys_p.h"
#include "recipedecoder.h"
#include "recipepaths_p.h"

#include <QtCore/qjsonarray.h>
#include <QtCore/qjsondocument.h>

#include <QtTest/qtest.h>

#include <algorithm>

using namespace Qt::StringLiterals;
using namespace Etcd::Decode;
namespace Paths = Etcd::Internal::RecipePaths;
namespace QueueKeys = Etcd::Internal::QueueKeys;

namespace {
EtcdKeyValue kv(
    const QByteArray &key, const QByteArray &value, qint64 createRevision, qint64 lease = 0)
{
    return {key, value, createRevision, createRevision, 1, lease};
}

View decoded(const QList<EtcdKeyValue> &keyValues, const QHash<qint64, qint64> &ttls = {})
{
    return decode({"/", 100, keyValues, ttls});
}

QStringList owners(const QList<Entry> &entries)
{
    QStringList ids;
    for (const Entry &e : entries)
        ids.append(e.owner);
    return ids;
}

QList<QByteArray> keysOf(const QList<Entry> &entries)
{
    QList<QByteArray> keys;
    for (const Entry &e : entries)
        keys.append(e.key);
    return keys;
}

QList<QByteArray> rawKeys(const View &view)
{
    QList<QByteArray> keys;
    for (const EtcdKeyValue &kv : view.raw)
        keys.append(kv.key);
    return keys;
}

// Every input key is in exactly one place: one recipe's entry, or raw.
bool accountsForEveryKey(const View &view, const QList<EtcdKeyValue> &input)
{
    QList<QByteArray> seen = rawKeys(view);
    for (const Recipe &r : view.recipes)
        seen.append(keysOf(r.entries));
    QList<QByteArray> expected;
    for (const EtcdKeyValue &kv : input)
        expected.append(kv.key);
    std::sort(seen.begin(), seen.end());
    std::sort(expected.begin(), expected.end());
    expected.erase(std::unique(expected.begin(), expected.end()), expected.end());
    return seen == expected;
}

// A key as a transaction of several puts leaves it: the batch's shared mod revision.
EtcdKeyValue batchKv(
    const QByteArray &key, const QByteArray &value, qint64 createRevision, qint64 modRevision)
{
    return {key, value, createRevision, modRevision, 1, 0};
}

QList<Role> rolesOf(const Recipe &r)
{
    QList<Role> roles;
    for (const Entry &e : r.entries)
        roles.append(e.role);
    return roles;
}

const Recipe *recipeAt(const View &view, const QByteArray &path, Kind kind)
{
    for (const Recipe &r : view.recipes) {
        if (r.path == path && r.kind == kind)
            return &r;
    }
    return nullptr;
}

constexpr qint64 kLeaseA = 0x694d7b5c2a1e3f04; // above 2^53, as etcd's ids are
constexpr qint64 kLeaseB = 0x694d7b5c2a1e3f0a;
constexpr qint64 kLeaseC = 0x694d7b5c2a1e3f11;
} // namespace

class tst_RecipeDecoder : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void electionAsOurLibraryWritesIt();
    void electionAsKotlinWritesIt();
    void electionWithoutLeader();
    void etcdctlMutexQueueByCreateRevision();
    void etcdConcurrencyElection();
    void readWriteLockWithKotlinWriter();
    void readWriteLockReadersShareWriterQueues();
    void readWriteLockDowngrade();
    void semaphoreRanksHolders();
    void semaphoreWithoutPermitsIsUnranked();
    void barrierAndTransientKey();
    void countedBarrier();
    void doubleBarrier();
    void eightBytesAreANumberNotACounterOrLatch();
    void leaseTtlsAreAttached();
    void malformedKeysLandInRaw_data();
    void malformedKeysLandInRaw();
    void malformedParticipantsKeepTheElection();
    void emptySnapshot();
    void jsonCarriesTheFacts();
    void serviceAsKotlinWritesIt();
    void servicesAsOurLibraryWritesThem();
    void serviceNotesWhatDisagrees();
    void serviceNamedLikeAnotherLayout();
    void fifoQueueAsKotlinWritesIt();
    void fifoQueueAsOurLibraryWritesIt();
    void fifoQueueJson();
    void priorityQueueAsKotlinWritesIt();
    void priorityMarkersAloneKeepTheQueue();
    void priorityQueueAsOurLibraryWritesIt();
    void workQueueAsKotlinWritesIt();
    void workQueueJson();
    void workQueueItemsAloneAreNoted();
    void workQueueMalformedKeysStayOut();
    void queueShapedKeysThatAreNotQueues_data();
    void queueShapedKeysThatAreNotQueues();
    void queuesBesideEveryOtherRecipe();
    void previewEscapesAndCuts();
};

// RecipePaths writes what EtcdLeaderSelector writes; the decoder reads it back.
void tst_RecipeDecoder::electionAsOurLibraryWritesIt()
{
    const QByteArray e = "/app/election";
    const QList<EtcdKeyValue> input {kv(Paths::participantKey(e, u"cand-1"_s), "cand-1", 10, 0x101),
        kv(Paths::participantKey(e, u"cand-2"_s), "cand-2", 11, 0x102),
        kv(Paths::leaderKey(e), Paths::uniqueToken(u"cand-2"_s), 12, 0x200),
        kv(Paths::participantKey(e, u"cand-3"_s), "cand-3", 13, 0x103)};
    const View view = decoded(input);
    QCOMPARE(view.recipes.size(), 1);
    QVERIFY(view.raw.isEmpty());
    const Recipe &r = view.recipes.first();
    QCOMPARE(r.kind, Kind::Election);
    QCOMPARE(r.path, e);
    QVERIFY(r.first(Role::Leader));
    QCOMPARE(r.first(Role::Leader)->owner, u"cand-2"_s);
    QCOMPARE(r.first(Role::Leader)->fencingToken(),
        (EtcdFencingToken {"/app/election/LEADER", 0x200, 12}));
    QCOMPARE(owners(r.withRole(Role::Participant)),
        (QStringList {u"cand-1"_s, u"cand-2"_s, u"cand-3"_s}));
    QVERIFY(r.notes.isEmpty());
}

// etcd-recipes' default client id has a ':' of its own: "LeaderSelector:<7>", and the
// LEADER value adds ":<7>" again (etcd-recipes.md §2.1, "drop the last 8 chars").
void tst_RecipeDecoder::electionAsKotlinWritesIt()
{
    const View view = decoded({kv("/k/election/LEADER", "LeaderSelector:aB3dE9z:Q1w2E3r", 7, 0x51),
        kv("/k/election/participants/LeaderSelector:aB3dE9z", "LeaderSelector:aB3dE9z", 6, 0x50)});
    QCOMPARE(view.recipes.size(), 1);
    const Recipe &r = view.recipes.first();
    QCOMPARE(r.first(Role::Leader)->owner, u"LeaderSelector:aB3dE9z"_s);
    QCOMPARE(owners(r.withRole(Role::Participant)), QStringList {u"LeaderSelector:aB3dE9z"_s});
    QVERIFY(view.raw.isEmpty());
}

void tst_RecipeDecoder::electionWithoutLeader()
{
    const View view
        = decoded({kv("/e/participants/a", "a", 3, 0x1), kv("/e/participants/b", "b", 4, 0x2)});
    QCOMPARE(view.recipes.size(), 1);
    QCOMPARE(view.recipes.first().kind, Kind::Election);
    QVERIFY(!view.recipes.first().first(Role::Leader));
    QCOMPARE(view.recipes.first().count(Role::Participant), 2);
}

// `etcdctl lock /locks/db` writes "/locks/db/<lease hex>" with an empty value; so does
// EtcdMutex. The holder is the earliest create revision, not the first key by name.
void tst_RecipeDecoder::etcdctlMutexQueueByCreateRevision()
{
    const QList<EtcdKeyValue> input {kv("/locks/db/694d7b5c2a1e3f0a", {}, 30, kLeaseB),
        kv(Paths::mutexKey("/locks/db", kLeaseC), {}, 31, kLeaseC),
        kv("/locks/db/694d7b5c2a1e3f04", {}, 20, kLeaseA)};
    const View view = decoded(input);
    QCOMPARE(view.recipes.size(), 1);
    const Recipe &r = view.recipes.first();
    QCOMPARE(r.kind, Kind::Mutex);
    QCOMPARE(r.path, "/locks/db"_ba);
    QCOMPARE(keysOf(r.withRole(Role::Holder)), QList<QByteArray> {"/locks/db/694d7b5c2a1e3f04"});
    QCOMPARE(keysOf(r.withRole(Role::Waiter)),
        (QList<QByteArray> {"/locks/db/694d7b5c2a1e3f0a", "/locks/db/694d7b5c2a1e3f11"}));
    QCOMPARE(r.first(Role::Holder)->fencingToken(),
        (EtcdFencingToken {"/locks/db/694d7b5c2a1e3f04", kLeaseA, 20}));
    QVERIFY(view.raw.isEmpty());
}

// Go's concurrency.Election: the same key names, with the candidates' proclamations.
void tst_RecipeDecoder::etcdConcurrencyElection()
{
    const View view = decoded({kv("/ge/694d7b5c2a1e3f0a", "node-b", 9, kLeaseB),
        kv("/ge/694d7b5c2a1e3f04", "node-a", 8, kLeaseA)});
    QCOMPARE(view.recipes.size(), 1);
    const Recipe &r = view.recipes.first();
    QCOMPARE(r.kind, Kind::Election);
    QCOMPARE(r.first(Role::Leader)->value, "node-a"_ba);
    QCOMPARE(r.first(Role::Participant)->value, "node-b"_ba);
}

// The entry tst_etcdreadwritelock writes as Kotlin would: a writer that came first holds,
// and every later entry queues behind it.
void tst_RecipeDecoder::readWriteLockWithKotlinWriter()
{
    const QByteArray ours = "/rw/read-app-1:" + Paths::leaseTag(kLeaseB);
    const View view = decoded({kv("/rw/write-DistributedReadWriteLock:kOtLiN1:abcdefg",
                                   "DistributedReadWriteLock:kOtLiN1", 5, kLeaseA),
        kv(ours, "app-1", 6, kLeaseB), kv("/rw/write-app-3:Zz9Yy8X", "app-3", 7, kLeaseC)});
    QCOMPARE(view.recipes.size(), 1);
    const Recipe &r = view.recipes.first();
    QCOMPARE(r.kind, Kind::ReadWriteLock);
    QCOMPARE(owners(r.withRole(Role::Holder)), QStringList {u"DistributedReadWriteLock:kOtLiN1"_s});
    QCOMPARE(r.first(Role::Holder)->side, Side::Write);
    QCOMPARE(owners(r.withRole(Role::Waiter)), (QStringList {u"app-1"_s, u"app-3"_s}));
    QVERIFY(view.raw.isEmpty());
}

// Readers ahead of any writer share; the writer waits for them; a reader behind a queued
// writer waits too (writers are not starved).
void tst_RecipeDecoder::readWriteLockReadersShareWriterQueues()
{
    const View view
        = decoded({kv("/rw/read-r1:aaaaaaa", "r1", 1, 1), kv("/rw/read-r2:bbbbbbb", "r2", 2, 2),
            kv("/rw/write-w:ccccccc", "w", 3, 3), kv("/rw/read-r3:ddddddd", "r3", 4, 4)});
    const Recipe &r = view.recipes.first();
    QCOMPARE(owners(r.withRole(Role::Holder)), (QStringList {u"r1"_s, u"r2"_s}));
    QCOMPARE(owners(r.withRole(Role::Waiter)), (QStringList {u"w"_s, u"r3"_s}));
}

void tst_RecipeDecoder::readWriteLockDowngrade()
{
    const View view = decoded({kv("/rw/write-a:aaaaaaa", "a", 1, 1),
        kv("/rw/read-a:bbbbbbb", "a", 2, 2), kv("/rw/read-b:ccccccc", "b", 3, 3)});
    const Recipe &r = view.recipes.first();
    QCOMPARE(r.count(Role::Holder), 2);
    QCOMPARE(owners(r.withRole(Role::Waiter)), QStringList {u"b"_s});
    QCOMPARE(r.notes.size(), 1);
    QVERIFY(r.notes.first().contains(u"downgrade"_s));
}

// permits = 4 bytes big-endian; the first `permits` holders by create revision hold.
void tst_RecipeDecoder::semaphoreRanksHolders()
{
    const View view = decoded({kv("/sem/permits", Etcd::encodeInt32(2), 1),
        kv("/sem/holders/DistributedSemaphore:xYz1234:abcDEF1", "DistributedSemaphore:xYz1234", 3,
            3),
        kv("/sem/holders/b:" + Paths::leaseTag(kLeaseA), "b", 4, kLeaseA),
        kv("/sem/holders/a:0000001", "a", 5, 5)});
    QCOMPARE(view.recipes.size(), 1);
    const Recipe &r = view.recipes.first();
    QCOMPARE(r.kind, Kind::Semaphore);
    QCOMPARE(r.path, "/sem"_ba);
    QCOMPARE(r.number, std::optional<qint64>(2));
    QCOMPARE(owners(r.withRole(Role::Holder)),
        (QStringList {u"DistributedSemaphore:xYz1234"_s, u"b"_s}));
    QCOMPARE(owners(r.withRole(Role::Waiter)), QStringList {u"a"_s});
    QVERIFY(view.raw.isEmpty());
}

void tst_RecipeDecoder::semaphoreWithoutPermitsIsUnranked()
{
    const QList<EtcdKeyValue> input {
        kv("/sem/permits", "\0\0\2"_ba, 1), kv("/sem/holders/a:aaaaaaa", "a", 2, 2)};
    const View view = decoded(input);
    QCOMPARE(view.recipes.size(), 1);
    const Recipe &r = view.recipes.first();
    QVERIFY(!r.number);
    QCOMPARE(r.count(Role::Unranked), 1);
    QCOMPARE(r.count(Role::Holder), 0);
    QCOMPARE(r.notes.size(), 2); // the bad permits key, and "unknown who holds"
    QCOMPARE(rawKeys(view), QList<QByteArray> {"/sem/permits"});
    QVERIFY(accountsForEveryKey(view, input));
}

void tst_RecipeDecoder::barrierAndTransientKey()
{
    const View view = decoded({kv("/gate", Paths::uniqueToken(u"EtcdBarrier:abc1234"_s), 4, 7),
        kv("/svc/a", "10.0.0.1:80", 5, 8)});
    QCOMPARE(view.recipes.size(), 2);
    QCOMPARE(view.recipes.at(0).kind, Kind::Barrier);
    QCOMPARE(view.recipes.at(0).first(Role::Setter)->owner, u"EtcdBarrier:abc1234"_s);
    QCOMPARE(view.recipes.at(0).notes.size(), 1); // a transient key could look the same
    QCOMPARE(view.recipes.at(1).kind, Kind::TransientKey);
    QCOMPARE(view.recipes.at(1).path, "/svc/a"_ba);
}

void tst_RecipeDecoder::countedBarrier()
{
    const QByteArray b = "/cb";
    const QByteArray t1 = Paths::uniqueToken(u"m1"_s), t2 = Paths::uniqueToken(u"m2"_s);
    const View view = decoded(
        {kv(Paths::countedReadyKey(b), t1, 1), kv(Paths::countedWaitingKey(b, t1), t1, 2, 0x11),
            kv(Paths::countedWaitingKey(b, t2), t2, 3, 0x12)});
    QCOMPARE(view.recipes.size(), 1);
    const Recipe &r = view.recipes.first();
    QCOMPARE(r.kind, Kind::CountedBarrier);
    QCOMPARE(r.count(Role::Ready), 1);
    QCOMPARE(owners(r.withRole(Role::Member)), (QStringList {u"m1"_s, u"m2"_s}));
    QVERIFY(view.raw.isEmpty());
}

void tst_RecipeDecoder::doubleBarrier()
{
    const QByteArray enter = Paths::doubleBarrierPhase("/db", "enter");
    const QByteArray leave = Paths::doubleBarrierPhase("/db", "leave");
    const View view = decoded({kv(Paths::countedReadyKey(enter), "x:aaaaaaa", 1),
        kv(Paths::countedWaitingKey(enter, "x:aaaaaaa"), "x:aaaaaaa", 2, 2),
        kv(Paths::countedWaitingKey(leave, "y:bbbbbbb"), "y:bbbbbbb", 3, 3)});
    QCOMPARE(view.recipes.size(), 1);
    const Recipe &r = view.recipes.first();
    QCOMPARE(r.kind, Kind::DoubleBarrier);
    QCOMPARE(r.path, "/db"_ba);
    QCOMPARE(r.entries.size(), 3);
    QCOMPARE(r.entries.at(2).side, Side::Leave);
    QCOMPARE(r.entries.at(2).owner, u"y"_s);
}

// A counter and a latch share one layout: the decoder names the number, not a guess.
void tst_RecipeDecoder::eightBytesAreANumberNotACounterOrLatch()
{
    const View view = decoded({kv("/latch", QByteArray::fromHex("0000000000000003"), 1),
        kv("/counter", QByteArray::fromHex("fffffffffffffffc"), 2)});
    QCOMPARE(view.recipes.size(), 2);
    QCOMPARE(view.recipes.at(0).path, "/counter"_ba);
    QCOMPARE(view.recipes.at(0).kind, Kind::Number);
    QCOMPARE(view.recipes.at(0).number, std::optional<qint64>(-4));
    QCOMPARE(view.recipes.at(1).number, std::optional<qint64>(3));
    QVERIFY(view.recipes.at(1).notes.first().contains(u"latch"_s));
    QCOMPARE(toJson(view.recipes.at(1)).value(u"latchOpen"_s), QJsonValue(false));
    const View open = decoded({kv("/latch", QByteArray(8, '\0'), 1)});
    QCOMPARE(toJson(open.recipes.first()).value(u"latchOpen"_s), QJsonValue(true));
}

void tst_RecipeDecoder::leaseTtlsAreAttached()
{
    const View view = decoded({kv("/locks/x/694d7b5c2a1e3f04", {}, 1, kLeaseA)}, {{kLeaseA, 7}});
    QCOMPARE(view.recipes.first().first(Role::Holder)->ttl, 7);
    QCOMPARE(decoded({kv("/t", "v", 1, 9)}).recipes.first().entries.first().ttl, -1);
}

void tst_RecipeDecoder::malformedKeysLandInRaw_data()
{
    QTest::addColumn<QList<EtcdKeyValue>>("input");
    QTest::addColumn<QList<QByteArray>>("raw");
    QTest::addColumn<int>("recipes");
    QTest::newRow("short LEADER") << QList {kv("/e/LEADER", "x", 1, 1)} << QList<QByteArray> {}
                                  << 1;
    QTest::newRow("unleased LEADER")
        << QList {kv("/e/LEADER", "a:aaaaaaa", 1)} << QList<QByteArray> {"/e/LEADER"} << 0;
    QTest::newRow("unleased holder") << QList {kv("/s/holders/a:aaaaaaa", "a", 1)}
                                     << QList<QByteArray> {"/s/holders/a:aaaaaaa"} << 0;
    QTest::newRow("zero permits") << QList {kv("/s/permits", Etcd::encodeInt32(0), 1)}
                                  << QList<QByteArray> {"/s/permits"} << 0;
    QTest::newRow("leased ready") << QList {kv("/b/ready", "a:aaaaaaa", 1, 5)}
                                  << QList<QByteArray> {}
                                  << 1; // a barrier-shaped transient key, not a round marker
    QTest::newRow("seven bytes") << QList {kv("/n", QByteArray(7, '\1'), 1)}
                                 << QList<QByteArray> {"/n"} << 0;
    QTest::newRow("eight printable bytes")
        << QList {kv("/n", "12345678", 1)} << QList<QByteArray> {"/n"} << 0;
    QTest::newRow("empty unleased") << QList {kv("/k", {}, 1)} << QList<QByteArray> {"/k"} << 0;
    QTest::newRow("mutex name not its lease") << QList {kv("/m/694d7b5c2a1e3f04", {}, 1)}
                                              << QList<QByteArray> {"/m/694d7b5c2a1e3f04"} << 0;
    QTest::newRow("bare names") << QList {kv("LEADER", "a:aaaaaaa", 1),
        kv("/participants/", "x", 2), kv("/holders/", "", 3), kv("/waiting/", "", 4), kv("", "", 5)}
                                << QList<QByteArray> {"", "/holders/", "/participants/",
                                       "/waiting/", "LEADER"}
                                << 0;
    QTest::newRow("names, not an instance") << QList {kv("/p/names/svc/a", "{\"x\":1}", 1)}
                                            << QList<QByteArray> {"/p/names/svc/a"} << 0;
    QTest::newRow("names, no jsonPayload") << QList {kv("/p/names/svc/a", "{\"name\":\"svc\"}", 1)}
                                           << QList<QByteArray> {"/p/names/svc/a"} << 0;
    QTest::newRow("instance outside names")
        << QList {kv("/p/other/svc/a", "{\"name\":\"svc\",\"jsonPayload\":\"\"}", 1)}
        << QList<QByteArray> {"/p/other/svc/a"} << 0;
    QTest::newRow("root LEADER") << QList {kv("/LEADER", "a:aaaaaaa", 1, 1)} << QList<QByteArray> {}
                                 << 1;
}

void tst_RecipeDecoder::malformedKeysLandInRaw()
{
    QFETCH(QList<EtcdKeyValue>, input);
    QFETCH(QList<QByteArray>, raw);
    QFETCH(int, recipes);
    const View view = decoded(input);
    QCOMPARE(rawKeys(view), raw);
    QCOMPARE(view.recipes.size(), recipes);
    QVERIFY(accountsForEveryKey(view, input));
}

void tst_RecipeDecoder::malformedParticipantsKeepTheElection()
{
    const QList<EtcdKeyValue> input {kv("/e/LEADER", "a", 1, 1), kv("/e/participants/a", "a", 2, 2),
        kv("/e/participants/b", "b", 3)};
    const View view = decoded(input);
    QCOMPARE(
        view.recipes.size(), 2); // the election, and the leased short LEADER as a transient key
    QCOMPARE(view.recipes.at(1).kind, Kind::TransientKey);
    QVERIFY(!view.recipes.first().first(Role::Leader));
    QCOMPARE(view.recipes.first().notes.size(), 2);
    QCOMPARE(rawKeys(view), (QList<QByteArray> {"/e/participants/b"}));
    QVERIFY(accountsForEveryKey(view, input));
}

void tst_RecipeDecoder::emptySnapshot()
{
    const View view = decoded({});
    QVERIFY(view.recipes.isEmpty());
    QVERIFY(view.raw.isEmpty());
    QCOMPARE(toJson(view).value(u"revision"_s).toInteger(), 100);
}

void tst_RecipeDecoder::jsonCarriesTheFacts()
{
    const View view
        = decoded({kv("/e/LEADER", "b:bbbbbbb", 12, kLeaseA), kv("/e/participants/a", "a", 10, 1),
            kv("/e/participants/b", "b", 11, 2), kv("/m/694d7b5c2a1e3f0a", {}, 20, kLeaseB),
            kv("/m/694d7b5c2a1e3f11", {}, 21, kLeaseC), kv("/raw", "\xff\x01", 22)});
    const QJsonObject json = toJson(view);
    const QJsonArray recipes = json.value(u"recipes"_s).toArray();
    QCOMPARE(recipes.size(), 2);
    const QJsonObject election = recipes.at(0).toObject();
    QCOMPARE(election.value(u"kind"_s).toString(), u"election"_s);
    QCOMPARE(election.value(u"leader"_s).toString(), u"b"_s);
    QCOMPARE(election.value(u"leaderSince"_s).toInteger(), 12);
    QCOMPARE(election.value(u"candidates"_s).toArray(), QJsonArray {u"a"_s});
    QCOMPARE(election.value(u"termToken"_s).toObject().value(u"lease"_s).toString(),
        u"694d7b5c2a1e3f04"_s);
    const QJsonObject mutex = recipes.at(1).toObject();
    QCOMPARE(mutex.value(u"holder"_s).toString(), u"694d7b5c2a1e3f0a"_s);
    QCOMPARE(mutex.value(u"fencingToken"_s).toObject().value(u"revision"_s).toInteger(), 20);
    QCOMPARE(mutex.value(u"queue"_s).toArray(), QJsonArray {u"694d7b5c2a1e3f11"_s});
    const QJsonObject raw = json.value(u"raw"_s).toArray().first().toObject();
    QCOMPARE(raw.value(u"valueHex"_s).toString(), u"ff01"_s);
}

// The reference's own sample document (etcd-recipes.md §3), as a Kotlin registry leaves it.
void tst_RecipeDecoder::serviceAsKotlinWritesIt()
{
    const QByteArray sample = R"({"name":"worker","jsonPayload":"{\"x\":1}","address":"",)"
                              R"("port":-1,"sslPort":-1,"registrationTimeUTC":1752880000000,)"
                              R"("serviceType":"DYNAMIC","uri":"","enabled":true,"id":"aB3xK9q"})";
    const QList<EtcdKeyValue> input {kv("/app/svc/names/worker/aB3xK9q", sample, 5, kLeaseA)};
    const View view = decoded(input, {{kLeaseA, 2}});
    QCOMPARE(view.recipes.size(), 1);
    QVERIFY(view.raw.isEmpty());
    const Recipe &r = view.recipes.first();
    QCOMPARE(r.kind, Kind::Service);
    QCOMPARE(r.path, "/app/svc/names/worker"_ba);
    QCOMPARE(serviceName(r), u"worker"_s);
    QVERIFY(r.notes.isEmpty());
    const Entry &e = r.entries.first();
    QCOMPARE(e.role, Role::Instance);
    QCOMPARE(e.owner, u"aB3xK9q"_s);
    QCOMPARE(e.ttl, 2);
    QVERIFY(e.service);
    QCOMPARE(e.service->jsonPayload, u"{\"x\":1}"_s);
    QCOMPARE(e.service->registrationTimeUtc, 1752880000000);
    QCOMPARE(serviceEndpoint(*e.service), QString());
    QCOMPARE(serviceRegistrant(*e.service), u"aB3xK9q"_s);

    const QJsonObject json = toJson(r);
    QCOMPARE(json.value(u"kind"_s).toString(), u"service"_s);
    QCOMPARE(json.value(u"service"_s).toString(), u"worker"_s);
    QCOMPARE(json.value(u"servicePath"_s).toString(), u"/app/svc"_s);
    const QJsonObject instance = json.value(u"instances"_s).toArray().first().toObject();
    QJsonObject fields = QJsonDocument::fromJson(sample).object();
    for (auto it = fields.constBegin(); it != fields.constEnd(); ++it)
        QCOMPARE(instance.value(it.key()), it.value());
    QCOMPARE(instance.value(u"lease"_s).toString(), u"694d7b5c2a1e3f04"_s);
    QCOMPARE(instance.value(u"ttl"_s).toInteger(), 2);
    QCOMPARE(instance.value(u"key"_s).toString(), u"/app/svc/names/worker/aB3xK9q"_s);
}

// EtcdServiceInstance's own JSON; instances in registration (create revision) order, services
// apart by name.
void tst_RecipeDecoder::servicesAsOurLibraryWritesThem()
{
    EtcdServiceInstance a = EtcdServiceInstance::create(u"api"_s, u"v2"_s);
    a.address = u"10.0.0.5"_s;
    a.port = 8080;
    EtcdServiceInstance b = EtcdServiceInstance::create(u"api"_s);
    b.address = u"10.0.0.6"_s;
    b.sslPort = 8443;
    b.enabled = false;
    EtcdServiceInstance c = EtcdServiceInstance::create(u"db"_s);
    c.uri = u"postgres://db-1"_s;
    const QByteArray names = "/s/names/";
    const QList<EtcdKeyValue> input {kv(names + "api/" + b.id.toUtf8(), b.toJson(), 9, kLeaseB),
        kv(names + "api/" + a.id.toUtf8(), a.toJson(), 8, kLeaseA),
        kv(names + "db/" + c.id.toUtf8(), c.toJson(), 10, kLeaseC)};
    const View view = decoded(input);
    QCOMPARE(view.recipes.size(), 2);
    QVERIFY(accountsForEveryKey(view, input));
    const Recipe &api = view.recipes.at(0);
    QCOMPARE(serviceName(api), u"api"_s);
    QCOMPARE(owners(api.entries), (QStringList {a.id, b.id}));
    QCOMPARE(*api.entries.at(0).service, a);
    QCOMPARE(*api.entries.at(1).service, b);
    QCOMPARE(serviceEndpoint(a), u"10.0.0.5:8080"_s);
    QCOMPARE(serviceEndpoint(b), u"10.0.0.6:8443"_s); // the SSL port when there is no other
    QCOMPARE(serviceRegistrant(*view.recipes.at(1).entries.first().service), u"postgres://db-1"_s);
    QCOMPARE(toJson(api).value(u"instances"_s).toArray().at(1).toObject().value(u"enabled"_s),
        QJsonValue(false));
}

void tst_RecipeDecoder::serviceNotesWhatDisagrees()
{
    EtcdServiceInstance s = EtcdServiceInstance::create(u"api"_s);
    s.id = u"other"_s;
    EtcdServiceInstance idless = EtcdServiceInstance::create(u"api"_s);
    QJsonObject withoutId = QJsonDocument::fromJson(idless.toJson()).object();
    withoutId.remove(u"id"_s);
    EtcdServiceInstance web = EtcdServiceInstance::create(u"web"_s);
    web.id = u"named"_s;
    const View view = decoded({kv("/s/names/api/mine", s.toJson(), 3, kLeaseA),
        kv("/s/names/api/bare", QJsonDocument(withoutId).toJson(), 4),
        kv("/s/names/api/named", web.toJson(), 5, kLeaseB)});
    QCOMPARE(view.recipes.size(), 1);
    const Recipe &r = view.recipes.first();
    QCOMPARE(owners(r.entries), (QStringList {u"mine"_s, u"bare"_s, u"named"_s}));
    QCOMPARE(r.entries.at(0).service->id, u"mine"_s); // the key's id counts
    QCOMPARE(r.entries.at(1).service->id, u"bare"_s);
    QCOMPARE(r.notes.size(), 3); // in key order: bare's lack of a lease, mine's JSON id, named's
    QVERIFY(r.notes.at(0).contains(u"/s/names/api/bare"_s));
    QVERIFY(r.notes.at(1).contains(u"\"other\""_s));
    QVERIFY(r.notes.at(2).contains(u"\"web\""_s));
}

// A service called "participants" or "holders" is a service, not an election or a semaphore.
void tst_RecipeDecoder::serviceNamedLikeAnotherLayout()
{
    const QByteArray json = EtcdServiceInstance::create(u"participants"_s).toJson();
    const QList<EtcdKeyValue> input {kv("/e/names/participants/x1", json, 1, kLeaseA),
        kv("/e/names/LEADER", "a:aaaaaaa", 2, kLeaseB)};
    const View view = decoded(input);
    QCOMPARE(view.recipes.size(), 2);
    QCOMPARE(view.recipes.at(0).kind, Kind::Election); // "/e/names", led by a
    QCOMPARE(view.recipes.at(0).count(Role::Participant), 0);
    QCOMPARE(view.recipes.at(1).kind, Kind::Service);
    QVERIFY(accountsForEveryKey(view, input));
}

// DistributedQueue.enqueue() from Kotlin: "%s/%019d-%s", raw value bytes (a String's UTF-8, an
// Int's 4 and a Long's 8 bytes big-endian), no lease; enqueueAll(): one Txn, one mod revision,
// "-<index %05d>-" in the name. FIFO is by mod revision, not by name: a producer whose clock
// runs behind writes a smaller name later.
void tst_RecipeDecoder::fifoQueueAsKotlinWritesIt()
{
    const QByteArray q = "/kotlin/jobs";
    const QList<EtcdKeyValue> input {kv(q + "/0000001752880000100-aB3", "first", 10),
        kv(q + "/0000001752880000050-zZ9", "behind", 11), // an earlier name, put later
        batchKv(q + "/0000001752880000200-00000-Xy1", "batch-0", 12, 12),
        batchKv(q + "/0000001752880000200-00001-q0Q", "batch-1", 12, 12),
        batchKv(q + "/0000001752880000200-00002-A1b", Etcd::encodeInt32(42), 12, 12),
        kv(q + "/0000001752880000300-L0n", Etcd::encodeInt64(-7), 13)};
    const View view = decoded(input);
    QCOMPARE(view.recipes.size(), 1);
    QVERIFY(view.raw.isEmpty());
    const Recipe &r = view.recipes.first();
    QCOMPARE(r.kind, Kind::Queue);
    QCOMPARE(r.path, q);
    QCOMPARE(r.number, std::optional<qint64>(6)); // the depth; the Long is an item, not a number
    QVERIFY(r.notes.isEmpty());
    QCOMPARE(keysOf(r.entries),
        (QList<QByteArray> {q + "/0000001752880000100-aB3", q + "/0000001752880000050-zZ9",
            q + "/0000001752880000200-00000-Xy1", q + "/0000001752880000200-00001-q0Q",
            q + "/0000001752880000200-00002-A1b", q + "/0000001752880000300-L0n"}));
    const Entry *head = queueHead(r);
    QVERIFY(head);
    QCOMPARE(head->value, "first"_ba);
    QCOMPARE(head->queue->id, "0000001752880000100-aB3"_ba);
    QCOMPARE(head->queue->millis, 1752880000100);
    QCOMPARE(head->queue->batchIndex, -1);
    QCOMPARE(r.entries.at(1).queue->millis, 1752880000050);
    QCOMPARE(r.entries.at(3).queue->batchIndex, 1);
    QCOMPARE(r.entries.at(4).queue->millis, 1752880000200);
    QVERIFY(accountsForEveryKey(view, input));
}

// QueueKeys writes what EtcdQueue writes; the decoder reads it back.
void tst_RecipeDecoder::fifoQueueAsOurLibraryWritesIt()
{
    const QByteArray q = "/app/queue";
    const QByteArray single = QueueKeys::children(q) + QueueKeys::itemName(1752880001000);
    const QByteArray batch0 = QueueKeys::children(q) + QueueKeys::batchItemName(1752880002000, 0);
    const QByteArray batch1 = QueueKeys::children(q) + QueueKeys::batchItemName(1752880002000, 1);
    const View view = decoded(
        {kv(single, "one", 3), batchKv(batch0, "two", 4, 4), batchKv(batch1, "three", 4, 4)});
    QCOMPARE(view.recipes.size(), 1);
    const Recipe &r = view.recipes.first();
    QCOMPARE(r.kind, Kind::Queue);
    QCOMPARE(r.path, q);
    QCOMPARE(r.number, std::optional<qint64>(3));
    QCOMPARE(r.entries.at(2).queue->batchIndex, 1);
    QCOMPARE(r.entries.at(2).queue->millis, 1752880002000);
    QCOMPARE(queueHead(r)->key, single);
    QVERIFY(view.raw.isEmpty());
}

void tst_RecipeDecoder::fifoQueueJson()
{
    const QByteArray q = "/q";
    const View view = decode({"/", 50,
                                 {kv(q + "/0000001752880000100-aaa", "line\nbreak\x1b[2J", 10),
                                     kv(q + "/0000001752880005000-bbb", "\xff\xfe", 11)},
                                 {}},
        1752880012100);
    QCOMPARE(view.wallClockMs, 1752880012100);
    const QJsonObject json = toJson(view).value(u"recipes"_s).toArray().first().toObject();
    QCOMPARE(json.value(u"kind"_s).toString(), u"queue"_s);
    QCOMPARE(json.value(u"depth"_s).toInteger(), 2);
    const QJsonObject head = json.value(u"head"_s).toObject();
    QCOMPARE(head.value(u"id"_s).toString(), u"0000001752880000100-aaa"_s);
    QCOMPARE(head.value(u"enqueuedAtMs"_s).toInteger(), 1752880000100);
    QCOMPARE(head.value(u"enqueuedAt"_s).toString(), u"2025-07-18T23:06:40.100Z"_s);
    QCOMPARE(head.value(u"ageMs"_s).toInteger(), 12000);
    QCOMPARE(head.value(u"preview"_s).toString(), u"line\\nbreak\\x1b[2J"_s);
    const QJsonArray entries = json.value(u"entries"_s).toArray();
    QCOMPARE(entries.at(0).toObject().value(u"role"_s).toString(), u"item"_s);
    QCOMPARE(entries.at(0).toObject().value(u"value"_s).toString(), u"line\nbreak\x1b[2J"_s);
    QCOMPARE(entries.at(1).toObject().value(u"valueHex"_s).toString(), u"fffe"_s);
    QCOMPARE(entries.at(1).toObject().value(u"enqueuedAtMs"_s).toInteger(), 1752880005000);
    // Without the time of the read, no age.
    const QJsonObject timeless
        = toJson(decoded({kv(q + "/0000001752880000100-aaa", "x", 1)}).recipes.first());
    QVERIFY(!timeless.value(u"head"_s).toObject().contains(u"ageMs"_s));
}

// DistributedPriorityQueue from Kotlin: "<Q>/<prio %05d>/<seq %016d>", and a marker
// "__<Q>/<prio %05d>" = "" per level ever used, outside the queue's prefix and never deleted.
void tst_RecipeDecoder::priorityQueueAsKotlinWritesIt()
{
    const QList<EtcdKeyValue> input {kv("__/pq/00009", {}, 2), // a level since drained
        kv("__/pq/00000", {}, 5), kv("/pq/00000/0000000000000000", "urgent-a", 5),
        kv("__/pq/00005", {}, 6), kv("/pq/00005/0000000000000000", "normal", 6),
        kv("/pq/00000/0000000000000001", "urgent-b", 7)};
    const View view = decoded(input);
    QCOMPARE(view.recipes.size(), 1);
    QVERIFY(view.raw.isEmpty()); // the markers belong to the queue
    const Recipe &r = view.recipes.first();
    QCOMPARE(r.kind, Kind::PriorityQueue);
    QCOMPARE(r.path, "/pq"_ba);
    QCOMPARE(r.number, std::optional<qint64>(3));
    QCOMPARE(rolesOf(r),
        (QList<Role> {
            Role::Marker, Role::Item, Role::Item, Role::Marker, Role::Item, Role::Marker}));
    const QList<PriorityLevel> levels = priorityLevels(r);
    QCOMPARE(levels.size(), 3);
    QCOMPARE(levels.at(0).priority, 0);
    QCOMPARE(levels.at(0).depth, 2);
    QVERIFY(levels.at(0).marked);
    QCOMPARE(levels.at(1).priority, 5);
    QCOMPARE(levels.at(1).depth, 1);
    QCOMPARE(levels.at(2).priority, 9);
    QCOMPARE(levels.at(2).depth, 0);
    QVERIFY(!levels.at(2).next);
    const Entry *next = queueHead(r);
    QCOMPARE(next->value, "urgent-a"_ba);
    QCOMPARE(next->queue->priority, 0);
    QCOMPARE(next->queue->sequence, 0);
    QCOMPARE(levels.at(0).next, next);
    QCOMPARE(r.entries.at(2).queue->sequence, 1);

    const QJsonObject json = toJson(r);
    QCOMPARE(json.value(u"kind"_s).toString(), u"priority-queue"_s);
    QCOMPARE(json.value(u"depth"_s).toInteger(), 3);
    QCOMPARE(json.value(u"next"_s).toObject().value(u"preview"_s).toString(), u"urgent-a"_s);
    QCOMPARE(json.value(u"next"_s).toObject().value(u"priority"_s).toInteger(), 0);
    const QJsonArray jsonLevels = json.value(u"levels"_s).toArray();
    QCOMPARE(jsonLevels.size(), 3);
    QCOMPARE(jsonLevels.at(1).toObject().value(u"depth"_s).toInteger(), 1);
    QCOMPARE(jsonLevels.at(2).toObject().value(u"marker"_s).toBool(), true);
    QVERIFY(accountsForEveryKey(view, input));
}

// Every item taken: the markers stay, and so does the queue, empty.
void tst_RecipeDecoder::priorityMarkersAloneKeepTheQueue()
{
    const View view = decoded({kv("__/pq/00003", {}, 2), kv("__/pq/00001", {}, 3)});
    QCOMPARE(view.recipes.size(), 1);
    const Recipe &r = view.recipes.first();
    QCOMPARE(r.kind, Kind::PriorityQueue);
    QCOMPARE(r.path, "/pq"_ba);
    QCOMPARE(r.number, std::optional<qint64>(0));
    QVERIFY(!queueHead(r));
    QCOMPARE(priorityLevels(r).size(), 2);
    QCOMPARE(priorityLevels(r).first().priority, 1);
    QVERIFY(view.raw.isEmpty());
    // Nor does a drained FIFO queue leave anything behind: no keys, no recipe.
    QVERIFY(decoded({}).recipes.isEmpty());
}

void tst_RecipeDecoder::priorityQueueAsOurLibraryWritesIt()
{
    const QByteArray q = "/ours/pq";
    const View view = decoded({kv(QueueKeys::priorityMarker(q, 65535), {}, 1),
        kv(QueueKeys::priorityItem(q, 65535, 41), "last", 1),
        kv(QueueKeys::priorityItem(q, 7, 0), "first", 2)});
    QCOMPARE(view.recipes.size(), 1);
    const Recipe &r = view.recipes.first();
    QCOMPARE(r.path, q);
    QCOMPARE(queueHead(r)->value, "first"_ba);
    const QList<PriorityLevel> levels = priorityLevels(r);
    QCOMPARE(levels.size(), 2);
    QVERIFY(!levels.at(0).marked); // its marker is not among these keys
    QCOMPARE(levels.at(1).priority, 65535);
    QCOMPARE(levels.at(1).next->queue->sequence, 41);
    QVERIFY(view.raw.isEmpty());
}

namespace {
// A work queue as DistributedWorkQueue leaves it mid-flight: two pending items (one reclaimed
// twice) and a Kotlin batch, an item claimed by a live consumer, a claim whose consumer's
// lease ended (orphaned), a dead letter after 5 attempts, and a delayed item.
QList<EtcdKeyValue> workQueueKeys()
{
    const QByteArray w = "/jobs/work";
    return {kv(w + "/items/0000001752880000100-aaa", "job-1", 10),
        kv(w + "/items/0000001752880000200-bbb", "job-2", 11),
        kv(w + "/attempts/0000001752880000200-bbb", Etcd::encodeInt32(2), 9),
        kv(w + "/claimed/0000001752880000050-ccc", "job-0", 12),
        kv(w + "/claims/0000001752880000050-ccc", "DistributedWorkQueue:kOtLiN1", 12, kLeaseA),
        kv(w + "/attempts/0000001752880000050-ccc", Etcd::encodeInt32(1), 12),
        kv(w + "/claimed/0000001752880000060-ddd", "job-orphan", 13),
        kv(w + "/attempts/0000001752880000060-ddd", Etcd::encodeInt32(3), 13),
        kv(w + "/dlq/0000001752880000010-eee", "poison\n", 16),
        kv(w + "/attempts/0000001752880000010-eee", Etcd::encodeInt32(5), 8),
        kv(w + "/delayed/0000001752880090000-fff", "later", 17),
        batchKv(w + "/items/0000001752880000300-00000-ggg", "batch-0", 18, 18),
        batchKv(w + "/items/0000001752880000300-00001-hhh", "batch-1", 18, 18)};
}
} // namespace

void tst_RecipeDecoder::workQueueAsKotlinWritesIt()
{
    const QList<EtcdKeyValue> input = workQueueKeys();
    const View view = decoded(input, {{kLeaseA, 25}});
    QCOMPARE(view.recipes.size(), 1);
    QVERIFY(view.raw.isEmpty());
    QVERIFY(accountsForEveryKey(view, input));
    const Recipe &r = view.recipes.first();
    QCOMPARE(r.kind, Kind::WorkQueue);
    QCOMPARE(r.path, "/jobs/work"_ba);
    QVERIFY2(r.notes.isEmpty(), qPrintable(r.notes.join(u'\n')));
    QCOMPARE(r.number, std::optional<qint64>(4)); // items/ only
    QCOMPARE(rolesOf(r),
        (QList<Role> {Role::Item, Role::Item, Role::Attempts, Role::Item, Role::Item, Role::Claimed,
            Role::Claim, Role::Attempts, Role::Claimed, Role::Attempts, Role::DeadLetter,
            Role::Attempts, Role::Delayed}));
    // The head is the first of items/ by key.
    QCOMPARE(queueHead(r)->key, "/jobs/work/items/0000001752880000100-aaa"_ba);
    QCOMPARE(r.entries.at(1).queue->attempts, std::optional<qint32>(2));
    QCOMPARE(r.entries.at(4).queue->batchIndex, 1);

    const Entry &live = r.entries.at(5);
    QCOMPARE(live.value, "job-0"_ba);
    QCOMPARE(live.owner, u"DistributedWorkQueue:kOtLiN1"_s);
    QCOMPARE(live.queue->consumer, u"DistributedWorkQueue:kOtLiN1"_s);
    QCOMPARE(live.queue->attempts, std::optional<qint32>(1));
    QCOMPARE(live.queue->claimLease, kLeaseA);
    QCOMPARE(live.queue->claimTtl, 25);
    QVERIFY(!live.queue->orphaned);
    const Entry &claim = r.entries.at(6);
    QCOMPARE(claim.key, "/jobs/work/claims/0000001752880000050-ccc"_ba);
    QCOMPARE(claim.lease, kLeaseA);
    QCOMPARE(claim.ttl, 25);

    const Entry &orphan = r.entries.at(8);
    QCOMPARE(orphan.key, "/jobs/work/claimed/0000001752880000060-ddd"_ba);
    QVERIFY(orphan.queue->orphaned);
    QVERIFY(orphan.queue->consumer.isEmpty());
    QCOMPARE(orphan.queue->attempts, std::optional<qint32>(3));
    QCOMPARE(orphanedClaims(r), 1);

    const Entry &dead = r.entries.at(10);
    QCOMPARE(dead.queue->id, "0000001752880000010-eee"_ba);
    QCOMPARE(dead.queue->attempts, std::optional<qint32>(5));
    const Entry &delayed = r.entries.at(12);
    QCOMPARE(delayed.queue->millis, 1752880090000); // when it is due
    QCOMPARE(delayed.value, "later"_ba);
}

void tst_RecipeDecoder::workQueueJson()
{
    const View view = decode({"/", 100, workQueueKeys(), {{kLeaseA, 25}}}, 1752880030000);
    const QJsonObject json = toJson(view).value(u"recipes"_s).toArray().first().toObject();
    QCOMPARE(json.value(u"kind"_s).toString(), u"work-queue"_s);
    QCOMPARE(json.value(u"depth"_s).toInteger(), 4);
    QCOMPARE(json.value(u"head"_s).toObject().value(u"ageMs"_s).toInteger(), 29900);
    const QJsonArray inFlight = json.value(u"inFlight"_s).toArray();
    QCOMPARE(inFlight.size(), 2);
    const QJsonObject live = inFlight.at(0).toObject();
    QCOMPARE(live.value(u"consumer"_s).toString(), u"DistributedWorkQueue:kOtLiN1"_s);
    QCOMPARE(live.value(u"attempt"_s).toInteger(), 1);
    QCOMPARE(live.value(u"lease"_s).toString(), u"694d7b5c2a1e3f04"_s);
    QCOMPARE(live.value(u"ttl"_s).toInteger(), 25);
    QCOMPARE(live.value(u"orphaned"_s).toBool(), false);
    const QJsonObject orphan = inFlight.at(1).toObject();
    QVERIFY(orphan.value(u"consumer"_s).isNull());
    QVERIFY(orphan.value(u"lease"_s).isNull());
    QCOMPARE(orphan.value(u"attempt"_s).toInteger(), 3);
    QCOMPARE(orphan.value(u"orphaned"_s).toBool(), true);
    QCOMPARE(json.value(u"orphaned"_s).toInteger(), 1);
    const QJsonObject dead = json.value(u"deadLetters"_s).toArray().first().toObject();
    QCOMPARE(dead.value(u"attempts"_s).toInteger(), 5);
    QCOMPARE(dead.value(u"preview"_s).toString(), u"poison\\n"_s);
    const QJsonObject delayed = json.value(u"delayed"_s).toArray().first().toObject();
    QCOMPARE(delayed.value(u"dueAtMs"_s).toInteger(), 1752880090000);
    QCOMPARE(delayed.value(u"dueInMs"_s).toInteger(), 60000);
    QVERIFY(!delayed.contains(u"ageMs"_s));
    const QJsonArray entries = json.value(u"entries"_s).toArray();
    QCOMPARE(entries.at(8).toObject().value(u"orphaned"_s).toBool(), true);
    QCOMPARE(entries.at(11).toObject().value(u"attempts"_s).toInteger(), 5);
}

// Items alone look like a FIFO queue named ".../items": read as the work queue, and noted.
void tst_RecipeDecoder::workQueueItemsAloneAreNoted()
{
    const View view = decoded({kv("/w/items/0000001752880000100-aaa", "x", 1)});
    QCOMPARE(view.recipes.size(), 1);
    const Recipe &r = view.recipes.first();
    QCOMPARE(r.kind, Kind::WorkQueue);
    QCOMPARE(r.path, "/w"_ba);
    QCOMPARE(r.notes.size(), 1);
    QVERIFY(r.notes.first().contains(u"/w/items"_s));
    // A dead letter left behind keeps the queue in view when nothing else is left.
    const View leftovers = decoded({kv("/w/dlq/0000001752880000100-aaa", "x", 1),
        kv("/w/attempts/0000001752880000100-aaa", Etcd::encodeInt32(5), 1)});
    QCOMPARE(leftovers.recipes.size(), 1);
    QCOMPARE(leftovers.recipes.first().kind, Kind::WorkQueue);
    QVERIFY(leftovers.recipes.first().notes.isEmpty());
}

// A malformed key of a work queue is noted and stays out of it, and out of any FIFO queue
// named after its area.
void tst_RecipeDecoder::workQueueMalformedKeysStayOut()
{
    const QList<EtcdKeyValue> input {kv("/w/items/0000001752880000100-aaa", "x", 1),
        kv("/w/attempts/0000001752880000100-aaa", "\0\0\1"_ba, 2),
        kv("/w/dlq/0000001752880000200-bbb", "y", 3, kLeaseB),
        kv("/w/claims/0000001752880000300-ccc", "consumer-1", 4)};
    const View view = decoded(input);
    const Recipe *r = recipeAt(view, "/w", Kind::WorkQueue);
    QVERIFY(r);
    QCOMPARE(view.recipes.size(), 2); // and the leased dead letter, as a transient key
    QCOMPARE(view.recipes.at(1).kind, Kind::TransientKey);
    QCOMPARE(rawKeys(view), QList<QByteArray> {"/w/attempts/0000001752880000100-aaa"});
    QCOMPARE(r->count(Role::Attempts), 0);
    QVERIFY(!r->first(Role::Item)->queue->attempts);
    // The unleased claim is read, with a warning; so is its missing payload copy.
    QCOMPARE(r->count(Role::Claim), 1);
    QCOMPARE(r->notes.size(), 4);
    QVERIFY(accountsForEveryKey(view, input));
}

void tst_RecipeDecoder::queueShapedKeysThatAreNotQueues_data()
{
    QTest::addColumn<QList<EtcdKeyValue>>("input");
    QTest::addColumn<QList<QByteArray>>("raw");
    QTest::addColumn<int>("recipes");
    QTest::newRow("leased item") << QList {kv("/q/0000001752880000100-aaa", "x", 1, 5)}
                                 << QList<QByteArray> {} << 1; // a transient key
    QTest::newRow("marker with a value")
        << QList {kv("__/pq/00001", "x", 1)} << QList<QByteArray> {"__/pq/00001"} << 0;
    QTest::newRow("priority above 65535") << QList {kv("/pq/70000/0000000000000001", "x", 1)}
                                          << QList<QByteArray> {"/pq/70000/0000000000000001"} << 0;
    QTest::newRow("sequence of 15 digits") << QList {kv("/pq/00001/000000000000001", "x", 1)}
                                           << QList<QByteArray> {"/pq/00001/000000000000001"} << 0;
    QTest::newRow("18 digits of millis") << QList {kv("/q/000001752880000100-aaa", "x", 1)}
                                         << QList<QByteArray> {"/q/000001752880000100-aaa"} << 0;
    QTest::newRow("not alphanumeric") << QList {kv("/q/0000001752880000100-a_b", "x", 1)}
                                      << QList<QByteArray> {"/q/0000001752880000100-a_b"} << 0;
    QTest::newRow("millis beyond 64 bits") << QList {kv("/q/9999999999999999999-aaa", "x", 1)}
                                           << QList<QByteArray> {"/q/9999999999999999999-aaa"} << 0;
    QTest::newRow("no path") << QList {kv("0000001752880000100-aaa", "x", 1)}
                             << QList<QByteArray> {"0000001752880000100-aaa"} << 0;
    QTest::newRow("bare area") << QList {kv("items/0000001752880000100-aaa", "x", 1)}
                               << QList<QByteArray> {} << 1; // a FIFO queue at "items"
    QTest::newRow("claimed on a lease")
        << QList {kv("/w/claimed/0000001752880000100-aaa", "x", 1, 7)} << QList<QByteArray> {}
        << 1; // a transient key
    QTest::newRow("16 digits under a non-priority")
        << QList {kv("/a/b/0000000000000001", "x", 1)}
        << QList<QByteArray> {"/a/b/0000000000000001"} << 0;
}

void tst_RecipeDecoder::queueShapedKeysThatAreNotQueues()
{
    QFETCH(QList<EtcdKeyValue>, input);
    QFETCH(QList<QByteArray>, raw);
    QFETCH(int, recipes);
    const View view = decoded(input);
    QCOMPARE(rawKeys(view), raw);
    QCOMPARE(view.recipes.size(), recipes);
    for (const Recipe &r : view.recipes)
        QVERIFY(r.kind != Kind::PriorityQueue && r.kind != Kind::WorkQueue);
    QVERIFY(accountsForEveryKey(view, input));
}

// Queues beside one of every other layout: each recipe decodes as it does alone.
void tst_RecipeDecoder::queuesBesideEveryOtherRecipe()
{
    const QByteArray service = EtcdServiceInstance::create(u"api"_s).toJson();
    const QList<EtcdKeyValue> others {kv("/e/LEADER", "a:aaaaaaa", 1, kLeaseA),
        kv("/e/participants/a", "a", 2, kLeaseA), kv("/m/694d7b5c2a1e3f0a", {}, 3, kLeaseB),
        kv("/s/permits", Etcd::encodeInt32(1), 4), kv("/s/holders/h:bbbbbbb", "h", 5, kLeaseC),
        kv("/cb/ready", "x:ccccccc", 6), kv("/cb/waiting/x:ccccccc", "x:ccccccc", 7, kLeaseA),
        kv("/rw/read-r:ddddddd", "r", 8, kLeaseB), kv("/svc/names/api/i1", service, 9, kLeaseC),
        kv("/n", Etcd::encodeInt64(3), 10), kv("/t", "transient", 11, kLeaseA),
        kv("/g", "g:eeeeeee", 12, kLeaseB)};
    QList<EtcdKeyValue> all = others;
    all += workQueueKeys();
    all += {kv("/fifo/0000001752880000100-aaa", "f", 30), kv("__/pq/00001", {}, 31),
        kv("/pq/00001/0000000000000000", "p", 31)};
    const View alone = decoded(others);
    const View together = decoded(all);
    QVERIFY(accountsForEveryKey(together, all));
    QVERIFY(together.raw.isEmpty());
    QCOMPARE(together.recipes.size(), alone.recipes.size() + 3);
    for (const Recipe &r : alone.recipes) {
        const Recipe *same = recipeAt(together, r.path, r.kind);
        QVERIFY2(same, r.path.constData());
        QCOMPARE(keysOf(same->entries), keysOf(r.entries));
        QCOMPARE(rolesOf(*same), rolesOf(r));
        QCOMPARE(same->notes, r.notes);
    }
    QVERIFY(recipeAt(together, "/fifo", Kind::Queue));
    QVERIFY(recipeAt(together, "/pq", Kind::PriorityQueue));
    QVERIFY(recipeAt(together, "/jobs/work", Kind::WorkQueue));
}

void tst_RecipeDecoder::previewEscapesAndCuts()
{
    QCOMPARE(previewBytes("plain text"), u"plain text"_s);
    QCOMPARE(previewBytes("a\nb\tc\rd\x01\x7f\\"), u"a\\nb\\tc\\rd\\x01\\x7f\\\\"_s);
    QCOMPARE(previewBytes("\x1b[31mred"), u"\\x1b[31mred"_s);
    QCOMPARE(previewBytes("\xff\xfe ok \xc3"), u"\\xff\\xfe ok \\xc3"_s); // invalid UTF-8
    QCOMPARE(previewBytes("gr\xc3\xbc\xc3\x9f"
                          "e"),
        u"grüße"_s);
    QCOMPARE(previewBytes("a\xe2\x80\xae"
                          "b"),
        u"a\\u{202e}b"_s); // a right-to-left override
    QCOMPARE(previewBytes("\xc2\x85"), u"\\x85"_s); // a C1 control (NEL)
    // Every format character, not a list of some (U+0600 went through: found by fuzz_decoder),
    // and the line and paragraph separators.
    QCOMPARE(previewBytes("a\xd8\x80"
                          "b\xe2\x81\xa0"
                          "c\xe2\x80\xa9"
                          "d"),
        u"a\\u{0600}b\\u{2060}c\\u{2029}d"_s);
    QCOMPARE(previewBytes(Etcd::encodeInt32(42)), u"\\x00\\x00\\x00*"_s);
    const QString cut = previewBytes(QByteArray(1 << 20, 'x'), 10);
    QCOMPARE(cut, u"xxxxxxxxx…"_s);
    QCOMPARE(previewBytes(QByteArray(10, 'x'), 10), QString(10, u'x'));
    QCOMPARE(previewBytes(QByteArray(300, 'x'), -1).size(), 300);
}

QTEST_GUILESS_MAIN(tst_RecipeDecoder)
#include "tst_recipedecoder.moc"
