// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// Jepsen-style, for leader election with guarded writes: four `etcdqt elect --layout etcd
// --incr` processes campaign on one election (etcd's own layout, EtcdElection); the leader
// counts on one etcd key, five writes per term, each write guarded by its term, then resigns
// and campaigns again. The faults of tst_etcdlock_jepsen hit a leader between its read of the
// counter and its write (jepsencounter.h): on one etcd, a pause (SIGSTOP), a cut-off and a
// delayed-delivery partition; on a 3-member cluster, the raft leader killed and a follower
// paused, each under a process that leads. Every hit is proved: the stuck leader key is the
// faulted term's (create revision and lease), and the process reports that term lost and,
// where its write reached etcd, refused. Fenced, the counter ends at the sum of the committed
// writes, with history 1, 2, 3, ..., and each hit process lost a term and failed a write.
// Unfenced (a plain put while it believes it leads), the same faults lose increments.
// ETCDQT_JEPSEN_FENCING=off runs the fenced tests unfenced: they must fail.
#include "jepsencounter.h"
#include "leaseledger.h"

using namespace Qt::StringLiterals;
using namespace Jepsen;

class tst_EtcdElectionJepsen : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void fencedUnderPauseCutOffAndDelayedDelivery();
    void fencedOnAClusterUnderLeaderKillAndMemberPause();
    void unfencedLosesIncrementsUnderTheSameFaults();
    void unfencedOnAClusterLosesIncrements();

private:
    void onCluster(bool fenced, Outcome &outcome);

    EtcdTestServer m_server;
    LeaseLedger m_leases; // issue 22 item 7: no test leaves a lease
    std::unique_ptr<EtcdClient> m_client;
};

void tst_EtcdElectionJepsen::initTestCase()
{
    ETCDQT_START_OR_SKIP(m_server);
    m_client = connectedClient(m_server.clientUrl());
}

void tst_EtcdElectionJepsen::init()
{
    m_leases.begin(m_server);
}

void tst_EtcdElectionJepsen::cleanup()
{
    VERIFY_NO_LEASE_LEFT(m_leases);
}

void tst_EtcdElectionJepsen::fencedUnderPauseCutOffAndDelayedDelivery()
{
    CounterRun run(Recipe::Election, u"election-fenced"_s, true);
    const auto report = qScopeGuard([&] {
        if (QTest::currentTestFailed())
            run.report();
    });
    singleServerRun(run, m_server, m_client.get());
    if (QTest::currentTestFailed())
        return;
    run.verifyFenced();
}

void tst_EtcdElectionJepsen::onCluster(bool fenced, Outcome &outcome)
{
    EtcdTestCluster cluster(3);
    ETCDQT_START_OR_SKIP(cluster);
    std::array<std::unique_ptr<EtcdClient>, 3> clients;
    for (int i = 0; i < 3; ++i)
        clients[size_t(i)] = connectedClient(cluster.clientUrl(i));
    CounterRun run(
        Recipe::Election, fenced ? u"election-cluster-fenced"_s : u"election-cluster"_s, fenced);
    const auto report = qScopeGuard([&] {
        if (QTest::currentTestFailed())
            run.report();
    });
    clusterRun(run, cluster, clients);
    if (QTest::currentTestFailed())
        return;
    if (fenced)
        run.verifyFenced();
    outcome = run.outcome();
}

void tst_EtcdElectionJepsen::fencedOnAClusterUnderLeaderKillAndMemberPause()
{
    Outcome o;
    onCluster(true, o);
}

// The same faults without the fence: the paused leader and the one whose write was delayed
// read the counter before their fault and write that value plus one after the others counted
// on, so the counter ends below the sum of the writes etcd committed.
void tst_EtcdElectionJepsen::unfencedLosesIncrementsUnderTheSameFaults()
{
    CounterRun run(Recipe::Election, u"election-unfenced"_s, false);
    const auto report = qScopeGuard([&] {
        if (QTest::currentTestFailed())
            run.report();
    });
    singleServerRun(run, m_server, m_client.get());
    if (QTest::currentTestFailed())
        return;
    const Outcome &o = run.outcome();
    QVERIFY2(o.finalValue < o.succeeded, qPrintable(o.describe()));
    QVERIFY2(o.staleWrites() >= 1, qPrintable(o.describe()));
}

// On the cluster, the leader behind the paused member writes late too.
void tst_EtcdElectionJepsen::unfencedOnAClusterLosesIncrements()
{
    Outcome o;
    onCluster(false, o);
    if (QTest::currentTestFailed())
        return;
    QVERIFY2(o.finalValue < o.succeeded, qPrintable(o.describe()));
    QVERIFY2(o.staleWrites() >= 1, qPrintable(o.describe()));
}

QTEST_GUILESS_MAIN(tst_EtcdElectionJepsen)
#include "tst_etcdelection_jepsen.moc"
