// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// EtcdCountDownLatch against a real etcd: its layout (the counter's 8-byte format), the
// first creator's count, a count that never goes below zero, a live count property, opened()
// once per object, await() and close() from worker threads, a waiter whose watch history was
// compacted away, and a latch counted down by 10 etcdqt processes that opens once for every
// waiter, in this process and in others.
#include "leaseledger.h"
#include "lockutil.h"

#include <EtcdQt/etcdatomiccounter.h>
#include <EtcdQt/etcdcountdownlatch.h>
#include <etcdtestserver.h>

#include <QtCore/qelapsedtimer.h>
#include <QtCore/qjsondocument.h>
#include <QtCore/qjsonobject.h>
#include <QtCore/qloggingcategory.h>
#include <QtCore/qprocess.h>
#include <QtCore/qregularexpression.h>
#include <QtCore/qscopeguard.h>
#include <childprocess_p.h>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace {
constexpr int kWaitMs = kLockWaitMs;

// Each opened() of one latch object, with the count it showed then.
struct Openings
{
    explicit Openings(EtcdCountDownLatch *latch)
    {
        QObject::connect(latch, &EtcdCountDownLatch::opened, latch,
            [this, latch] { countsAtOpen.append(latch->count()); });
    }
    QList<qint64> countsAtOpen;
};
} // namespace

class tst_EtcdCountDownLatch : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void badInputIsRefused();
    void keyLayoutAndFirstCountWins();
    void countDownNeverGoesBelowZero();
    void countDownOnMissingLatchIsNotFound();
    void countFollowsAnotherClient();
    void lateStartOnOpenLatchOpensAtOnce();
    void deletedLatchKeepsItsWaiters();
    void awaitTimesOutThenOpens();
    void closeReleasesAwaitingThread();
    void destroyingReleasesAwaitingThread();
    void workerFormsAreRefusedInOwnThread();
    void countDownAndWaitFromWorker();
    void opensAfterItsHistoryWasCompacted();
    void tenProcessesOpenEveryWaiterOnce();

private:
    QStringList cli(const QStringList &args) const;
    void removeLatch(const QByteArray &path);
    EtcdTestServer m_server;
    LeaseLedger m_leases; // issue 22 item 7: no test leaves a lease
    std::unique_ptr<EtcdClient> m_client;
};

void tst_EtcdCountDownLatch::initTestCase()
{
    ETCDQT_START_OR_SKIP(m_server);
    m_client = connectedClient(m_server.clientUrl());
}

void tst_EtcdCountDownLatch::init()
{
    m_leases.begin(m_server);
}

void tst_EtcdCountDownLatch::cleanup()
{
    VERIFY_NO_LEASE_LEFT(m_leases);
}

QStringList tst_EtcdCountDownLatch::cli(const QStringList &args) const
{
    return QStringList {u"--endpoints"_s, m_server.clientUrl().toString(), u"latch"_s} + args;
}

void tst_EtcdCountDownLatch::removeLatch(const QByteArray &path)
{
    QVERIFY_OK(await(EtcdCountDownLatch::remove(m_client.get(), path)).status);
}

void tst_EtcdCountDownLatch::badInputIsRefused()
{
    EtcdCountDownLatch latch(m_client.get(), "/latch/bad");
    for (qint64 count : {qint64(0), qint64(-1), std::numeric_limits<qint64>::min()}) {
        EtcdValueReply *reply = latch.create(count);
        QVERIFY(!reply->isFinished()); // never synchronously
        QCOMPARE(await(reply).status.code(), Etcd::ErrorCode::InvalidArgument);
    }
    QCOMPARE(keyValueOf(*m_client, "/latch/bad").key, QByteArray());

    EtcdCountDownLatch empty(m_client.get(), "");
    QCOMPARE(await(empty.create(1)).status.code(), Etcd::ErrorCode::InvalidArgument);
    QCOMPARE(await(empty.countDown()).status.code(), Etcd::ErrorCode::InvalidArgument);
    QCOMPARE(await(EtcdCountDownLatch::remove(m_client.get(), "")).status.code(),
        Etcd::ErrorCode::InvalidArgument);
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"empty latch path"_s));
    empty.start();
    QCOMPARE(empty.errors().last().code(), Etcd::ErrorCode::InvalidArgument);
    QVERIFY(!empty.isActive());

    QSignalSpy closed(&latch, &EtcdRecipe::closed);
    latch.close();
    latch.close(); // idempotent
    QVERIFY(closed.wait(kWaitMs));
    QCOMPARE(closed.count(), 1);
    QCOMPARE(await(latch.create(1)).status.code(), Etcd::ErrorCode::Cancelled);
    QCOMPARE(await(latch.countDown()).status.code(), Etcd::ErrorCode::Cancelled);
    latch.start(); // does nothing once closed
    QVERIFY(!latch.isActive());
}

// "<path>" = the remaining count as 8 bytes big-endian, no lease: the counter's format, so
// an EtcdAtomicCounter reads it. The first creator's count stays.
void tst_EtcdCountDownLatch::keyLayoutAndFirstCountWins()
{
    std::unique_ptr<EtcdClient> other = connectedClient(m_server.clientUrl());
    EtcdCountDownLatch first(m_client.get(), "/latch/golden");
    EtcdCountDownLatch second(other.get(), "/latch/golden");
    const auto created = await(first.create(10));
    QVERIFY_OK(created.status);
    QCOMPARE(created->value(), 10);
    QVERIFY(created->written());
    const EtcdKeyValue kv = keyValueOf(*m_client, "/latch/golden");
    QCOMPARE(kv.value, QByteArray::fromHex("000000000000000a"));
    QCOMPARE(kv.lease, 0);
    const auto again = await(second.create(5));
    QVERIFY_OK(again.status);
    QCOMPARE(again->value(), 10);
    QVERIFY(!again->written());
    QCOMPARE(keyValueOf(*m_client, "/latch/golden").modRevision, kv.modRevision);
    EtcdAtomicCounter asCounter(m_client.get(), "/latch/golden");
    QCOMPARE(await(asCounter.get())->value(), 10);
    removeLatch("/latch/golden");
}

void tst_EtcdCountDownLatch::countDownNeverGoesBelowZero()
{
    EtcdCountDownLatch latch(m_client.get(), "/latch/floor");
    QCOMPARE(await(latch.create(2))->value(), 2);
    auto r = await(latch.countDown());
    QCOMPARE(r->value(), 1);
    QVERIFY(r->written());
    r = await(latch.countDown());
    QCOMPARE(r->value(), 0);
    QVERIFY(r->written());
    const EtcdKeyValue open = keyValueOf(*m_client, "/latch/floor");
    QCOMPARE(open.value, QByteArray(8, '\0'));
    for (int i = 0; i < 3; ++i) {
        r = await(latch.countDown());
        QVERIFY_OK(r.status);
        QCOMPARE(r->value(), 0);
        QVERIFY(!r->written());
    }
    QCOMPARE(keyValueOf(*m_client, "/latch/floor"), open); // not even rewritten
    removeLatch("/latch/floor");
}

void tst_EtcdCountDownLatch::countDownOnMissingLatchIsNotFound()
{
    EtcdCountDownLatch latch(m_client.get(), "/latch/missing");
    const auto r = await(latch.countDown());
    QCOMPARE(r.status.code(), Etcd::ErrorCode::NotFound);
    QVERIFY2(r.status.message().contains(u"no latch at /latch/missing"_s),
        qPrintable(r.status.toString()));
    QCOMPARE(keyValueOf(*m_client, "/latch/missing").key, QByteArray());
}

// A follower sees every count another client writes, and opens once, at zero.
void tst_EtcdCountDownLatch::countFollowsAnotherClient()
{
    std::unique_ptr<EtcdClient> other = connectedClient(m_server.clientUrl());
    EtcdCountDownLatch follower(m_client.get(), "/latch/follow");
    EtcdCountDownLatch writer(other.get(), "/latch/follow");
    QSignalSpy changes(&follower, &EtcdCountDownLatch::countChanged);
    Openings openings(&follower);
    QCOMPARE(follower.count(), -1);
    follower.start();
    QVERIFY(follower.isActive());
    QVERIFY_OK(await(writer.create(3)).status);
    QTRY_COMPARE_WITH_TIMEOUT(follower.count(), 3, kWaitMs);
    for (qint64 left = 2; left >= 0; --left) {
        QCOMPARE(await(writer.countDown())->value(), left);
        QTRY_COMPARE_WITH_TIMEOUT(follower.count(), left, kWaitMs);
    }
    QTRY_COMPARE_WITH_TIMEOUT(openings.countsAtOpen, QList<qint64> {0}, kWaitMs);
    QVERIFY(follower.isOpen());
    QList<qint64> seen;
    for (const QList<QVariant> &args : changes)
        seen.append(args.first().toLongLong());
    QCOMPARE(seen, (QList<qint64> {3, 2, 1, 0}));
    QCOMPARE(await(writer.countDown())->value(), 0);
    QCOMPARE(await(follower.countDown())->value(), 0);
    QCOMPARE(openings.countsAtOpen.size(), 1);
    QCOMPARE(changes.count(), 4);
    removeLatch("/latch/follow");
}

void tst_EtcdCountDownLatch::lateStartOnOpenLatchOpensAtOnce()
{
    EtcdCountDownLatch writer(m_client.get(), "/latch/late");
    QCOMPARE(await(writer.create(1))->value(), 1);
    QCOMPARE(await(writer.countDown())->value(), 0);
    EtcdCountDownLatch late(m_client.get(), "/latch/late");
    Openings openings(&late);
    QVERIFY(!late.isOpen());
    late.start();
    late.start(); // already following: nothing more
    QTRY_COMPARE_WITH_TIMEOUT(openings.countsAtOpen, QList<qint64> {0}, kWaitMs);
    QVERIFY(late.isOpen());
    QCOMPARE(late.count(), 0);
    removeLatch("/latch/late");
}

// A latch deleted under a waiter reads as -1 and the wait goes on: created again, it opens.
void tst_EtcdCountDownLatch::deletedLatchKeepsItsWaiters()
{
    EtcdCountDownLatch writer(m_client.get(), "/latch/deleted");
    EtcdCountDownLatch waiter(m_client.get(), "/latch/deleted");
    Openings openings(&waiter);
    QVERIFY_OK(await(writer.create(2)).status);
    waiter.start();
    QTRY_COMPARE_WITH_TIMEOUT(waiter.count(), 2, kWaitMs);
    removeLatch("/latch/deleted");
    QTRY_COMPARE_WITH_TIMEOUT(waiter.count(), -1, kWaitMs);
    QVERIFY(!waiter.isOpen());
    QVERIFY(waiter.isActive());
    QCOMPARE(await(writer.create(1))->value(), 1);
    QTRY_COMPARE_WITH_TIMEOUT(waiter.count(), 1, kWaitMs);
    QCOMPARE(await(writer.countDown())->value(), 0);
    QTRY_COMPARE_WITH_TIMEOUT(openings.countsAtOpen, QList<qint64> {0}, kWaitMs);
    removeLatch("/latch/deleted");
}

// await() starts following by itself; it times out while the count is above zero, and
// returns true once the last count-down lands.
void tst_EtcdCountDownLatch::awaitTimesOutThenOpens()
{
    EtcdCountDownLatch writer(m_client.get(), "/latch/await");
    EtcdCountDownLatch waiter(m_client.get(), "/latch/await");
    QVERIFY_OK(await(writer.create(1)).status);
    std::atomic<int> early = -1, opened = -1;
    QElapsedTimer clock;
    clock.start();
    Worker first([&] { early = waiter.await(300ms) ? 1 : 0; });
    QVERIFY(first.finish());
    QCOMPARE(early.load(), 0);
    QVERIFY(clock.elapsed() >= 300);
    QVERIFY(waiter.isActive()); // await() started it
    Worker second([&] { opened = waiter.await(std::chrono::milliseconds(kWaitMs)) ? 1 : 0; });
    QCOMPARE(await(writer.countDown())->value(), 0);
    QVERIFY(second.finish());
    QCOMPARE(opened.load(), 1);
    Worker third([&] { opened = waiter.await(0ms) ? 1 : 0; });
    QVERIFY(third.finish());
    QCOMPARE(opened.load(), 1); // open stays open
    removeLatch("/latch/await");
}

void tst_EtcdCountDownLatch::closeReleasesAwaitingThread()
{
    EtcdCountDownLatch writer(m_client.get(), "/latch/close");
    EtcdCountDownLatch waiter(m_client.get(), "/latch/close");
    QVERIFY_OK(await(writer.create(1)).status);
    std::atomic<int> result = -1;
    QElapsedTimer clock;
    Worker worker([&] { result = waiter.await(60s) ? 1 : 0; });
    QTRY_COMPARE_WITH_TIMEOUT(waiter.count(), 1, kWaitMs); // following, the worker waits
    clock.start();
    waiter.close();
    QVERIFY(worker.finish(kWaitMs));
    QCOMPARE(result.load(), 0);
    QVERIFY(clock.elapsed() < kWaitMs);
    Worker after([&] { result = waiter.await(60s) ? 1 : 0; });
    QVERIFY(after.finish(kWaitMs));
    QCOMPARE(result.load(), 0);
    QCOMPARE(await(writer.countDown())->value(), 0); // the latch itself is untouched
    removeLatch("/latch/close");
}

// Destroyed rather than closed while a worker is parked in await(): false at once, and the
// worker touches nothing of the latch after waking (ASan builds catch it if it does).
void tst_EtcdCountDownLatch::destroyingReleasesAwaitingThread()
{
    EtcdCountDownLatch writer(m_client.get(), "/latch/gone");
    QVERIFY_OK(await(writer.create(1)).status);
    // With metrics, as an app with a registry: the wait's report comes after waking.
    const auto client = connectedClient(m_server.clientUrl());
    client->setMetrics(std::make_shared<EtcdMetricsRegistry>());
    auto *waiter = new EtcdCountDownLatch(client.get(), "/latch/gone");
    const WaiterRunsLast runsLast; // see testutil.h: a late touch lands in freed memory
    const ParkedWaiter worker([waiter] { return waiter->await(std::chrono::hours(1)); });
    QTRY_COMPARE_WITH_TIMEOUT(waiter->count(), 1, kWaitMs); // following
    QVERIFY(worker.parked(kWaitMs));
    QElapsedTimer clock;
    clock.start();
    delete waiter;
    QCOMPARE(worker.result(kWaitMs), 0);
    QVERIFY2(clock.elapsed() < kWaitMs / 10, qPrintable(QString::number(clock.elapsed())));
    removeLatch("/latch/gone");
}

void tst_EtcdCountDownLatch::workerFormsAreRefusedInOwnThread()
{
    EtcdCountDownLatch latch(m_client.get(), "/latch/ownthread");
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"own thread"_s));
    QVERIFY(!latch.await(1s));
    EtcdStatus status;
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"own thread"_s));
    QCOMPARE(latch.countDownAndWait(1s, &status), std::nullopt);
    QCOMPARE(status.code(), Etcd::ErrorCode::WrongThread);
    QVERIFY(!latch.isActive());
}

void tst_EtcdCountDownLatch::countDownAndWaitFromWorker()
{
    EtcdCountDownLatch latch(m_client.get(), "/latch/worker");
    QVERIFY_OK(await(latch.create(2)).status);
    std::optional<qint64> left;
    std::optional<qint64> missing;
    EtcdStatus why;
    EtcdCountDownLatch none(m_client.get(), "/latch/worker-none");
    Worker worker([&] {
        left = latch.countDownAndWait(10s);
        missing = none.countDownAndWait(10s, &why);
    });
    QVERIFY(worker.finish());
    QCOMPARE(left, std::optional<qint64>(1));
    QCOMPARE(missing, std::nullopt);
    QCOMPARE(why.code(), Etcd::ErrorCode::NotFound);
    removeLatch("/latch/worker");
}

// A waiter cut off while the latch is counted down to zero and that history is compacted
// away: its watch cannot resume there, the latch is read again, and it opens.
void tst_EtcdCountDownLatch::opensAfterItsHistoryWasCompacted()
{
    PartitionedClient side(m_server.clientPort());
    QVERIFY(side.started);
    EtcdCountDownLatch writer(m_client.get(), "/latch/compact");
    EtcdCountDownLatch waiter(&side.client, "/latch/compact");
    Openings openings(&waiter);
    QVERIFY_OK(await(writer.create(2)).status);
    waiter.start();
    QTRY_COMPARE_WITH_TIMEOUT(waiter.count(), 2, kWaitMs);
    // Reset, not Blackhole: no byte of the count-downs reaches the waiter before it
    // reconnects, so its watch must resume from before them, which compaction removes.
    side.proxy.setMode(FaultProxy::Mode::Reset);
    QCOMPARE(await(writer.countDown())->value(), 1);
    QCOMPARE(await(writer.countDown())->value(), 0);
    const auto put = await(m_client->put("/latch/other", "x"));
    QVERIFY_OK(await(m_client->compact(put->revision())).status);
    QCOMPARE(waiter.count(), 2);
    // The resync is only visible in the log: ask for it, and fail if it does not come.
    QLoggingCategory::setFilterRules(u"etcdqt.counter.debug=true"_s);
    const auto quiet = qScopeGuard([] { QLoggingCategory::setFilterRules({}); });
    QTest::ignoreMessage(
        QtDebugMsg, QRegularExpression(u"latch /latch/compact history compacted at"_s));
    side.proxy.setMode(FaultProxy::Mode::Pass);
    QTRY_COMPARE_WITH_TIMEOUT(openings.countsAtOpen, QList<qint64> {0}, kWaitMs);
    QVERIFY(waiter.isActive());
    QVERIFY(closeAndWait(&waiter));
    removeLatch("/latch/compact");
    QVERIFY_OK(await(m_client->remove("/latch/other")).status);
}

// Count 10; three latch objects here (on three clients) and two `etcdqt latch await`
// processes wait while ten `etcdqt latch count-down` processes run at once. Every waiter opens
// exactly once, none before the count is zero, and the ten answers are 9..0, each once.
void tst_EtcdCountDownLatch::tenProcessesOpenEveryWaiterOnce()
{
    const QByteArray path = "/latch/ten";
    EtcdCountDownLatch creator(m_client.get(), path);
    QCOMPARE(await(creator.create(10))->value(), 10);
    std::vector<std::unique_ptr<EtcdClient>> clients;
    std::vector<std::unique_ptr<EtcdCountDownLatch>> waiters;
    std::vector<std::unique_ptr<Openings>> openings;
    for (int i = 0; i < 3; ++i) {
        clients.push_back(connectedClient(m_server.clientUrl()));
        waiters.push_back(std::make_unique<EtcdCountDownLatch>(clients.back().get(), path));
        openings.push_back(std::make_unique<Openings>(waiters.back().get()));
        waiters.back()->start();
    }
    for (const auto &w : waiters)
        QTRY_COMPARE_WITH_TIMEOUT(w->count(), 10, kWaitMs);

    std::vector<std::unique_ptr<ChildProcess>> awaiting, counting;
    for (int i = 0; i < 2; ++i) {
        awaiting.push_back(std::make_unique<ChildProcess>());
        awaiting.back()->start(QStringLiteral(ETCDQT_CLI),
            cli({u"await"_s, QString::fromUtf8(path), u"--timeout-ms"_s, u"60000"_s}));
        QVERIFY(awaiting.back()->waitForStarted());
    }
    for (int i = 0; i < 10; ++i) {
        counting.push_back(std::make_unique<ChildProcess>());
        counting.back()->start(
            QStringLiteral(ETCDQT_CLI), cli({u"count-down"_s, QString::fromUtf8(path)}));
    }
    const auto allEnded = [](const std::vector<std::unique_ptr<ChildProcess>> &processes) {
        return std::all_of(processes.begin(), processes.end(),
            [](const auto &p) { return p->state() == QProcess::NotRunning; });
    };
    QTRY_VERIFY_WITH_TIMEOUT(allEnded(counting), 30'000);
    QList<qint64> answers;
    for (const auto &p : counting) {
        QVERIFY2(p->exitStatus() == QProcess::NormalExit && p->exitCode() == 0,
            p->readAllStandardError().constData());
        const QList<QByteArray> lines = p->readAllStandardOutput().trimmed().split('\n');
        QCOMPARE(lines.size(), 1);
        const QJsonObject line = QJsonDocument::fromJson(lines.first()).object();
        QVERIFY2(line.contains(u"count"_s), lines.first().constData());
        answers.append(line.value(u"count"_s).toInteger());
    }
    std::sort(answers.begin(), answers.end());
    QCOMPARE(answers, (QList<qint64> {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));

    QTRY_VERIFY_WITH_TIMEOUT(allEnded(awaiting), 30'000);
    for (const auto &p : awaiting) {
        const QByteArray err = p->readAllStandardError();
        QVERIFY2(p->exitStatus() == QProcess::NormalExit && p->exitCode() == 0, err.constData());
        QCOMPARE(p->readAllStandardOutput().trimmed(), "{\"opened\":true}"_ba);
    }
    for (const auto &o : openings)
        QTRY_COMPARE_WITH_TIMEOUT(o->countsAtOpen, QList<qint64> {0}, kWaitMs);
    QCOMPARE(keyValueOf(*m_client, path).value, QByteArray(8, '\0'));
    removeLatch(path);
}

QTEST_GUILESS_MAIN(tst_EtcdCountDownLatch)
#include "tst_etcdcountdownlatch.moc"
