// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
// Service discovery at scale and across raft failovers (issue 18). Fifty instances registered
// through a client on the leader of a 3-member cluster live through the leader being killed
// and, once it rejoined, the next leader being stopped: a cache on another member never sees
// one go, none fails, and etcd ends holding all fifty with their JSON on live leases. A
// thousand instances on one client share one LeaseKeepAlive stream and no thread per instance.
#include "testutil.h"

#include <etcdtestcluster.h>
#include <etcdtestserver.h>

using namespace std::chrono_literals;
using namespace Qt::StringLiterals;

namespace {
constexpr auto kTtl = 2s; // the registry's default
constexpr int kTtlMs = 2000;
constexpr auto kLiveness = 500ms; // how soon the registrant's streams notice a dead member
// The thousand's TTL, as keepalive_1000's. Registering them is 2,000 raft writes, and etcd
// answers a renewal only once it has applied what came before it: on a loaded 2-core CI
// machine 2 s leases expired while the burst was applied (every one, twice).
constexpr auto kManyTtl = 6s;
constexpr int kWave = 100; // registrations in flight at once
const QByteArray kPath = "/fleet"_ba;

EtcdServiceInstance member(int i)
{
    EtcdServiceInstance s = EtcdServiceInstance::create(u"api"_s, uR"({"shard":%1})"_s.arg(i));
    s.id = u"i%1"_s.arg(i, 4, 10, QLatin1Char('0'));
    s.address = u"10.1.0.%1"_s.arg(i % 250);
    s.port = 9000 + i;
    return s;
}

// Every instance is held by the registry and reached by etcd with our JSON on a live lease.
QString heldWrongly(EtcdClient &reader, const EtcdServiceRegistry &registry, int expected,
    std::chrono::milliseconds timeout)
{
    const auto read = await(reader.get(kPath + "/names/api/", {.prefix = true}), timeout);
    const auto leases = await(reader.leases(), timeout);
    if (!read.status.isOk() || !leases.status.isOk())
        return read.status.toString() + leases.status.toString();
    if (read->keyValues().size() != expected || registry.count() != expected)
        return u"etcd holds %1, the registry %2"_s.arg(read->keyValues().size())
            .arg(registry.count());
    const QList<EtcdServiceInstance> mine = registry.instances();
    for (int i = 0; i < expected; ++i) {
        const EtcdKeyValue &kv = read->keyValues().at(i);
        if (kv.key != registry.keyOf(mine.at(i)) || kv.value != mine.at(i).toJson())
            return u"%1 differs"_s.arg(QString::fromUtf8(kv.key));
        if (!leases->leaseIds().contains(kv.lease) || kv.lease != registry.leaseIdOf(mine.at(i)))
            return u"%1 is on lease %2, not live or not ours"_s.arg(QString::fromUtf8(kv.key))
                .arg(kv.lease);
    }
    return {};
}
} // namespace

class tst_EtcdServiceFailover : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void fiftyInstancesLiveThroughLeaderFailovers();
    void thousandInstancesShareOneKeepAliveStream();
};

void tst_EtcdServiceFailover::fiftyInstancesLiveThroughLeaderFailovers()
{
    EtcdTestCluster cluster(3);
    ETCDQT_START_OR_SKIP(cluster);
    // A new leader within an election timeout or two, a dead member noticed within the
    // liveness interval; ten times the sum bounds every wait, and a lease outlives none.
    const auto settle = 10 * (cluster.electionTimeout() + kLiveness);
    const int settleMs = int(settle.count());
    const int leader = cluster.leaderIndex();
    QVERIFY2(leader >= 0, qPrintable(cluster.log()));
    QList<QUrl> onLeader {cluster.clientUrl(leader)}; // the registrant starts on the leader
    QList<QUrl> offLeader;
    for (int i = 0; i < cluster.size(); ++i) {
        if (i != leader) {
            onLeader.append(cluster.clientUrl(i));
            offLeader.prepend(cluster.clientUrl(i));
        }
    }
    offLeader.append(cluster.clientUrl(leader));
    EtcdClient registrant(onLeader);
    registrant.setStreamLivenessInterval(kLiveness);
    registrant.connectToEndpoints();
    EtcdClient watcher(offLeader);
    watcher.setStreamLivenessInterval(kLiveness);
    watcher.connectToEndpoints();

    EtcdServiceCache cache(&watcher, kPath, u"api"_s);
    QSignalSpy cacheStarted(&cache, &EtcdServiceCache::started);
    cache.start();
    QVERIFY(cacheStarted.wait(settleMs));
    QSignalSpy removed(&cache, &EtcdServiceCache::instanceRemoved);
    EtcdServiceRegistry registry(&registrant, kPath, kTtl);
    QSignalSpy failed(&registry, &EtcdServiceRegistry::failed);
    int localLosses = 0; // a lease the client gave up on locally, healed onto its own key
    connect(&registry, &EtcdServiceRegistry::instanceLost, this, [&] { ++localLosses; });
    QList<EtcdBoolReply *> replies;
    for (int i = 0; i < 50; ++i) {
        replies.append(registry.registerService(member(i)));
        replies.last()->setAutoDelete(false); // awaited one by one below
    }
    for (EtcdBoolReply *reply : std::as_const(replies))
        QVERIFY_OK(await(reply, settle).status);
    QTRY_COMPARE_WITH_TIMEOUT(cache.count(), 50, kTtlMs);

    const int killed = cluster.killLeader();
    QCOMPARE(killed, leader);
    QVERIFY2(cluster.waitForLeader(settle), qPrintable(cluster.log()));
    // Three TTLs after the election: every lease has been renewed through another member.
    QTest::qWait(3 * kTtlMs);
    QTRY_VERIFY_WITH_TIMEOUT(registry.isHealthy(), settleMs);
    QCOMPARE(heldWrongly(watcher, registry, 50, settle), QString());

    QVERIFY2(cluster.restart(killed), qPrintable(cluster.log()));
    const int next = cluster.leaderIndex();
    QVERIFY2(next >= 0 && cluster.stop(next), qPrintable(cluster.log())); // a hand-over
    QVERIFY2(cluster.waitForLeader(settle), qPrintable(cluster.log()));
    QTest::qWait(3 * kTtlMs);
    QTRY_VERIFY_WITH_TIMEOUT(registry.isHealthy(), settleMs);
    QCOMPARE(heldWrongly(watcher, registry, 50, settle), QString());

    QCOMPARE(removed.size(), 0); // no instance was ever gone from discovery
    QCOMPARE(failed.size(), 0);
    QCOMPARE(cache.count(), 50);
    qInfo("leases the client gave up on locally and healed: %d", localLosses);
    QSignalSpy closed(&registry, &EtcdRecipe::closed);
    registry.close();
    QVERIFY(closed.wait(settleMs));
    QTRY_COMPARE_WITH_TIMEOUT(cache.count(), 0, kTtlMs); // revoked, not left to expire
    QTRY_VERIFY_WITH_TIMEOUT(await(watcher.leases(), settle)->leaseIds().isEmpty(), kTtlMs);
}

void tst_EtcdServiceFailover::thousandInstancesShareOneKeepAliveStream()
{
    EtcdTestServer server;
    ETCDQT_START_OR_SKIP(server);
    const QUrl url = server.clientUrl();
    const auto openStreams = [&] {
        return etcdMetric(url, "grpc_server_started_total", "grpc_method=\"LeaseKeepAlive\"")
            - etcdMetric(url, "grpc_server_handled_total", "grpc_method=\"LeaseKeepAlive\"");
    };
    const double streamsBefore = openStreams();
    auto client = connectedClient(url);
    EtcdServiceRegistry registry(client.get(), kPath, kManyTtl);
    QSignalSpy lost(&registry, &EtcdServiceRegistry::instanceLost);
    QVERIFY_OK(await(registry.registerService(member(0))).status);
    const int threadsBefore = threadCount(); // the client's engine is running now
    for (int first = 1; first < 1000; first += kWave) {
        QList<EtcdBoolReply *> replies;
        for (int i = first; i < std::min(first + kWave, 1000); ++i) {
            replies.append(registry.registerService(member(i)));
            replies.last()->setAutoDelete(false); // awaited one by one below
        }
        for (EtcdBoolReply *reply : std::as_const(replies))
            QVERIFY_OK(await(reply, 5 * kManyTtl).status);
    }
    QCOMPARE(registry.count(), 1000);
    // Two TTLs on one stream: every lease renewed (each three times at least), none lost.
    QTest::qWait(int(2 * std::chrono::milliseconds(kManyTtl).count()));
    QCOMPARE(lost.size(), 0);
    QCOMPARE(openStreams() - streamsBefore, 1.0);
    QVERIFY2(threadCount() - threadsBefore <= 4,
        qPrintable(u"threads %1 -> %2"_s.arg(threadsBefore).arg(threadCount())));
    QCOMPARE(heldWrongly(*client, registry, 1000, 30s), QString());
    QSignalSpy closed(&registry, &EtcdRecipe::closed);
    registry.close();
    QVERIFY(closed.wait(int(5 * std::chrono::milliseconds(kManyTtl).count())));
    QCOMPARE(await(client->leases())->leaseIds().size(), 0); // every lease revoked
}

QTEST_GUILESS_MAIN(tst_EtcdServiceFailover)
#include "tst_etcdservice_failover.moc"
