// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// The inspector's pure logic without etcd: what changed between two decoded views (recipe
// events and hand-offs), hand-offs replayed from history, the lease clock's countdown and
// anomalies, and the write actions with their blast radius. Views come from the decoder, run
// on scripted key sets laid out as tst_recipedecoder's golden ones.
#include <EtcdQt/etcdcodec.h>
#include <EtcdQt/etcdwatch.h>

#include "historyreplay.h"
#include "inspectorstats.h"
#include "leaseclock.h"
#include "overviewface.h"
#include "recipeactions.h"
#include "viewdiff.h"

#include <recipedecoder.h>

#include <QtTest/qtest.h>

#include <algorithm>
#include <numeric>

using namespace Qt::StringLiterals;
using namespace Etcd::Decode;
using namespace Inspector;
using EventType = RecipeEvent::Type;

namespace {
constexpr qint64 kLeaseA = 0x694d7b5c2a1e3f04; // above 2^53, as etcd's ids are
constexpr qint64 kLeaseB = 0x694d7b5c2a1e3f0a;
constexpr qint64 kLeaseC = 0x694d7b5c2a1e3f11;

EtcdKeyValue kv(const QByteArray &key, const QByteArray &value, qint64 createRevision,
    qint64 lease = 0, qint64 version = 1)
{
    return {key, value, createRevision, createRevision + version - 1, version, lease};
}

// "<id>:<7>", as etcd-recipes and our library write a unique token.
QByteArray token(const QByteArray &id)
{
    return id + ":abc1234";
}

EtcdKeyValue leader(const QByteArray &election, const QByteArray &id, qint64 cr, qint64 lease)
{
    return kv(election + "/LEADER", token(id), cr, lease);
}

EtcdKeyValue candidate(const QByteArray &election, const QByteArray &id, qint64 cr, qint64 lease)
{
    return kv(election + "/participants/" + id, id, cr, lease);
}

// etcd's concurrency.Mutex (etcdctl lock, EtcdMutex): <path>/<lease hex>, empty value.
EtcdKeyValue mutexKey(const QByteArray &path, qint64 lease, qint64 cr)
{
    return kv(path + '/' + QByteArray::number(lease, 16), {}, cr, lease);
}

EtcdKeyValue permits(const QByteArray &path, qint32 n, qint64 version = 1)
{
    return kv(path + "/permits", Etcd::encodeInt32(n), 1, 0, version);
}

EtcdKeyValue semHolder(const QByteArray &path, const QByteArray &id, qint64 cr)
{
    return kv(path + "/holders/" + token(id), id, cr, 0x500 + cr);
}

EtcdKeyValue gate(const QByteArray &path, const QByteArray &id, qint64 cr)
{
    return kv(path, token(id), cr, 0x700 + cr);
}

EtcdKeyValue member(const QByteArray &barrier, const QByteArray &id, qint64 cr)
{
    return kv(barrier + "/waiting/" + token(id), token(id), cr, 0x800 + cr);
}

EtcdKeyValue ready(const QByteArray &barrier, const QByteArray &id, qint64 cr)
{
    return kv(barrier + "/ready", token(id), cr);
}

EtcdKeyValue number(const QByteArray &path, qint64 n, qint64 cr, qint64 version = 1)
{
    return kv(path, Etcd::encodeInt64(n), cr, 0, version);
}

EtcdKeyValue transient(const QByteArray &key, qint64 cr, qint64 lease)
{
    return kv(key, "10.0.0.1:80", cr, lease);
}

// An instance of /p's service `name` as EtcdServiceRegistry writes it: id `id`, at `address`.
EtcdKeyValue instance(const QByteArray &name, const QByteArray &id, const QString &address,
    qint64 cr, qint64 lease, qint64 version = 1, bool enabled = true)
{
    EtcdServiceInstance s = EtcdServiceInstance::create(QString::fromUtf8(name));
    s.id = QString::fromUtf8(id);
    s.address = address;
    s.port = address.isEmpty() ? -1 : 8080;
    s.registrationTimeUtc = 1752880000000;
    s.enabled = enabled;
    return kv("/p/names/" + name + '/' + id, s.toJson(), cr, lease, version);
}

View viewOf(const QList<EtcdKeyValue> &keys, qint64 revision = 100)
{
    return decode({"/", revision, keys, {}});
}

QString name(EventType type)
{
    switch (type) {
    case EventType::LeaderElected:
        return u"LeaderElected"_s;
    case EventType::LeaderLost:
        return u"LeaderLost"_s;
    case EventType::CandidateJoined:
        return u"CandidateJoined"_s;
    case EventType::CandidateLeft:
        return u"CandidateLeft"_s;
    case EventType::Acquired:
        return u"Acquired"_s;
    case EventType::Released:
        return u"Released"_s;
    case EventType::Queued:
        return u"Queued"_s;
    case EventType::BarrierSet:
        return u"BarrierSet"_s;
    case EventType::BarrierLifted:
        return u"BarrierLifted"_s;
    case EventType::MemberArrived:
        return u"MemberArrived"_s;
    case EventType::BarrierTripped:
        return u"BarrierTripped"_s;
    case EventType::NumberChanged:
        return u"NumberChanged"_s;
    case EventType::KeyAppeared:
        return u"KeyAppeared"_s;
    case EventType::KeyVanished:
        return u"KeyVanished"_s;
    case EventType::Anomaly:
        return u"Anomaly"_s;
    case EventType::Flapping:
        return u"Flapping"_s;
    case EventType::Connection:
        return u"Connection"_s;
    case EventType::InstanceRegistered:
        return u"InstanceRegistered"_s;
    case EventType::InstanceUpdated:
        return u"InstanceUpdated"_s;
    case EventType::InstanceGone:
        return u"InstanceGone"_s;
    }
    return {};
}

// "Type|actor|path", then "#token" when there is one and "=n" for a number: sorted, since a
// diff promises no order among the events of one view.
QStringList summary(const QList<RecipeEvent> &events)
{
    QStringList lines;
    for (const RecipeEvent &e : events) {
        QString line = name(e.type) + u'|' + e.actor + u'|' + QString::fromUtf8(e.path);
        if (e.token != 0)
            line += u'#' + QString::number(e.token);
        if (e.type == EventType::NumberChanged)
            line += u'=' + QString::number(e.number);
        lines.append(line);
    }
    lines.sort();
    return lines;
}

// "<election>: from>to #token"
QStringList summary(const QList<HandOff> &handOffs)
{
    QStringList lines;
    for (const HandOff &h : handOffs)
        lines.append(QString::fromUtf8(h.election) + u": "_s + h.from + u'>' + h.to + u" #"_s
            + QString::number(h.termToken));
    lines.sort();
    return lines;
}

QList<RecipeEvent> ofType(const QList<RecipeEvent> &events, EventType type)
{
    QList<RecipeEvent> found;
    for (const RecipeEvent &e : events) {
        if (e.type == type)
            found.append(e);
    }
    return found;
}

QString leaseActor(qint64 lease)
{
    return u"lease "_s + QString::number(lease, 16);
}

EtcdWatchEvent put(const QByteArray &key, const QByteArray &value, qint64 revision,
    qint64 version = 1, qint64 createRevision = 0)
{
    EtcdWatchEvent e;
    e.type = EtcdWatchEvent::Type::Put;
    e.keyValue
        = {key, value, createRevision > 0 ? createRevision : revision, revision, version, 0x42};
    e.revision = revision;
    return e;
}

EtcdWatchEvent deleted(const QByteArray &key, qint64 revision)
{
    EtcdWatchEvent e;
    e.type = EtcdWatchEvent::Type::Delete;
    e.keyValue = {key, {}, 0, revision, 0, 0};
    e.revision = revision;
    return e;
}

QStringList summary(const QList<RecipeAction> &actions)
{
    QStringList lines;
    for (const RecipeAction &a : actions)
        lines.append(actionName(a.type) + u' ' + QString::fromUtf8(a.path) + u' '
            + QString::fromUtf8(a.key) + u" #"_s + QString::number(a.createRevision) + u" lease "_s
            + QString::number(a.lease, 16));
    return lines;
}

const Recipe &recipeAt(const View &view, const QByteArray &path)
{
    const auto it = std::find_if(view.recipes.cbegin(), view.recipes.cend(),
        [&](const Recipe &r) { return r.path == path; });
    static const Recipe none;
    return it != view.recipes.cend() ? *it : none;
}

const QByteArray kE = "/e";
const QByteArray kM = "/locks/db";
const QByteArray kS = "/sem";
const QByteArray kG = "/gate";
const QByteArray kCB = "/cb";
} // namespace

class tst_InspectorCore : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void faceCacheMakesOnlyChangedFaces();
    void statsHandOffsPerMinute();
    void statsLockWaitsAndHolds();
    void statsLeasesByGrantedTtl();
    void statsEventRate();
    // viewdiff
    void diffViews_data();
    void diffViews();
    void handOffNamesTheNewLeaderAndItsTerm();
    void leaderLostAtTheViewsRevision();
    void promotedWaiterAcquiresWithoutQueueing();
    void unchangedViewAtALaterRevision();
    void concurrencyElectionHandOffIsNoDeparture();
    void twoKindsOnOnePathStayQuiet();
    void actorOf_data();
    void actorOf();
    // historyreplay
    void replayedTerms();
    void replayIgnoresOtherKeys_data();
    void replayIgnoresOtherKeys();
    void ownerOf_data();
    void ownerOf();
    void replayStartingMidTermNamesTheLeader();
    // leaseclock
    void remainingCountsDown();
    void anomalies_data();
    void anomalies();
    void onlyNewlyRaisedAnomaliesAreReturned();
    void keptAliveLeaseSampledRarelyIsNoAnomaly();
    void revivedAfterGoingUnrenewedJumpedUp();
    void dueOrder();
    void retainOnlyAndForget();
    void describeNamesEachAnomaly();
    // recipeactions
    void actionsFor_data();
    void actionsFor();
    void revokeSharedLeaseEndsBoth();
    void releaseNamesTheNextWaiter();
    void liftBarrier();
    void unusedLeaseCannotBeRevoked();
    void endedTermCannotBeSteppedDown();
    void blastRadiusTitleNamesTheTarget();
    void revokingAConsumersLeaseOrphansItsClaims();
};

// ---------------------------------------------------------------------------------- viewdiff

void tst_InspectorCore::diffViews_data()
{
    QTest::addColumn<QList<EtcdKeyValue>>("before");
    QTest::addColumn<QList<EtcdKeyValue>>("after");
    QTest::addColumn<QStringList>("events");
    QTest::addColumn<QStringList>("handOffs");

    const EtcdKeyValue candA = candidate(kE, "A", 5, 0xa);
    const EtcdKeyValue candB = candidate(kE, "B", 6, 0xb);
    const EtcdKeyValue candC = candidate(kE, "C", 7, 0xc);
    const EtcdKeyValue leadA = leader(kE, "A", 10, 0xa1);
    const EtcdKeyValue leadB = leader(kE, "B", 12, 0xb1);

    QTest::newRow("election hand-off A to B")
        << QList {candA, candB, leadA} << QList {candA, candB, leadB}
        << QStringList {u"LeaderElected|B|/e#12"_s} << QStringList {u"/e: A>B #12"_s};
    QTest::newRow("leader key deleted")
        << QList {candA, candB, leadA} << QList {candA, candB} << QStringList {u"LeaderLost|A|/e"_s}
        << QStringList {u"/e: A> #0"_s};
    QTest::newRow("first view against an empty baseline")
        << QList<EtcdKeyValue> {} << QList {candA, candB, leadA}
        << QStringList {u"CandidateJoined|A|/e"_s, u"CandidateJoined|B|/e"_s,
               u"LeaderElected|A|/e#10"_s}
        << QStringList {u"/e: >A #10"_s};
    QTest::newRow("candidate joined") << QList {candA, leadA} << QList {candA, leadA, candC}
                                      << QStringList {u"CandidateJoined|C|/e"_s} << QStringList {};
    QTest::newRow("candidate left") << QList {candA, candB, leadA} << QList {candA, leadA}
                                    << QStringList {u"CandidateLeft|B|/e"_s} << QStringList {};
    QTest::newRow("proclamation in the same term")
        << QList {candA, leadA} << QList {candA, kv(kE + "/LEADER", "A:zzzzzzz", 10, 0xa1, 2)}
        << QStringList {} << QStringList {};
    QTest::newRow("re-elected in a new term")
        << QList {candA, leadA} << QList {candA, leader(kE, "A", 20, 0xa2)}
        << QStringList {u"LeaderElected|A|/e#20"_s} << QStringList {u"/e: A>A #20"_s};
    QTest::newRow("election disappears")
        << QList {candA, candB, leadA} << QList<EtcdKeyValue> {}
        << QStringList {u"CandidateLeft|A|/e"_s, u"CandidateLeft|B|/e"_s, u"LeaderLost|A|/e"_s}
        << QStringList {u"/e: A> #0"_s};

    const EtcdKeyValue holder = mutexKey(kM, kLeaseA, 20);
    const EtcdKeyValue waiter1 = mutexKey(kM, kLeaseB, 30);
    const EtcdKeyValue waiter2 = mutexKey(kM, kLeaseC, 31);
    QTest::newRow("mutex acquired")
        << QList<EtcdKeyValue> {} << QList {holder}
        << QStringList {u"Acquired|"_s + leaseActor(kLeaseA) + u"|/locks/db#20"_s}
        << QStringList {};
    QTest::newRow("mutex released, first waiter promoted")
        << QList {holder, waiter1, waiter2} << QList {waiter1, waiter2}
        << QStringList {u"Acquired|"_s + leaseActor(kLeaseB) + u"|/locks/db#30"_s,
               u"Released|"_s + leaseActor(kLeaseA) + u"|/locks/db"_s}
        << QStringList {};
    QTest::newRow("mutex new waiter")
        << QList {holder, waiter1} << QList {holder, waiter1, waiter2}
        << QStringList {u"Queued|"_s + leaseActor(kLeaseC) + u"|/locks/db"_s} << QStringList {};
    QTest::newRow("mutex disappears")
        << QList {holder, waiter1} << QList<EtcdKeyValue> {}
        << QStringList {u"Released|"_s + leaseActor(kLeaseA) + u"|/locks/db"_s} << QStringList {};

    const EtcdKeyValue s1 = semHolder(kS, "s1", 3);
    const EtcdKeyValue s2 = semHolder(kS, "s2", 4);
    const EtcdKeyValue s3 = semHolder(kS, "s3", 5);
    QTest::newRow("semaphore permit freed, waiter promoted")
        << QList {permits(kS, 2), s1, s2, s3} << QList {permits(kS, 2), s2, s3}
        << QStringList {u"Acquired|s3|/sem#5"_s, u"Released|s1|/sem"_s} << QStringList {};
    QTest::newRow("semaphore permits raised")
        << QList {permits(kS, 1), s1, s2} << QList {permits(kS, 2, 2), s1, s2}
        << QStringList {u"Acquired|s2|/sem#4"_s} << QStringList {};
    QTest::newRow("semaphore new waiter")
        << QList {permits(kS, 2), s1, s2} << QList {permits(kS, 2), s1, s2, s3}
        << QStringList {u"Queued|s3|/sem"_s} << QStringList {};
    QTest::newRow("semaphore disappears")
        << QList {permits(kS, 2), s1, s2, s3} << QList<EtcdKeyValue> {}
        << QStringList {u"Released|s1|/sem"_s, u"Released|s2|/sem"_s} << QStringList {};

    QTest::newRow("barrier set") << QList<EtcdKeyValue> {} << QList {gate(kG, "G", 40)}
                                 << QStringList {u"BarrierSet|G|/gate"_s} << QStringList {};
    QTest::newRow("barrier lifted") << QList {gate(kG, "G", 40)} << QList<EtcdKeyValue> {}
                                    << QStringList {u"BarrierLifted|G|/gate"_s} << QStringList {};
    QTest::newRow("barrier set again by another")
        << QList {gate(kG, "G", 40)} << QList {gate(kG, "H", 45)}
        << QStringList {u"BarrierSet|H|/gate"_s} << QStringList {};

    const EtcdKeyValue m1 = member(kCB, "m1", 50);
    const EtcdKeyValue m2 = member(kCB, "m2", 51);
    QTest::newRow("counted barrier member arrived")
        << QList {m1} << QList {m1, m2} << QStringList {u"MemberArrived|m2|/cb"_s}
        << QStringList {};
    QTest::newRow("counted barrier last member arrives and trips it")
        << QList {m1} << QList {m1, m2, ready(kCB, "m2", 52)}
        << QStringList {u"BarrierTripped|m2|/cb"_s, u"MemberArrived|m2|/cb"_s} << QStringList {};
    QTest::newRow("double barrier enter phase trips")
        << QList<EtcdKeyValue> {}
        << QList {member("/db/enter", "x", 60), ready("/db/enter", "x", 61)}
        << QStringList {u"BarrierTripped|x|/db"_s, u"MemberArrived|x|/db"_s} << QStringList {};

    QTest::newRow("number changed") << QList {number("/n", 3, 70)} << QList {number("/n", 2, 70, 2)}
                                    << QStringList {u"NumberChanged||/n=2"_s} << QStringList {};
    QTest::newRow("number rewritten with the same value")
        << QList {number("/n", 3, 70)} << QList {number("/n", 3, 70, 2)} << QStringList {}
        << QStringList {};

    QTest::newRow("transient key appeared")
        << QList<EtcdKeyValue> {} << QList {transient("/svc/a", 80, 0x71)}
        << QStringList {u"KeyAppeared|lease 71|/svc/a"_s} << QStringList {};
    QTest::newRow("transient key vanished")
        << QList {transient("/svc/a", 80, 0x71)} << QList<EtcdKeyValue> {}
        << QStringList {u"KeyVanished|lease 71|/svc/a"_s} << QStringList {};
    QTest::newRow("path changes kind")
        << QList {transient(kG, 80, 0x71)} << QList {gate(kG, "G", 81)}
        << QStringList {u"BarrierSet|G|/gate"_s, u"KeyVanished|lease 71|/gate"_s} << QStringList {};

    const EtcdKeyValue i1 = instance("api", "i1", u"10.0.0.1"_s, 90, 0x91);
    const EtcdKeyValue i2 = instance("api", "i2", QString(), 91, 0x92);
    QTest::newRow("service instances registered")
        << QList<EtcdKeyValue> {} << QList {i1, i2}
        << QStringList {u"InstanceRegistered|10.0.0.1:8080|/p/names/api"_s,
               u"InstanceRegistered|i2|/p/names/api"_s}
        << QStringList {};
    QTest::newRow("service instance disabled")
        << QList {i1, i2} << QList {instance("api", "i1", u"10.0.0.1"_s, 90, 0x91, 2, false), i2}
        << QStringList {u"InstanceUpdated|10.0.0.1:8080|/p/names/api"_s} << QStringList {};
    QTest::newRow("service instance healed under a new lease")
        << QList {i1, i2} << QList {instance("api", "i1", u"10.0.0.1"_s, 95, 0x99), i2}
        << QStringList {} << QStringList {};
    QTest::newRow("service instance gone")
        << QList {i1, i2} << QList {i2}
        << QStringList {u"InstanceGone|10.0.0.1:8080|/p/names/api"_s} << QStringList {};

    // Queue items come and go by the thousand: no event for any of them.
    const EtcdKeyValue item1 = kv("/q/0000001752880000100-aaa", "job-1", 60);
    const EtcdKeyValue item2 = kv("/q/0000001752880000200-bbb", "job-2", 61);
    const EtcdKeyValue claimed = kv("/w/claimed/0000001752880000100-ccc", "job", 62);
    const EtcdKeyValue claim
        = kv("/w/claims/0000001752880000100-ccc", "DistributedWorkQueue:kOtLiN1", 62, 0x62);
    QTest::newRow("queue items put and taken")
        << QList {item1} << QList {item2} << QStringList {} << QStringList {};
    QTest::newRow("work-queue claim made and lost")
        << QList {kv("/w/items/0000001752880000100-ccc", "job", 60)} << QList {claimed, claim}
        << QStringList {} << QStringList {};
    QTest::newRow("queues drained") << QList {item1, claimed, claim, kv("__/pq/00001", {}, 63)}
                                    << QList<EtcdKeyValue> {} << QStringList {} << QStringList {};

    const QList<EtcdKeyValue> everything {candA, candB, leadA, holder, waiter1, permits(kS, 2), s1,
        s2, s3, gate(kG, "G", 40), m1, m2, ready(kCB, "m2", 52), number("/n", 3, 70),
        transient("/svc/a", 80, 0x71), i1, i2};
    QTest::newRow("unchanged view") << everything << everything << QStringList {} << QStringList {};
}

void tst_InspectorCore::diffViews()
{
    QFETCH(QList<EtcdKeyValue>, before);
    QFETCH(QList<EtcdKeyValue>, after);
    QFETCH(QStringList, events);
    QFETCH(QStringList, handOffs);
    const QDateTime now = QDateTime::currentDateTime();
    const ViewChanges changes = Inspector::diffViews(viewOf(before, 100), viewOf(after, 101), now);
    QCOMPARE(summary(changes.events).join(u"; "_s), events.join(u"; "_s));
    QCOMPARE(summary(changes.handOffs).join(u"; "_s), handOffs.join(u"; "_s));
    for (const RecipeEvent &e : changes.events) {
        QCOMPARE(e.time, now);
        QVERIFY(!e.backfilled);
        QVERIFY(!e.text.isEmpty());
        QVERIFY(e.revision > 0);
    }
}

void tst_InspectorCore::handOffNamesTheNewLeaderAndItsTerm()
{
    const QDateTime now = QDateTime::currentDateTime();
    const ViewChanges changes = Inspector::diffViews(
        viewOf({candidate(kE, "alpha", 5, 0xa), leader(kE, "alpha", 10, 0xa1)}, 100),
        viewOf({candidate(kE, "alpha", 5, 0xa), leader(kE, "bravo", 1234, 0xb1)}, 1300), now);
    QCOMPARE(changes.handOffs.size(), 1);
    const HandOff &h = changes.handOffs.first();
    QCOMPARE(h.election, kE);
    QCOMPARE(h.from, u"alpha"_s);
    QCOMPARE(h.to, u"bravo"_s);
    QCOMPARE(h.termToken, 1234);
    QCOMPARE(h.revision, 1234); // the term began when the new LEADER key was created
    QCOMPARE(h.time, now);
    QVERIFY(!h.backfilled);

    QCOMPARE(changes.events.size(), 1);
    const RecipeEvent &e = changes.events.first();
    QCOMPARE(e.type, EventType::LeaderElected);
    QCOMPARE(e.kind, Kind::Election);
    QCOMPARE(e.path, kE);
    QCOMPARE(e.actor, u"bravo"_s);
    QCOMPARE(e.token, 1234);
    QCOMPARE(e.revision, 1234);
    QVERIFY2(e.text.contains(u"bravo"_s), qPrintable(e.text));
    QVERIFY2(e.text.contains(u"/e"_s), qPrintable(e.text));
    QVERIFY2(e.text.contains(u"1234"_s), qPrintable(e.text));
    QVERIFY2(!e.text.contains(u"alpha"_s), qPrintable(e.text));
}

void tst_InspectorCore::leaderLostAtTheViewsRevision()
{
    const ViewChanges changes = Inspector::diffViews(
        viewOf({candidate(kE, "alpha", 5, 0xa), leader(kE, "alpha", 10, 0xa1)}, 100),
        viewOf({candidate(kE, "alpha", 5, 0xa)}, 150), QDateTime::currentDateTime());
    QCOMPARE(changes.events.size(), 1);
    const RecipeEvent &e = changes.events.first();
    QCOMPARE(e.type, EventType::LeaderLost);
    QCOMPARE(e.actor, u"alpha"_s);
    QCOMPARE(e.revision, 150);
    QCOMPARE(e.token, 0);
    QVERIFY2(e.text.contains(u"alpha"_s) && e.text.contains(u"/e"_s), qPrintable(e.text));
    QCOMPARE(changes.handOffs.size(), 1);
    QCOMPARE(changes.handOffs.first().to, QString());
    QCOMPARE(changes.handOffs.first().termToken, 0);
    QCOMPARE(changes.handOffs.first().revision, 150);
}

// The waiter keeps its key when it is promoted: one acquisition with its create revision as
// the fencing token, and no "is waiting" for it.
void tst_InspectorCore::promotedWaiterAcquiresWithoutQueueing()
{
    const View before = viewOf(
        {mutexKey(kM, kLeaseA, 20), mutexKey(kM, kLeaseB, 30), mutexKey(kM, kLeaseC, 31)}, 100);
    const View after = viewOf({mutexKey(kM, kLeaseB, 30), mutexKey(kM, kLeaseC, 31)}, 140);
    const ViewChanges changes = Inspector::diffViews(before, after, QDateTime::currentDateTime());
    QVERIFY(ofType(changes.events, EventType::Queued).isEmpty());
    const QList<RecipeEvent> acquired = ofType(changes.events, EventType::Acquired);
    QCOMPARE(acquired.size(), 1);
    QCOMPARE(acquired.first().actor, leaseActor(kLeaseB));
    QCOMPARE(acquired.first().token, 30);
    QCOMPARE(acquired.first().kind, Kind::Mutex);
    QVERIFY2(acquired.first().text.contains(u"30"_s), qPrintable(acquired.first().text));
    const QList<RecipeEvent> released = ofType(changes.events, EventType::Released);
    QCOMPARE(released.size(), 1);
    QCOMPARE(released.first().actor, leaseActor(kLeaseA));
    QCOMPARE(released.first().revision, 140);
    QVERIFY(changes.handOffs.isEmpty());
}

void tst_InspectorCore::unchangedViewAtALaterRevision()
{
    const QList<EtcdKeyValue> keys {candidate(kE, "A", 5, 0xa), leader(kE, "A", 10, 0xa1),
        mutexKey(kM, kLeaseA, 20), mutexKey(kM, kLeaseB, 30)};
    const ViewChanges changes
        = Inspector::diffViews(viewOf(keys, 100), viewOf(keys, 500), QDateTime::currentDateTime());
    QVERIFY(changes.events.isEmpty());
    QVERIFY(changes.handOffs.isEmpty());
}

// etcd's concurrency.Election: the earliest key leads, so a hand-off turns the next
// candidate's key from a participation into the leader key. That candidate did not leave.
void tst_InspectorCore::concurrencyElectionHandOffIsNoDeparture()
{
    const EtcdKeyValue a = kv("/ge/" + QByteArray::number(kLeaseA, 16), "node-a", 8, kLeaseA);
    const EtcdKeyValue b = kv("/ge/" + QByteArray::number(kLeaseB, 16), "node-b", 9, kLeaseB);
    const EtcdKeyValue c = kv("/ge/" + QByteArray::number(kLeaseC, 16), "node-c", 11, kLeaseC);
    const View before = viewOf({a, b, c}, 100);
    const View after = viewOf({b, c}, 120);
    QCOMPARE(recipeAt(before, "/ge").kind, Kind::Election);
    QCOMPARE(recipeAt(after, "/ge").first(Role::Leader)->key, b.key);
    const ViewChanges changes = Inspector::diffViews(before, after, QDateTime::currentDateTime());
    const QString from = leaseActor(kLeaseA), to = leaseActor(kLeaseB);
    QCOMPARE(summary(changes.handOffs).join(u"; "_s), u"/ge: "_s + from + u'>' + to + u" #9"_s);
    QCOMPARE(summary(changes.events).join(u"; "_s), u"LeaderElected|"_s + to + u"|/ge#9"_s);
}

// Two recipes may share a path (an election at /x and a leased key /x itself): an unchanged
// view must not end and restart the election on every rebuild (which would also raise a
// flapping alert after four rebuilds).
void tst_InspectorCore::twoKindsOnOnePathStayQuiet()
{
    const QList<EtcdKeyValue> keys {
        candidate(kE, "A", 5, 0xa), leader(kE, "A", 10, 0xa1), transient(kE, 3, 0x71)};
    const View view = viewOf(keys, 100);
    QCOMPARE(view.recipes.size(), 2);
    QCOMPARE(view.recipes.at(0).path, view.recipes.at(1).path);
    const ViewChanges changes
        = Inspector::diffViews(view, viewOf(keys, 101), QDateTime::currentDateTime());
    QCOMPARE(summary(changes.events).join(u"; "_s), QString());
    QCOMPARE(summary(changes.handOffs).join(u"; "_s), QString());
}

void tst_InspectorCore::actorOf_data()
{
    QTest::addColumn<QString>("owner");
    QTest::addColumn<qint64>("lease");
    QTest::addColumn<QByteArray>("key");
    QTest::addColumn<QString>("actor");
    QTest::newRow("owner") << u"reporter-1"_s << kLeaseA << "/locks/db/x"_ba << u"reporter-1"_s;
    QTest::newRow("lease when no owner")
        << QString() << kLeaseA << "/locks/db/x"_ba << u"lease 694d7b5c2a1e3f04"_s;
    QTest::newRow("key when neither") << QString() << qint64(0) << "/n"_ba << u"/n"_s;
}

void tst_InspectorCore::actorOf()
{
    QFETCH(QString, owner);
    QFETCH(qint64, lease);
    QFETCH(QByteArray, key);
    QFETCH(QString, actor);
    Entry e;
    e.owner = owner;
    e.lease = lease;
    e.key = key;
    QCOMPARE(Inspector::actorOf(e), actor);
}

// ----------------------------------------------------------------------------- historyreplay

void tst_InspectorCore::replayedTerms()
{
    HistoryReplay replay;
    const QByteArray key = "/e/LEADER";

    std::optional<HandOff> h = replay.feed(put(key, "A:aaaaaaa", 10));
    QVERIFY(h);
    QCOMPARE(h->election, "/e"_ba);
    QCOMPARE(h->from, QString());
    QCOMPARE(h->to, u"A"_s);
    QCOMPARE(h->termToken, 10);
    QCOMPARE(h->revision, 10);
    QVERIFY(h->backfilled);
    QVERIFY(!h->time.isValid()); // etcd keeps no wall-clock time

    QVERIFY(!replay.feed(put(key, "A:aaaaaaa", 11, 2, 10))); // a proclamation: same term

    h = replay.feed(deleted(key, 12));
    QVERIFY(h);
    QCOMPARE(h->from, u"A"_s);
    QCOMPARE(h->to, QString());
    QCOMPARE(h->termToken, 0);
    QCOMPARE(h->revision, 12);

    // Another election in between keeps its own chain.
    h = replay.feed(put("/f/LEADER", "C:ccccccc", 13));
    QVERIFY(h);
    QCOMPARE(h->election, "/f"_ba);
    QCOMPARE(h->from, QString());
    QCOMPARE(h->to, u"C"_s);

    h = replay.feed(put(key, "B:bbbbbbb", 14));
    QVERIFY(h);
    QCOMPARE(h->election, "/e"_ba);
    QCOMPARE(h->from, QString()); // A's term ended at 12: nobody led in between
    QCOMPARE(h->to, u"B"_s);
    QCOMPARE(h->termToken, 14);

    // Without a delete seen in between (a watch can coalesce nothing, but a replay may start
    // late): the next term names the last leader replayed.
    h = replay.feed(put(key, "D:ddddddd", 16));
    QVERIFY(h);
    QCOMPARE(h->from, u"B"_s);
    QCOMPARE(h->to, u"D"_s);

    h = replay.feed(deleted("/f/LEADER", 17));
    QVERIFY(h);
    QCOMPARE(h->election, "/f"_ba);
    QCOMPARE(h->from, u"C"_s);
}

void tst_InspectorCore::replayIgnoresOtherKeys_data()
{
    QTest::addColumn<QByteArray>("key");
    QTest::newRow("participation key") << "/e/participants/A"_ba;
    QTest::newRow("bare /LEADER") << "/LEADER"_ba;
    QTest::newRow("bare LEADER") << "LEADER"_ba;
    QTest::newRow("longer name") << "/e/LEADERS"_ba;
    QTest::newRow("lower case") << "/e/leader"_ba;
    QTest::newRow("below a LEADER key") << "/e/LEADER/x"_ba;
    QTest::newRow("mutex key") << "/locks/db/694d7b5c2a1e3f04"_ba;
}

void tst_InspectorCore::replayIgnoresOtherKeys()
{
    QFETCH(QByteArray, key);
    HistoryReplay replay;
    QVERIFY(!HistoryReplay::isLeaderKey(key));
    QVERIFY(!replay.feed(put(key, "A:aaaaaaa", 10)));
    QVERIFY(!replay.feed(deleted(key, 11)));
    QVERIFY(HistoryReplay::isLeaderKey("/e/LEADER"));
}

void tst_InspectorCore::ownerOf_data()
{
    QTest::addColumn<QByteArray>("value");
    QTest::addColumn<QString>("owner");
    QTest::newRow("plain id") << "A:aaaaaaa"_ba << u"A"_s;
    QTest::newRow("id with colons") << "id:with:colons:abcdefg"_ba << u"id:with:colons"_s;
    QTest::newRow("Kotlin default id")
        << "LeaderSelector:aB3dE9z:Q1w2E3r"_ba << u"LeaderSelector:aB3dE9z"_s;
    QTest::newRow("no colon") << "plain"_ba << u"plain"_s;
}

void tst_InspectorCore::ownerOf()
{
    QFETCH(QByteArray, value);
    QFETCH(QString, owner);
    QCOMPARE(HistoryReplay::ownerOf(value), owner);
}

// A replay starts at an older revision, usually within a term that began before it: its
// first event for that election is then a proclamation (version > 1), or the delete that
// ends the term. The proclamation names the leader; the end of that term should say whose it
// was rather than hand off from nobody to nobody.
void tst_InspectorCore::replayStartingMidTermNamesTheLeader()
{
    HistoryReplay replay;
    QVERIFY(!replay.feed(put("/e/LEADER", "A:aaaaaaa", 20, 3, 10)));
    const std::optional<HandOff> h = replay.feed(deleted("/e/LEADER", 21));
    QVERIFY(h);
    QCOMPARE(h->from, u"A"_s);
}

// -------------------------------------------------------------------------------- leaseclock

void tst_InspectorCore::remainingCountsDown()
{
    LeaseClock clock;
    QVERIFY(!clock.remainingMs(kLeaseA, 0)); // never asked
    QCOMPARE(clock.reconcile(kLeaseA, 10, 10, 1000, true), unsigned(LeaseClock::None));
    QCOMPARE(clock.remainingMs(kLeaseA, 1000), std::optional<qint64>(10000));
    QCOMPARE(clock.remainingMs(kLeaseA, 4500), std::optional<qint64>(6500));
    QCOMPARE(clock.remainingMs(kLeaseA, 11000), std::optional<qint64>(0));
    // A fresh answer restarts the countdown from itself.
    clock.reconcile(kLeaseA, 7, 10, 5000, true);
    QCOMPARE(clock.remainingMs(kLeaseA, 6000), std::optional<qint64>(6000));
    QCOMPARE(clock.sample(kLeaseA)->samples, 2);
    QCOMPARE(clock.sample(kLeaseA)->grantedSeconds, 10);
    // Not found: no countdown.
    clock.reconcile(kLeaseB, -1, 0, 5000, false);
    QVERIFY(!clock.remainingMs(kLeaseB, 5000));
    QVERIFY(clock.sample(kLeaseB));
    QVERIFY(!clock.sample(kLeaseC));
}

void tst_InspectorCore::anomalies_data()
{
    QTest::addColumn<qint64>("previousTtl"); // -100: no previous answer
    QTest::addColumn<qint64>("ttl");
    QTest::addColumn<qint64>("granted");
    QTest::addColumn<qint64>("nowMs"); // the previous answer came at 0
    QTest::addColumn<bool>("keysSeen");
    QTest::addColumn<unsigned>("raised");
    const auto none = unsigned(LeaseClock::None);
    QTest::newRow("healthy") << qint64(-100) << qint64(5) << qint64(10) << qint64(0) << true
                             << none;
    QTest::newRow("key without lease") << qint64(-100) << qint64(-1) << qint64(0) << qint64(0)
                                       << true << unsigned(LeaseClock::KeyWithoutLease);
    QTest::newRow("gone with no keys")
        << qint64(-100) << qint64(-1) << qint64(0) << qint64(0) << false << none;
    QTest::newRow("negative remaining") << qint64(-100) << qint64(-5) << qint64(10) << qint64(0)
                                        << true << unsigned(LeaseClock::NegativeRemaining);
    QTest::newRow("above grant") << qint64(-100) << qint64(12) << qint64(10) << qint64(0) << true
                                 << unsigned(LeaseClock::AboveGrant);
    QTest::newRow("one second above grant is rounding")
        << qint64(-100) << qint64(11) << qint64(10) << qint64(0) << true << none;
    QTest::newRow("grant unknown")
        << qint64(-100) << qint64(12) << qint64(0) << qint64(0) << true << none;
    QTest::newRow("one earlier answer cannot show a stall")
        << qint64(2) << qint64(8) << qint64(10) << qint64(5000) << true << none;
    QTest::newRow("predicted expiry within the slack")
        << qint64(2) << qint64(8) << qint64(10) << qint64(3500) << true << none;
    QTest::newRow("renewed before expiry")
        << qint64(8) << qint64(10) << qint64(10) << qint64(3000) << true << none;
    QTest::newRow("alive again after not found")
        << qint64(-1) << qint64(5) << qint64(10) << qint64(60000) << false << none;
    QTest::newRow("gone after predicted expiry")
        << qint64(2) << qint64(-1) << qint64(0) << qint64(10000) << false << none;
    QTest::newRow("jumped up above its grant")
        << qint64(1) << qint64(30) << qint64(10) << qint64(9000) << true
        << unsigned(LeaseClock::AboveGrant);
}

void tst_InspectorCore::anomalies()
{
    QFETCH(qint64, previousTtl);
    QFETCH(qint64, ttl);
    QFETCH(qint64, granted);
    QFETCH(qint64, nowMs);
    QFETCH(bool, keysSeen);
    QFETCH(unsigned, raised);
    LeaseClock clock;
    if (previousTtl != -100)
        QCOMPARE(clock.reconcile(kLeaseA, previousTtl, granted, 0, keysSeen),
            unsigned(LeaseClock::None));
    QCOMPARE(clock.reconcile(kLeaseA, ttl, granted, nowMs, keysSeen), raised);
    QCOMPARE(clock.anomalies(kLeaseA), raised);
}

void tst_InspectorCore::onlyNewlyRaisedAnomaliesAreReturned()
{
    LeaseClock clock;
    QCOMPARE(clock.reconcile(kLeaseA, 12, 10, 0, true), unsigned(LeaseClock::AboveGrant));
    QCOMPARE(clock.reconcile(kLeaseA, 12, 10, 1000, true), unsigned(LeaseClock::None));
    QCOMPARE(clock.anomalies(kLeaseA), unsigned(LeaseClock::AboveGrant)); // still standing
    QCOMPARE(clock.reconcile(kLeaseA, -1, 10, 2000, true), unsigned(LeaseClock::KeyWithoutLease));
    QCOMPARE(clock.anomalies(kLeaseA), unsigned(LeaseClock::KeyWithoutLease));
    QCOMPARE(clock.reconcile(kLeaseA, 5, 10, 3000, true), unsigned(LeaseClock::None));
    QCOMPARE(clock.anomalies(kLeaseA), unsigned(LeaseClock::None)); // cleared
    QCOMPARE(clock.reconcile(kLeaseA, 12, 10, 4000, true), unsigned(LeaseClock::AboveGrant));
    QCOMPARE(clock.anomalies(kLeaseB), unsigned(LeaseClock::None)); // never asked
    QCOMPARE(clock.sample(kLeaseA)->samples, 5);
}

// A lease kept alive (etcd clients renew at a third of the TTL) that the poller asks less
// often than its TTL: the old answer's countdown has run out, yet the lease is alive because
// it was renewed in time, not revived. With 1,000 leases at 100 asks a second each is asked
// every ~10 s, and after any pause of the poller (a reconnect) every short lease is affected.
void tst_InspectorCore::keptAliveLeaseSampledRarelyIsNoAnomaly()
{
    LeaseClock clock;
    QCOMPARE(clock.reconcile(kLeaseA, 4, 5, 0, true), unsigned(LeaseClock::None));
    QCOMPARE(clock.reconcile(kLeaseA, 3, 5, 10000, true), unsigned(LeaseClock::None));
}

void tst_InspectorCore::dueOrder()
{
    constexpr qint64 l1 = 1, l2 = 2, l3 = 3, l4 = 4, l5 = 5, other = 9;
    LeaseClock clock;
    clock.reconcile(l2, 5, 10, 1000, true);
    clock.reconcile(l3, 5, 10, 500, true);
    clock.reconcile(l4, 5, 10, 3000, true);
    clock.reconcile(other, 5, 10, 0, true); // answered, but not wanted now
    const QList<qint64> wanted {l1, l2, l3, l4, l5};
    // Never asked first (in the order wanted), then the oldest answers.
    QCOMPARE(clock.due(wanted, 4000, 10, 1000), (QList<qint64> {l1, l5, l3, l2, l4}));
    QCOMPARE(clock.due(wanted, 4000, 3, 1000), (QList<qint64> {l1, l5, l3}));
    QCOMPARE(clock.due(wanted, 4000, 1, 1000), (QList<qint64> {l1}));
    QCOMPARE(clock.due(wanted, 4000, 0, 1000), (QList<qint64> {}));
    // minAgeMs: answers younger than it wait; never-asked leases do not.
    QCOMPARE(clock.due(wanted, 4000, 10, 2000), (QList<qint64> {l1, l5, l3, l2}));
    QCOMPARE(clock.due(wanted, 4000, 10, 3600), (QList<qint64> {l1, l5}));
    QCOMPARE(clock.due({l2, l3, l4}, 3200, 10, 1000), (QList<qint64> {l3, l2}));
    QCOMPARE(clock.due({}, 4000, 10, 0), (QList<qint64> {}));
}

void tst_InspectorCore::retainOnlyAndForget()
{
    LeaseClock clock;
    clock.reconcile(1, 5, 10, 0, true);
    clock.reconcile(2, 5, 10, 0, true);
    clock.reconcile(3, 5, 10, 0, true);
    clock.retainOnly({2, 3, 4});
    QList<qint64> left = clock.leases();
    std::sort(left.begin(), left.end());
    QCOMPARE(left, (QList<qint64> {2, 3}));
    QVERIFY(!clock.sample(1));
    QVERIFY(!clock.remainingMs(1, 0));
    clock.forget(3);
    QCOMPARE(clock.leases(), QList<qint64> {2});
    clock.retainOnly({});
    QVERIFY(clock.leases().isEmpty());
}

void tst_InspectorCore::describeNamesEachAnomaly()
{
    QCOMPARE(LeaseClock::describe(LeaseClock::None), QString());
    const unsigned bits[] = {LeaseClock::AboveGrant, LeaseClock::NegativeRemaining,
        LeaseClock::KeyWithoutLease, LeaseClock::JumpedUp};
    QStringList seen;
    for (unsigned bit : bits) {
        const QString text = LeaseClock::describe(bit);
        QVERIFY(!text.isEmpty());
        QVERIFY(!seen.contains(text));
        seen.append(text);
    }
    QCOMPARE(LeaseClock::describe(LeaseClock::AboveGrant | LeaseClock::JumpedUp),
        seen.at(0) + u", "_s + seen.at(3));
}

// ----------------------------------------------------------------------------- recipeactions

void tst_InspectorCore::actionsFor_data()
{
    QTest::addColumn<QList<EtcdKeyValue>>("keys");
    QTest::addColumn<QByteArray>("path");
    QTest::addColumn<QStringList>("actions");
    QTest::newRow("election: step down guarded by the term token")
        << QList {candidate(kE, "A", 5, 0xa), leader(kE, "B", 12, 0xb1)} << kE
        << QStringList {u"Force step-down /e /e/LEADER #12 lease b1"_s};
    QTest::newRow("election without leader")
        << QList {candidate(kE, "A", 5, 0xa)} << kE << QStringList {};
    QTest::newRow("mutex: the holder only")
        << QList {mutexKey(kM, kLeaseA, 20), mutexKey(kM, kLeaseB, 30)} << kM
        << QStringList {u"Release lock /locks/db /locks/db/694d7b5c2a1e3f04 #20 lease "
                        "694d7b5c2a1e3f04"_s};
    QTest::newRow("semaphore: each holder")
        << QList {permits(kS, 2), semHolder(kS, "s1", 3), semHolder(kS, "s2", 4),
               semHolder(kS, "s3", 5)}
        << kS
        << QStringList {u"Release lock /sem /sem/holders/s1:abc1234 #3 lease 503"_s,
               u"Release lock /sem /sem/holders/s2:abc1234 #4 lease 504"_s};
    QTest::newRow("read-write lock: both readers")
        << QList {kv("/rw/read-r1:aaaaaaa", "r1", 1, 0x11),
               kv("/rw/read-r2:bbbbbbb", "r2", 2, 0x12), kv("/rw/write-w:ccccccc", "w", 3, 0x13)}
        << "/rw"_ba
        << QStringList {u"Release lock /rw /rw/read-r1:aaaaaaa #1 lease 11"_s,
               u"Release lock /rw /rw/read-r2:bbbbbbb #2 lease 12"_s};
    QTest::newRow("barrier") << QList {gate(kG, "G", 40)} << kG
                             << QStringList {u"Lift barrier /gate /gate #40 lease 728"_s};
    QTest::newRow("counted barrier")
        << QList {member(kCB, "m1", 50), ready(kCB, "m1", 51)} << kCB << QStringList {};
    QTest::newRow("number") << QList {number("/n", 3, 70)} << "/n"_ba << QStringList {};
    QTest::newRow("transient key")
        << QList {transient("/svc/a", 80, 0x71)} << "/svc/a"_ba << QStringList {};
    QTest::newRow("work queue: none (a claim ends by its lease)")
        << QList {kv("/w/claimed/0000001752880000100-ccc", "job", 90),
               kv("/w/claims/0000001752880000100-ccc", "consumer-1", 90, 0x90)}
        << "/w"_ba << QStringList {};
}

void tst_InspectorCore::actionsFor()
{
    QFETCH(QList<EtcdKeyValue>, keys);
    QFETCH(QByteArray, path);
    QFETCH(QStringList, actions);
    const View view = viewOf(keys);
    QCOMPARE(
        summary(Inspector::actionsFor(recipeAt(view, path))).join(u"; "_s), actions.join(u"; "_s));
}

void tst_InspectorCore::revokeSharedLeaseEndsBoth()
{
    constexpr qint64 shared = 0x694d7b5c2a1e3f99;
    const View view = viewOf({candidate(kE, "alpha", 5, 0xa), candidate(kE, "bravo", 6, 0xb),
        leader(kE, "alpha", 10, shared), transient("/svc/alpha", 11, shared),
        transient("/svc/other", 12, 0x71)});
    const RecipeAction action = revokeAction(shared);
    QCOMPARE(action.type, RecipeAction::Type::RevokeLease);
    QCOMPARE(action.lease, shared);
    QVERIFY(action.path.isEmpty());
    QVERIFY(action.key.isEmpty());

    const BlastRadius b = blastRadius(view, action);
    QVERIFY(b.possible);
    QVERIFY(b.whyNot.isEmpty());
    QVERIFY(!b.title.isEmpty());
    QCOMPARE(b.effects.size(), 3);
    const QString &headline = b.effects.at(0);
    QVERIFY2(headline.contains(u"694d7b5c2a1e3f99"_s), qPrintable(headline));
    QVERIFY2(headline.contains(u"2 key"_s), qPrintable(headline));
    const QString &term = b.effects.at(1);
    QVERIFY2(term.contains(u"alpha"_s) && term.contains(u"/e"_s) && term.contains(u"10"_s),
        qPrintable(term));
    QVERIFY2(b.effects.at(2).contains(u"/svc/alpha"_s), qPrintable(b.effects.at(2)));
    const QString all = b.effects.join(u'\n');
    QVERIFY(!all.contains(u"/svc/other"_s));
    QVERIFY(!all.contains(u"bravo"_s));
}

// A work-queue consumer's lease carries its claims: revoking it hands each claimed item to
// the next consumer; the unleased payload copies are not what the revoke deletes.
void tst_InspectorCore::revokingAConsumersLeaseOrphansItsClaims()
{
    constexpr qint64 consumer = 0x694d7b5c2a1e3f77;
    const View view = viewOf({kv("/w/claimed/0000001752880000100-ccc", "job", 90),
        kv("/w/claims/0000001752880000100-ccc", "consumer-1", 90, consumer),
        kv("/w/items/0000001752880000200-ddd", "next", 91)});
    const BlastRadius b = blastRadius(view, revokeAction(consumer));
    QVERIFY(b.possible);
    const QString all = b.effects.join(u'\n');
    QVERIFY2(all.contains(u"consumer-1 loses its claim on item 0000001752880000100-ccc of /w: "
                          "the next consumer reclaims it"_s),
        qPrintable(all));
    QVERIFY(!all.contains(u"/w/claimed/"_s));
    QVERIFY(!all.contains(u"0000001752880000200-ddd"_s));
}

void tst_InspectorCore::releaseNamesTheNextWaiter()
{
    const View view
        = viewOf({mutexKey(kM, kLeaseA, 20), mutexKey(kM, kLeaseB, 30), mutexKey(kM, kLeaseC, 31)});
    const QList<RecipeAction> actions = Inspector::actionsFor(recipeAt(view, kM));
    QCOMPARE(actions.size(), 1);
    const BlastRadius b = blastRadius(view, actions.first());
    QVERIFY(b.possible);
    QCOMPARE(b.effects.size(), 2);
    QVERIFY2(b.effects.at(0).contains(leaseActor(kLeaseA)) && b.effects.at(0).contains(u"20"_s),
        qPrintable(b.effects.at(0)));
    QVERIFY2(b.effects.at(1).contains(leaseActor(kLeaseB)), qPrintable(b.effects.at(1)));
    QVERIFY(!b.effects.join(u'\n').contains(QString::number(kLeaseC, 16)));

    // The last holder with nobody queued: just the hold.
    const View alone = viewOf({mutexKey(kM, kLeaseA, 20)});
    const BlastRadius single
        = blastRadius(alone, Inspector::actionsFor(recipeAt(alone, kM)).first());
    QCOMPARE(single.effects.size(), 1);
}

void tst_InspectorCore::liftBarrier()
{
    const View view = viewOf({gate(kG, "G", 40)});
    const QList<RecipeAction> actions = Inspector::actionsFor(recipeAt(view, kG));
    QCOMPARE(actions.size(), 1);
    const BlastRadius b = blastRadius(view, actions.first());
    QVERIFY(b.possible);
    QCOMPARE(b.effects.size(), 1);
    QVERIFY2(b.effects.first().contains(u"/gate"_s), qPrintable(b.effects.first()));
}

void tst_InspectorCore::unusedLeaseCannotBeRevoked()
{
    const View view = viewOf({mutexKey(kM, kLeaseA, 20), transient("/svc/a", 11, 0x71)});
    const BlastRadius b = blastRadius(view, revokeAction(0xdead));
    QVERIFY(!b.possible);
    QVERIFY(!b.whyNot.isEmpty());
    QVERIFY(!b.effects.join(u'\n').contains(u"/svc/a"_s));
}

// The guard is the term seen: once another term began, the old step-down touches nothing.
void tst_InspectorCore::endedTermCannotBeSteppedDown()
{
    const View seen = viewOf({candidate(kE, "A", 5, 0xa), leader(kE, "A", 10, 0xa1)});
    const RecipeAction stepDown = Inspector::actionsFor(recipeAt(seen, kE)).first();
    QVERIFY(blastRadius(seen, stepDown).possible);
    const View now = viewOf({candidate(kE, "A", 5, 0xa)});
    const BlastRadius b = blastRadius(now, stepDown);
    QVERIFY(!b.possible);
    QVERIFY(!b.whyNot.isEmpty());

    // The same LEADER key, a newer term: the step-down seen in A's term ends nothing of B's
    // (etcd refuses the guarded delete), so its blast radius must not say B stops leading.
    const View newer = viewOf({candidate(kE, "A", 5, 0xa), leader(kE, "B", 12, 0xb1)});
    const BlastRadius stale = blastRadius(newer, stepDown);
    QVERIFY2(
        !stale.effects.join(u'\n').contains(u"B stops"_s), qPrintable(stale.effects.join(u'\n')));
    QVERIFY(!stale.possible);
    QVERIFY(!stale.whyNot.isEmpty());
}

// recipeactions.h documents the title as "Revoke lease 694d…?".
void tst_InspectorCore::blastRadiusTitleNamesTheTarget()
{
    const View view = viewOf({transient("/svc/a", 11, kLeaseA)});
    const BlastRadius b = blastRadius(view, revokeAction(kLeaseA));
    QVERIFY(b.title.contains(u"Revoke lease"_s));
    QVERIFY2(b.title.contains(u"694d7b5c2a1e3f04"_s), qPrintable(b.title));
}

// Answers that follow the countdown for more than half the grant, then a rise: revived late.
// The same rise after a shorter unrenewed stretch is an ordinary keep-alive.
void tst_InspectorCore::revivedAfterGoingUnrenewedJumpedUp()
{
    LeaseClock clock;
    QCOMPARE(clock.reconcile(kLeaseA, 9, 10, 0, true), unsigned(LeaseClock::None));
    QCOMPARE(clock.reconcile(kLeaseA, 7, 10, 2000, true), unsigned(LeaseClock::None));
    QCOMPARE(clock.reconcile(kLeaseA, 5, 10, 4000, true), unsigned(LeaseClock::None));
    QCOMPARE(clock.reconcile(kLeaseA, 3, 10, 6000, true), unsigned(LeaseClock::None));
    QCOMPARE(clock.reconcile(kLeaseA, 10, 10, 7000, true), unsigned(LeaseClock::JumpedUp));
    QCOMPARE(clock.anomalies(kLeaseA), unsigned(LeaseClock::JumpedUp));
    QCOMPARE(clock.reconcile(kLeaseA, 9, 10, 8000, true), unsigned(LeaseClock::None));

    LeaseClock healthy;
    QCOMPARE(healthy.reconcile(kLeaseA, 9, 10, 0, true), unsigned(LeaseClock::None));
    QCOMPARE(healthy.reconcile(kLeaseA, 7, 10, 2000, true), unsigned(LeaseClock::None));
    QCOMPARE(healthy.reconcile(kLeaseA, 10, 10, 3000, true), unsigned(LeaseClock::None));
}

// The Overview's faces: made when asked for; a recipe whose keys did not change keeps its
// face; one that did gets a new one, and is reported with both; counted by what faceOf() says.
void tst_InspectorCore::faceCacheMakesOnlyChangedFaces()
{
    const auto election = [](const QByteArray &path, const QString &leader, qint64 revision) {
        Recipe r;
        r.kind = Kind::Election;
        r.path = path;
        Entry e;
        e.role = Role::Leader;
        e.owner = leader;
        e.key = path + "/LEADER";
        e.createRevision = revision;
        e.modRevision = revision;
        r.entries = {e};
        return r;
    };
    View v;
    v.prefix = "/";
    v.recipes = {election("/a", u"x"_s, 5), election("/b", u"y"_s, 6)};
    Inspector::FaceCache cache;
    QVERIFY(!cache.setView(v, 0)); // two new cards
    QCOMPARE(cache.size(), 2);
    QCOMPARE(cache.path(1), "/b");
    QCOMPARE(cache.indexOf("/b"), 1);
    QCOMPARE(cache.indexOf("/c"), -1);
    QCOMPARE(cache.face(0).ownerLabel(), u"x"_s);
    const QString footerOfA = cache.face(0).footer;
    v.recipes[1] = election("/b", u"z"_s, 9); // a hand-off in /b only
    QList<Inspector::FaceCache::Change> changes;
    QVERIFY(cache.setView(v, 0, &changes)); // the same cards
    QCOMPARE(changes.size(), 1);
    QCOMPARE(changes[0].before.ownerLabel(), u"y"_s);
    QCOMPARE(changes[0].after.ownerLabel(), u"z"_s);
    QCOMPARE(cache.face(1).ownerLabel(), u"z"_s);
    QCOMPARE(cache.face(1).token, Inspector::faceOf(v.recipes[1]).token);
    // /a's face was kept, not made again: the very same string data.
    QVERIFY(cache.face(0).footer.constData() == footerOfA.constData());
    v.recipes.removeFirst();
    changes.clear();
    QVERIFY(!cache.setView(v, 0, &changes));
    QCOMPARE(cache.size(), 1);
    QVERIFY(changes.isEmpty());
    QCOMPARE(cache.face(0).ownerLabel(), u"z"_s);
}

// The Charts view's figures (issue 23 item 4).
void tst_InspectorCore::statsHandOffsPerMinute()
{
    const QDateTime now = QDateTime::fromSecsSinceEpoch(1'800'000'000 + 30); // mid-minute
    const auto handOff = [&](const char *election, const char *to, int secondsAgo) {
        HandOff h;
        h.election = election;
        h.to = QString::fromLatin1(to);
        h.time = now.addSecs(-secondsAgo);
        return h;
    };
    HandOff replayed = handOff("/e", "old", 10);
    replayed.time = {}; // rebuilt from history: no time, not counted
    const QList<HandOff> all = {handOff("/e", "a", 5), handOff("/e", "b", 20),
        handOff("/e", "", 25), handOff("/e", "c", 90), handOff("/f", "x", 60 * 40), replayed};
    const auto counts = Inspector::Stats::handOffsPerMinute(all, now, 30);
    QCOMPARE(counts.value("/e").size(), 30);
    QCOMPARE(counts.value("/e").last(), 2); // a and b; the end of a term is no new leader
    QCOMPARE(counts.value("/e").at(28), 1); // c, 90 s before half past: the minute before
    QCOMPARE(counts.value("/e").at(27), 0);
    QVERIFY(!counts.contains("/f")); // 40 minutes ago: outside the window
}

void tst_InspectorCore::statsLockWaitsAndHolds()
{
    using T = RecipeEvent::Type;
    const QDateTime t0 = QDateTime::fromSecsSinceEpoch(1'800'000'000);
    const auto event = [&](T type, const char *who, int ms) {
        RecipeEvent e;
        e.type = type;
        e.path = "/locks/db";
        e.actor = QString::fromLatin1(who);
        e.time = t0.addMSecs(ms);
        return e;
    };
    RecipeEvent backfilled = event(T::Released, "a", 50);
    backfilled.backfilled = true;
    const QList<RecipeEvent> events = {event(T::Acquired, "a", 0), event(T::Queued, "b", 10),
        backfilled, event(T::Released, "a", 400), event(T::Acquired, "b", 410),
        event(T::Released, "b", 1410)};
    const auto locks = Inspector::Stats::lockTimes(events);
    QCOMPARE(locks.size(), 1);
    QCOMPARE(locks[0].path, QByteArray("/locks/db"));
    QCOMPARE(locks[0].waitsMs, QList<qint64>({400})); // b queued at 10, acquired at 410
    QCOMPARE(locks[0].holdsMs, QList<qint64>({400, 1000}));
    QCOMPARE(Inspector::Stats::median({400, 1000, 7}), qint64(400));
    QCOMPARE(Inspector::Stats::median({}), qint64(0));
}

void tst_InspectorCore::statsLeasesByGrantedTtl()
{
    LeaseClock clock;
    clock.reconcile(1, 2, 2, 0, true);
    clock.reconcile(2, 4, 6, 0, true);
    clock.reconcile(3, 25, 30, 0, true);
    clock.reconcile(4, 100, 3600, 0, true);
    const auto buckets = Inspector::Stats::leasesByGrantedTtl({1, 2, 3, 4, 5}, clock);
    const auto countUpTo = [&](qint64 bound) {
        for (const auto &b : buckets) {
            if (b.upToSeconds == bound)
                return b.count;
        }
        return -1;
    };
    QCOMPARE(countUpTo(2), 1);
    QCOMPARE(countUpTo(5), 0);
    QCOMPARE(countUpTo(10), 1); // granted 6 s
    QCOMPARE(countUpTo(30), 1);
    QCOMPARE(countUpTo(3600), 1);
    QCOMPARE(countUpTo(0), 1); // lease 5: never asked
}

void tst_InspectorCore::statsEventRate()
{
    Inspector::Stats::EventRate rate(10);
    rate.add(3, 100'000);
    rate.add(2, 100'900); // the same second
    rate.add(7, 103'000);
    rate.add(9, 80'000); // long ago: dropped
    const QList<int> perSecond = rate.perSecond(104'500);
    QCOMPARE(perSecond.size(), 10);
    QCOMPARE(perSecond.at(9), 0); // second 104
    QCOMPARE(perSecond.at(8), 7); // 103
    QCOMPARE(perSecond.at(5), 5); // 100
    QCOMPARE(std::accumulate(perSecond.cbegin(), perSecond.cend(), 0), 12);
}

QTEST_GUILESS_MAIN(tst_InspectorCore)
#include "tst_inspectorcore.moc"
