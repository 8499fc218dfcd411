// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// EtcdElection (etcd's own election layout) against a real etcd: Go's key layout and order,
// hand-off in create order, proclaim, loss decided in the engine (out-of-band revoke, a
// partition), resign, bad input, and no lease left behind. Live interop with Go and etcdctl
// is tst_interop's.
#include "leaseledger.h"
#include "lockutil.h"

#include <EtcdQt/etcdelection.h>
#include <etcdtestserver.h>

#include <QtCore/qelapsedtimer.h>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace {
constexpr auto kTtl = 2s;
constexpr int kTtlMs = 2000;
constexpr int kWaitMs = 5 * kTtlMs; // five TTLs: generous on a loaded 2-core machine

EtcdElectionOptions withTtl(std::chrono::seconds ttl = kTtl)
{
    EtcdElectionOptions o;
    o.ttl = ttl;
    return o;
}

// Campaigns and waits until elected (false when not within the wait).
bool campaignAndWin(EtcdElection &e, const QByteArray &value)
{
    QSignalSpy elected(&e, &EtcdElection::elected);
    return e.campaign(value) && elected.wait(kWaitMs);
}
} // namespace

class tst_EtcdElectionNative : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void keyLayoutIsGos();
    void handsOffInCreateOrder();
    void proclaimChangesTheLeadersValue();
    void revokedLeaseEndsLeadershipAtOnce();
    void partitionedLeaderLosesWithinItsTtl();
    void resignWhileCampaigningLeavesNoKey();
    void badInputIsRefused();
    void closeLeavesNoLease();

private:
    EtcdTestServer m_server;
    LeaseLedger m_leases; // issue 22 item 7: no test leaves a lease
    std::unique_ptr<EtcdClient> m_client;
};

void tst_EtcdElectionNative::initTestCase()
{
    ETCDQT_START_OR_SKIP(m_server);
    m_client = connectedClient(m_server.clientUrl());
}

void tst_EtcdElectionNative::init()
{
    m_leases.begin(m_server);
}

void tst_EtcdElectionNative::cleanup()
{
    VERIFY_NO_LEASE_LEFT(m_leases);
}

// "<prefix>/<lease hex>" holding the value, on the campaign's lease: what Go writes.
void tst_EtcdElectionNative::keyLayoutIsGos()
{
    EtcdElection e(m_client.get(), "/ne/layout", withTtl());
    QVERIFY(campaignAndWin(e, "node-a"));
    const EtcdFencingToken token = e.fencingToken();
    QVERIFY(token.isValid());
    QCOMPARE(token.key, "/ne/layout/" + QByteArray::number(token.leaseId, 16));
    const EtcdKeyValue kv = keyValueOf(*m_client, token.key);
    QCOMPARE(kv.value, "node-a");
    QCOMPARE(kv.lease, token.leaseId);
    QCOMPARE(kv.createRevision, token.revision);
    QVERIFY(e.isLeader());
    QCOMPARE(e.state(), EtcdElection::State::Leading);
    QTRY_COMPARE_WITH_TIMEOUT(e.leader(), "node-a", kWaitMs);
    QCOMPARE(e.leaderKey(), token.key);
    QVERIFY(e.remainingValidity() > 0ms);
    QVERIFY(closeAndWait(&e));
}

// Three candidates lead in the order they campaigned; an onlooker sees each leader's value.
void tst_EtcdElectionNative::handsOffInCreateOrder()
{
    EtcdElection a(m_client.get(), "/ne/order", withTtl());
    EtcdElection b(m_client.get(), "/ne/order", withTtl());
    EtcdElection c(m_client.get(), "/ne/order", withTtl());
    EtcdElection onlooker(m_client.get(), "/ne/order");
    QSignalSpy seen(&onlooker, &EtcdElection::leaderChanged);
    QSignalSpy observed(&onlooker, &EtcdElection::observed);
    onlooker.observe();
    QVERIFY(observed.wait(kWaitMs));
    QVERIFY(campaignAndWin(a, "a"));
    QSignalSpy bWon(&b, &EtcdElection::elected), cWon(&c, &EtcdElection::elected);
    QVERIFY(b.campaign("b"));
    QTRY_COMPARE_WITH_TIMEOUT(queueOf(*m_client, "/ne/order").size(), 2, kWaitMs);
    QVERIFY(c.campaign("c"));
    QTRY_COMPARE_WITH_TIMEOUT(queueOf(*m_client, "/ne/order").size(), 3, kWaitMs);
    QCOMPARE(b.state(), EtcdElection::State::Campaigning);
    QSignalSpy resigned(&a, &EtcdElection::resigned);
    QVERIFY(a.resign());
    QCOMPARE(resigned.count(), 1);
    QVERIFY(bWon.wait(kWaitMs));
    QCOMPARE(cWon.count(), 0);
    QVERIFY(b.resign());
    QVERIFY(cWon.wait(kWaitMs));
    QTRY_COMPARE_WITH_TIMEOUT(onlooker.leader(), "c", kWaitMs);
    QStringList values;
    for (const auto &args : seen)
        values.append(QString::fromUtf8(args.first().toByteArray()));
    QCOMPARE(values, QStringList({u"a"_s, u"b"_s, u"c"_s}));
    QVERIFY(!a.isLeader());
    QVERIFY(!b.isLeader());
    QVERIFY(closeAndWait(&a, &b, &c, &onlooker));
}

void tst_EtcdElectionNative::proclaimChangesTheLeadersValue()
{
    EtcdElection leader(m_client.get(), "/ne/proclaim", withTtl());
    EtcdElection other(m_client.get(), "/ne/proclaim", withTtl());
    QVERIFY(campaignAndWin(leader, "v1"));
    QVERIFY(other.campaign("w"));
    QTRY_COMPARE_WITH_TIMEOUT(other.leader(), "v1", kWaitMs);
    const auto refused = await(other.proclaim("w2"));
    QCOMPARE(refused.status.code(), Etcd::ErrorCode::FailedPrecondition);
    QVERIFY(!refused->result());
    const auto done = await(leader.proclaim("v2"));
    QVERIFY_OK(done.status);
    QVERIFY(done->result());
    QCOMPARE(leader.value(), "v2");
    QTRY_COMPARE_WITH_TIMEOUT(other.leader(), "v2", kWaitMs);
    const EtcdKeyValue kv = keyValueOf(*m_client, leader.fencingToken().key);
    QCOMPARE(kv.lease, leader.fencingToken().leaseId); // still on the term's lease
    QCOMPARE(kv.createRevision, leader.fencingToken().revision);
    QVERIFY(closeAndWait(&leader, &other));
}

// Another client revokes the leader's lease: the term ends before the owner thread hears of
// it, a fenced write is refused, and the next candidate leads.
void tst_EtcdElectionNative::revokedLeaseEndsLeadershipAtOnce()
{
    EtcdElection leader(m_client.get(), "/ne/revoke", withTtl(5s));
    EtcdElection next(m_client.get(), "/ne/revoke", withTtl(5s));
    QVERIFY(campaignAndWin(leader, "old"));
    const EtcdFencingToken stale = leader.fencingToken();
    QSignalSpy lost(&leader, &EtcdElection::leadershipLost);
    QSignalSpy leaseLost(&leader, &EtcdRecipe::leaseLost);
    QSignalSpy nextWon(&next, &EtcdElection::elected);
    QVERIFY(next.campaign("new"));
    QTRY_COMPARE_WITH_TIMEOUT(queueOf(*m_client, "/ne/revoke").size(), 2, kWaitMs);
    auto other = connectedClient(m_server.clientUrl());
    QVERIFY_OK(await(other->revokeLease(stale.leaseId)).status);
    QTRY_COMPARE_WITH_TIMEOUT(lost.count(), 1, kWaitMs);
    QVERIFY(!leader.isLeader());
    QCOMPARE(leader.state(), EtcdElection::State::Idle);
    QCOMPARE(leaseLost.count(), 1);
    QVERIFY(nextWon.count() == 1 || nextWon.wait(kWaitMs));
    EtcdTxn write;
    write.success = {EtcdTxnOp::put("/ne/revoke-data", "stale")};
    const auto refused = await(m_client->txn(stale.guard(write)));
    QVERIFY_OK(refused.status);
    QVERIFY(!refused->succeeded());
    QVERIFY(closeAndWait(&leader, &next));
}

// The leader's client is cut off: it cannot renew, so it decides its loss within the TTL,
// and the other candidate leads once etcd expired the lease, never before the loss.
void tst_EtcdElectionNative::partitionedLeaderLosesWithinItsTtl()
{
    PartitionedClient side(m_server.clientPort());
    QVERIFY(side.started);
    EtcdElection old(&side.client, "/ne/cut", withTtl());
    EtcdElection next(m_client.get(), "/ne/cut", withTtl());
    QSignalSpy lost(&old, &EtcdElection::leadershipLost), nextWon(&next, &EtcdElection::elected);
    QVERIFY(campaignAndWin(old, "old"));
    QVERIFY(next.campaign("next"));
    QTRY_COMPARE_WITH_TIMEOUT(queueOf(*m_client, "/ne/cut").size(), 2, kWaitMs);
    QElapsedTimer cut;
    cut.start();
    side.proxy.setMode(FaultProxy::Mode::Blackhole);
    QTRY_COMPARE_WITH_TIMEOUT(lost.count(), 1, kWaitMs);
    const qint64 lostAfter = cut.elapsed();
    QTRY_COMPARE_WITH_TIMEOUT(nextWon.count(), 1, kWaitMs);
    const qint64 nextAfter = cut.elapsed();
    QVERIFY2(lostAfter <= kTtlMs + 1500, qPrintable(QString::number(lostAfter)));
    QVERIFY(nextAfter >= lostAfter - 200); // never two leaders, as far as clocks can tell
    QCOMPARE(old.connectionState(), EtcdRecipe::ConnectionState::Lost);
    side.proxy.setMode(FaultProxy::Mode::Pass);
    QVERIFY(closeAndWait(&old, &next));
}

void tst_EtcdElectionNative::resignWhileCampaigningLeavesNoKey()
{
    EtcdElection leader(m_client.get(), "/ne/giveup", withTtl());
    EtcdElection waiter(m_client.get(), "/ne/giveup", withTtl());
    QVERIFY(campaignAndWin(leader, "l"));
    QVERIFY(waiter.campaign("w"));
    QTRY_COMPARE_WITH_TIMEOUT(queueOf(*m_client, "/ne/giveup").size(), 2, kWaitMs);
    QVERIFY(waiter.resign());
    QCOMPARE(waiter.state(), EtcdElection::State::Idle);
    QTRY_COMPARE_WITH_TIMEOUT(queueOf(*m_client, "/ne/giveup").size(), 1, kWaitMs);
    QVERIFY(!waiter.resign()); // nothing left to give up
    QVERIFY(closeAndWait(&leader, &waiter));
}

void tst_EtcdElectionNative::badInputIsRefused()
{
    EtcdElection unnamed(m_client.get(), "", withTtl());
    QSignalSpy failed(&unnamed, &EtcdElection::failed);
    QVERIFY(!unnamed.campaign("x"));
    QVERIFY(!unnamed.errors().isEmpty());
    unnamed.observe();
    QVERIFY(failed.wait(kWaitMs));
    QCOMPARE(failed.first().first().value<EtcdStatus>().code(), Etcd::ErrorCode::InvalidArgument);
    EtcdElection noTtl(m_client.get(), "/ne/bad", withTtl(0s));
    QVERIFY(!noTtl.campaign("x"));
    QCOMPARE(noTtl.state(), EtcdElection::State::Idle);
    EtcdElection twice(m_client.get(), "/ne/bad", withTtl());
    QVERIFY(twice.campaign("x"));
    QTest::ignoreMessage(
        QtWarningMsg, "EtcdElection::campaign() while campaigning or leading; refused");
    QVERIFY(!twice.campaign("y"));
    const auto notLeader = await(noTtl.proclaim("z"));
    QCOMPARE(notLeader.status.code(), Etcd::ErrorCode::FailedPrecondition);
    QVERIFY(closeAndWait(&twice));
}

// After close() (leading, and waiting), etcd holds none of the election's leases or keys.
void tst_EtcdElectionNative::closeLeavesNoLease()
{
    const QList<qint64> before = liveLeases(*m_client);
    EtcdElection a(m_client.get(), "/ne/close", withTtl());
    EtcdElection b(m_client.get(), "/ne/close", withTtl());
    QVERIFY(campaignAndWin(a, "a"));
    QVERIFY(b.campaign("b"));
    QTRY_COMPARE_WITH_TIMEOUT(queueOf(*m_client, "/ne/close").size(), 2, kWaitMs);
    QVERIFY(closeAndWait(&a, &b));
    QCOMPARE(a.state(), EtcdElection::State::Closed);
    QCOMPARE(leasesSince(*m_client, before), QList<qint64>());
    QCOMPARE(queueOf(*m_client, "/ne/close").size(), 0);
}

QTEST_MAIN(tst_EtcdElectionNative)
#include "tst_etcdelection_native.moc"
