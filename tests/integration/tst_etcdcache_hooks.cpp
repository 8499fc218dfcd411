// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// A cache's listener may close or destroy it inside any of its signals: in the middle of a
// batch of events, of a rebuild's differences, of the snapshot's decode errors, and inside
// its connection state changes. Nothing is reported after that, and nothing crashes.
#include "leaseledger.h"
#include "testutil.h"

#include <etcdtestserver.h>

#include <QtCore/qelapsedtimer.h>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using State = EtcdRecipe::ConnectionState;

namespace {

constexpr int kWaitMs = 5000;

} // namespace

class tst_EtcdCacheHooks : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void destroyedInTheMiddleOfABatch();
    void closedInTheMiddleOfABatch();
    void destroyedDuringARebuild();
    void destroyedOnStarted();
    void destroyedOnADecodeErrorOfTheSnapshot();
    void destroyedOnSuspendedAndOnReconnected_data();
    void destroyedOnSuspendedAndOnReconnected();
    void nodeCacheDestroyedOnUpdated();
    void nestedEventLoopKeepsRevisionOrder();

private:
    bool putBatch(const QByteArray &prefix, int n, const QByteArray &value);
    EtcdTestServer m_server;
    LeaseLedger m_leases; // issue 22 item 7: no test leaves a lease
    std::unique_ptr<EtcdClient> m_client;
};

void tst_EtcdCacheHooks::initTestCase()
{
    ETCDQT_START_OR_SKIP(m_server);
    m_client = connectedClient(m_server.clientUrl());
}

void tst_EtcdCacheHooks::init()
{
    m_leases.begin(m_server);
}

void tst_EtcdCacheHooks::cleanup()
{
    VERIFY_NO_LEASE_LEFT(m_leases);
}

// Children <prefix>c0 .. c<n-1> in one transaction: one revision, one batch of events.
bool tst_EtcdCacheHooks::putBatch(const QByteArray &prefix, int n, const QByteArray &value)
{
    EtcdTxn txn;
    for (int i = 0; i < n; ++i)
        txn.success.append(EtcdTxnOp::put(prefix + "c" + QByteArray::number(i), value));
    return await(m_client->txn(txn)).status.isOk();
}

void tst_EtcdCacheHooks::destroyedInTheMiddleOfABatch()
{
    auto *cache = new EtcdPathChildrenCache(m_client.get(), "/hooks/batch");
    EtcdPathChildrenCache witness(m_client.get(), "/hooks/batch");
    QPointer<EtcdPathChildrenCache> alive(cache);
    int added = 0;
    connect(cache, &EtcdPathChildrenCache::childAdded, this, [&] {
        if (++added == 2)
            delete cache;
    });
    cache->start();
    witness.start();
    QTRY_VERIFY_WITH_TIMEOUT(cache->isStarted() && witness.isStarted(), kWaitMs);
    QVERIFY(putBatch("/hooks/batch/", 5, "1"));
    QTRY_COMPARE_WITH_TIMEOUT(witness.count(), 5, kWaitMs);
    QTRY_VERIFY_WITH_TIMEOUT(!alive, kWaitMs); // the witness may see the batch first
    QCOMPARE(added, 2);
    QVERIFY_OK(await(m_client->remove("/hooks/batch/", {.prefix = true})).status);
}

void tst_EtcdCacheHooks::closedInTheMiddleOfABatch()
{
    EtcdPathChildrenCache cache(m_client.get(), "/hooks/close");
    EtcdPathChildrenCache witness(m_client.get(), "/hooks/close");
    QSignalSpy closed(&cache, &EtcdRecipe::closed);
    int added = 0;
    connect(&cache, &EtcdPathChildrenCache::childAdded, this, [&] {
        if (++added == 2)
            cache.close();
    });
    cache.start();
    witness.start();
    QTRY_VERIFY_WITH_TIMEOUT(cache.isStarted() && witness.isStarted(), kWaitMs);
    QVERIFY(putBatch("/hooks/close/", 5, "1"));
    QTRY_COMPARE_WITH_TIMEOUT(witness.count(), 5, kWaitMs);
    QTRY_COMPARE_WITH_TIMEOUT(closed.size(), 1, kWaitMs); // perhaps before the witness
    QCOMPARE(added, 2);
    QCOMPARE(cache.count(), 2); // what it held when it closed
    QVERIFY(putBatch("/hooks/close/", 8, "2"));
    QTRY_COMPARE_WITH_TIMEOUT(witness.count(), 8, kWaitMs);
    QCOMPARE(added, 2);
    QCOMPARE(closed.size(), 1);
    QVERIFY_OK(await(m_client->remove("/hooks/close/", {.prefix = true})).status);
}

// clear() then rebuild(): every child comes back as an addition, from the reconcile.
void tst_EtcdCacheHooks::destroyedDuringARebuild()
{
    QVERIFY(putBatch("/hooks/rebuild/", 5, "1"));
    auto *cache = new EtcdPathChildrenCache(m_client.get(), "/hooks/rebuild");
    QPointer<EtcdPathChildrenCache> alive(cache);
    cache->start();
    QTRY_VERIFY_WITH_TIMEOUT(cache->isStarted(), kWaitMs);
    QCOMPARE(cache->count(), 5);
    int added = 0;
    bool rebuilt = false;
    connect(cache, &EtcdPathChildrenCache::rebuilt, this, [&] { rebuilt = true; });
    connect(cache, &EtcdPathChildrenCache::childAdded, this, [&] {
        if (++added == 3)
            delete cache;
    });
    cache->clear();
    cache->rebuild();
    QTRY_VERIFY_WITH_TIMEOUT(!alive, kWaitMs);
    QCOMPARE(added, 3);
    QVERIFY(!rebuilt);
    QVERIFY_OK(await(m_client->remove("/hooks/rebuild/", {.prefix = true})).status);
}

void tst_EtcdCacheHooks::destroyedOnStarted()
{
    auto *cache = new EtcdPathChildrenCache(m_client.get(), "/hooks/started");
    QPointer<EtcdPathChildrenCache> alive(cache);
    connect(cache, &EtcdPathChildrenCache::started, this, [&] { delete cache; });
    cache->start();
    QTRY_VERIFY_WITH_TIMEOUT(!alive, kWaitMs);
    // The client goes on serving watches on the same stream.
    EtcdPathChildrenCache witness(m_client.get(), "/hooks/started");
    witness.start();
    QTRY_VERIFY_WITH_TIMEOUT(witness.isStarted(), kWaitMs);
    QVERIFY(putBatch("/hooks/started/", 2, "1"));
    QTRY_COMPARE_WITH_TIMEOUT(witness.count(), 2, kWaitMs);
    QVERIFY_OK(await(m_client->remove("/hooks/started/", {.prefix = true})).status);
}

// The first of three values that do not decode, while the snapshot is taken in.
void tst_EtcdCacheHooks::destroyedOnADecodeErrorOfTheSnapshot()
{
    QVERIFY(putBatch("/hooks/typed/", 3, "not eight bytes"));
    auto *cache = new EtcdPathChildrenCache(m_client.get(), "/hooks/typed");
    cache->setValueValidator([](const QByteArray &v) { return v.size() == 8; });
    QPointer<EtcdPathChildrenCache> alive(cache);
    int errors = 0;
    bool started = false;
    connect(cache, &EtcdRecipe::errorOccurred, this, [&] {
        ++errors;
        delete cache;
    });
    connect(cache, &EtcdPathChildrenCache::started, this, [&] { started = true; });
    cache->start();
    QTRY_VERIFY_WITH_TIMEOUT(!alive, kWaitMs);
    QCOMPARE(errors, 1);
    QVERIFY(!started);
    QVERIFY_OK(await(m_client->remove("/hooks/typed/", {.prefix = true})).status);
}

void tst_EtcdCacheHooks::destroyedOnSuspendedAndOnReconnected_data()
{
    QTest::addColumn<State>("when");
    QTest::newRow("Suspended") << State::Suspended;
    QTest::newRow("Reconnected") << State::Reconnected;
}

// The watch is destroyed inside its own signal, as the state change comes from it.
void tst_EtcdCacheHooks::destroyedOnSuspendedAndOnReconnected()
{
    QFETCH(State, when);
    PartitionedClient side(m_server.clientPort());
    QVERIFY(side.started);
    auto *cache = new EtcdPathChildrenCache(&side.client, "/hooks/state");
    auto *node = new EtcdNodeCache(&side.client, "/hooks/state/k");
    QPointer<EtcdPathChildrenCache> aliveCache(cache);
    QPointer<EtcdNodeCache> aliveNode(node);
    connect(cache, &EtcdRecipe::connectionStateChanged, this, [&, when](State s) {
        if (s == when)
            delete cache;
    });
    connect(node, &EtcdRecipe::connectionStateChanged, this, [&, when](State s) {
        if (s == when)
            delete node;
    });
    cache->start();
    node->start();
    QTRY_VERIFY_WITH_TIMEOUT(cache->isStarted() && node->isStarted(), kWaitMs);
    side.proxy.setMode(FaultProxy::Mode::Reset);
    if (when == State::Reconnected) {
        QTRY_VERIFY_WITH_TIMEOUT(cache->connectionState() == State::Suspended
                && node->connectionState() == State::Suspended,
            kWaitMs);
        side.proxy.setMode(FaultProxy::Mode::Pass);
    }
    QTRY_VERIFY_WITH_TIMEOUT(!aliveCache && !aliveNode, 4 * kWaitMs);
    // The client's watch stream still serves others.
    side.proxy.setMode(FaultProxy::Mode::Pass);
    EtcdNodeCache witness(&side.client, "/hooks/state/k");
    witness.start();
    QTRY_VERIFY_WITH_TIMEOUT(witness.isStarted(), 4 * kWaitMs);
    QVERIFY_OK(await(m_client->put("/hooks/state/k", "1")).status);
    QTRY_COMPARE_WITH_TIMEOUT(witness.value(), "1"_ba, kWaitMs);
    QVERIFY_OK(await(m_client->remove("/hooks/state/k")).status);
}

void tst_EtcdCacheHooks::nodeCacheDestroyedOnUpdated()
{
    QVERIFY_OK(await(m_client->put("/hooks/node", "0")).status);
    auto *cache = new EtcdNodeCache(m_client.get(), "/hooks/node");
    QPointer<EtcdNodeCache> alive(cache);
    int updates = 0;
    int changes = 0;
    connect(cache, &EtcdNodeCache::updated, this, [&] {
        ++updates;
        delete cache;
    });
    connect(cache, &EtcdNodeCache::valueChanged, this, [&] { ++changes; });
    cache->start();
    QTRY_VERIFY_WITH_TIMEOUT(cache->isStarted(), kWaitMs);
    QVERIFY_OK(await(m_client->put("/hooks/node", "1")).status);
    QTRY_VERIFY_WITH_TIMEOUT(!alive, kWaitMs);
    QCOMPARE(updates, 1);
    QCOMPARE(changes, 0); // valueChanged follows updated(), which destroyed it
    QVERIFY_OK(await(m_client->remove("/hooks/node")).status);
}

// A listener that runs a nested event loop (a modal dialog, a blocking wait) while a batch is
// reported lets newer events in: they must wait for the rest of the batch, or the cache
// would report c before b although b's revision is older.
void tst_EtcdCacheHooks::nestedEventLoopKeepsRevisionOrder()
{
    QVERIFY_OK(await(m_client->remove("/hooks/nested/", {.prefix = true})).status);
    EtcdPathChildrenCache cache(m_client.get(), "/hooks/nested");
    EtcdPathChildrenCache witness(m_client.get(), "/hooks/nested"); // same stream
    QStringList order;
    bool cameInside = false;
    bool witnessed = false;
    connect(&cache, &EtcdPathChildrenCache::childAdded, this, [&](const QString &name) {
        order.append(name);
        if (name != u"c0"_s)
            return;
        m_client->put("/hooks/nested/d", "newer"); // the reply deletes itself
        // The nested loop runs until the witness has d (its event came down the stream),
        // then as long again: d's event for this cache comes in meanwhile.
        QElapsedTimer t;
        t.start();
        witnessed
            = QTest::qWaitFor([&] { return witness.currentData(u"d"_s).has_value(); }, kWaitMs);
        const int took = int(t.elapsed());
        cameInside = QTest::qWaitFor([&] { return order.contains(u"d"_s); }, took + 200);
    });
    cache.start();
    witness.start();
    QTRY_VERIFY_WITH_TIMEOUT(cache.isStarted() && witness.isStarted(), kWaitMs);
    QVERIFY(putBatch("/hooks/nested/", 3, "1"));
    QTRY_COMPARE_WITH_TIMEOUT(order.size(), 4, 2 * kWaitMs);
    QVERIFY(witnessed);
    QVERIFY(!cameInside);
    QCOMPARE(order, QStringList({u"c0"_s, u"c1"_s, u"c2"_s, u"d"_s}));
    QCOMPARE(cache.currentData(), witness.currentData());
    QVERIFY_OK(await(m_client->remove("/hooks/nested/", {.prefix = true})).status);
}

QTEST_GUILESS_MAIN(tst_EtcdCacheHooks)
#include "tst_etcdcache_hooks.moc"
