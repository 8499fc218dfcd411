// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// Jepsen-style, for the lock: four `etcdqt incr` processes count on one etcd key under one
// lock, each with a 2 s TTL, while faults hit a holder between its read of the counter and its
// write (jepsencounter.h): on one etcd, a pause (SIGSTOP), a cut-off and a delayed-delivery
// partition (its requests held back past its TTL, so its write reaches etcd after the lock
// was given away); on a 3-member cluster, the raft leader killed and a follower paused, each
// under a process that holds. Every hit is proved: the stuck lock key is the faulted hold's
// (create revision and lease), and the process reports that hold lost and, where its write
// reached etcd, refused. Fenced, nothing is lost or doubled: the counter ends at the sum of
// the writes the processes saw committed, its history replayed from etcd is 1, 2, 3, ..., and
// each hit process lost a hold and failed a cycle. Unfenced, the same faults lose increments.
// ETCDQT_JEPSEN_FENCING=off runs the fenced tests unfenced: they must fail.
#include "jepsencounter.h"
#include "leaseledger.h"

using namespace Qt::StringLiterals;
using namespace Jepsen;

class tst_EtcdLockJepsen : public QObject
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

void tst_EtcdLockJepsen::initTestCase()
{
    ETCDQT_START_OR_SKIP(m_server);
    m_client = connectedClient(m_server.clientUrl());
}

void tst_EtcdLockJepsen::init()
{
    m_leases.begin(m_server);
}

void tst_EtcdLockJepsen::cleanup()
{
    VERIFY_NO_LEASE_LEFT(m_leases);
}

void tst_EtcdLockJepsen::fencedUnderPauseCutOffAndDelayedDelivery()
{
    CounterRun run(Recipe::Lock, u"lock-fenced"_s, true);
    const auto report = qScopeGuard([&] {
        if (QTest::currentTestFailed())
            run.report();
    });
    singleServerRun(run, m_server, m_client.get());
    if (QTest::currentTestFailed())
        return;
    run.verifyFenced();
}

void tst_EtcdLockJepsen::onCluster(bool fenced, Outcome &outcome)
{
    EtcdTestCluster cluster(3);
    ETCDQT_START_OR_SKIP(cluster);
    std::array<std::unique_ptr<EtcdClient>, 3> clients;
    for (int i = 0; i < 3; ++i)
        clients[size_t(i)] = connectedClient(cluster.clientUrl(i));
    CounterRun run(Recipe::Lock, fenced ? u"lock-cluster-fenced"_s : u"lock-cluster"_s, fenced);
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

void tst_EtcdLockJepsen::fencedOnAClusterUnderLeaderKillAndMemberPause()
{
    Outcome o;
    onCluster(true, o);
}

// The same faults without the fence: the paused holder and the one whose write was delayed
// read the counter before their fault and write that value plus one after the others counted
// on, so the counter ends below the sum of the writes etcd committed.
void tst_EtcdLockJepsen::unfencedLosesIncrementsUnderTheSameFaults()
{
    CounterRun run(Recipe::Lock, u"lock-unfenced"_s, false);
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

// On the cluster, the holder behind the paused member writes late too.
void tst_EtcdLockJepsen::unfencedOnAClusterLosesIncrements()
{
    Outcome o;
    onCluster(false, o);
    if (QTest::currentTestFailed())
        return;
    QVERIFY2(o.finalValue < o.succeeded, qPrintable(o.describe()));
    QVERIFY2(o.staleWrites() >= 1, qPrintable(o.describe()));
}

QTEST_GUILESS_MAIN(tst_EtcdLockJepsen)
#include "tst_etcdlock_jepsen.moc"
