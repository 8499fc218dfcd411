// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "etcdserverpb/rpc.grpc.pb.h"
#include "etcdtestgrpc.h"
#include "etcdtestserver.h"

#include <QtCore/qelapsedtimer.h>
#include <QtCore/qfile.h>
#include <QtCore/qfileinfo.h>
#include <QtCore/qregularexpression.h>
#include <QtNetwork/qtcpserver.h>
#include <QtTest/qtest.h>

#include <grpcpp/grpcpp.h>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

class tst_EtcdTestServer : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void lifecycle();
    void pausedServerKeepsConnectionsOpen();
    void dataDirOnTmpfs();
    void parallelServersGetDistinctPorts();
    void extraArgumentsReachEtcd();
    void takenPortFailsFastThenRecovers();
};

void tst_EtcdTestServer::init()
{
    QTest::failOnWarning(QRegularExpression(u".*"_s));
}

void tst_EtcdTestServer::lifecycle()
{
    EtcdTestServer server;
    ETCDQT_START_OR_SKIP(server);
    const QString endpoint = server.endpoint();
    QVERIFY(server.pid() > 0);
    QVERIFY(EtcdTestServer::probe(endpoint, 2s));
    QVERIFY(etcdTestPut(endpoint, "kit/key", "before-restart"));
    QCOMPARE(etcdTestValue(endpoint, "kit/key"), QByteArray("before-restart"));

    QVERIFY(server.pause());
    QVERIFY(server.isRunning());
    QVERIFY(server.isPaused());
    QElapsedTimer timer;
    timer.start();
    QVERIFY(!EtcdTestServer::probe(endpoint, 300ms));
    QCOMPARE_LT(timer.elapsed(), 2000);
    QVERIFY(server.resume());
    QVERIFY(!server.isPaused());
    QVERIFY(EtcdTestServer::probe(endpoint, 5s));

    server.kill();
    QVERIFY(!server.isRunning());
    QVERIFY(!EtcdTestServer::probe(endpoint, 300ms));

    const quint16 port = server.clientPort();
    QVERIFY2(server.restart(), qPrintable(server.log()));
    QCOMPARE(server.clientPort(), port);
    QVERIFY(EtcdTestServer::probe(endpoint, 2s));
    QCOMPARE(etcdTestValue(endpoint, "kit/key"), QByteArray("before-restart"));

    QVERIFY(server.stop());
    QVERIFY(!server.isRunning());
    QVERIFY(!EtcdTestServer::probe(endpoint, 300ms));
    QVERIFY(server.log().contains(u"etcd"_s));
}

// The fact EtcdQt's liveness design rests on: SIGSTOP leaves TCP open, calls just go quiet.
void tst_EtcdTestServer::pausedServerKeepsConnectionsOpen()
{
    EtcdTestServer server;
    ETCDQT_START_OR_SKIP(server);
    auto channel = etcdTestChannel(server.endpoint());
    auto stub = etcdserverpb::Maintenance::NewStub(channel);
    const auto status = [&stub](std::chrono::milliseconds timeout) {
        grpc::ClientContext context;
        context.set_deadline(std::chrono::system_clock::now() + timeout);
        etcdserverpb::StatusResponse response;
        return stub->Status(&context, etcdserverpb::StatusRequest(), &response).error_code();
    };
    QCOMPARE(int(status(2s)), int(grpc::StatusCode::OK));

    QVERIFY(server.pause());
    QCOMPARE(int(status(500ms)), int(grpc::StatusCode::DEADLINE_EXCEEDED));
    QCOMPARE(int(channel->GetState(false)), int(GRPC_CHANNEL_READY));
    QVERIFY(server.resume());
    QCOMPARE(int(status(2s)), int(grpc::StatusCode::OK));
}

void tst_EtcdTestServer::dataDirOnTmpfs()
{
    EtcdTestServer server;
    ETCDQT_START_OR_SKIP(server);
    QVERIFY(QFileInfo(server.dataDir()).isDir());
    if (QFileInfo(u"/dev/shm"_s).isWritable())
        QVERIFY2(server.dataDir().startsWith(u"/dev/shm/"_s), qPrintable(server.dataDir()));
    const QString dir = server.dataDir();
    server.kill();
    QVERIFY(QFileInfo::exists(dir)); // kept for restart()
}

void tst_EtcdTestServer::parallelServersGetDistinctPorts()
{
    EtcdTestServer first;
    EtcdTestServer second;
    ETCDQT_START_OR_SKIP(first);
    ETCDQT_START_OR_SKIP(second);
    const QList<quint16> ports {
        first.clientPort(), first.peerPort(), second.clientPort(), second.peerPort()};
    QCOMPARE(QSet<quint16>(ports.cbegin(), ports.cend()).size(), 4);
    QVERIFY(EtcdTestServer::probe(first.endpoint(), 2s));
    QVERIFY(EtcdTestServer::probe(second.endpoint(), 2s));
    QVERIFY(etcdTestPut(first.endpoint(), "only/first", "1"));
    QCOMPARE(etcdTestValue(second.endpoint(), "only/first"), QByteArray("<absent>"));
}

void tst_EtcdTestServer::extraArgumentsReachEtcd()
{
    EtcdTestServer server;
    server.setExtraArguments({u"--auth-token-ttl=7"_s});
    ETCDQT_START_OR_SKIP(server);
    QFile cmdline(u"/proc/%1/cmdline"_s.arg(server.pid()));
    QVERIFY(cmdline.open(QIODevice::ReadOnly));
    const QList<QByteArray> arguments = cmdline.readAll().split('\0');
    QVERIFY(arguments.contains("--auth-token-ttl=7"));
    QVERIFY(arguments.contains("--listen-client-urls=" + server.clientUrl().toEncoded()));
}

void tst_EtcdTestServer::takenPortFailsFastThenRecovers()
{
    if (!EtcdTestServer::etcdAvailable())
        QSKIP("etcd not installed");
    auto squatter = std::make_unique<QTcpServer>();
    QVERIFY(squatter->listen(QHostAddress::LocalHost, 0));
    EtcdTestServer server;
    server.setPorts(squatter->serverPort(), EtcdTestServer::freePort());
    QElapsedTimer timer;
    timer.start();
    QVERIFY(!server.start(15s));
    QVERIFY2(server.portWasTaken(), qPrintable(server.log()));
    QCOMPARE_LT(timer.elapsed(), 10000); // gave up after a few tries, not at the deadline

    squatter.reset();
    QVERIFY2(server.start(), qPrintable(server.log()));
    QVERIFY(EtcdTestServer::probe(server.endpoint(), 2s));
}

QTEST_GUILESS_MAIN(tst_EtcdTestServer)
#include "tst_etcdtestserver.moc"
