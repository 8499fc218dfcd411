// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// EtcdClient under bad input and real faults: unreachable, paused, restarting etcd;
// disconnect and destruction with calls in flight.
#include "leaseledger.h"
#include "testutil.h"

#include <etcdtestserver.h>

#include <QtCore/qelapsedtimer.h>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using Etcd::ErrorCode;

class tst_EtcdClientFaults : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void unreachableEndpoint();
    void invalidEndpoints_data();
    void invalidEndpoints();
    void invalidArguments();
    void oversizeValue();
    void callsAfterDisconnect();
    void disconnectCancelsCallsInFlight();
    void deadlineAgainstPausedEtcd();
    void retriesAcrossRestart();
    void stateFollowsServer();
    void destroyWithCallsInFlight();
    void thousandOutstandingPutsAddNoThreads();

private:
    EtcdTestServer m_server;
    LeaseLedger m_leases; // issue 22 item 7: no test leaves a lease
};

void tst_EtcdClientFaults::initTestCase()
{
    ETCDQT_START_OR_SKIP(m_server);
}

void tst_EtcdClientFaults::init()
{
    if (m_server.isPaused())
        m_server.resume();
    if (!m_server.isRunning())
        QVERIFY2(m_server.restart(), qPrintable(m_server.log()));
    m_leases.begin(m_server);
}

void tst_EtcdClientFaults::cleanup()
{
    VERIFY_NO_LEASE_LEFT(m_leases);
}

void tst_EtcdClientFaults::unreachableEndpoint()
{
    // A port nobody listens on: connection refused, the fast kind of unreachable.
    const QUrl nowhere(u"http://127.0.0.1:%1"_s.arg(EtcdTestServer::freePort()));
    EtcdClient client({nowhere});
    client.setConnectTimeout(1s);
    client.setCallDeadline(3s);
    QSignalSpy errors(&client, &EtcdClient::errorOccurred);
    client.connectToEndpoints();
    QElapsedTimer timer;
    timer.start();
    const auto put = await(client.put("k"_ba, "v"_ba), 10s);
    QCOMPARE(put.status.code(), ErrorCode::Unavailable);
    QVERIFY2(timer.elapsed() < 3500, qPrintable(QString::number(timer.elapsed())));
    QTRY_VERIFY_WITH_TIMEOUT(!errors.isEmpty(), 5000); // the probe says why, once
    QVERIFY(client.state() != EtcdClient::State::Connected);
}

void tst_EtcdClientFaults::invalidEndpoints_data()
{
    QTest::addColumn<QList<QUrl>>("endpoints");
    QTest::newRow("empty list") << QList<QUrl> {};
    QTest::newRow("malformed") << QList<QUrl> {QUrl(u"http://[::1:2379"_s)};
    QTest::newRow("no port") << QList<QUrl> {QUrl(u"http://127.0.0.1"_s)};
    QTest::newRow("wrong scheme") << QList<QUrl> {QUrl(u"unix:///tmp/etcd.sock"_s)};
}

void tst_EtcdClientFaults::invalidEndpoints()
{
    QFETCH(QList<QUrl>, endpoints);
    EtcdClient client(endpoints);
    QSignalSpy errors(&client, &EtcdClient::errorOccurred);
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"cannot connect"_s));
    client.connectToEndpoints();
    QCOMPARE(errors.size(), 0); // reported on the next turn, after the caller connected
    QTRY_COMPARE(errors.size(), 1);
    QCOMPARE(errors.first().first().value<EtcdStatus>().code(), ErrorCode::InvalidArgument);
    QCOMPARE(client.state(), EtcdClient::State::Disconnected);
    const auto put = await(client.put("k"_ba, "v"_ba));
    QCOMPARE(put.status.code(), ErrorCode::InvalidArgument);
}

void tst_EtcdClientFaults::invalidArguments()
{
    auto client = connectedClient(m_server.clientUrl());
    QCOMPARE(await(client->put({}, "v"_ba)).status.code(), ErrorCode::InvalidArgument);
    QCOMPARE(await(client->get({})).status.code(), ErrorCode::InvalidArgument);
    QCOMPARE(await(client->remove({})).status.code(), ErrorCode::InvalidArgument);
    QCOMPARE(await(client->grantLease(0s)).status.code(), ErrorCode::InvalidArgument);
    QCOMPARE(await(client->grantLease(-5s)).status.code(), ErrorCode::InvalidArgument);
    QCOMPARE(await(client->revokeLease(-1)).status.code(), ErrorCode::InvalidArgument);
    QCOMPARE(await(client->compact(0)).status.code(), ErrorCode::InvalidArgument);
    QCOMPARE(await(client->lock({}, 1)).status.code(), ErrorCode::InvalidArgument);
    EtcdTxn badTxn;
    badTxn.success = {EtcdTxnOp::put({}, "x"_ba)};
    QCOMPARE(await(client->txn(badTxn)).status.code(), ErrorCode::InvalidArgument);
    QVERIFY_OK(await(client->put("ok"_ba, "v"_ba)).status); // and the client is still fine
}

void tst_EtcdClientFaults::oversizeValue()
{
    auto client = connectedClient(m_server.clientUrl());
    // etcd's default --max-request-bytes is 1.5 MiB.
    const auto big = await(client->put("big"_ba, QByteArray(2 * 1024 * 1024, 'x')));
    QCOMPARE(big.status.code(), ErrorCode::RequestTooLarge);
    QVERIFY(!big.status.message().isEmpty());
    QVERIFY_OK(await(client->put("small"_ba, "v"_ba)).status);
}

void tst_EtcdClientFaults::callsAfterDisconnect()
{
    auto client = connectedClient(m_server.clientUrl());
    QVERIFY_OK(await(client->put("k"_ba, "v"_ba)).status);
    client->disconnectFromEndpoints();
    QCOMPARE(client->state(), EtcdClient::State::Disconnected);
    QCOMPARE(await(client->get("k"_ba)).status.code(), ErrorCode::NotConnected);
    client->connectToEndpoints(); // and it can come back
    QVERIFY_OK(await(client->get("k"_ba)).status);
}

void tst_EtcdClientFaults::disconnectCancelsCallsInFlight()
{
    auto client = connectedClient(m_server.clientUrl());
    const auto a = await(client->grantLease(30s));
    const auto b = await(client->grantLease(30s));
    const auto held = await(client->lock("/faults/lock"_ba, a->leaseId()));
    QVERIFY_OK(held.status);
    auto *waiting = client->lock("/faults/lock"_ba, b->leaseId());
    QSignalSpy spy(waiting, &EtcdReply::finished);
    QVERIFY(!spy.wait(300)); // parked behind the holder
    client->disconnectFromEndpoints();
    QCOMPARE(spy.size(), 1);
    QCOMPARE(spy.first().first().value<EtcdStatus>().code(), ErrorCode::Cancelled);
    client->connectToEndpoints();
    QVERIFY_OK(await(client->revokeLease(a->leaseId())).status);
    QVERIFY_OK(await(client->revokeLease(b->leaseId())).status);
}

void tst_EtcdClientFaults::deadlineAgainstPausedEtcd()
{
    auto client = connectedClient(m_server.clientUrl());
    QVERIFY_OK(await(client->put("k"_ba, "v"_ba)).status);
    client->setCallDeadline(1s);
    QVERIFY(m_server.pause());
    QElapsedTimer timer;
    timer.start();
    const auto get = await(client->get("k"_ba), 10s);
    const qint64 took = timer.elapsed();
    QCOMPARE(get.status.code(), ErrorCode::DeadlineExceeded);
    QVERIFY2(took >= 900 && took < 2500, qPrintable(QString::number(took)));
    QVERIFY(m_server.resume());
    QVERIFY_OK(await(client->get("k"_ba)).status);
}

void tst_EtcdClientFaults::retriesAcrossRestart()
{
    auto client = connectedClient(m_server.clientUrl());
    QVERIFY_OK(await(client->put("k"_ba, "before"_ba)).status);
    // 40 retries 250 ms apart: a 10 s window for etcd to come back.
    client->setRpcResilience({EtcdRetryPolicy::bounded(40, 250ms), 2s});
    m_server.kill();
    auto *put = client->put("k"_ba, "after"_ba);
    put->setAutoDelete(false);
    std::unique_ptr<EtcdPutReply> keep(put);
    QSignalSpy done(put, &EtcdReply::finished);
    QVERIFY(!done.wait(600)); // etcd is down: the put is being retried, not failed
    QVERIFY2(m_server.restart(), qPrintable(m_server.log()));
    QTRY_COMPARE_WITH_TIMEOUT(done.size(), 1, 15000);
    QVERIFY_OK(put->status());
    QCOMPARE(await(client->get("k"_ba))->keyValues().first().value, "after"_ba);
}

void tst_EtcdClientFaults::stateFollowsServer()
{
    auto client = connectedClient(m_server.clientUrl());
    QSignalSpy states(client.get(), &EtcdClient::stateChanged);
    QTRY_COMPARE_WITH_TIMEOUT(client->state(), EtcdClient::State::Connected, 10000);
    client->setRpcResilience(EtcdRpcResilience::disabled());
    m_server.kill();
    // A call notices the failure; the engine then probes until etcd answers again.
    QCOMPARE(await(client->get("k"_ba)).status.code(), ErrorCode::Unavailable);
    QTRY_COMPARE_WITH_TIMEOUT(client->state(), EtcdClient::State::Reconnecting, 5000);
    QVERIFY2(m_server.restart(), qPrintable(m_server.log()));
    QTRY_COMPARE_WITH_TIMEOUT(client->state(), EtcdClient::State::Connected, 15000);
    QVERIFY(states.size() >= 3);
}

void tst_EtcdClientFaults::destroyWithCallsInFlight()
{
    const int before = threadCount();
    auto client = connectedClient(m_server.clientUrl());
    QTRY_COMPARE_WITH_TIMEOUT(client->state(), EtcdClient::State::Connected, 10000);
    QVERIFY(m_server.pause()); // nothing will answer: every call stays in flight
    QList<QSignalSpy *> spies;
    for (int i = 0; i < 50; ++i)
        spies.append(new QSignalSpy(client->put("k"_ba, "v"_ba), &EtcdReply::finished));
    spies.append(new QSignalSpy(client->lock("/faults/destroy"_ba, 1), &EtcdReply::finished));
    // Each call was handed to gRPC when it was made; nothing to wait for.
    QElapsedTimer timer;
    timer.start();
    client.reset();
    QVERIFY2(timer.elapsed() < 1000, qPrintable(QString::number(timer.elapsed())));
    for (QSignalSpy *spy : std::as_const(spies)) {
        QCOMPARE(spy->size(), 1);
        QCOMPARE(spy->first().first().value<EtcdStatus>().code(), ErrorCode::Cancelled);
    }
    qDeleteAll(spies);
    QVERIFY(m_server.resume());
    QTRY_VERIFY2_WITH_TIMEOUT(threadCount() <= before + 2,
        qPrintable(u"threads %1 -> %2"_s.arg(before).arg(threadCount())), 5000);
}

void tst_EtcdClientFaults::thousandOutstandingPutsAddNoThreads()
{
    auto client = connectedClient(m_server.clientUrl());
    QVERIFY_OK(await(client->put("warm"_ba, "up"_ba)).status);
    const int before = threadCount();
    int done = 0, failed = 0, peak = before;
    for (int i = 0; i < 1000; ++i) {
        auto *reply = client->put("/many/"_ba + QByteArray::number(i), "v"_ba);
        connect(reply, &EtcdReply::finished, this, [&](const EtcdStatus &s) {
            ++done;
            failed += s.isOk() ? 0 : 1;
            peak = std::max(peak, threadCount());
        });
    }
    QTRY_COMPARE_WITH_TIMEOUT(done, 1000, 30000);
    QCOMPARE(failed, 0);
    QVERIFY2(peak - before <= 4, qPrintable(u"threads %1 -> peak %2"_s.arg(before).arg(peak)));
}

QTEST_GUILESS_MAIN(tst_EtcdClientFaults)
#include "tst_etcdclient_faults.moc"
