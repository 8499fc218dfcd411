// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// EtcdCountedBarrier and EtcdDoubleBarrier against a real etcd: etcd-recipes'
// DistributedBarrierWithCount and DistributedDoubleBarrier scenarios (30 members with random
// arrival, 10 members entering and leaving), their key layouts, members that time out or
// whose lease dies while they wait, and nothing left behind.
#include "leaseledger.h"
#include "lockutil.h"

#include <EtcdQt/EtcdCountedBarrier>
#include <EtcdQt/EtcdDoubleBarrier>
#include <EtcdQt/EtcdWatch>
#include <etcdtestserver.h>

#include <QtCore/qrandom.h>
#include <QtCore/qregularexpression.h>

#include <array>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace {
constexpr auto kTtl = 2s;
constexpr int kWaitMs = kLockWaitMs; // five TTLs

EtcdCountedBarrierOptions options(const QString &id = {})
{
    EtcdCountedBarrierOptions o;
    o.ttl = kTtl;
    o.clientId = id;
    return o;
}

QList<EtcdKeyValue> keysUnder(EtcdClient &client, const QByteArray &path)
{
    return queueOf(client, path);
}
} // namespace

class tst_EtcdCountedBarrier : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void keyLayoutIsEtcdRecipes();
    void thirtyMembersRendezvous();
    void memberWhoTimesOutLeaves();
    void membersTimingOutOftenAreNeverLeftBehind();
    void joinsCountButLeavesDoNotTrip();
    void foreignMemberCounts();
    void memberWhoseLeaseDiesRegistersAgain();
    void memberPassesAfterItsHistoryWasCompacted();
    void cutOffMemberReportsSuspendedThenReconnected();
    void closeReleasesAParkedWaiter();
    void badInputIsRefused();
    void doubleBarrierEntersAndLeavesTogether();

private:
    EtcdTestServer m_server;
    LeaseLedger m_leases; // issue 22 item 7: no test leaves a lease
    std::unique_ptr<EtcdClient> m_client;
};

void tst_EtcdCountedBarrier::initTestCase()
{
    ETCDQT_START_OR_SKIP(m_server);
    m_client = connectedClient(m_server.clientUrl());
}

void tst_EtcdCountedBarrier::init()
{
    m_leases.begin(m_server);
}

void tst_EtcdCountedBarrier::cleanup()
{
    VERIFY_NO_LEASE_LEFT(m_leases);
}

// "<path>/ready" = "<clientId>:<7>" with no lease; "<path>/waiting/<clientId>:<7>" = the
// same token, on a lease of the configured TTL.
void tst_EtcdCountedBarrier::keyLayoutIsEtcdRecipes()
{
    EtcdCountedBarrier barrier(m_client.get(), "/cb/golden", 2, options(u"m-1"_s));
    barrier.arrive();
    QTRY_COMPARE_WITH_TIMEOUT(keysUnder(*m_client, "/cb/golden").size(), 2, kWaitMs);
    const QList<EtcdKeyValue> keys = keysUnder(*m_client, "/cb/golden");
    QCOMPARE(keys[0].key, QByteArray("/cb/golden/ready"));
    QCOMPARE(keys[0].lease, 0);
    const QRegularExpression token(u"^m-1:[A-Za-z0-9]{7}$"_s);
    QVERIFY(token.match(QString::fromLatin1(keys[0].value)).hasMatch());
    QCOMPARE(keys[1].key, "/cb/golden/waiting/" + keys[1].value);
    QVERIFY(token.match(QString::fromLatin1(keys[1].value)).hasMatch());
    QVERIFY(keys[1].lease > 0);
    QCOMPARE(await(m_client->leaseTimeToLive(keys[1].lease))->grantedTtl(), kTtl);
    QCOMPARE(barrier.waiterCount(), 1);

    EtcdCountedBarrier unnamed(m_client.get(), "/cb/golden", 2);
    QVERIFY(QRegularExpression(u"^DistributedBarrierWithCount:[A-Za-z0-9]{7}$"_s)
                .match(unnamed.clientId())
                .hasMatch());
    QSignalSpy tripped(&barrier, &EtcdCountedBarrier::tripped);
    QSignalSpy tripped2(&unnamed, &EtcdCountedBarrier::tripped);
    unnamed.arrive();
    QVERIFY(tripped.wait(kWaitMs));
    QTRY_COMPARE_WITH_TIMEOUT(tripped2.size(), 1, kWaitMs);
    QTRY_COMPARE_WITH_TIMEOUT(keysUnder(*m_client, "/cb/golden").size(), 0, kWaitMs);
}

// The reference's barrierWithCountTest: 30 members arrive at random times, each retrying
// waitOnBarrier(1 s) until it passes; all 30 pass and nothing is left.
void tst_EtcdCountedBarrier::thirtyMembersRendezvous()
{
    constexpr int kMembers = 30;
    const QList<qint64> before = liveLeases(*m_client);
    std::vector<std::unique_ptr<EtcdClient>> clients;
    std::vector<std::unique_ptr<EtcdCountedBarrier>> members;
    for (int i = 0; i < kMembers; ++i) {
        if (i % 10 == 0)
            clients.push_back(connectedClient(m_server.clientUrl()));
        members.push_back(std::make_unique<EtcdCountedBarrier>(
            clients.back().get(), "/cb/thirty", kMembers, options()));
    }
    std::atomic<int> passed {0};
    std::atomic<int> retries {0};
    std::vector<std::unique_ptr<Worker>> threads;
    for (int i = 0; i < kMembers; ++i) {
        const int delayMs = QRandomGenerator::global()->bounded(1500);
        EtcdCountedBarrier *member = members[size_t(i)].get();
        threads.push_back(std::make_unique<Worker>([&, member, delayMs] {
            std::this_thread::sleep_for(std::chrono::milliseconds(delayMs)); // arrival spread
            for (int attempt = 0; attempt < 30; ++attempt) {
                if (member->waitOnBarrier(1s)) {
                    ++passed;
                    return;
                }
                ++retries;
            }
        }));
    }
    for (auto &t : threads)
        QVERIFY(t->finish(60000));
    qInfo("30 members passed after %d timed-out waits", retries.load());
    QCOMPARE(passed.load(), kMembers);
    QTRY_COMPARE_WITH_TIMEOUT(keysUnder(*m_client, "/cb/thirty").size(), 0, kWaitMs);
    // isEmpty(), not == QList(): Qt 6.4 memcmp()s two empty lists (UBSan: null argument)
    QTRY_VERIFY_WITH_TIMEOUT(leasesSince(*m_client, before).isEmpty(), kWaitMs);
}

// Members whose waits time out every few round trips keep leaving and arriving again, over
// five rounds in a row. A trip must count neither a member that left nor one of the round
// before still on its way out, and a member it counted must be told (its leave answers
// true): otherwise that member would start a round of its own and wait there alone.
void tst_EtcdCountedBarrier::membersTimingOutOftenAreNeverLeftBehind()
{
    constexpr int kMembers = 8;
    constexpr int kRounds = 5;
    std::vector<std::unique_ptr<EtcdCountedBarrier>> members;
    auto other = connectedClient(m_server.clientUrl());
    for (int i = 0; i < kMembers; ++i)
        members.push_back(std::make_unique<EtcdCountedBarrier>(
            i % 2 ? other.get() : m_client.get(), "/cb/churn", kMembers, options()));
    std::atomic<int> passed {0};
    std::atomic<int> retries {0};
    std::atomic<int> early {0}; // passes of a round that some member had not reached yet
    std::array<std::atomic<int>, kMembers> reached {};
    std::vector<std::unique_ptr<Worker>> threads;
    for (int i = 0; i < kMembers; ++i) {
        EtcdCountedBarrier *member = members[size_t(i)].get();
        const auto timeout = std::chrono::milliseconds(20 + 10 * i);
        threads.push_back(std::make_unique<Worker>([&, i, member, timeout] {
            for (int round = 0, attempt = 0; round < kRounds && attempt < 500; ++attempt) {
                if (!member->waitOnBarrier(timeout)) {
                    ++retries;
                    continue;
                }
                ++passed;
                for (const auto &r : reached)
                    early += r.load() < round;
                reached[size_t(i)] = ++round;
            }
        }));
    }
    for (auto &t : threads)
        QVERIFY(t->finish(120000));
    qInfo("%d passes of %d members over %d rounds, %d timed-out waits", passed.load(), kMembers,
        kRounds, retries.load());
    QCOMPARE(passed.load(), kMembers * kRounds);
    QCOMPARE(early.load(), 0);
    QTRY_COMPARE_WITH_TIMEOUT(keysUnder(*m_client, "/cb/churn").size(), 0, kWaitMs);
}

// A member that times out leaves: its waiting key goes, so it no longer counts.
void tst_EtcdCountedBarrier::memberWhoTimesOutLeaves()
{
    EtcdCountedBarrier early(m_client.get(), "/cb/timeout", 2, options());
    bool passed = true;
    Worker worker([&] { passed = early.waitOnBarrier(700ms); });
    QVERIFY(worker.finish());
    QVERIFY(!passed);
    QTRY_COMPARE_WITH_TIMEOUT(keysUnder(*m_client, "/cb/timeout/waiting").size(), 0, kWaitMs);
    // One arrival now does not complete the round: the member that left is not counted.
    EtcdCountedBarrier late(m_client.get(), "/cb/timeout", 2, options());
    QSignalSpy tripped(&late, &EtcdCountedBarrier::tripped);
    late.arrive();
    QVERIFY(!tripped.wait(1000));
    late.arrive(); // a second member of this object completes it
    QTRY_COMPARE_WITH_TIMEOUT(tripped.size(), 2, kWaitMs);
}

// The reference's watcher tests: a parked member sees peers join (its count rises) and peers
// leave (its count falls) and only a complete round releases it.
void tst_EtcdCountedBarrier::joinsCountButLeavesDoNotTrip()
{
    EtcdCountedBarrier parked(m_client.get(), "/cb/watch", 3, options());
    QSignalSpy tripped(&parked, &EtcdCountedBarrier::tripped);
    parked.arrive();
    QTRY_COMPARE_WITH_TIMEOUT(parked.waiterCount(), 1, kWaitMs);
    auto other = connectedClient(m_server.clientUrl());
    EtcdCountedBarrier peer(other.get(), "/cb/watch", 3, options());
    bool peerPassed = true;
    {
        Worker worker([&] { peerPassed = peer.waitOnBarrier(1500ms); });
        QTRY_COMPARE_WITH_TIMEOUT(parked.waiterCount(), 2, kWaitMs);
        QVERIFY(worker.finish());
    }
    QVERIFY(!peerPassed);
    QTRY_COMPARE_WITH_TIMEOUT(parked.waiterCount(), 1, kWaitMs);
    QCOMPARE(tripped.size(), 0);
    parked.arrive();
    peer.arrive();
    QTRY_COMPARE_WITH_TIMEOUT(tripped.size(), 2, kWaitMs);
}

// A member written the way etcd-recipes writes it counts toward the round.
void tst_EtcdCountedBarrier::foreignMemberCounts()
{
    const auto lease = await(m_client->grantLease(kTtl * 5));
    QVERIFY_OK(lease.status);
    EtcdPutOptions put;
    put.lease = lease->leaseId();
    QVERIFY_OK(await(m_client->put("/cb/foreign/ready", "Kotlin:AbCdEf1")).status);
    QVERIFY_OK(
        await(m_client->put("/cb/foreign/waiting/Kotlin:AbCdEf1", "Kotlin:AbCdEf1", put)).status);
    EtcdCountedBarrier barrier(m_client.get(), "/cb/foreign", 2, options());
    QSignalSpy tripped(&barrier, &EtcdCountedBarrier::tripped);
    barrier.arrive();
    QVERIFY(tripped.wait(kWaitMs));
    QCOMPARE(keyValueOf(*m_client, "/cb/foreign/ready").key, QByteArray()); // we tripped it
    QVERIFY_OK(await(m_client->revokeLease(lease->leaseId())).status);
}

// leases-and-loss.md: a parked member's lease heals, and its key is registered again, so the
// round can still complete.
void tst_EtcdCountedBarrier::memberWhoseLeaseDiesRegistersAgain()
{
    EtcdCountedBarrier parked(m_client.get(), "/cb/heal", 2, options());
    QSignalSpy tripped(&parked, &EtcdCountedBarrier::tripped);
    parked.arrive();
    QTRY_COMPARE_WITH_TIMEOUT(keysUnder(*m_client, "/cb/heal/waiting").size(), 1, kWaitMs);
    const qint64 first = keysUnder(*m_client, "/cb/heal/waiting").at(0).lease;
    QVERIFY_OK(await(m_client->revokeLease(first)).status);
    QTRY_VERIFY_WITH_TIMEOUT(keysUnder(*m_client, "/cb/heal/waiting").size() == 1
            && keysUnder(*m_client, "/cb/heal/waiting").at(0).lease != first,
        kWaitMs);
    QCOMPARE(tripped.size(), 0);
    auto other = connectedClient(m_server.clientUrl());
    EtcdCountedBarrier peer(other.get(), "/cb/heal", 2, options());
    peer.arrive();
    QVERIFY(tripped.wait(kWaitMs));
}

// A member cut off while the round completes and that history is compacted: its watch
// cannot resume there, so it counts again, finds "ready" gone, and passes.
void tst_EtcdCountedBarrier::memberPassesAfterItsHistoryWasCompacted()
{
    PartitionedClient side(m_server.clientPort());
    QVERIFY(side.started);
    EtcdCountedBarrier cutOff(&side.client, "/cb/compact", 2, options());
    QSignalSpy tripped(&cutOff, &EtcdCountedBarrier::tripped);
    cutOff.arrive();
    QTRY_COMPARE_WITH_TIMEOUT(cutOff.waiterCount(), 1, kWaitMs);
    side.proxy.setMode(FaultProxy::Mode::Reset); // for well under the member's TTL
    EtcdCountedBarrier last(m_client.get(), "/cb/compact", 2, options());
    QSignalSpy lastTripped(&last, &EtcdCountedBarrier::tripped);
    last.arrive();
    QVERIFY(lastTripped.wait(kWaitMs));
    const auto put = await(m_client->put("/cb/other", "x"));
    QVERIFY_OK(await(m_client->compact(put->revision())).status);
    QCOMPARE(tripped.size(), 0);
    side.proxy.setMode(FaultProxy::Mode::Pass);
    QTRY_COMPARE_WITH_TIMEOUT(tripped.size(), 1, kWaitMs);
}

// A parked member cut off from etcd for well under its TTL: the barrier says Suspended, then
// Reconnected once its watch and lease resume (nothing was lost), and the round still trips.
void tst_EtcdCountedBarrier::cutOffMemberReportsSuspendedThenReconnected()
{
    using State = EtcdRecipe::ConnectionState;
    PartitionedClient side(m_server.clientPort());
    QVERIFY(side.started);
    EtcdCountedBarrier cutOff(&side.client, "/cb/suspend", 2, options());
    QSignalSpy states(&cutOff, &EtcdRecipe::connectionStateChanged);
    QSignalSpy tripped(&cutOff, &EtcdCountedBarrier::tripped);
    cutOff.arrive();
    QTRY_COMPARE_WITH_TIMEOUT(cutOff.waiterCount(), 1, kWaitMs);
    QVERIFY(watchesLive(side.client, kWaitMs)); // only a live watch is suspended
    QCOMPARE(cutOff.connectionState(), State::Connected);
    side.proxy.setMode(FaultProxy::Mode::Reset);
    QTRY_COMPARE_WITH_TIMEOUT(cutOff.connectionState(), State::Suspended, kWaitMs);
    side.proxy.setMode(FaultProxy::Mode::Pass);
    QTRY_COMPARE_WITH_TIMEOUT(cutOff.connectionState(), State::Reconnected, kWaitMs);
    QList<State> seen;
    for (const QList<QVariant> &args : std::as_const(states))
        seen.append(args.at(0).value<State>());
    QCOMPARE(seen, QList<State>({State::Suspended, State::Reconnected}));
    QCOMPARE(tripped.size(), 0);
    EtcdCountedBarrier last(m_client.get(), "/cb/suspend", 2, options());
    last.arrive();
    QVERIFY(tripped.wait(kWaitMs));
    QCOMPARE(cutOff.connectionState(), State::Reconnected);
}

// close() releases a parked waiter, which returns false, and it leaves the barrier.
void tst_EtcdCountedBarrier::closeReleasesAParkedWaiter()
{
    const QList<qint64> before = liveLeases(*m_client);
    auto barrier = std::make_unique<EtcdCountedBarrier>(m_client.get(), "/cb/close", 5, options());
    std::atomic<int> result {-1};
    Worker worker([&] { result = barrier->waitOnBarrier(); });
    QTRY_COMPARE_WITH_TIMEOUT(barrier->waiterCount(), 1, kWaitMs);
    QVERIFY(closeAndWait(barrier.get()));
    QVERIFY(worker.finish());
    QCOMPARE(result.load(), 0);
    QTRY_COMPARE_WITH_TIMEOUT(keysUnder(*m_client, "/cb/close/waiting").size(), 0, kWaitMs);
    // isEmpty(), not == QList(): Qt 6.4 memcmp()s two empty lists (UBSan: null argument)
    QTRY_VERIFY_WITH_TIMEOUT(leasesSince(*m_client, before).isEmpty(), kWaitMs);
    QVERIFY_OK(await(m_client->remove("/cb/close/ready")).status);
}

void tst_EtcdCountedBarrier::badInputIsRefused()
{
    EtcdCountedBarrier none(m_client.get(), "/cb/bad", 0, options());
    QSignalSpy failed(&none, &EtcdCountedBarrier::failed);
    none.arrive();
    QCOMPARE(failed.size(), 1);
    QCOMPARE(failed.at(0).at(0).value<EtcdStatus>().code(), Etcd::ErrorCode::InvalidArgument);
    EtcdCountedBarrier empty(m_client.get(), "", 2, options());
    empty.arrive();
    QCOMPARE(empty.errors().last().code(), Etcd::ErrorCode::InvalidArgument);
    EtcdCountedBarrierOptions tooLong = options();
    tooLong.ttl = std::chrono::seconds(9'000'000'001); // etcd's maximum is 9,000,000,000 s
    EtcdCountedBarrier longTtl(m_client.get(), "/cb/bad", 2, tooLong);
    longTtl.arrive();
    QCOMPARE(longTtl.errors().last().code(), Etcd::ErrorCode::InvalidArgument);
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"own thread"_s));
    QVERIFY(!empty.waitOnBarrier(10ms));
    QCOMPARE(keysUnder(*m_client, "/cb/bad").size(), 0);
}

// The reference's double-barrier test: 10 members enter together, then leave together; the
// advisory counts reach N-1 on the way; "<path>/enter/..." and "<path>/leave/..." keys.
void tst_EtcdCountedBarrier::doubleBarrierEntersAndLeavesTogether()
{
    constexpr int kMembers = 10;
    std::vector<std::unique_ptr<EtcdClient>> clients;
    std::vector<std::unique_ptr<EtcdDoubleBarrier>> members;
    for (int i = 0; i < kMembers; ++i) {
        if (i % 5 == 0)
            clients.push_back(connectedClient(m_server.clientUrl()));
        members.push_back(std::make_unique<EtcdDoubleBarrier>(
            clients.back().get(), "/db/ten", kMembers, options()));
    }
    int mostEnterWaiting = 0;
    connect(members[0].get(), &EtcdDoubleBarrier::enterWaiterCountChanged, this,
        [&](int n) { mostEnterWaiting = std::max(mostEnterWaiting, n); });
    std::atomic<int> inside {0};
    std::atomic<int> entered {0};
    std::atomic<int> left {0};
    std::atomic<int> sawAllInside {0};
    std::vector<std::unique_ptr<Worker>> threads;
    for (int i = 0; i < kMembers; ++i) {
        EtcdDoubleBarrier *m = members[size_t(i)].get();
        threads.push_back(std::make_unique<Worker>([&, m, i] {
            std::this_thread::sleep_for(std::chrono::milliseconds(50 * i)); // staggered
            if (!m->enter(std::chrono::milliseconds(4 * kWaitMs)))
                return;
            ++entered;
            ++inside;
            if (!m->leave(std::chrono::milliseconds(4 * kWaitMs)))
                return;
            sawAllInside += inside.load() == kMembers; // nobody left before all entered
            ++left;
        }));
        if (i == 0)
            QTRY_COMPARE_WITH_TIMEOUT(
                keysUnder(*m_client, "/db/ten/enter/waiting").size(), 1, kWaitMs);
    }
    for (auto &t : threads)
        QVERIFY(t->finish(60000));
    QCOMPARE(entered.load(), kMembers);
    QCOMPARE(left.load(), kMembers);
    QCOMPARE(sawAllInside.load(), kMembers);
    QVERIFY2(mostEnterWaiting >= kMembers - 1, qPrintable(QString::number(mostEnterWaiting)));
    QTRY_COMPARE_WITH_TIMEOUT(keysUnder(*m_client, "/db/ten").size(), 0, kWaitMs);
}

QTEST_GUILESS_MAIN(tst_EtcdCountedBarrier)
#include "tst_etcdcountedbarrier.moc"
