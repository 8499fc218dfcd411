// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// The recipe decoder on golden key sets: the bytes etcd-recipes (Kotlin), etcdctl and our own
// library write for each recipe, then ambiguous and malformed keys, which must land in raw.
#include <EtcdQt/etcdcodec.h>

#include "recipedecoder.h"
#include "recipepaths_p.h"

#include <QtCore/qjsonarray.h>
#include <QtCore/qjsondocument.h>

#include <QtTest/qtest.h>

#include <algorithm>

using namespace Qt::StringLiterals;
using namespace Etcd::Decode;
namespace Paths = Etcd::Internal::RecipePaths;

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

QTEST_GUILESS_MAIN(tst_RecipeDecoder)
#include "tst_recipedecoder.moc"
