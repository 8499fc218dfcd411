// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0

// A user's test of their own etcd code with the installed test kit: a real etcd, a FaultProxy
// between it and the client, a partition and its healing. Built against the installed
// packages only (tests/install/consume.cmake), with nothing of gRPC in sight.

#include <EtcdQt/EtcdClient>
#include <EtcdQt/EtcdWatch>
#include <EtcdQtTestKit/EtcdTestServer>
#include <EtcdQtTestKit/FaultProxy>

#include <QtTest/qsignalspy.h>
#include <QtTest/qtest.h>

#include <memory>

using namespace std::chrono_literals;
using namespace Qt::StringLiterals;

class tst_TestKitConsumer : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void partitionAndHeal();
};

// `reply` once it finished, or after `timeout` if it did not; owned here, not auto-deleted.
template <typename Reply>
static std::unique_ptr<Reply> await(Reply *reply, std::chrono::milliseconds timeout)
{
    reply->setAutoDelete(false);
    std::unique_ptr<Reply> owned(reply);
    QSignalSpy finished(reply, &EtcdReply::finished);
    if (!reply->isFinished())
        finished.wait(int(timeout.count()));
    return owned;
}

#define VERIFY_OK(reply)                                                                           \
    do {                                                                                           \
        QVERIFY2((reply)->isFinished(), "no answer");                                              \
        QVERIFY2((reply)->status().isOk(), qPrintable((reply)->status().message()));               \
    } while (false)

void tst_TestKitConsumer::partitionAndHeal()
{
    EtcdTestServer server;
    ETCDQT_START_OR_SKIP(server);
    FaultProxy proxy(u"127.0.0.1"_s, server.clientPort());
    QVERIFY(proxy.start());

    // Short limits, so the partition shows quickly; the waits below are multiples of them.
    constexpr std::chrono::milliseconds deadline = 1s;
    constexpr std::chrono::milliseconds liveness = 500ms;
    EtcdClient client({proxy.url()});
    client.setCallDeadline(deadline);
    client.setStreamLivenessInterval(liveness);
    client.setRpcResilience(EtcdRpcResilience::disabled()); // see each failure, no retry
    client.connectToEndpoints();

    VERIFY_OK(await(client.put("/consumer/k"_ba, "before"_ba), 10 * deadline));
    EtcdWatch watch(&client, "/consumer/k"_ba);
    watch.start();
    QTRY_COMPARE_WITH_TIMEOUT(watch.state(), EtcdWatch::State::Active, 10 * deadline.count());

    proxy.setMode(FaultProxy::Mode::Blackhole); // the connection stays open; nothing answers
    const auto cut = await(client.put("/consumer/k"_ba, "during"_ba), 10 * deadline);
    QVERIFY(cut->isFinished());
    QCOMPARE(cut->status().code(), Etcd::ErrorCode::DeadlineExceeded);
    QTRY_COMPARE_WITH_TIMEOUT(watch.state(), EtcdWatch::State::Suspended, 10 * liveness.count());

    proxy.setMode(FaultProxy::Mode::Pass);
    QTRY_COMPARE_WITH_TIMEOUT(watch.state(), EtcdWatch::State::Active, 40 * liveness.count());
    VERIFY_OK(await(client.put("/consumer/k"_ba, "after"_ba), 10 * deadline));
    const auto get = await(client.get("/consumer/k"_ba), 10 * deadline);
    VERIFY_OK(get);
    QCOMPARE(get->keyValues().size(), 1);
    QCOMPARE(get->keyValues().first().value, "after"_ba);
}

QTEST_GUILESS_MAIN(tst_TestKitConsumer)
#include "tst_testkitconsumer.moc"
