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
    onOneEtcd(Recipe::Election, u"election"_s, true, m_server, m_client.get());
}

void tst_EtcdElectionJepsen::fencedOnAClusterUnderLeaderKillAndMemberPause()
{
    onCluster(Recipe::Election, u"election"_s, true);
}

// The same faults without the fence: the paused leader and the one whose write was delayed
// read the counter before their fault and write that value plus one after the others counted
// on, so the counter ends below the sum of the writes etcd committed.
void tst_EtcdElectionJepsen::unfencedLosesIncrementsUnderTheSameFaults()
{
    onOneEtcd(Recipe::Election, u"election"_s, false, m_server, m_client.get());
}

// On the cluster, the leader behind the paused member writes late too.
void tst_EtcdElectionJepsen::unfencedOnAClusterLosesIncrements()
{
    onCluster(Recipe::Election, u"election"_s, false);
}

QTEST_GUILESS_MAIN(tst_EtcdElectionJepsen)
#include "tst_etcdelection_jepsen.moc"
