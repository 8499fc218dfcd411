// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
// Service discovery against a real etcd (issue 18): registrations that heal under real
// faults (an out-of-band revoke, a partition), ids taken during an outage, caches that see
// every instance come and go, the reference's JSON read and written byte for byte.
#include "leaseledger.h"
#include "testutil.h"

#include <etcdtestserver.h>

#include <QtCore/qelapsedtimer.h>

using namespace std::chrono_literals;
using namespace Qt::StringLiterals;
using LeaseType = EtcdLeaseEvent::Type;

namespace {
constexpr auto kTtl = 2s; // the registry's default, etcd's minimum at default raft timings
constexpr int kTtlMs = 2000;
const QByteArray kPath = "/discovery"_ba;

EtcdLeaseResilience fastHealing()
{
    EtcdLeaseResilience r;
    r.retryPolicy = EtcdRetryPolicy::exponentialBackoff(100ms, 1s);
    r.healOperationTimeout = 1s;
    return r;
}

EtcdServiceInstance instance(const QString &name, const QString &id, int port = 8080)
{
    EtcdServiceInstance s = EtcdServiceInstance::create(name, uR"({"zone":"a"})"_s);
    s.id = id;
    s.address = u"10.0.0.1"_s;
    s.port = port;
    return s;
}

// What a cache reported, in order: "+id", "~id:port", "-id".
struct CacheLog
{
    explicit CacheLog(EtcdServiceCache *cache)
    {
        QObject::connect(cache, &EtcdServiceCache::instanceAdded, cache,
            [this](const EtcdServiceInstance &s) { entries.append(u'+' + s.id); });
        QObject::connect(
            cache, &EtcdServiceCache::instanceUpdated, cache, [this](const EtcdServiceInstance &s) {
                entries.append(u'~' + s.id + u':' + QString::number(s.port));
            });
        QObject::connect(cache, &EtcdServiceCache::instanceRemoved, cache,
            [this](const EtcdServiceInstance &s) { entries.append(u'-' + s.id); });
    }
    QStringList entries;
};
} // namespace

class tst_EtcdServiceDiscovery : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void registeredIsVisibleToACacheWithin100ms();
    void updateReachesCachesAndLaterHeals();
    void revokedOutOfBandHealsWithTheLatestJson();
    void partitionedRegistrationComesBackByItself();
    void idTakenDuringTheOutageFailsAndStaysTheirs();
    void refusals();
    void unregisterAndCloseLeaveNoLease();
    void referenceJsonIsReadAndWrittenByteForByte();
    void undecodableInstanceIsLeftOutAndReported();
    void modelFollowsTheCache();

private:
    bool startCache(EtcdServiceCache &cache);
    QList<qint64> leaseIds();
    EtcdTestServer m_server;
    LeaseLedger m_leases; // issue 22 item 7: no test leaves a lease
    std::unique_ptr<EtcdClient> m_client; // the test's own view, never faulted
};

void tst_EtcdServiceDiscovery::initTestCase()
{
    ETCDQT_START_OR_SKIP(m_server);
    m_client = connectedClient(m_server.clientUrl());
}

void tst_EtcdServiceDiscovery::init()
{
    m_leases.begin(m_server);
}

void tst_EtcdServiceDiscovery::cleanup()
{
    VERIFY_NO_LEASE_LEFT(m_leases);
}

bool tst_EtcdServiceDiscovery::startCache(EtcdServiceCache &cache)
{
    QSignalSpy started(&cache, &EtcdServiceCache::started);
    cache.start();
    return started.wait(kTtlMs);
}

QList<qint64> tst_EtcdServiceDiscovery::leaseIds()
{
    const auto reply = await(m_client->leases());
    return reply.status.isOk() ? reply->leaseIds() : QList<qint64> {-1};
}

void tst_EtcdServiceDiscovery::registeredIsVisibleToACacheWithin100ms()
{
    auto other = connectedClient(m_server.clientUrl());
    EtcdServiceCache cache(other.get(), kPath, u"fast"_s);
    QVERIFY(startCache(cache));
    EtcdServiceRegistry registry(m_client.get(), kPath);
    QSignalSpy registered(&registry, &EtcdServiceRegistry::registered);
    const EtcdServiceInstance s = instance(u"fast"_s, u"f1"_s);
    QElapsedTimer clock;
    qint64 seenAfterMs = -1;
    connect(&cache, &EtcdServiceCache::instanceAdded, this, [&] { seenAfterMs = clock.elapsed(); });
    clock.start();
    const auto reply = await(registry.registerService(s), std::chrono::milliseconds(kTtlMs));
    QVERIFY_OK(reply.status);
    QVERIFY(reply->result());
    QTRY_VERIFY_WITH_TIMEOUT(seenAfterMs >= 0, kTtlMs);
    QVERIFY2(seenAfterMs <= 100, qPrintable(u"seen after %1 ms"_s.arg(seenAfterMs)));
    QCOMPARE(registered.size(), 1);
    QCOMPARE(cache.instance(u"f1"_s), std::optional(s));
    // etcd holds the reference's JSON, on the instance's own lease.
    const auto read = await(m_client->get(kPath + "/names/fast/f1"));
    QCOMPARE(read->keyValues().size(), 1);
    QCOMPARE(read->keyValues().first().value, s.toJson());
    QCOMPARE(read->keyValues().first().lease, registry.leaseIdOf(s));
    QCOMPARE(cache.leaseOf(u"f1"_s), registry.leaseIdOf(s));
}

void tst_EtcdServiceDiscovery::updateReachesCachesAndLaterHeals()
{
    EtcdServiceCache cache(m_client.get(), kPath, u"upd"_s);
    QVERIFY(startCache(cache));
    CacheLog log(&cache);
    EtcdServiceRegistry registry(m_client.get(), kPath, kTtl, fastHealing());
    EtcdServiceInstance s = instance(u"upd"_s, u"u1"_s, 1000);
    QVERIFY_OK(await(registry.registerService(s)).status);
    s.port = 1001;
    const auto updated = await(registry.updateService(s));
    QVERIFY_OK(updated.status);
    QVERIFY(updated->result());
    QTRY_COMPARE_WITH_TIMEOUT(log.entries, (QStringList {u"+u1"_s, u"~u1:1001"_s}), kTtlMs);
    QCOMPARE(registry.instances(), QList {s});
    // Its own update is not mistaken for someone else's write: it is still healthy and owned.
    QVERIFY(registry.isHealthy());
    QCOMPARE(registry.errors().size(), 0);
}

// The lease is revoked by someone else: the instance is gone from caches for the gap, then
// comes back under a new lease with the JSON of its last update.
void tst_EtcdServiceDiscovery::revokedOutOfBandHealsWithTheLatestJson()
{
    EtcdServiceCache cache(m_client.get(), kPath, u"heal"_s);
    QVERIFY(startCache(cache));
    CacheLog log(&cache);
    EtcdServiceRegistry registry(m_client.get(), kPath, kTtl, fastHealing());
    QList<LeaseType> events;
    connect(&registry, &EtcdServiceRegistry::leaseEvent, this,
        [&](const EtcdServiceInstance &, const EtcdLeaseEvent &e) { events.append(e.type); });
    QSignalSpy lost(&registry, &EtcdServiceRegistry::instanceLost);
    EtcdServiceInstance s = instance(u"heal"_s, u"h1"_s, 2000);
    QVERIFY_OK(await(registry.registerService(s)).status);
    s.port = 2001;
    QVERIFY_OK(await(registry.updateService(s)).status);
    const qint64 first = registry.leaseIdOf(s);
    auto other = connectedClient(m_server.clientUrl());
    QVERIFY_OK(await(other->revokeLease(first)).status);
    QTRY_COMPARE_WITH_TIMEOUT(
        events, (QList {LeaseType::Expired, LeaseType::Restored}), 2 * kTtlMs);
    QCOMPARE(lost.size(), 1);
    QVERIFY(registry.leaseIdOf(s) != first);
    QTRY_COMPARE_WITH_TIMEOUT(
        log.entries, (QStringList {u"+h1"_s, u"~h1:2001"_s, u"-h1"_s, u"+h1"_s}), kTtlMs);
    QCOMPARE(cache.instance(u"h1"_s)->port, 2001);
    QCOMPARE(cache.leaseOf(u"h1"_s), registry.leaseIdOf(s));
}

void tst_EtcdServiceDiscovery::partitionedRegistrationComesBackByItself()
{
    PartitionedClient side(m_server.clientPort());
    QVERIFY(side.started);
    EtcdServiceCache cache(m_client.get(), kPath, u"part"_s);
    QVERIFY(startCache(cache));
    CacheLog log(&cache);
    EtcdServiceRegistry registry(&side.client, kPath, kTtl, fastHealing());
    const EtcdServiceInstance s = instance(u"part"_s, u"p1"_s);
    QVERIFY_OK(await(registry.registerService(s)).status);
    QTRY_COMPARE_WITH_TIMEOUT(log.entries, QStringList {u"+p1"_s}, kTtlMs);
    side.proxy.setMode(FaultProxy::Mode::Blackhole);
    // etcd lets the lease expire a TTL after the last renewal it saw.
    QTRY_COMPARE_WITH_TIMEOUT(log.entries, (QStringList {u"+p1"_s, u"-p1"_s}), 3 * kTtlMs);
    QTRY_COMPARE_WITH_TIMEOUT(
        registry.connectionState(), EtcdRecipe::ConnectionState::Lost, 2 * kTtlMs);
    side.proxy.setMode(FaultProxy::Mode::Pass);
    QTRY_COMPARE_WITH_TIMEOUT(
        log.entries, (QStringList {u"+p1"_s, u"-p1"_s, u"+p1"_s}), 5 * kTtlMs);
    QTRY_VERIFY_WITH_TIMEOUT(registry.isHealthy(), kTtlMs);
    QCOMPARE(cache.instance(u"p1"_s), std::optional(s));
}

void tst_EtcdServiceDiscovery::idTakenDuringTheOutageFailsAndStaysTheirs()
{
    PartitionedClient side(m_server.clientPort());
    QVERIFY(side.started);
    EtcdServiceCache cache(m_client.get(), kPath, u"taken"_s);
    QVERIFY(startCache(cache));
    CacheLog log(&cache);
    EtcdServiceRegistry registry(&side.client, kPath, kTtl, fastHealing());
    QSignalSpy failed(&registry, &EtcdServiceRegistry::failed);
    const EtcdServiceInstance s = instance(u"taken"_s, u"t1"_s, 3000);
    QVERIFY_OK(await(registry.registerService(s)).status);
    side.proxy.setMode(FaultProxy::Mode::Blackhole);
    QTRY_COMPARE_WITH_TIMEOUT(log.entries, (QStringList {u"+t1"_s, u"-t1"_s}), 3 * kTtlMs);
    // Someone else registers the same id meanwhile.
    EtcdServiceRegistry theirs(m_client.get(), kPath);
    const EtcdServiceInstance their = instance(u"taken"_s, u"t1"_s, 4000);
    QVERIFY_OK(await(theirs.registerService(their)).status);
    side.proxy.setMode(FaultProxy::Mode::Pass);
    QVERIFY(failed.wait(5 * kTtlMs));
    QCOMPARE(failed.first().at(1).value<EtcdStatus>().code(), Etcd::ErrorCode::FailedPrecondition);
    QCOMPARE(registry.count(), 0);
    QCOMPARE(cache.instance(u"t1"_s)->port, 4000);
    const auto read = await(m_client->get(kPath + "/names/taken/t1"));
    QCOMPARE(read->keyValues().first().value, their.toJson());
    QCOMPARE(read->keyValues().first().lease, theirs.leaseIdOf(their));
}

void tst_EtcdServiceDiscovery::refusals()
{
    EtcdServiceRegistry registry(m_client.get(), kPath);
    const auto refused = [&](EtcdBoolReply *reply, Etcd::ErrorCode code) {
        const auto r = await(reply);
        return r.status.code() == code && !r->result();
    };
    EtcdServiceInstance s = instance(u"ref"_s, u"r1"_s);
    EtcdServiceInstance bad = s;
    bad.name.clear();
    QVERIFY(refused(registry.registerService(bad), Etcd::ErrorCode::InvalidArgument));
    bad = s;
    bad.id = u"a/b"_s;
    QVERIFY(refused(registry.registerService(bad), Etcd::ErrorCode::InvalidArgument));
    bad = s;
    bad.port = 70000;
    QVERIFY(refused(registry.registerService(bad), Etcd::ErrorCode::InvalidArgument));
    EtcdServiceRegistry pathless(m_client.get(), {});
    QVERIFY(refused(pathless.registerService(s), Etcd::ErrorCode::InvalidArgument));
    QVERIFY(refused(registry.updateService(s), Etcd::ErrorCode::FailedPrecondition));
    QVERIFY(refused(registry.unregisterService(s), Etcd::ErrorCode::FailedPrecondition));
    QVERIFY_OK(await(registry.registerService(s)).status);
    QVERIFY(refused(registry.registerService(s), Etcd::ErrorCode::FailedPrecondition));
    // An id someone else holds is not taken: the reply fails and nothing is held here.
    EtcdServiceRegistry second(m_client.get(), kPath);
    QVERIFY(refused(second.registerService(s), Etcd::ErrorCode::FailedPrecondition));
    QCOMPARE(second.count(), 0);
    QCOMPARE(registry.count(), 1);
    registry.close();
    QVERIFY(refused(registry.registerService(s), Etcd::ErrorCode::FailedPrecondition));
}

void tst_EtcdServiceDiscovery::unregisterAndCloseLeaveNoLease()
{
    EtcdServiceCache cache(m_client.get(), kPath, u"gone"_s);
    QVERIFY(startCache(cache));
    QTRY_VERIFY_WITH_TIMEOUT(leaseIds().isEmpty(), 3 * kTtlMs); // earlier tests' leases
    auto *registry = new EtcdServiceRegistry(m_client.get(), kPath);
    QSignalSpy closed(registry, &EtcdRecipe::closed);
    QSignalSpy unregistered(registry, &EtcdServiceRegistry::unregistered);
    const QList all {
        instance(u"gone"_s, u"g1"_s), instance(u"gone"_s, u"g2"_s), instance(u"gone"_s, u"g3"_s)};
    for (const EtcdServiceInstance &s : all)
        QVERIFY_OK(await(registry->registerService(s)).status);
    QTRY_COMPARE_WITH_TIMEOUT(cache.count(), 3, kTtlMs);
    // A lease per instance, and the client's standby lease for their heals.
    QTRY_COMPARE_WITH_TIMEOUT(keylessLeases(*m_client).size(), 1, kTtlMs);
    QCOMPARE(leaseIds().size(), 4);
    QVERIFY_OK(await(registry->unregisterService(all[1])).status);
    QCOMPARE(unregistered.size(), 1);
    // Revoked, not left to expire: gone well within a TTL.
    QTRY_COMPARE_WITH_TIMEOUT(cache.count(), 2, kTtlMs / 4);
    QCOMPARE(registry->count(), 2);
    qsizetype unregisteredBeforeClosed = -1; // closed() is the last word
    connect(registry, &EtcdRecipe::closed, this,
        [&] { unregisteredBeforeClosed = unregistered.size(); });
    registry->close();
    QVERIFY(closed.wait(kTtlMs));
    QCOMPARE(unregisteredBeforeClosed, 3);
    QTRY_COMPARE_WITH_TIMEOUT(cache.count(), 0, kTtlMs / 4); // revoked, so at once
    QCOMPARE(leaseIds(), QList<qint64> {});
    delete registry;
}

// The sample of the reference (etcd-recipes §3), as a Kotlin service writes it.
void tst_EtcdServiceDiscovery::referenceJsonIsReadAndWrittenByteForByte()
{
    const QByteArray sample = R"({"name":"worker","jsonPayload":"{\"x\":1}","address":"",)"
                              R"("port":-1,"sslPort":-1,"registrationTimeUTC":1752880000000,)"
                              R"("serviceType":"DYNAMIC","uri":"","enabled":true,"id":"aB3xK9q"})";
    const QByteArray key = kPath + "/names/worker/aB3xK9q";
    const qint64 lease = await(m_client->grantLease(kTtl))->leaseId();
    EtcdPutOptions o;
    o.lease = lease;
    QVERIFY_OK(await(m_client->put(key, sample, o)).status);
    EtcdServiceCache cache(m_client.get(), kPath, u"worker"_s);
    QVERIFY(startCache(cache));
    const std::optional<EtcdServiceInstance> s = cache.instance(u"aB3xK9q"_s);
    QVERIFY(s);
    QCOMPARE(s->name, u"worker"_s);
    QCOMPARE(s->jsonPayload, uR"({"x":1})"_s);
    QCOMPARE(s->registrationTimeUtc, 1752880000000);
    QCOMPARE(s->toJson(), sample);
    QCOMPARE(cache.leaseOf(s->id), lease);
    QVERIFY_OK(await(m_client->revokeLease(lease)).status);
}

void tst_EtcdServiceDiscovery::undecodableInstanceIsLeftOutAndReported()
{
    EtcdServiceCache cache(m_client.get(), kPath, u"bad"_s);
    QVERIFY(startCache(cache));
    CacheLog log(&cache);
    QSignalSpy errors(&cache, &EtcdRecipe::errorOccurred);
    EtcdServiceRegistry registry(m_client.get(), kPath);
    QVERIFY_OK(await(registry.registerService(instance(u"bad"_s, u"ok"_s))).status);
    QVERIFY_OK(await(m_client->put(kPath + "/names/bad/broken", R"({"name":)")).status);
    QTRY_VERIFY_WITH_TIMEOUT(!errors.isEmpty(), kTtlMs);
    QTRY_COMPARE_WITH_TIMEOUT(log.entries, QStringList {u"+ok"_s}, kTtlMs);
    QCOMPARE(cache.count(), 1);
    QVERIFY(errors.first().at(1).value<EtcdStatus>().message().contains(u"broken"_s));
    // Written over with a valid instance, it appears; made invalid again, it goes.
    QVERIFY_OK(
        await(m_client->put(kPath + "/names/bad/broken", instance(u"bad"_s, u"broken"_s).toJson()))
            .status);
    QTRY_COMPARE_WITH_TIMEOUT(log.entries, (QStringList {u"+ok"_s, u"+broken"_s}), kTtlMs);
    QVERIFY_OK(await(m_client->put(kPath + "/names/bad/broken", "[]")).status);
    QTRY_COMPARE_WITH_TIMEOUT(
        log.entries, (QStringList {u"+ok"_s, u"+broken"_s, u"-broken"_s}), kTtlMs);
    QVERIFY_OK(await(m_client->remove(kPath + "/names/bad/broken")).status);
}

void tst_EtcdServiceDiscovery::modelFollowsTheCache()
{
    EtcdServiceCache cache(m_client.get(), kPath, u"model"_s);
    EtcdServiceRegistry registry(m_client.get(), kPath);
    QVERIFY_OK(await(registry.registerService(instance(u"model"_s, u"m2"_s, 2))).status);
    EtcdServiceModel model(&cache);
    QCOMPARE(model.rowCount(), 0);
    QVERIFY(startCache(cache));
    QCOMPARE(model.rowCount(), 1); // the first read, as a reset
    EtcdServiceInstance m1 = instance(u"model"_s, u"m1"_s, 1);
    QVERIFY_OK(await(registry.registerService(m1)).status);
    QTRY_COMPARE_WITH_TIMEOUT(model.rowCount(), 2, kTtlMs);
    QCOMPARE(model.rowOf(u"m1"_s), 0); // id order
    const QModelIndex first = model.index(0);
    QCOMPARE(model.data(first, EtcdServiceModel::EndpointRole).toString(), u"10.0.0.1:1"_s);
    QCOMPARE(model.data(first, EtcdServiceModel::ServiceTypeRole).toString(), u"DYNAMIC"_s);
    QCOMPARE(model.data(first, EtcdServiceModel::LeaseRole).toString(),
        QString::number(registry.leaseIdOf(m1)));
    QCOMPARE(
        model.data(first, EtcdServiceModel::RegistrationTimeRole).toDateTime().toMSecsSinceEpoch(),
        m1.registrationTimeUtc);
    m1.port = 11;
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    QVERIFY_OK(await(registry.updateService(m1)).status);
    QTRY_COMPARE_WITH_TIMEOUT(
        model.data(model.index(0), EtcdServiceModel::PortRole).toInt(), 11, kTtlMs);
    QVERIFY(!changed.isEmpty());
    QVERIFY_OK(await(registry.unregisterService(m1)).status);
    QTRY_COMPARE_WITH_TIMEOUT(model.rowCount(), 1, kTtlMs);
    QCOMPARE(model.data(model.index(0), EtcdServiceModel::IdRole).toString(), u"m2"_s);
}

QTEST_GUILESS_MAIN(tst_EtcdServiceDiscovery)
#include "tst_etcdservicediscovery.moc"
