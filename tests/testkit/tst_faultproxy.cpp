// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "etcdserverpb/rpc.grpc.pb.h"
#include "etcdtestgrpc.h"
#include "etcdtestserver.h"
#include "faultproxy.h"

#include <QtCore/qelapsedtimer.h>
#include <QtCore/qregularexpression.h>
#include <QtNetwork/qtcpsocket.h>
#include <QtTest/qtest.h>

#include <grpcpp/grpcpp.h>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace {
// Maintenance.Status over an existing channel; wait_for_ready off, as clients use it, so a
// broken connection shows up as UNAVAILABLE rather than as a wait.
grpc::StatusCode statusOver(
    const std::shared_ptr<grpc::Channel> &channel, std::chrono::milliseconds timeout)
{
    auto stub = etcdserverpb::Maintenance::NewStub(channel);
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + timeout);
    etcdserverpb::StatusResponse response;
    return stub->Status(&context, etcdserverpb::StatusRequest(), &response).error_code();
}

int code(grpc::StatusCode statusCode)
{
    return int(statusCode);
}
} // namespace

class tst_FaultProxy : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void passForwards();
    void blackholeStallsOnlyTheProxiedClient();
    void resetFailsFast();
    void connectionCountFollowsClients();

private:
    EtcdTestServer m_server;
};

void tst_FaultProxy::initTestCase()
{
    ETCDQT_START_OR_SKIP(m_server);
}

void tst_FaultProxy::init()
{
    QTest::failOnWarning(QRegularExpression(u".*"_s));
}

void tst_FaultProxy::passForwards()
{
    FaultProxy proxy(u"127.0.0.1"_s, m_server.clientPort());
    QVERIFY(proxy.start());
    QVERIFY(proxy.port() != 0);
    QCOMPARE(proxy.url(), QUrl(u"http://127.0.0.1:%1"_s.arg(proxy.port())));
    QCOMPARE(proxy.mode(), FaultProxy::Mode::Pass);
    QVERIFY(EtcdTestServer::probe(proxy.endpoint(), 2s));
    QVERIFY(etcdTestPut(proxy.endpoint(), "kit/proxied", "through"));
    QCOMPARE(etcdTestGet(m_server.endpoint(), "kit/proxied").value_or("<absent>"),
        QByteArray("through"));
}

void tst_FaultProxy::blackholeStallsOnlyTheProxiedClient()
{
    FaultProxy proxy(u"127.0.0.1"_s, m_server.clientPort());
    QVERIFY(proxy.start());
    const auto proxied = etcdTestChannel(proxy.endpoint());
    QCOMPARE(code(statusOver(proxied, 2s)), code(grpc::StatusCode::OK));

    proxy.setMode(FaultProxy::Mode::Blackhole);
    QCOMPARE(proxy.mode(), FaultProxy::Mode::Blackhole);
    QCOMPARE(code(statusOver(proxied, 500ms)), code(grpc::StatusCode::DEADLINE_EXCEEDED));
    QCOMPARE(proxy.connectionCount(), 1); // held open, silently
    QVERIFY(EtcdTestServer::probe(m_server.endpoint(), 2s));

    proxy.setMode(FaultProxy::Mode::Pass);
    QCOMPARE(code(statusOver(etcdTestChannel(proxy.endpoint()), 2s)), code(grpc::StatusCode::OK));
    // The blackholed connection lost bytes, so Pass resets it; the old channel reconnects.
    QTRY_COMPARE_WITH_TIMEOUT(code(statusOver(proxied, 500ms)), code(grpc::StatusCode::OK), 5000);
}

void tst_FaultProxy::resetFailsFast()
{
    FaultProxy proxy(u"127.0.0.1"_s, m_server.clientPort());
    QVERIFY(proxy.start());
    const auto channel = etcdTestChannel(proxy.endpoint());
    QCOMPARE(code(statusOver(channel, 2s)), code(grpc::StatusCode::OK));
    QCOMPARE(proxy.connectionCount(), 1);

    proxy.setMode(FaultProxy::Mode::Reset);
    QCOMPARE(proxy.connectionCount(), 0);
    QElapsedTimer timer;
    timer.start();
    QCOMPARE(code(statusOver(channel, 5s)), code(grpc::StatusCode::UNAVAILABLE));
    QCOMPARE_LT(timer.elapsed(), 1000);
    timer.restart();
    QCOMPARE(code(statusOver(etcdTestChannel(proxy.endpoint()), 5s)),
        code(grpc::StatusCode::UNAVAILABLE));
    QCOMPARE_LT(timer.elapsed(), 1000);

    proxy.setMode(FaultProxy::Mode::Pass);
    QCOMPARE(code(statusOver(etcdTestChannel(proxy.endpoint()), 2s)), code(grpc::StatusCode::OK));
    QTRY_COMPARE_WITH_TIMEOUT(code(statusOver(channel, 500ms)), code(grpc::StatusCode::OK), 5000);
}

void tst_FaultProxy::connectionCountFollowsClients()
{
    FaultProxy proxy(u"127.0.0.1"_s, m_server.clientPort());
    QVERIFY(proxy.start());
    QCOMPARE(proxy.connectionCount(), 0);
    auto first = etcdTestChannel(proxy.endpoint());
    auto second = etcdTestChannel(proxy.endpoint());
    QCOMPARE(code(statusOver(first, 2s)), code(grpc::StatusCode::OK));
    QCOMPARE(code(statusOver(second, 2s)), code(grpc::StatusCode::OK));
    QTRY_COMPARE(proxy.connectionCount(), 2);
    first.reset();
    QTRY_COMPARE(proxy.connectionCount(), 1);

    QTcpSocket raw;
    raw.connectToHost(QHostAddress::LocalHost, proxy.port());
    QVERIFY(raw.waitForConnected(2000));
    QTRY_COMPARE(proxy.connectionCount(), 2);
    raw.disconnectFromHost();
    QTRY_COMPARE(proxy.connectionCount(), 1);
}

QTEST_GUILESS_MAIN(tst_FaultProxy)
#include "tst_faultproxy.moc"
