// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
// The test kit page's snippets: a test of an application's own lock handling under a real
// partition, as tests/docs/tst_docsnippets.cpp runs them.
#include "testkitsnippets.h"

#include <EtcdQt/EtcdQt>

#include <etcdtestcluster.h>
#include <etcdtestserver.h>
#include <faultproxy.h>

#include <QtTest/qsignalspy.h>
#include <QtTest/qtest.h>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace snippets {

void lockHolderIsPartitioned()
{
    //! [server]
    // A private etcd on free loopback ports and a temporary data dir, gone with the object.
    EtcdTestServer etcd;
    ETCDQT_START_OR_SKIP(etcd); // or QVERIFY(etcd.start()): skips when etcd is not installed
    //! [server]

    //! [proxy]
    // One client reaches etcd through a proxy; cutting the proxy partitions that client
    // alone, while the other stays connected.
    FaultProxy proxy(u"127.0.0.1"_s, etcd.clientPort());
    QVERIFY(proxy.start());
    EtcdClient holderSide({proxy.url()});
    EtcdClient otherSide({etcd.clientUrl()});
    holderSide.connectToEndpoints();
    otherSide.connectToEndpoints();

    EtcdMutexOptions shortLease;
    shortLease.ttl = 2s;
    const int ttlMs = int(std::chrono::milliseconds(shortLease.ttl).count());
    EtcdMutex holder(&holderSide, "/locks/job"_ba, shortLease);
    EtcdMutex next(&otherSide, "/locks/job"_ba, shortLease);
    QSignalSpy lost(&holder, &EtcdMutex::lockLost);
    QSignalSpy taken(&next, &EtcdMutex::acquired);
    QVERIFY(holder.acquire());
    QTRY_COMPARE_WITH_TIMEOUT(holder.holdCount(), 1, 10000);
    QVERIFY(next.acquire()); // queued behind the holder

    proxy.setMode(FaultProxy::Mode::Blackhole); // the holder's renewals stop reaching etcd
    // Timeouts derive from the TTL: the loss is reported within it, the lock moves on after.
    QTRY_COMPARE_WITH_TIMEOUT(lost.count(), 1, 3 * ttlMs);
    QCOMPARE(holder.holdCount(), 0);
    QTRY_COMPARE_WITH_TIMEOUT(taken.count(), 1, 5 * ttlMs);
    proxy.setMode(FaultProxy::Mode::Pass);
    //! [proxy]
    holder.close();
    next.close();
}

void leaseSurvivesAPause()
{
    EtcdTestServer etcd;
    ETCDQT_START_OR_SKIP(etcd);
    //! [pause]
    EtcdClient client({etcd.clientUrl()});
    client.setStreamLivenessInterval(500ms); // notices a silent etcd well inside the 2 s TTL
    client.connectToEndpoints();
    EtcdTransientKeyValue presence(&client, "/presence/a"_ba, "up"_ba, 2s);
    QSignalSpy started(&presence, &EtcdTransientKeyValue::started);
    presence.start();
    QTRY_COMPARE_WITH_TIMEOUT(started.count(), 1, 10000);

    // SIGSTOP: etcd's sockets stay open and nothing answers, as in a long GC pause of the
    // server or a frozen VM. resume() sends SIGCONT.
    QSignalSpy events(&presence, &EtcdTransientKeyValue::leaseEvent);
    QVERIFY(etcd.pause());
    QTRY_VERIFY_WITH_TIMEOUT(!events.isEmpty(), 10000); // Suspended: renewals stopped
    QVERIFY(etcd.resume());
    //! [pause]
    QCOMPARE(events.first().first().value<EtcdLeaseEvent>().type, EtcdLeaseEvent::Type::Suspended);
    QTRY_VERIFY_WITH_TIMEOUT(presence.isHealthy(), 10000);
    presence.close();
}

void leaderFailover()
{
    //! [cluster]
    // Three members; killing the raft leader makes the cluster elect another one, and the
    // client moves to a surviving member.
    EtcdTestCluster cluster(3);
    QVERIFY2(cluster.start(), qPrintable(cluster.log()));
    EtcdClient client(cluster.clientUrls());
    client.connectToEndpoints();
    QVERIFY(cluster.killLeader() >= 0);
    QVERIFY(cluster.waitForLeader());
    EtcdPutReply *put = client.put("/after/failover"_ba, "ok"_ba);
    QSignalSpy finished(put, &EtcdReply::finished);
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 20000);
    QVERIFY(finished.first().first().value<EtcdStatus>().isOk());
    //! [cluster]
}

} // namespace snippets
