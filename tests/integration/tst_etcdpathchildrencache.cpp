// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// EtcdPathChildrenCache against a real etcd: changes in revision order with exact previous
// values, nested names, the start modes, a paged load, rebuild without an empty window, a
// truthful resync after a compaction during a partition, an etcd restart, typed values.
#include "leaseledger.h"
#include "testutil.h"

#include <etcdtestserver.h>

#include <QtCore/qtimer.h>
#include <QtTest/qabstractitemmodeltester.h>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using State = EtcdRecipe::ConnectionState;
using Mode = EtcdPathChildrenCache::StartMode;

namespace {

constexpr int kWaitMs = 5000;

QString text(const QByteArray &bytes)
{
    return QString::fromUtf8(bytes);
}

// Everything a cache reported, in order: "added name value rev", "updated name value
// previous rev", "removed name previous rev", "resynced", "rebuilt".
struct Changes
{
    explicit Changes(EtcdPathChildrenCache *c)
    {
        QObject::connect(c, &EtcdPathChildrenCache::childAdded, c,
            [this](const QString &n, const EtcdKeyValue &kv) {
                list.append(u"added %1 %2 %3"_s.arg(n, text(kv.value)).arg(kv.modRevision));
            });
        QObject::connect(c, &EtcdPathChildrenCache::childUpdated, c,
            [this](const QString &n, const EtcdKeyValue &kv, const EtcdKeyValue &p) {
                list.append(u"updated %1 %2 %3 %4"_s.arg(n, text(kv.value), text(p.value))
                                .arg(kv.modRevision));
            });
        QObject::connect(c, &EtcdPathChildrenCache::childRemoved, c,
            [this](const QString &n, const EtcdKeyValue &p, qint64 r) {
                list.append(u"removed %1 %2 %3"_s.arg(n, text(p.value)).arg(r));
            });
        QObject::connect(
            c, &EtcdPathChildrenCache::resynced, c, [this] { list.append(u"resynced"_s); });
        QObject::connect(
            c, &EtcdPathChildrenCache::rebuilt, c, [this] { list.append(u"rebuilt"_s); });
    }
    int count(const QString &kind) const
    {
        return int(std::count_if(list.cbegin(), list.cend(),
            [&kind](const QString &s) { return s.startsWith(kind + u' '); }));
    }
    QStringList list;
};

} // namespace

class tst_EtcdPathChildrenCache : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void reportsEveryChangeInOrderWithPreviousValues();
    void startModes_data();
    void startModes();
    void loadsManyChildrenInPages();
    void rebuildNeverEmptiesTheCache();
    void rebuildReportsEachChangeOnce();
    void clearThenRebuild();
    void resyncReportsWhatChangedDuringAPartition();
    void survivesEtcdRestart();
    void typedValuesAndCodecFailures();
    void modelFollowsRowByRow();
    void keysThatAreNotUtf8StayApart();
    void badInput();

private:
    qint64 put(const QByteArray &key, const QByteArray &value);
    qint64 remove(const QByteArray &key, bool prefix = false);
    bool putMany(const QByteArray &prefix, int from, int to);
    bool waitStarted(EtcdPathChildrenCache &cache);
    EtcdTestServer m_server;
    LeaseLedger m_leases; // issue 22 item 7: no test leaves a lease
    std::unique_ptr<EtcdClient> m_client;
};

void tst_EtcdPathChildrenCache::initTestCase()
{
    ETCDQT_START_OR_SKIP(m_server);
    m_client = connectedClient(m_server.clientUrl());
}

void tst_EtcdPathChildrenCache::init()
{
    if (!m_server.isRunning())
        QVERIFY2(m_server.restart(), qPrintable(m_server.log()));
    m_leases.begin(m_server);
}

void tst_EtcdPathChildrenCache::cleanup()
{
    VERIFY_NO_LEASE_LEFT(m_leases);
}

qint64 tst_EtcdPathChildrenCache::put(const QByteArray &key, const QByteArray &value)
{
    const auto reply = await(m_client->put(key, value), 20s);
    return reply.status.isOk() ? reply->revision() : -1;
}

qint64 tst_EtcdPathChildrenCache::remove(const QByteArray &key, bool prefix)
{
    EtcdDeleteOptions o;
    o.prefix = prefix;
    const auto reply = await(m_client->remove(key, o), 20s);
    return reply.status.isOk() ? reply->revision() : -1;
}

// Children <prefix>c<i> = "v<i>" for i in [from, to), 100 to a transaction.
bool tst_EtcdPathChildrenCache::putMany(const QByteArray &prefix, int from, int to)
{
    for (int i = from; i < to;) {
        EtcdTxn txn;
        for (int n = 0; n < 100 && i < to; ++n, ++i)
            txn.success.append(
                EtcdTxnOp::put(prefix + "c" + QByteArray::number(i).rightJustified(5, '0'),
                    "v" + QByteArray::number(i)));
        if (!await(m_client->txn(txn), 20s).status.isOk())
            return false;
    }
    return true;
}

bool tst_EtcdPathChildrenCache::waitStarted(EtcdPathChildrenCache &cache)
{
    return QTest::qWaitFor([&cache] { return cache.isStarted(); }, kWaitMs);
}

void tst_EtcdPathChildrenCache::reportsEveryChangeInOrderWithPreviousValues()
{
    remove("/pc/order", true);
    put("/pc/order/a", "1");
    put("/pc/order/b/c", "2");
    put("/pc/order2/x", "not a child"); // shares the path's spelling, not its '/'
    EtcdPathChildrenCache cache(m_client.get(), "/pc/order");
    QCOMPARE(cache.prefix(), "/pc/order/"_ba);
    Changes changes(&cache);
    cache.start();
    QVERIFY(waitStarted(cache));
    QCOMPARE(cache.names(), QStringList({u"a"_s, u"b/c"_s}));
    QCOMPARE(cache.currentData("b/c"_L1)->value, "2"_ba);
    QCOMPARE(cache.currentData().first().key, "/pc/order/a"_ba);
    QVERIFY(!cache.currentData("x"_L1));
    QVERIFY(changes.list.isEmpty()); // the snapshot is not a change

    const qint64 r1 = put("/pc/order/a", "1b");
    const qint64 r2 = put("/pc/order/d/e/f", "3");
    const qint64 r3 = remove("/pc/order/b/c");
    const qint64 r4 = put("/pc/order/a", "1c");
    put("/pc/order2/y", "not a child either");
    const qint64 r5 = remove("/pc/order/", true); // one revision for both children
    QTRY_COMPARE_WITH_TIMEOUT(changes.list.size(), 6, kWaitMs);
    QCOMPARE(changes.list,
        QStringList({u"updated a 1b 1 %1"_s.arg(r1), u"added d/e/f 3 %1"_s.arg(r2),
            u"removed b/c 2 %1"_s.arg(r3), u"updated a 1c 1b %1"_s.arg(r4),
            u"removed a 1c %1"_s.arg(r5), u"removed d/e/f 3 %1"_s.arg(r5)}));
    QCOMPARE(cache.count(), 0);
    QCOMPARE(cache.revision(), r5);
    QVERIFY(cache.errors().isEmpty());
    remove("/pc/order2", true);
}

void tst_EtcdPathChildrenCache::startModes_data()
{
    QTest::addColumn<Mode>("mode");
    QTest::newRow("Normal") << Mode::Normal;
    QTest::newRow("BuildInitialCache") << Mode::BuildInitialCache;
    QTest::newRow("PostInitializedEvent") << Mode::PostInitializedEvent;
}

void tst_EtcdPathChildrenCache::startModes()
{
    QFETCH(Mode, mode);
    remove("/pc/modes/", true);
    put("/pc/modes/x", "1");
    const qint64 seeded = put("/pc/modes/y", "2");
    EtcdPathChildrenCache cache(m_client.get(), "/pc/modes/");
    Changes changes(&cache);
    QStringList order;
    QList<EtcdKeyValue> snapshot;
    qint64 snapshotRevision = 0;
    connect(&cache, &EtcdPathChildrenCache::initialized, this,
        [&](const QList<EtcdKeyValue> &s, qint64 r) {
            order.append(u"initialized"_s);
            snapshot = s;
            snapshotRevision = r;
        });
    connect(&cache, &EtcdPathChildrenCache::started, this, [&] { order.append(u"started"_s); });
    cache.start(mode);
    QVERIFY(waitStarted(cache));
    if (mode == Mode::Normal) {
        QCOMPARE(cache.count(), 0); // no snapshot
        QCOMPARE(order, QStringList(u"started"_s));
        const qint64 x = put("/pc/modes/x", "1b"); // the cache never held it: an addition
        QTRY_COMPARE_WITH_TIMEOUT(changes.list, QStringList(u"added x 1b %1"_s.arg(x)), kWaitMs);
        return;
    }
    QCOMPARE(cache.names(), QStringList({u"x"_s, u"y"_s}));
    QVERIFY(changes.list.isEmpty());
    if (mode == Mode::BuildInitialCache) {
        QCOMPARE(order, QStringList(u"started"_s));
    } else {
        QCOMPARE(order, QStringList({u"initialized"_s, u"started"_s}));
        QCOMPARE(snapshot.size(), 2);
        QCOMPARE(snapshot.at(1).value, "2"_ba);
        QVERIFY(snapshotRevision >= seeded);
    }
    const qint64 x = put("/pc/modes/x", "1b");
    QTRY_COMPARE_WITH_TIMEOUT(changes.list, QStringList(u"updated x 1b 1 %1"_s.arg(x)), kWaitMs);
}

// More children than a page, read through a proxy that holds etcd's answers back 300 ms, and
// children added while the pages are read: every page is pinned to the first one's
// revision, so the additions are not in the snapshot but come, each once, as additions from
// the watch (an unpinned last page would hold them, and the watch would then call them
// updates). The snapshot is sorted by name.
void tst_EtcdPathChildrenCache::loadsManyChildrenInPages()
{
    remove("/pc/many/", true);
    QVERIFY(putMany("/pc/many/", 0, 2500));
    ProxiedClient side(m_server.clientPort());
    QVERIFY(side.started);
    QVERIFY_OK(await(side.client.get("/pc/many/none")).status); // connected before the delay
    side.proxy.setDelay(300ms);
    EtcdPathChildrenCache cache(&side.client, "/pc/many");
    Changes changes(&cache);
    QSignalSpy initialized(&cache, &EtcdPathChildrenCache::initialized);
    cache.start(Mode::PostInitializedEvent);
    // The first page is answered (its ~40 KB wait in the proxy; smaller held bytes may be
    // HTTP/2 frames sent before etcd read the range): the snapshot's revision is set.
    QVERIFY(QTest::qWaitFor([&] { return side.proxy.heldBytes() > 16 * 1024; }, kWaitMs));
    const qint64 late1 = put("/pc/many/z1", "late");
    const qint64 late2 = put("/pc/many/z2", "late");
    QVERIFY(waitStarted(cache));
    QCOMPARE(initialized.size(), 1);
    const auto snapshot = initialized.first().at(0).value<QList<EtcdKeyValue>>();
    QCOMPARE(snapshot.size(), 2500);
    QVERIFY(initialized.first().at(1).toLongLong() < late1);
    QTRY_COMPARE_WITH_TIMEOUT(changes.list,
        QStringList({u"added z1 late %1"_s.arg(late1), u"added z2 late %1"_s.arg(late2)}), kWaitMs);
    QCOMPARE(cache.count(), 2502);
    const QStringList names = cache.names();
    QCOMPARE(names.first(), u"c00000"_s);
    QCOMPARE(names.at(2499), u"c02499"_s);
    QCOMPARE(cache.currentData(u"c01234"_s)->value, "v1234"_ba);
    remove("/pc/many/", true);
}

// A reader that looks at every event-loop turn and at every signal never sees an empty cache
// while a rebuild runs, and changes made while its read is out are each reported once.
void tst_EtcdPathChildrenCache::rebuildNeverEmptiesTheCache()
{
    remove("/pc/rebuild/", true);
    QVERIFY(putMany("/pc/rebuild/", 0, 300));
    EtcdPathChildrenCache cache(m_client.get(), "/pc/rebuild");
    Changes changes(&cache);
    cache.start();
    QVERIFY(waitStarted(cache));
    int emptySeen = 0;
    int looks = 0;
    const auto look = [&] {
        ++looks;
        emptySeen += cache.currentData().isEmpty();
    };
    QTimer poll;
    connect(&poll, &QTimer::timeout, this, look);
    connect(&cache, &EtcdPathChildrenCache::childAdded, this, look);
    connect(&cache, &EtcdPathChildrenCache::childRemoved, this, look);
    poll.start(0);
    QSignalSpy rebuilt(&cache, &EtcdPathChildrenCache::rebuilt);
    cache.rebuild();
    // Changes in flight while the re-read is out: 30 additions and 20 deletions. Each is
    // awaited before the fence is written: unary calls in flight at once are applied in no
    // fixed order, so an unawaited one could land after the fence (or fail unseen).
    std::vector<std::unique_ptr<EtcdReply>> inFlight;
    const auto keep = [&inFlight](EtcdReply *reply) {
        reply->setAutoDelete(false); // before an event loop turn can finish and delete it
        inFlight.emplace_back(reply);
    };
    for (int i = 0; i < 30; ++i)
        keep(m_client->put("/pc/rebuild/n" + QByteArray::number(i), "new"));
    for (int i = 0; i < 20; ++i)
        keep(m_client->remove("/pc/rebuild/c" + QByteArray::number(i).rightJustified(5, '0')));
    for (auto &reply : inFlight)
        QVERIFY_OK(await(reply.release(), std::chrono::milliseconds(kWaitMs)).status);
    QTRY_COMPARE_WITH_TIMEOUT(rebuilt.size(), 1, kWaitMs); // it may have come while we waited
    const auto fence = put("/pc/rebuild/fence", "f");
    QTRY_VERIFY_WITH_TIMEOUT(cache.currentData(u"fence"_s).has_value(), kWaitMs);
    poll.stop();
    QCOMPARE(cache.count(), 311);
    QCOMPARE(emptySeen, 0);
    QVERIFY(looks > 0);
    const auto counts = [&] {
        return QList<int>(
            {changes.count(u"added"_s), changes.count(u"removed"_s), changes.count(u"updated"_s)});
    };
    if (counts() != QList<int>({31, 20, 0})) // each exactly once, the fence too
        qWarning().noquote() << "reported:" << changes.list.join(u"; "_s);
    QCOMPARE(counts(), QList<int>({31, 20, 0}));
    QCOMPARE(rebuilt.size(), 1);
    QVERIFY(fence > 0);
    const auto fresh = await(m_client->get("/pc/rebuild/", {.prefix = true}));
    QCOMPARE(cache.currentData(), fresh->keyValues());
    remove("/pc/rebuild/", true);
}

// Changes whose events are still on their way (the proxy holds etcd's bytes back) when
// rebuild() reads: the read reports them, and their events, which arrive while the read is
// out, are held back and then dropped as seen: each change is reported once.
void tst_EtcdPathChildrenCache::rebuildReportsEachChangeOnce()
{
    remove("/pc/once/", true);
    put("/pc/once/a", "1");
    put("/pc/once/b", "2");
    ProxiedClient side(m_server.clientPort());
    QVERIFY(side.started);
    EtcdPathChildrenCache cache(&side.client, "/pc/once");
    Changes changes(&cache);
    cache.start();
    QVERIFY(waitStarted(cache));
    side.proxy.setDelay(400ms); // etcd's answers and events reach the cache 400 ms late
    const qint64 a = put("/pc/once/a", "1b");
    remove("/pc/once/b");
    const qint64 c = put("/pc/once/c", "3");
    QSignalSpy rebuilt(&cache, &EtcdPathChildrenCache::rebuilt);
    cache.rebuild(); // before any of those events arrived
    QVERIFY(changes.list.isEmpty());
    QVERIFY(rebuilt.wait(kWaitMs));
    const qint64 at = cache.revision();
    QVERIFY(at >= c);
    side.proxy.setMode(FaultProxy::Mode::Pass);
    const qint64 fence = put("/pc/once/fence", "f");
    QTRY_COMPARE_WITH_TIMEOUT(changes.list.size(), 5, kWaitMs);
    QCOMPARE(changes.list,
        QStringList({u"updated a 1b 1 %1"_s.arg(a), u"added c 3 %1"_s.arg(c),
            u"removed b 2 %1"_s.arg(at), u"rebuilt"_s, u"added fence f %1"_s.arg(fence)}));
    remove("/pc/once/", true);
}

void tst_EtcdPathChildrenCache::clearThenRebuild()
{
    remove("/pc/clear/", true);
    QVERIFY(putMany("/pc/clear/", 0, 5));
    EtcdPathChildrenCache cache(m_client.get(), "/pc/clear");
    Changes changes(&cache);
    QSignalSpy cleared(&cache, &EtcdPathChildrenCache::cleared);
    cache.start();
    QVERIFY(waitStarted(cache));
    cache.clear();
    QCOMPARE(cleared.size(), 1);
    QCOMPARE(cache.count(), 0);
    const auto snapshot = await(m_client->get("/pc/clear/", {.prefix = true}));
    QSignalSpy rebuilt(&cache, &EtcdPathChildrenCache::rebuilt);
    cache.rebuild();
    QVERIFY(rebuilt.wait(kWaitMs));
    QCOMPARE(cache.count(), 5);
    QCOMPARE(changes.count(u"added"_s), 5); // the cache lacked them: additions
    QCOMPARE(cache.currentData(), snapshot->keyValues());
    remove("/pc/clear/", true);
}

// While the cache is cut off: an update, a deletion and an addition, then their history
// compacted away. After the partition the re-read reports each as an ordinary signal with
// the value the cache held before (additions and updates first, in name order), then
// resynced(); the watch goes on.
void tst_EtcdPathChildrenCache::resyncReportsWhatChangedDuringAPartition()
{
    remove("/pc/resync/", true);
    put("/pc/resync/a", "1");
    put("/pc/resync/b", "2");
    put("/pc/resync/c", "3");
    PartitionedClient side(m_server.clientPort());
    QVERIFY(side.started);
    EtcdPathChildrenCache cache(&side.client, "/pc/resync");
    Changes changes(&cache);
    cache.start();
    QVERIFY(waitStarted(cache));
    side.proxy.setMode(FaultProxy::Mode::Blackhole);
    QTRY_COMPARE_WITH_TIMEOUT(cache.connectionState(), State::Suspended, kWaitMs);
    put("/pc/resync/a", "1x");
    const qint64 a = put("/pc/resync/a", "1y");
    remove("/pc/resync/b");
    const qint64 d = put("/pc/resync/d/e", "4");
    QVERIFY_OK(await(m_client->compact(d)).status);
    side.proxy.setMode(FaultProxy::Mode::Pass);
    QTRY_COMPARE_WITH_TIMEOUT(changes.list.size(), 4, 4 * kWaitMs);
    const qint64 at = cache.revision();
    QVERIFY(at >= d);
    QCOMPARE(changes.list,
        QStringList({u"updated a 1y 1 %1"_s.arg(a), u"added d/e 4 %1"_s.arg(d),
            u"removed b 2 %1"_s.arg(at), u"resynced"_s}));
    QCOMPARE(cache.connectionState(), State::Reconnected);
    QCOMPARE(cache.names(), QStringList({u"a"_s, u"c"_s, u"d/e"_s}));
    const qint64 f = put("/pc/resync/f", "5");
    QTRY_COMPARE_WITH_TIMEOUT(changes.list.size(), 5, kWaitMs);
    QCOMPARE(changes.list.last(), u"added f 5 %1"_s.arg(f));
    remove("/pc/resync/", true);
}

void tst_EtcdPathChildrenCache::survivesEtcdRestart()
{
    remove("/pc/restart/", true);
    put("/pc/restart/a", "1");
    EtcdClient client({m_server.clientUrl()});
    client.setStreamLivenessInterval(500ms);
    client.connectToEndpoints();
    EtcdPathChildrenCache cache(&client, "/pc/restart");
    Changes changes(&cache);
    QList<State> states;
    connect(&cache, &EtcdRecipe::connectionStateChanged, this,
        [&states](State s) { states.append(s); });
    cache.start();
    QVERIFY(waitStarted(cache));
    m_server.kill();
    QVERIFY2(m_server.restart(), qPrintable(m_server.log()));
    const qint64 a = put("/pc/restart/a", "2"); // retried until etcd answers
    const qint64 b = put("/pc/restart/b", "3");
    QTRY_COMPARE_WITH_TIMEOUT(changes.list,
        QStringList({u"updated a 2 1 %1"_s.arg(a), u"added b 3 %1"_s.arg(b)}), 4 * kWaitMs);
    QTRY_COMPARE_WITH_TIMEOUT(cache.connectionState(), State::Reconnected, 4 * kWaitMs);
    QCOMPARE(states, QList<State>({State::Suspended, State::Reconnected}));
    remove("/pc/restart/", true);
}

// A value the codec cannot decode, in the snapshot or in an event, is still cached and
// signalled, and reported as an error.
void tst_EtcdPathChildrenCache::typedValuesAndCodecFailures()
{
    remove("/pc/typed/", true);
    put("/pc/typed/good", Etcd::encodeInt64(7));
    put("/pc/typed/bad", "seven");
    EtcdTypedPathChildrenCache<EtcdInt64Codec> cache(m_client.get(), "/pc/typed");
    Changes changes(cache.untyped());
    QSignalSpy errors(cache.untyped(), &EtcdRecipe::errorOccurred);
    cache.start(Mode::BuildInitialCache);
    QVERIFY(waitStarted(*cache.untyped()));
    QCOMPARE(errors.size(), 1);
    QCOMPARE(errors.first().at(1).value<EtcdStatus>().code(), Etcd::ErrorCode::FailedPrecondition);
    QCOMPARE(cache.currentData(u"good"_s), std::optional<qint64>(7));
    QCOMPARE(cache.currentData(u"bad"_s), std::nullopt);
    const auto all = cache.currentData();
    QCOMPARE(all.size(), 2);
    QCOMPARE(all.at(0).name, u"bad"_s);
    QVERIFY(!all.at(0).value);
    QCOMPARE(all.at(1).value, std::optional<qint64>(7));
    const qint64 worse = put("/pc/typed/worse", "eight");
    QTRY_COMPARE_WITH_TIMEOUT(changes.list, QStringList(u"added worse eight %1"_s.arg(worse)),
        kWaitMs); // not dropped
    QCOMPARE(errors.size(), 2);
    QVERIFY(errors.last().at(1).value<EtcdStatus>().message().contains(u"/pc/typed/worse"_s));
    remove("/pc/typed/", true);
}

// The model under QAbstractItemModelTester: its first load is one insertion, then every
// change is a row inserted, removed or changed, and nothing ever resets it.
void tst_EtcdPathChildrenCache::modelFollowsRowByRow()
{
    using Model = EtcdPathChildrenModel;
    remove("/pc/model/", true);
    QVERIFY(putMany("/pc/model/", 0, 5));
    EtcdPathChildrenCache cache(m_client.get(), "/pc/model");
    Model model(&cache);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy removedRows(&model, &QAbstractItemModel::rowsRemoved);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    cache.start();
    QVERIFY(waitStarted(cache));
    QCOMPARE(model.rowCount(), 5);
    QCOMPARE(inserted.size(), 1);
    QCOMPARE(model.index(4).data(Model::NameRole).toString(), u"c00004"_s);
    QCOMPARE(model.index(4).data(Model::ValueRole).toString(), u"v4"_s);

    const qint64 binary = put("/pc/model/c00002", "\xff\x01"_ba);
    QTRY_COMPARE_WITH_TIMEOUT(changed.size(), 1, kWaitMs);
    QCOMPARE(changed.first().at(0).toModelIndex().row(), 2);
    QCOMPARE(model.index(2).data(Model::ValueRole).toString(), u"ff01"_s); // not UTF-8: hex
    QCOMPARE(model.index(2).data(Model::RawValueRole).toByteArray(), "\xff\x01"_ba);
    QCOMPARE(model.index(2).data(Model::ModRevisionRole).toLongLong(), binary);
    QCOMPARE(model.index(2).data(Model::VersionRole).toLongLong(), 2);
    put("/pc/model/a/b", "nested");
    QTRY_COMPARE_WITH_TIMEOUT(inserted.size(), 2, kWaitMs);
    QCOMPARE(inserted.last().at(1).toInt(), 0);
    QCOMPARE(model.index(0).data(Model::KeyRole).toString(), u"/pc/model/a/b"_s);
    remove("/pc/model/c00004");
    QTRY_COMPARE_WITH_TIMEOUT(removedRows.size(), 1, kWaitMs);
    QCOMPARE(removedRows.last().at(1).toInt(), 5);
    QCOMPARE(model.rowCount(), 5);
    QCOMPARE(model.rowOf(u"c00003"_s), 4);

    cache.clear(); // one removal of every row
    QCOMPARE(removedRows.size(), 2);
    QCOMPARE(model.rowCount(), 0);
    QSignalSpy rebuilt(&cache, &EtcdPathChildrenCache::rebuilt);
    cache.rebuild(); // a row inserted per child
    QVERIFY(rebuilt.wait(kWaitMs));
    QCOMPARE(model.rowCount(), 5);
    QCOMPARE(inserted.size(), 7);
    model.setValueFormat(Model::ValueFormat::Hex);
    QCOMPARE(model.index(1).data(Model::ValueRole).toString(), u"7630"_s); // "v0"
    QCOMPARE(resets.size(), 0);
    remove("/pc/model/", true);
}

// Two keys whose bytes are not UTF-8 decode to the same name; both are cached, both are rows,
// and removing one leaves the other. Order is etcd's: U+10000 (F0 90 80 80) after U+FFFD
// (EF BF BD), where UTF-16 would put it first.
void tst_EtcdPathChildrenCache::keysThatAreNotUtf8StayApart()
{
    using Model = EtcdPathChildrenModel;
    remove("/pc/bytes/", true);
    EtcdPathChildrenCache cache(m_client.get(), "/pc/bytes");
    Model model(&cache);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    cache.start(EtcdPathChildrenCache::StartMode::BuildInitialCache);
    QVERIFY(waitStarted(cache));
    QSignalSpy added(&cache, &EtcdPathChildrenCache::childAdded);
    put("/pc/bytes/\xfe\x01", "a");
    put("/pc/bytes/\xff\x01", "b");
    put("/pc/bytes/\xf0\x90\x80\x80", "astral");
    put("/pc/bytes/\xef\xbf\xbd", "replacement");
    QTRY_COMPARE_WITH_TIMEOUT(added.size(), 4, kWaitMs);
    QCOMPARE(cache.count(), 4);
    QCOMPARE(model.rowCount(), 4);
    const QList<QByteArray> order {"/pc/bytes/\xef\xbf\xbd", "/pc/bytes/\xf0\x90\x80\x80",
        "/pc/bytes/\xfe\x01", "/pc/bytes/\xff\x01"};
    for (int row = 0; row < 4; ++row) {
        QCOMPARE(cache.currentData().at(row).key, order.at(row));
        QCOMPARE(model.index(row).data(Model::RawValueRole).toByteArray(),
            cache.currentData().at(row).value);
    }
    QSignalSpy removed(&cache, &EtcdPathChildrenCache::childRemoved);
    remove("/pc/bytes/\xfe\x01"); // the event may come while remove() awaits its answer
    QTRY_COMPARE_WITH_TIMEOUT(removed.size(), 1, kWaitMs);
    QCOMPARE(removed.first().at(1).value<EtcdKeyValue>().value, "a"_ba);
    QCOMPARE(cache.count(), 3);
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.index(2).data(Model::RawValueRole).toByteArray(), "b"_ba);
    QCOMPARE(model.rowOf(QString::fromUtf8("\xf0\x90\x80\x80")), 1);
    remove("/pc/bytes/", true);
}

void tst_EtcdPathChildrenCache::badInput()
{
    EtcdPathChildrenCache empty(m_client.get(), {});
    QSignalSpy failed(&empty, &EtcdPathChildrenCache::failed);
    empty.start();
    QVERIFY(failed.wait(kWaitMs));
    QCOMPARE(failed.first().first().value<EtcdStatus>().code(), Etcd::ErrorCode::InvalidArgument);
    QCOMPARE(empty.connectionState(), State::Lost);
    QVERIFY(!empty.isActive());
    QCOMPARE(empty.errors().size(), 1);

    EtcdPathChildrenCache closing(m_client.get(), "/pc/close");
    QSignalSpy closed(&closing, &EtcdRecipe::closed);
    closing.start();
    QVERIFY(waitStarted(closing));
    closing.close();
    closing.close();
    QVERIFY(closed.wait(kWaitMs));
    QCOMPARE(closed.size(), 1);
    EtcdPathChildrenCache witness(m_client.get(), "/pc/close"); // same stream, still open
    witness.start();
    QVERIFY(waitStarted(witness));
    QSignalSpy added(&closing, &EtcdPathChildrenCache::childAdded);
    QSignalSpy witnessed(&witness, &EtcdPathChildrenCache::childAdded);
    put("/pc/close/x", "1");
    QTRY_COMPARE_WITH_TIMEOUT(witnessed.size(), 1, kWaitMs);
    QCOMPARE(added.size(), 0); // closed: nothing more
    remove("/pc/close/", true);
}

QTEST_GUILESS_MAIN(tst_EtcdPathChildrenCache)
#include "tst_etcdpathchildrencache.moc"
