// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// Every example, run as a user would against a real etcd: it ends well, prints what its
// header promises, and leaves no lease behind.
#include "leaseledger.h"
#include "testutil.h"

#include <etcdtestserver.h>

#include <QtCore/qdir.h>
#include <QtCore/qfileinfo.h>
#include <QtCore/qprocess.h>
#include <QtCore/qregularexpression.h>
#include <QtNetwork/qtcpserver.h>
#include <QtNetwork/qtcpsocket.h>
#include <childprocess_p.h>

#include <csignal>

using namespace Qt::StringLiterals;

namespace {
// An example running beside the test, its output read as it comes.
struct Running
{
    ChildProcess process;
    QString output;
    // Where `text` is printed at `from` or later: -1 when it is not there within 10 s.
    qsizetype find(const QString &text, qsizetype from = 0)
    {
        qsizetype at = -1;
        const bool printed = QTest::qWaitFor(
            [&] {
                output += QString::fromUtf8(process.readAllStandardOutput());
                at = output.indexOf(text, from);
                return at >= 0;
            },
            10000);
        return printed ? at : -1;
    }
    // Sends `signal` (Ctrl+C, kill) and reads what it printed to the end: its exit code, -1
    // when it did not end within 5 s.
    int stopWith(int signal)
    {
        ::kill(pid_t(process.processId()), signal);
        if (!process.waitForFinished(5000))
            return -1;
        output += QString::fromUtf8(process.readAllStandardOutput());
        return process.exitCode();
    }
};
} // namespace

class tst_Examples : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void runs_data();
    void runs();
    void selfHealingClosesOnCtrlC();
    void liveConfigAppliesEachChange();
    void chooseCallsTheAnnouncedInstance();
    void workerPoolDeadLettersThePoison();
    void etcdElectionHandsOver();
    void jobListHoldsAndHandsBack();

private:
    void verifyNoLeases();
    QList<EtcdKeyValue> readPrefix(const QByteArray &prefix);
    EtcdTestServer m_server;
    LeaseLedger m_leases; // issue 22 item 7: no test leaves a lease
    std::unique_ptr<EtcdClient> m_client;
};

void tst_Examples::initTestCase()
{
    ETCDQT_START_OR_SKIP(m_server);
    m_client = connectedClient(m_server.clientUrl());
}

void tst_Examples::init()
{
    m_leases.begin(m_server);
}

void tst_Examples::cleanup()
{
    VERIFY_NO_LEASE_LEFT(m_leases);
}

void tst_Examples::verifyNoLeases()
{
    QTRY_VERIFY_WITH_TIMEOUT(await(m_client->leases())->leaseIds().isEmpty(), 2000);
}

QList<EtcdKeyValue> tst_Examples::readPrefix(const QByteArray &prefix)
{
    EtcdRangeOptions under;
    under.prefix = true;
    const auto read = await(m_client->get(prefix, under));
    return read.status.isOk() ? read->keyValues() : QList<EtcdKeyValue> {};
}

// Where each of `lines` is in `output`, each after the one before; "" when all are there, else
// what is missing.
static QString missingInOrder(const QString &output, const QStringList &lines)
{
    qsizetype at = 0;
    for (const QString &line : lines) {
        at = output.indexOf(line, at);
        if (at < 0)
            return u"missing \"%1\" (in this order) in:\n%2"_s.arg(line, output);
    }
    return {};
}

void tst_Examples::runs_data()
{
    QTest::addColumn<QString>("program");
    QTest::addColumn<QStringList>("extra");
    QTest::addColumn<QStringList>("expected"); // lines that must appear, in order
    QTest::newRow("kv") << QStringLiteral(EXAMPLE_KV) << QStringList()
                        << QStringList {u"put at revision"_s, u"compare-and-set committed"_s,
                               u"deleted 1 key"_s};
    QTest::newRow("keepalive") << QStringLiteral(EXAMPLE_KEEPALIVE) << QStringList()
                               << QStringList {u"granted (TTL 5 s)"_s,
                                      u"the scoped handle still keeps it"_s, u"revoked (Ok)"_s};
    QTest::newRow("leasedkeys") << QStringLiteral(EXAMPLE_LEASEDKEYS) << QStringList()
                                << QStringList {
                                       u"both keys live on lease"_s, u"closed; keys left: 0"_s};
    QTest::newRow("transientkey") << QStringLiteral(EXAMPLE_TRANSIENTKEY) << QStringList {u"2"_s}
                                  << QStringList {u"/example/nodes/this = {"_s,
                                         u"closed: key and lease revoked"_s};
    QTest::newRow("selector") << QStringLiteral(EXAMPLE_SELECTOR) << QStringList()
                              << QStringList {u"in the running as example-selector"_s, u"elected"_s,
                                     u"[body] batch 3 done, 30 items"_s,
                                     u"[body] result written under token"_s, u": committed"_s,
                                     u"[body] relinquish callback"_s, u"relinquished"_s,
                                     u"/example/election/selector-result = 30"_s, u"closed"_s};
    QTest::newRow("latch") << QStringLiteral(EXAMPLE_LATCH) << QStringList()
                           << QStringList {u"joining the election as example-latch"_s,
                                  u"elected (signal): fencing token"_s,
                                  u"await() on a worker thread: leading after"_s,
                                  u"relinquished (signal): hasLeadership is false"_s, u"closed"_s};
    QTest::newRow("observer") << QStringLiteral(EXAMPLE_OBSERVER) << QStringList()
                              << QStringList {u"leader now: (nobody)"_s,
                                     u"leader changed to alpha"_s, u"leader changed to beta"_s,
                                     u"leader changed to (nobody)"_s, u"closed"_s};
    QTest::newRow("stepdown") << QStringLiteral(EXAMPLE_STEPDOWN) << QStringList()
                              << QStringList {u"elected: fencing token"_s,
                                     u"connection state: Lost"_s, u"leadership lost: "_s,
                                     u"relinquished"_s, u"late write guarded by token"_s,
                                     u"refused"_s, u"closed"_s};
    QTest::newRow("mutex") << QStringLiteral(EXAMPLE_MUTEX) << QStringList()
                           << QStringList {u"two workers take turns"_s, u"holds the lock"_s,
                                  u"counter = 6 after 6 increments"_s, u"closed"_s};
    QTest::newRow("rwlock") << QStringLiteral(EXAMPLE_RWLOCK) << QStringList()
                            << QStringList {u"3 readers hold the read lock at once"_s,
                                   u"writer holds the write lock"_s, u"readers holding now: 0"_s,
                                   u"writer wrote \"version 2\""_s,
                                   u"downgraded: unlock() ended the writing and kept the reading "
                                   u"(write holds 0, read holds 1)"_s,
                                   u"in etcd: write locked no, read locked yes"_s, u"closed"_s};
    QTest::newRow("semaphore") << QStringLiteral(EXAMPLE_SEMAPHORE) << QStringList()
                               << QStringList {u"2 of 2 in use"_s,
                                      u"5 workers served; at most 2 of 2 permits in use at once"_s,
                                      u"closed"_s};
    QTest::newRow("fenced") << QStringLiteral(EXAMPLE_FENCED) << QStringList()
                            << QStringList {u"A holds the lock: fencing token"_s,
                                   u"B holds the lock: fencing token"_s,
                                   u"guarded by that token: refused (succeeded() false)"_s,
                                   u"unguarded, a plain put: committed"_s, u"closed"_s};
    QTest::newRow("barrier-gate")
        << QStringLiteral(EXAMPLE_BARRIER_GATE) << QStringList()
        << QStringList {u"the coordinator set the barrier /example/barriers/gate"_s,
               u"3 workers wait at the gate"_s, u"the coordinator removes the barrier"_s,
               u"passed the gate"_s, u"all 3 workers passed the gate"_s, u"closed"_s};
    QTest::newRow("barrier-rendezvous")
        << QStringLiteral(EXAMPLE_BARRIER_RENDEZVOUS) << QStringList()
        << QStringList {u"4 workers meet at /example/barriers/rendezvous"_s, u"worker 4 arrives"_s,
               u"released"_s, u"all 4 workers arrived; released"_s, u"closed"_s};
    QTest::newRow("barrier-phases")
        << QStringLiteral(EXAMPLE_BARRIER_PHASES) << QStringList()
        << QStringList {u"3 workers run one phase together at /example/barriers/phases"_s,
               u"worker 3 enters"_s, u"all entered, works for"_s, u"is done and leaves"_s,
               u"goes on: all left"_s, u"all 3 workers entered together and left together: yes"_s,
               u"closed"_s};
    QTest::newRow("counter") << QStringLiteral(EXAMPLE_COUNTER) << QStringList()
                             << QStringList {u"4 workers increment /example/counter"_s,
                                    u"100 increments returned 100 distinct values"_s,
                                    u"counter = 100"_s, u"removed /example/counter"_s};
    QTest::newRow("countdownlatch")
        << QStringLiteral(EXAMPLE_COUNTDOWNLATCH) << QStringList()
        << QStringList {u"created /example/latch with count 3"_s,
               u"worker 1 counted down: 2 left"_s, u"opened (signal) at count 0"_s,
               u"await() on a worker thread returned true"_s, u"removed /example/latch"_s,
               u"closed"_s};
    QTest::newRow("liveconfig") << QStringLiteral(EXAMPLE_LIVECONFIG) << QStringList {u"1"_s}
                                << QStringList {u"watching /example/config/app from revision"_s,
                                       u"defaults: log level info, greeting \"hello\""_s,
                                       u"closed"_s};
    QTest::newRow("announce") << QStringLiteral(EXAMPLE_ANNOUNCE) << QStringList {u"2"_s}
                              << QStringList {u"registered /example/services/names/greeter/"_s,
                                     u"ready: enabled"_s,
                                     u"unregistered /example/services/names/greeter/"_s,
                                     u"closed"_s};
    QTest::newRow("choose") << QStringLiteral(EXAMPLE_CHOOSE) << QStringList {u"1"_s}
                            << QStringList {u"watching greeter under /example/services: 0"_s,
                                   u"no instance of greeter available"_s, u"closed"_s};
    QTest::newRow("fifo") << QStringLiteral(EXAMPLE_FIFO) << QStringList()
                          << QStringList {u"took \"first\""_s, u"took \"second\""_s,
                                 u"took \"third\""_s, u"FIFO order kept: yes"_s,
                                 u"took \"page the on-call\" (priority 0)"_s,
                                 u"took \"answer the customer\" (priority 0)"_s,
                                 u"took \"rebuild the index\" (priority 5)"_s,
                                 u"took \"tidy the logs\" (priority 9)"_s,
                                 u"priority order kept: yes"_s, u"closed"_s};
}

void tst_Examples::runs()
{
    QFETCH(QString, program);
    QFETCH(QStringList, extra);
    QFETCH(QStringList, expected);
    ChildProcess p;
    p.start(program, QStringList {m_server.clientUrl().toString()} + extra);
    QVERIFY(p.waitForFinished(20000));
    const QString output = QString::fromUtf8(p.readAllStandardOutput());
    QVERIFY2(p.exitCode() == 0, qPrintable(output + QString::fromUtf8(p.readAllStandardError())));
    qsizetype at = 0;
    for (const QString &line : expected) {
        at = output.indexOf(line, at);
        QVERIFY2(at >= 0, qPrintable(u"missing \"%1\" in:\n%2"_s.arg(line, output)));
    }
    verifyNoLeases();
    // The barrier examples leave no key behind either.
    EtcdRangeOptions under;
    under.prefix = true;
    under.countOnly = true;
    QTRY_COMPARE_WITH_TIMEOUT(
        await(m_client->get("/example/barriers/"_ba, under))->count(), qint64(0), 2000);
}

void tst_Examples::selfHealingClosesOnCtrlC()
{
    ChildProcess p;
    p.start(QStringLiteral(EXAMPLE_SELFHEALING), {m_server.clientUrl().toString()});
    QVERIFY(p.waitForStarted());
    QTRY_VERIFY_WITH_TIMEOUT(p.canReadLine(), 5000);
    QVERIFY(p.readLine().startsWith("key armed under lease"));
    QCOMPARE(await(m_client->get("/example/barrier"_ba))->keyValues().size(), 1);
    ::kill(pid_t(p.processId()), SIGINT);
    QVERIFY(p.waitForFinished(5000));
    QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
    QCOMPARE(await(m_client->get("/example/barrier"_ba))->keyValues().size(), 0);
    verifyNoLeases();
}

// The live configuration applies the value it found, then each change as it is made; a
// value that is no settings document is reported and changes nothing; a deletion brings the
// defaults back; Ctrl+C ends it.
void tst_Examples::liveConfigAppliesEachChange()
{
    const QByteArray key = "/example/config/app"_ba;
    auto put = [this, key](const QByteArray &value) {
        const auto r = await(m_client->put(key, value));
        return r.status.isOk() ? r->revision() : -1;
    };
    const qint64 initial = put(R"({"greeting":"hi"})"_ba);
    QVERIFY(initial > 0);
    Running config;
    config.process.start(QStringLiteral(EXAMPLE_LIVECONFIG), {m_server.clientUrl().toString()});
    const QString &output = config.output;
    const auto printed = [&config](const QString &line) { return config.find(line + u'\n') >= 0; };
    QVERIFY2(printed(u"applied revision %1: log level info, greeting \"hi\""_s.arg(initial)),
        qPrintable(output));
    const qint64 debug = put(R"({"logLevel":"debug","greeting":"hey"})"_ba);
    QVERIFY2(printed(u"applied revision %1: log level debug, greeting \"hey\""_s.arg(debug)),
        qPrintable(output));
    const qint64 broken = put("{not json"_ba);
    QVERIFY2(printed(u"rejected revision %1 (not a settings document: {not json); keeping log "
                     u"level debug"_s.arg(broken)),
        qPrintable(output));
    const qint64 unknown = put(R"({"logLevel":"loud"})"_ba);
    QVERIFY2(printed(u"rejected revision %1 (not a settings document: {\"logLevel\":\"loud\"}); "
                     u"keeping log level debug"_s.arg(unknown)),
        qPrintable(output));
    const auto removed = await(m_client->remove(key));
    QVERIFY_OK(removed.status);
    QVERIFY2(printed(u"deleted at revision %1, defaults: log level info, greeting \"hello\""_s.arg(
                 removed->revision())),
        qPrintable(output));
    QCOMPARE(config.stopWith(SIGINT), 0);
    QVERIFY2(output.endsWith(u"closed\n"_s), qPrintable(output));
    // Applying the debug level turned this category's debug output on, in that order.
    const QByteArray log = config.process.readAllStandardError();
    QVERIFY2(log.indexOf("hey") >= 0 && log.indexOf("debug logging is on") > log.indexOf("hey"),
        log.constData());
    QCOMPARE(log.count("debug logging is on"), 1);
}

// The two discovery examples together. The client calls the announced instance in turn
// with a broken one (written as another process would), which it ejects; the
// service's lease revoked behind its back heals with the latest JSON (enabled); SIGTERM
// unregisters it at once: the client sees it leave, and no key or lease is left.
void tst_Examples::chooseCallsTheAnnouncedInstance()
{
    const QByteArray names = "/example/services/names/greeter/"_ba;
    QTcpServer broken; // hangs up on every call without a word (and holds its port)
    QVERIFY(broken.listen(QHostAddress::LocalHost));
    connect(&broken, &QTcpServer::newConnection, &broken, [&broken] {
        while (QTcpSocket *call = broken.nextPendingConnection())
            call->abort();
    });
    EtcdServiceInstance dead = EtcdServiceInstance::create(u"greeter"_s);
    dead.address = u"127.0.0.1"_s;
    dead.port = broken.serverPort();
    QVERIFY_OK(await(m_client->put(names + dead.id.toUtf8(), dead.toJson())).status);

    const QString url = m_server.clientUrl().toString();
    Running announce;
    announce.process.start(QStringLiteral(EXAMPLE_ANNOUNCE), {url});
    QVERIFY2(announce.find(u"ready: enabled\n"_s) >= 0, qPrintable(announce.output));
    static const QRegularExpression registered(
        u"registered (\\S+/(\\S+)) at 127\\.0\\.0\\.1:\\d+ on lease ([0-9a-f]+)"_s);
    const QRegularExpressionMatch m = registered.match(announce.output);
    QVERIFY2(m.hasMatch(), qPrintable(announce.output));
    const QByteArray key = m.captured(1).toUtf8();
    const QString id = m.captured(2);
    QCOMPARE(key, names + id.toUtf8());
    QVERIFY_OK(await(m_client->revokeLease(m.captured(3).toLongLong(nullptr, 16))).status);
    QVERIFY2(announce.find(u"lease restored: %1 -> "_s.arg(m.captured(3))) >= 0,
        qPrintable(announce.output));

    Running choose;
    choose.process.start(QStringLiteral(EXAMPLE_CHOOSE), {url});
    QVERIFY2(
        choose.find(u"(greeter/%1): hello from %1\n"_s.arg(id)) >= 0, qPrintable(choose.output));
    const qsizetype ejected = choose.find(u"ejected greeter/%1 for 5 s\n"_s.arg(dead.id));
    QVERIFY2(ejected >= 0, qPrintable(choose.output));
    // Ejected: the next call goes to the instance that answers.
    const qsizetype next = choose.find(u"call "_s, ejected);
    const qsizetype end = next < 0 ? -1 : choose.find(u"\n"_s, next);
    QVERIFY2(end > 0
            && choose.output.mid(next, end - next)
                   .endsWith(u"(greeter/%1): hello from %1"_s.arg(id)),
        qPrintable(choose.output));

    const qsizetype stopped = choose.output.size();
    QCOMPARE(announce.stopWith(SIGTERM), 0);
    const QString unregistered = u"unregistered %1\nclosed\n"_s.arg(QString::fromUtf8(key));
    QVERIFY2(announce.output.endsWith(unregistered), qPrintable(announce.output));
    QCOMPARE(await(m_client->get(key))->keyValues().size(), 0);
    QVERIFY2(choose.find(u"left: greeter/%1\n"_s.arg(id), stopped) >= 0, qPrintable(choose.output));

    QCOMPARE(choose.stopWith(SIGINT), 0);
    QVERIFY2(choose.output.endsWith(u"closed\n"_s), qPrintable(choose.output));
    QVERIFY_OK(await(m_client->remove(names + dead.id.toUtf8())).status);
    verifyNoLeases();
}

// The worker pool: every good job's result was written exactly once, with its ack, by the
// delivery that did it (the second for a flaky job, whose first was requeued); each poison job
// was delivered 3 times (maxDeliveries), never a 4th, and is a dead letter with its count; the
// queue holds nothing else, and no consumer lease is left.
void tst_Examples::workerPoolDeadLettersThePoison()
{
    ChildProcess p;
    p.start(QStringLiteral(EXAMPLE_WORKERPOOL), {m_server.clientUrl().toString()});
    QVERIFY(p.waitForFinished(20000));
    const QString output = QString::fromUtf8(p.readAllStandardOutput());
    QVERIFY2(p.exitCode() == 0, qPrintable(output + QString::fromUtf8(p.readAllStandardError())));
    const QString problem = missingInOrder(output,
        {u"12 jobs on /example/queues/jobs: 10 good or flaky"_s, u"summary:"_s,
            u"dead letter: job-05 after 3 deliveries"_s,
            u"dead letter: job-10 after 3 deliveries"_s,
            u"10 of 10 jobs done, 2 of 2 poison jobs dead-lettered"_s,
            u"every good job done exactly once, every poison job in the DLQ: yes"_s, u"closed"_s});
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    for (const QString &poison : {u"job-05"_s, u"job-10"_s}) {
        for (int delivery = 1; delivery <= 3; ++delivery)
            QVERIFY2(output.contains(u"took %1 (delivery %2): poison"_s.arg(poison).arg(delivery)),
                qPrintable(output));
        QVERIFY2(!output.contains(u"took %1 (delivery 4)"_s.arg(poison)), qPrintable(output));
    }
    // A flaky job's requeue and its second delivery are told by different clients: the worker
    // that takes it again may print before the one that handed it back heard its answer (CI
    // rehearsal ci26). Each worker's own lines keep their order.
    for (const QString &flaky : {u"job-03"_s, u"job-07"_s, u"job-11"_s}) {
        QVERIFY2(output.contains(u"failed %1: requeued, its delivery count kept"_s.arg(flaky)),
            qPrintable(output));
        QVERIFY2(missingInOrder(output,
                     {u"took %1 (delivery 1)"_s.arg(flaky), u"took %1 (delivery 2)"_s.arg(flaky),
                         u"did %1: result and ack committed together"_s.arg(flaky)})
                     .isEmpty(),
            qPrintable(output));
    }

    // What etcd holds: the results, each written once; the dead letters; nothing in flight.
    const QByteArray queue = "/example/queues/jobs/"_ba;
    const QList<EtcdKeyValue> results = readPrefix("/example/queues/results/"_ba);
    QCOMPARE(results.size(), 10);
    for (const EtcdKeyValue &kv : results) {
        QCOMPARE(kv.version, qint64(1));
        const bool flaky
            = kv.key.endsWith("-03") || kv.key.endsWith("-07") || kv.key.endsWith("-11");
        QVERIFY2(kv.value.endsWith(flaky ? "on delivery 2" : "on delivery 1"),
            kv.key + " = " + kv.value);
    }
    const QList<EtcdKeyValue> dead = readPrefix(queue + "dlq/");
    QCOMPARE(dead.size(), 2);
    QCOMPARE(dead.at(0).value, "job-05 poison"_ba);
    QCOMPARE(dead.at(1).value, "job-10 poison"_ba);
    for (const EtcdKeyValue &kv : dead) {
        const QList<EtcdKeyValue> count
            = readPrefix(queue + "attempts/" + kv.key.mid(queue.size() + 4));
        QCOMPARE(count.size(), 1);
        QCOMPARE(Etcd::decodeInt32(count.first().value), 3);
    }
    for (const char *area : {"items/", "claimed/", "claims/", "delayed/"})
        QVERIFY2(readPrefix(queue + area).isEmpty(), area);
    QCOMPARE(readPrefix(queue + "attempts/").size(), 2); // the dead letters' counts only
    verifyNoLeases();
}

// etcd's own election: alpha leads, proclaims and resigns; beta, in line, leads next. The
// observer sees every leader and value in turn, and no candidate key or lease is left.
void tst_Examples::etcdElectionHandsOver()
{
    ChildProcess p;
    p.start(QStringLiteral(EXAMPLE_ETCDELECTION), {m_server.clientUrl().toString()});
    QVERIFY(p.waitForFinished(20000));
    const QString output = QString::fromUtf8(p.readAllStandardOutput());
    QVERIFY2(p.exitCode() == 0, qPrintable(output + QString::fromUtf8(p.readAllStandardError())));
    QString problem = missingInOrder(output,
        {u"observing /example/election/etcd; leader now: (nobody)"_s, u"alpha leads: key"_s,
            u"beta waits in line behind alpha"_s,
            u"alpha proclaimed \"alpha, proclaimed\": committed"_s, u"alpha resigns"_s,
            u"beta leads: fencing token"_s, u"closed"_s});
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    problem = missingInOrder(output,
        {u"observer: the leader is \"alpha\""_s, u"observer: the leader is \"alpha, proclaimed\""_s,
            u"observer: the leader is \"beta\""_s, u"observer: nobody leads"_s, u"closed"_s});
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    // Go's layout: <prefix>/<the campaign's lease id in lowercase hex>, here and to etcdctl.
    static const QRegularExpression alphaKey(
        u"alpha leads: key /example/election/etcd/([0-9a-f]+), fencing token (\\d+)"_s);
    static const QRegularExpression betaToken(u"beta leads: fencing token (\\d+)"_s);
    const QRegularExpressionMatch alpha = alphaKey.match(output);
    const QRegularExpressionMatch beta = betaToken.match(output);
    QVERIFY2(alpha.hasMatch() && beta.hasMatch(), qPrintable(output));
    QVERIFY(alpha.captured(1).toLongLong(nullptr, 16) > 0);
    QVERIFY(beta.captured(1).toLongLong() > alpha.captured(2).toLongLong());
    QVERIFY(readPrefix("/example/election/etcd/"_ba).isEmpty());
    verifyNoLeases();
}

// The Qt Quick job list, offscreen: it receives the jobs the test put and the one it
// enqueued itself, and holds each (a claim with its consumer id, on its lease). Closed by
// SIGTERM, it revokes that lease, so its jobs come back at once (its visibility timeout is
// 30 s, longer than any wait here) as their second delivery, to the test's consumer.
void tst_Examples::jobListHoldsAndHandsBack()
{
#ifndef EXAMPLE_JOB_LIST
    QSKIP("built without the Qt Quick examples (ETCDQT_BUILD_QML=OFF)");
#else
    const QByteArray path = "/example/qml/jobs"_ba;
    EtcdWorkQueue producer(m_client.get(), path);
    for (const QByteArray &job : {"resize cat.png"_ba, "resize dog.png"_ba})
        QVERIFY_OK(await(producer.enqueue(job)).status);
    const QString screenshot = QDir::temp().absoluteFilePath(
        u"job-list-%1.png"_s.arg(QCoreApplication::applicationPid()));
    QFile::remove(screenshot);

    ChildProcess window;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"QT_QPA_PLATFORM"_s, u"offscreen"_s);
    env.insert(u"QT_QUICK_BACKEND"_s, u"software"_s); // grabWindow() without a GPU
    window.setProcessEnvironment(env);
    window.start(QStringLiteral(EXAMPLE_JOB_LIST),
        {u"--endpoint"_s, m_server.clientUrl().toString(), u"--path"_s, QString::fromUtf8(path),
            u"--id"_s, u"job-list-test"_s, u"--visibility-ms"_s, u"30000"_s, u"--enqueue"_s,
            u"from the window"_s, u"--screenshot"_s, screenshot});
    QVERIFY(window.waitForStarted(5000));
    QString log; // its QML logs on stderr
    const auto logged = [&](const QString &line) {
        return QTest::qWaitFor(
            [&] {
                log += QString::fromUtf8(window.readAllStandardError());
                return log.contains(line);
            },
            10000);
    };
    QVERIFY2(logged(u"enqueued: from the window true"_s), qPrintable(log));
    for (const QString &job : {u"resize cat.png"_s, u"resize dog.png"_s, u"from the window"_s})
        QVERIFY2(logged(job + u" attempt: 1"_s), qPrintable(log));
    QVERIFY2(logged(u"held: 3"_s), qPrintable(log));

    // Held: three claims with its id, all on one lease, the window's.
    const QList<EtcdKeyValue> claims = readPrefix(path + "/claims/");
    QCOMPARE(claims.size(), 3);
    for (const EtcdKeyValue &claim : claims) {
        QCOMPARE(claim.value, "job-list-test"_ba);
        QVERIFY(claim.lease != 0);
        QCOMPARE(claim.lease, claims.first().lease);
    }

    ::kill(pid_t(window.processId()), SIGTERM);
    QVERIFY(window.waitForFinished(10000));
    QCOMPARE(window.exitStatus(), QProcess::NormalExit);
    QCOMPARE(window.exitCode(), 0);
    QVERIFY(QFileInfo(screenshot).size() > 0);
    QFile::remove(screenshot);
    QTRY_VERIFY_WITH_TIMEOUT(readPrefix(path + "/claims/").isEmpty(), 10000); // revoked

    // Back, each as its second delivery: this consumer's receive sweeps the orphans in.
    EtcdWorkQueue consumer(m_client.get(), path);
    QStringList again;
    for (int i = 0; i < 3; ++i) {
        const auto delivered = await(consumer.receive());
        QVERIFY_OK(delivered.status);
        QCOMPARE(delivered->item().attempt, 2);
        again << QString::fromUtf8(delivered->item().value);
        const auto acked = await(consumer.ack(delivered->item()));
        QVERIFY_OK(acked.status);
        QVERIFY(acked->result());
    }
    again.sort();
    QCOMPARE(again, (QStringList {u"from the window"_s, u"resize cat.png"_s, u"resize dog.png"_s}));
    QVERIFY(readPrefix(path + "/").isEmpty()); // acknowledged: nothing of them is left
    QSignalSpy closed(&consumer, &EtcdRecipe::closed);
    consumer.close();
    QVERIFY(closed.wait(10000));
    verifyNoLeases();
#endif
}

QTEST_GUILESS_MAIN(tst_Examples)
#include "tst_examples.moc"
