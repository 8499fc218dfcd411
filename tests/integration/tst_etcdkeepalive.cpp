// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// EtcdKeepAlive on the client's one LeaseKeepAlive stream, against real etcd under faults.
// Waits are derived from the TTL they test.
#include "leaseledger.h"
#include "testutil.h"

#include <etcdtestserver.h>
#include <faultproxy.h>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using Etcd::ErrorCode;

namespace {
constexpr auto kTtl = 2s; // etcd's minimum at default raft timings
constexpr int kTtlMs = 2000;

struct Recorder
{
    explicit Recorder(EtcdKeepAlive *k)
    {
        QObject::connect(k, &EtcdKeepAlive::renewed, k, [this] { ++renewed; });
        QObject::connect(k, &EtcdKeepAlive::suspended, k, [this] { order += 's'; });
        QObject::connect(k, &EtcdKeepAlive::resumed, k, [this] { order += 'r'; });
        QObject::connect(k, &EtcdKeepAlive::expired, k, [this](const EtcdStatus &s) {
            order += 'e';
            reason = s;
        });
        QObject::connect(k, &EtcdKeepAlive::keepAliveFailed, k, [this](const EtcdStatus &s) {
            order += 'f';
            reason = s;
        });
    }
    int renewed = 0;
    QByteArray order;
    EtcdStatus reason;
};
} // namespace

class tst_EtcdKeepAlive : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void renewsBeyondTtl();
    void pausedEtcdExpiresLease();
    void partitionSuspendsThenResumes();
    void longCutShorterThanTtlKeepsLease();
    void revokedOutOfBandExpires();
    void thousandLeasesOneStream();
    void invalidInput();

private:
    qint64 grant(EtcdClient &c, std::chrono::seconds ttl = kTtl);
    EtcdTestServer m_server;
    LeaseLedger m_leases; // issue 22 item 7: no test leaves a lease
};

void tst_EtcdKeepAlive::initTestCase()
{
    ETCDQT_START_OR_SKIP(m_server);
}

void tst_EtcdKeepAlive::init()
{
    if (m_server.isPaused())
        m_server.resume();
    m_leases.begin(m_server);
}

void tst_EtcdKeepAlive::cleanup()
{
    VERIFY_NO_LEASE_LEFT(m_leases);
}

qint64 tst_EtcdKeepAlive::grant(EtcdClient &c, std::chrono::seconds ttl)
{
    const auto g = await(c.grantLease(ttl));
    return g.status.isOk() ? g->leaseId() : 0;
}

void tst_EtcdKeepAlive::renewsBeyondTtl()
{
    auto client = connectedClient(m_server.clientUrl());
    const qint64 id = grant(*client);
    QVERIFY(id > 0);
    EtcdKeepAlive keep(client.get(), id, kTtl);
    Recorder rec(&keep);
    keep.start();
    QTest::qWait(3 * kTtlMs); // three TTLs: without renewals the lease would be gone
    QVERIFY2(rec.renewed >= 6, qPrintable(QString::number(rec.renewed))); // ~ every TTL/3
    QVERIFY(rec.order.isEmpty());
    QCOMPARE(keep.state(), EtcdKeepAlive::State::Alive);
    QVERIFY(keep.remainingValidity() > 0ms && keep.remainingValidity() <= kTtl);
    QVERIFY(await(client->leaseTimeToLive(id))->ttl() > 0s);
    keep.stop();
    QVERIFY_OK(await(client->revokeLease(id)).status);
}

void tst_EtcdKeepAlive::pausedEtcdExpiresLease()
{
    EtcdClient client({m_server.clientUrl()});
    client.setStreamLivenessInterval(500ms);
    client.connectToEndpoints();
    const qint64 id = grant(client);
    EtcdKeepAlive keep(&client, id, kTtl);
    Recorder rec(&keep);
    keep.start();
    QTRY_VERIFY_WITH_TIMEOUT(rec.renewed > 0, kTtlMs);
    QVERIFY(m_server.pause());
    QTRY_COMPARE_WITH_TIMEOUT(rec.order, "sef"_ba, 3 * kTtlMs); // suspended, then expired
    QCOMPARE(rec.reason.code(), ErrorCode::LeaseExpired);
    QCOMPARE(keep.state(), EtcdKeepAlive::State::Expired);
    QCOMPARE(keep.remainingValidity(), 0ms);
    QVERIFY(m_server.resume());
}

void tst_EtcdKeepAlive::partitionSuspendsThenResumes()
{
    PartitionedClient side(m_server.clientPort());
    QVERIFY(side.started);
    FaultProxy &proxy = side.proxy;
    EtcdClient &client = side.client;
    const auto ttl = 6s; // long enough to outlive a short partition
    const qint64 id = grant(client, ttl);
    EtcdKeepAlive keep(&client, id, ttl);
    Recorder rec(&keep);
    keep.start();
    QTRY_VERIFY_WITH_TIMEOUT(rec.renewed > 0, 6000);
    proxy.setMode(FaultProxy::Mode::Blackhole);
    QTRY_COMPARE_WITH_TIMEOUT(rec.order, "s"_ba, 6000);
    proxy.setMode(FaultProxy::Mode::Pass);
    QTRY_COMPARE_WITH_TIMEOUT(rec.order, "sr"_ba, 6000);
    QCOMPARE(keep.state(), EtcdKeepAlive::State::Alive);
    auto direct = connectedClient(m_server.clientUrl());
    QVERIFY(await(direct->leaseTimeToLive(id))->ttl() > 0s);
    QVERIFY_OK(await(direct->revokeLease(id)).status);
}

// Refused connections for most of the TTL: the reconnect backoff (250 ms doubling, +/- 25%)
// would next try at 11.8-19.7 s after the cut, past the deadline; attempts are paced by what is
// left of the lease, so one comes soon after the cut heals at 10 s and renews it in time.
void tst_EtcdKeepAlive::longCutShorterThanTtlKeepsLease()
{
    ProxiedClient side(m_server.clientPort());
    QVERIFY(side.started);
    const auto ttl = 13s;
    const int ttlMs = int(std::chrono::milliseconds(ttl).count());
    const qint64 id = grant(side.client, ttl);
    EtcdKeepAlive keep(&side.client, id, ttl);
    Recorder rec(&keep);
    keep.start();
    const int renewedBefore = rec.renewed;
    QTRY_VERIFY_WITH_TIMEOUT(rec.renewed > renewedBefore, ttlMs); // the cut starts after an ack
    side.proxy.setMode(FaultProxy::Mode::Reset);
    QTRY_COMPARE_WITH_TIMEOUT(rec.order, "s"_ba, 5000);
    QTest::qWait(10000); // the fault's length: 10 of the TTL's 13 s
    side.proxy.setMode(FaultProxy::Mode::Pass);
    QTRY_VERIFY_WITH_TIMEOUT(rec.order != "s"_ba, ttlMs);
    QCOMPARE(rec.order, "sr"_ba);
    QCOMPARE(keep.state(), EtcdKeepAlive::State::Alive);
    auto direct = connectedClient(m_server.clientUrl());
    QVERIFY(await(direct->leaseTimeToLive(id))->ttl() > 0s);
    QVERIFY_OK(await(direct->revokeLease(id)).status);
}

void tst_EtcdKeepAlive::revokedOutOfBandExpires()
{
    auto client = connectedClient(m_server.clientUrl());
    auto other = connectedClient(m_server.clientUrl());
    const qint64 id = grant(*client);
    EtcdKeepAlive keep(client.get(), id, kTtl);
    Recorder rec(&keep);
    keep.start();
    QTRY_VERIFY_WITH_TIMEOUT(rec.renewed > 0, kTtlMs);
    QVERIFY_OK(await(other->revokeLease(id)).status);
    QTRY_COMPARE_WITH_TIMEOUT(rec.order, "ef"_ba, 2 * kTtlMs); // etcd answers TTL 0
    QCOMPARE(rec.reason.code(), ErrorCode::LeaseNotFound);
}

void tst_EtcdKeepAlive::thousandLeasesOneStream()
{
    const QUrl url = m_server.clientUrl();
    auto client = connectedClient(url);
    auto open = [&] {
        return etcdMetric(url, "grpc_server_started_total", "grpc_method=\"LeaseKeepAlive\"")
            - etcdMetric(url, "grpc_server_handled_total", "grpc_method=\"LeaseKeepAlive\"");
    };
    const double streamsBefore = open();
    std::vector<std::unique_ptr<EtcdKeepAlive>> keeps;
    keeps.push_back(std::make_unique<EtcdKeepAlive>(client.get(), grant(*client), kTtl));
    keeps.back()->start();
    QTRY_VERIFY_WITH_TIMEOUT(keeps.back()->remainingValidity() > 0ms, kTtlMs);
    const int threadsBefore = threadCount();
    QList<EtcdLeaseGrantReply *> grants;
    for (int i = 1; i < 1000; ++i) {
        grants.append(client->grantLease(kTtl));
        grants.last()->setAutoDelete(false); // awaited one by one below
    }
    for (EtcdLeaseGrantReply *g : std::as_const(grants)) {
        const auto done = await(g);
        QVERIFY_OK(done.status);
        keeps.push_back(std::make_unique<EtcdKeepAlive>(client.get(), done->leaseId(), kTtl));
        keeps.back()->start();
    }
    int expired = 0;
    for (auto &k : keeps)
        connect(k.get(), &EtcdKeepAlive::expired, this, [&] { ++expired; });
    QTest::qWait(3 * kTtlMs); // three TTLs on one stream
    QCOMPARE(expired, 0);
    QCOMPARE(open() - streamsBefore, 1.0);
    const auto listed = await(client->leases());
    for (auto &k : keeps)
        QVERIFY(listed->leaseIds().contains(k->leaseId()));
    QVERIFY2(threadCount() - threadsBefore <= 4,
        qPrintable(u"threads %1 -> %2"_s.arg(threadsBefore).arg(threadCount())));
    for (auto &k : keeps) {
        k->stop();
        client->revokeLease(k->leaseId());
    }
    QTRY_COMPARE_WITH_TIMEOUT(await(client->leases())->leaseIds().size(), 0, 10000); // no leak
}

void tst_EtcdKeepAlive::invalidInput()
{
    auto client = connectedClient(m_server.clientUrl());
    EtcdKeepAlive zeroTtl(client.get(), 1, 0s);
    Recorder rec(&zeroTtl);
    zeroTtl.start();
    QCOMPARE(rec.order, QByteArray()); // reported on the next turn
    QTRY_COMPARE(rec.order, "f"_ba); // renewal never started: failed, not expired
    QCOMPARE(rec.reason.code(), ErrorCode::InvalidArgument);
    QCOMPARE(zeroTtl.state(), EtcdKeepAlive::State::Failed);

    EtcdClient offline({m_server.clientUrl()});
    EtcdKeepAlive notConnected(&offline, 1, kTtl);
    Recorder rec2(&notConnected);
    notConnected.start();
    QTRY_COMPARE(rec2.order, "f"_ba);
    QCOMPARE(rec2.reason.code(), ErrorCode::NotConnected);

    // A client that goes away while a lease is kept alive: renewal failed, reported.
    auto going = connectedClient(m_server.clientUrl());
    const qint64 id = grant(*going);
    EtcdKeepAlive orphan(going.get(), id, kTtl);
    Recorder rec3(&orphan);
    orphan.start();
    going->disconnectFromEndpoints();
    // The stream may report its cancellation first (suspended); then renewal failed, once.
    QTRY_VERIFY(rec3.order.endsWith('f'));
    QVERIFY(rec3.order == "f" || rec3.order == "sf");
    QCOMPARE(rec3.reason.code(), ErrorCode::Cancelled);
    QVERIFY_OK(await(connectedClient(m_server.clientUrl())->revokeLease(id)).status);
}

QTEST_GUILESS_MAIN(tst_EtcdKeepAlive)
#include "tst_etcdkeepalive.moc"
