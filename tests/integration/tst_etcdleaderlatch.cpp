// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// EtcdLeaderLatch against a real etcd: etcd-recipes' LeaderLatchTests, plus close() releasing
// a parked await(), and a selector, a latch and an observer sharing one election.
#include "electionutil.h"
#include "leaseledger.h"

#include <etcdtestserver.h>

#include <thread>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace {
constexpr int kWaitMs = 5 * 2000;

struct LatchLog
{
    explicit LatchLog(EtcdLeaderLatch *l)
    {
        QObject::connect(l, &EtcdLeaderLatch::elected, l, [this] { events.append(u"isLeader"_s); });
        QObject::connect(
            l, &EtcdLeaderLatch::relinquished, l, [this] { events.append(u"notLeader"_s); });
        QObject::connect(l, &EtcdRecipe::closed, l, [this] { events.append(u"closed"_s); });
    }
    [[nodiscard]] int count(const QString &name) const { return int(events.count(name)); }
    QStringList events;
};
} // namespace

class tst_EtcdLeaderLatch : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void loneLatchLeadsAndReleasesOnClose();
    void awaitTimesOutWhileAnotherLeads();
    void exactlyOneOfManyLeadsAndEachLeadsInTurn();
    void closeReleasesParkedAwait();
    void destroyingReleasesParkedAwait();
    void closingALatchThatNeverLedIsPrompt();
    void startAndCloseAreOneShot();
    void startRefusesATtlEtcdCannotGrant();
    void latchSelectorAndObserverShareOneElection();

private:
    EtcdTestServer m_server;
    LeaseLedger m_leases; // issue 22 item 7: no test leaves a lease
    std::unique_ptr<EtcdClient> m_client;
};

void tst_EtcdLeaderLatch::initTestCase()
{
    ETCDQT_START_OR_SKIP(m_server);
    m_client = connectedClient(m_server.clientUrl());
}

void tst_EtcdLeaderLatch::init()
{
    m_leases.begin(m_server);
}

void tst_EtcdLeaderLatch::cleanup()
{
    VERIFY_NO_LEASE_LEFT(m_leases);
}

void tst_EtcdLeaderLatch::loneLatchLeadsAndReleasesOnClose()
{
    EtcdLeaderLatch latch(m_client.get(), "/latch/lone", withId(u"lone"_s));
    LatchLog log(&latch);
    QVERIFY(latch.start());
    std::atomic<bool> awaited = false;
    std::thread waiter([&] { awaited = latch.await(10s); });
    QTRY_VERIFY_WITH_TIMEOUT(latch.hasLeadership(), kWaitMs);
    waiter.join();
    QVERIFY(awaited.load());
    QVERIFY(latch.fencingToken().isValid());
    QCOMPARE(
        QString::fromUtf8(keyValueOf(*m_client, "/latch/lone/LEADER").value.chopped(8)), u"lone"_s);
    latch.close();
    QTRY_COMPARE_WITH_TIMEOUT(log.count(u"closed"_s), 1, kWaitMs);
    QCOMPARE(log.events, QStringList({u"isLeader"_s, u"notLeader"_s, u"closed"_s}));
    QVERIFY(!latch.hasLeadership());
    QVERIFY(keyValueOf(*m_client, "/latch/lone/LEADER").key.isEmpty());
    QCOMPARE(latch.counters().acquired, 1u);
}

void tst_EtcdLeaderLatch::awaitTimesOutWhileAnotherLeads()
{
    EtcdLeaderLatch first(m_client.get(), "/latch/busy", withId(u"first"_s));
    EtcdLeaderLatch second(m_client.get(), "/latch/busy", withId(u"second"_s));
    QVERIFY(first.start());
    QTRY_VERIFY_WITH_TIMEOUT(first.hasLeadership(), kWaitMs);
    QVERIFY(second.start());
    std::atomic<int> result = -1;
    QElapsedTimer waited;
    waited.start();
    std::thread waiter([&] { result = second.await(300ms) ? 1 : 0; });
    QTRY_VERIFY_WITH_TIMEOUT(result.load() != -1, kWaitMs);
    waiter.join();
    QCOMPARE(result.load(), 0);
    QVERIFY(waited.elapsed() >= 300);
    QVERIFY(!second.hasLeadership());
    first.close();
    QTRY_VERIFY_WITH_TIMEOUT(second.hasLeadership(), kWaitMs); // hands off to the follower
    second.close();
}

// Five latches on one path: exactly one leads at any moment; as each leader closes, the
// next leads, until every latch has led once.
void tst_EtcdLeaderLatch::exactlyOneOfManyLeadsAndEachLeadsInTurn()
{
    std::vector<std::unique_ptr<EtcdLeaderLatch>> latches;
    int most = 0;
    const auto leading = [&] {
        int n = 0;
        for (auto &l : latches)
            n += l->hasLeadership();
        return n;
    };
    for (int i = 0; i < 5; ++i) {
        latches.push_back(std::make_unique<EtcdLeaderLatch>(
            m_client.get(), "/latch/many", withId(u"many-%1"_s.arg(i))));
        connect(latches.back().get(), &EtcdLeaderLatch::leadershipChanged, this,
            [&] { most = std::max(most, leading()); });
        QVERIFY(latches.back()->start());
    }
    QSet<QString> led;
    for (int round = 0; round < 5; ++round) {
        QTRY_COMPARE_WITH_TIMEOUT(leading(), 1, kWaitMs);
        auto it = std::find_if(
            latches.begin(), latches.end(), [](auto &l) { return l->hasLeadership(); });
        led.insert((*it)->clientId());
        QSignalSpy closed(it->get(), &EtcdRecipe::closed);
        (*it)->close();
        QVERIFY(closed.wait(kWaitMs));
        latches.erase(it);
    }
    QCOMPARE(led.size(), 5);
    QCOMPARE(most, 1);
}

// etcd-recipes documents that close() does not release a parked await(); ours does.
void tst_EtcdLeaderLatch::closeReleasesParkedAwait()
{
    EtcdLeaderLatch holder(m_client.get(), "/latch/park", withId(u"holder"_s));
    EtcdLeaderLatch follower(m_client.get(), "/latch/park", withId(u"follower"_s));
    QVERIFY(holder.start());
    QTRY_VERIFY_WITH_TIMEOUT(holder.hasLeadership(), kWaitMs);
    QVERIFY(follower.start());
    std::atomic<int> result = -1;
    std::thread waiter([&] { result = follower.await(std::chrono::hours(1)) ? 1 : 0; });
    follower.close();
    QTRY_VERIFY_WITH_TIMEOUT(result.load() != -1, kWaitMs);
    waiter.join();
    QCOMPARE(result.load(), 0);
    holder.close();
}

// Destroyed rather than closed while a worker is parked in await(): the wait ends, false,
// and the worker touches nothing of the latch after waking (ASan builds catch it if it does).
void tst_EtcdLeaderLatch::destroyingReleasesParkedAwait()
{
    EtcdLeaderLatch holder(m_client.get(), "/latch/gone", withId(u"holder"_s));
    QVERIFY(holder.start());
    QTRY_VERIFY_WITH_TIMEOUT(holder.hasLeadership(), kWaitMs);
    auto *follower = new EtcdLeaderLatch(m_client.get(), "/latch/gone", withId(u"follower"_s));
    QVERIFY(follower->start());
    const WaiterRunsLast runsLast; // see testutil.h: a late touch lands in freed memory
    const ParkedWaiter waiter([follower] { return follower->await(std::chrono::hours(1)); });
    QVERIFY(waiter.parked(kWaitMs));
    QElapsedTimer t;
    t.start();
    delete follower;
    QCOMPARE(waiter.result(kWaitMs), 0);
    QVERIFY2(t.elapsed() < kWaitMs / 10, qPrintable(QString::number(t.elapsed())));
    holder.close();
}

void tst_EtcdLeaderLatch::closingALatchThatNeverLedIsPrompt()
{
    EtcdLeaderLatch holder(m_client.get(), "/latch/prompt", withId(u"holder"_s));
    QVERIFY(holder.start());
    QTRY_VERIFY_WITH_TIMEOUT(holder.hasLeadership(), kWaitMs);
    EtcdLeaderLatch never(m_client.get(), "/latch/prompt", withId(u"never"_s));
    LatchLog log(&never);
    QVERIFY(never.start());
    QTRY_COMPARE_WITH_TIMEOUT(
        keyValueOf(*m_client, "/latch/prompt/participants/never").value, "never"_ba, kWaitMs);
    QElapsedTimer t;
    t.start();
    never.close();
    QTRY_COMPARE_WITH_TIMEOUT(log.count(u"closed"_s), 1, kWaitMs);
    QVERIFY2(t.elapsed() < 2000, qPrintable(QString::number(t.elapsed())));
    QCOMPARE(log.events, QStringList({u"closed"_s}));
    QVERIFY(never.errors().isEmpty());
    QTRY_VERIFY_WITH_TIMEOUT(
        keyValueOf(*m_client, "/latch/prompt/participants/never").key.isEmpty(), kWaitMs);
    holder.close();
}

void tst_EtcdLeaderLatch::startAndCloseAreOneShot()
{
    EtcdLeaderLatch latch(m_client.get(), "/latch/once", withId(u"once"_s));
    LatchLog log(&latch);
    QVERIFY(latch.start());
    QVERIFY(!latch.start());
    QVERIFY(latch.errors().constLast().message().contains(u"start() already called"_s));
    QTRY_VERIFY_WITH_TIMEOUT(latch.hasLeadership(), kWaitMs);
    latch.close();
    latch.close();
    QTRY_COMPARE_WITH_TIMEOUT(log.count(u"closed"_s), 1, kWaitMs);
    QVERIFY(!latch.start());
    QVERIFY(!latch.hasLeadership());
}

// A TTL etcd cannot grant is refused by start() itself, not retried term after term.
void tst_EtcdLeaderLatch::startRefusesATtlEtcdCannotGrant()
{
    for (qint64 ttl : {qint64(0), qint64(9'000'000'001)}) {
        EtcdLeaderSelectorOptions o = withId(u"bad"_s);
        o.ttl = std::chrono::seconds(ttl);
        EtcdLeaderLatch latch(m_client.get(), "/latch/badttl", o);
        QVERIFY(!latch.start());
        QCOMPARE(latch.errors().size(), 1);
        QCOMPARE(latch.errors().constLast().code(), Etcd::ErrorCode::InvalidArgument);
        QVERIFY(!latch.isActive());
    }
    QVERIFY(await(m_client->get("/latch/badttl", {.prefix = true}))->keyValues().isEmpty());
}

// A selector, a latch and an observer on one path see one election: the observer names the
// selector, then the latch once the selector's body returns; neither leads while the other
// does.
void tst_EtcdLeaderLatch::latchSelectorAndObserverShareOneElection()
{
    EtcdLeaderObserver observer(m_client.get(), "/latch/mixed");
    QStringList seen;
    connect(&observer, &EtcdLeaderObserver::leaderChanged, this,
        [&seen](const QString &id) { seen.append(id); });
    QSignalSpy observing(&observer, &EtcdLeaderObserver::started);
    observer.start();
    QVERIFY(observing.wait(kWaitMs));

    EtcdLeaderSelector selector(m_client.get(), "/latch/mixed", withId(u"the-selector"_s));
    std::atomic<bool> overlapped = false;
    EtcdLeaderLatch latch(m_client.get(), "/latch/mixed", withId(u"the-latch"_s));
    selector.setTakeLeadership([&](EtcdLeaderSelector &s, std::stop_token) {
        s.waitUntilFinished(300ms); // lead a while, during which the latch must not
        overlapped = overlapped || latch.hasLeadership();
    });
    TermLog log(&selector);
    QVERIFY(selector.start());
    QTRY_COMPARE_WITH_TIMEOUT(log.count(u"elected"_s), 1, kWaitMs);
    QVERIFY(latch.start());
    QTRY_VERIFY_WITH_TIMEOUT(latch.hasLeadership(), kWaitMs);
    QTRY_COMPARE_WITH_TIMEOUT(log.count(u"finished"_s), 1, kWaitMs);
    QVERIFY(!overlapped.load());
    QTRY_COMPARE_WITH_TIMEOUT(observer.currentLeader(), u"the-latch"_s, kWaitMs);
    QCOMPARE(seen.first(), u"the-selector"_s);
    const auto snapshot = await(EtcdLeaderSelector::participants(m_client.get(), "/latch/mixed"));
    QCOMPARE(snapshot->leader(), u"the-latch"_s);
    latch.close();
    QTRY_COMPARE_WITH_TIMEOUT(observer.currentLeader(), QString(), kWaitMs);
}

QTEST_MAIN(tst_EtcdLeaderLatch)
#include "tst_etcdleaderlatch.moc"
