// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// etcdqt queue put|take|size, run as processes against a real etcd: FIFO and priority order,
// a take that waits for a put from another process, a take that times out or is ended by
// SIGTERM without taking anything, the library and the tool reading each other's items, bad
// input refused with one line, an unreachable etcd. A waiting take is seen in etcd itself:
// it watches the queue once it found it empty (etcd_debugging_mvcc_watcher_total).
#include "clitestutil.h"
#include "leaseledger.h"
#include "testutil.h"

#include <EtcdQt/etcdpriorityqueue.h>
#include <EtcdQt/etcdqueue.h>
#include <EtcdQt/etcdqueueitemreply.h>

#include <etcdtestserver.h>

#include <QtCore/qelapsedtimer.h>
#include <QtCore/qjsonobject.h>
#include <QtCore/qrandom.h>

#include <csignal>
#include <memory>

using namespace Qt::StringLiterals;
using namespace CliTest;

namespace {
// What a process start and etcd's first answer may take on a loaded 2-core machine, on top of
// the wait a test asks the tool for: the bound of a wait that must end by itself.
constexpr int kStartupMs = 3000;
// makeClient()'s call deadline: an unreachable etcd is reported by then at the latest.
constexpr int kCallDeadlineMs = 5000;
} // namespace

class tst_EtcdqtCliQueue : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void putThenTakeIsFifo();
    void sizeCountsItems();
    void priorityTakeIsByPriority();
    void takeTimesOutWithNothingPrinted();
    void waitingTakeGetsAPutFromAnotherProcess();
    void twoWaitingTakesGetOneItemEach();
    void sigtermEndsAWaitingTakeWithoutTaking();
    void libraryAndToolReadEachOther();
    void refusesBadInput();
    void unreachableEtcdFails();

private:
    [[nodiscard]] QStringList cli(const QStringList &args) const
    {
        return QStringList {u"--endpoints"_s, m_server.clientUrl().toString(), u"queue"_s} + args;
    }
    // A queue of its own per test (and per repeat): no test sees another's items.
    static QString freshPath()
    {
        return u"/cli-queue-"_s + QString::number(QRandomGenerator::global()->generate(), 16);
    }
    // Watches open in etcd: a parked take has one, on its queue.
    [[nodiscard]] double watchers() const
    {
        return etcdMetric(m_server.clientUrl(), "etcd_debugging_mvcc_watcher_total");
    }
    // The value a finished `queue take` printed; a marker saying why when it did not.
    static QString takenValue(const Run &r)
    {
        if (r.exitCode != 0 || r.lines.size() != 1)
            return u"(exit %1: %2)"_s.arg(r.exitCode).arg(QString::fromUtf8(r.log));
        return r.lines.first().value(u"value"_s).toString(u"(no value)"_s);
    }
    [[nodiscard]] qint64 sizeOf(const QString &path, bool priority = false) const
    {
        QStringList args {u"size"_s, path};
        if (priority)
            args.append(u"--priority"_s);
        const Run r = runCli(cli(args));
        return r.exitCode == 0 && r.lines.size() == 1
            ? r.lines.first().value(u"size"_s).toInteger(-1)
            : -1;
    }

    EtcdTestServer m_server;
    LeaseLedger m_leases; // issue 22 item 7: no test leaves a lease
    std::unique_ptr<EtcdClient> m_client;
};

void tst_EtcdqtCliQueue::initTestCase()
{
    ETCDQT_START_OR_SKIP(m_server);
    m_client = connectedClient(m_server.clientUrl());
}

void tst_EtcdqtCliQueue::init()
{
    m_leases.begin(m_server);
}

void tst_EtcdqtCliQueue::cleanup()
{
    VERIFY_NO_LEASE_LEFT(m_leases);
}

void tst_EtcdqtCliQueue::putThenTakeIsFifo()
{
    const QString path = freshPath();
    for (const QString &value : {u"first"_s, u"second"_s, u"third"_s}) {
        const Run r = runCli(cli({u"put"_s, path, value}));
        QVERIFY2(r.exitCode == 0, r.log.constData());
        QCOMPARE(r.lines, (QList<QJsonObject> {{{u"enqueued"_s, true}, {u"path"_s, path}}}));
    }
    QStringList taken;
    for (int i = 0; i < 3; ++i)
        taken.append(takenValue(runCli(cli({u"take"_s, path}))));
    QCOMPARE(taken, (QStringList {u"first"_s, u"second"_s, u"third"_s}));
    QCOMPARE(sizeOf(path), 0);
}

void tst_EtcdqtCliQueue::sizeCountsItems()
{
    const QString path = freshPath();
    QCOMPARE(sizeOf(path), 0); // a queue nobody put into is empty, not an error
    for (int i = 0; i < 4; ++i)
        QCOMPARE(runCli(cli({u"put"_s, path, QString::number(i)})).exitCode, 0);
    QCOMPARE(sizeOf(path), 4);
    QCOMPARE(takenValue(runCli(cli({u"take"_s, path}))), u"0"_s);
    QCOMPARE(sizeOf(path), 3);
    // etcd agrees: the items are the keys under <path>/.
    EtcdRangeOptions o;
    o.prefix = true;
    o.countOnly = true;
    const auto read = await(m_client->get((path + u'/').toUtf8(), o));
    QVERIFY_OK(read.status);
    QCOMPARE(read->count(), 3);
}

// Lower numbers first, the order of puts among equal priorities; the ends of the range too.
void tst_EtcdqtCliQueue::priorityTakeIsByPriority()
{
    const QString path = freshPath();
    const QList<std::pair<QString, int>> puts {
        {u"five"_s, 5}, {u"one"_s, 1}, {u"last"_s, 65535}, {u"zero"_s, 0}, {u"one-again"_s, 1}};
    for (const auto &[value, priority] : puts) {
        const Run r
            = runCli(cli({u"put"_s, path, value, u"--priority"_s, QString::number(priority)}));
        QVERIFY2(r.exitCode == 0, r.log.constData());
        QCOMPARE(r.lines,
            (QList<QJsonObject> {
                {{u"enqueued"_s, true}, {u"path"_s, path}, {u"priority"_s, priority}}}));
    }
    QCOMPARE(sizeOf(path, true), 5);
    QStringList taken;
    for (qsizetype i = 0; i < puts.size(); ++i)
        taken.append(takenValue(runCli(cli({u"take"_s, path, u"--priority"_s}))));
    QCOMPARE(taken, (QStringList {u"zero"_s, u"one"_s, u"one-again"_s, u"five"_s, u"last"_s}));
    QCOMPARE(sizeOf(path, true), 0);
}

void tst_EtcdqtCliQueue::takeTimesOutWithNothingPrinted()
{
    const QString path = freshPath();
    constexpr int timeoutMs = 300;
    for (const bool priority : {false, true}) {
        QStringList args {u"take"_s, path, u"--timeout-ms"_s, QString::number(timeoutMs)};
        if (priority)
            args.append(u"--priority"_s);
        QElapsedTimer waited;
        waited.start();
        const Run r = runCli(cli(args), timeoutMs + kStartupMs);
        const qint64 elapsed = waited.elapsed();
        qInfo("take --timeout-ms %d%s ended after %lld ms", timeoutMs,
            priority ? " --priority" : "", elapsed);
        QVERIFY2(r.exitCode == 2, r.log.constData());
        QVERIFY(r.lines.isEmpty());
        QVERIFY2(elapsed >= timeoutMs, qPrintable(QString::number(elapsed)));
        QVERIFY2(elapsed <= timeoutMs + kStartupMs, qPrintable(QString::number(elapsed)));
    }
    // A queue with an item answers at once, however long the timeout.
    QCOMPARE(runCli(cli({u"put"_s, path, u"there"_s})).exitCode, 0);
    QElapsedTimer waited;
    waited.start();
    const Run r = runCli(cli({u"take"_s, path, u"--timeout-ms"_s, u"60000"_s}));
    QCOMPARE(takenValue(r), u"there"_s);
    QVERIFY2(waited.elapsed() <= kStartupMs, qPrintable(QString::number(waited.elapsed())));
}

// Started first, the take parks on a watch; a put from another process ends it.
void tst_EtcdqtCliQueue::waitingTakeGetsAPutFromAnotherProcess()
{
    const QString path = freshPath();
    QTRY_COMPARE_WITH_TIMEOUT(watchers(), 0.0, 2 * kTtlMs);
    Tool take(cli({u"take"_s, path}));
    QTRY_COMPARE_WITH_TIMEOUT(watchers(), 1.0, kStartupMs);
    QVERIFY2(take.lines.isEmpty(), take.transcript().constData());
    QCOMPARE(take.process.state(), QProcess::Running);

    QCOMPARE(runCli(cli({u"put"_s, path, u"for the waiter"_s})).exitCode, 0);
    QVERIFY2(take.exitsWith(0, 2 * kTtlMs), take.transcript().constData());
    QCOMPARE(take.lines.size(), 1);
    QCOMPARE(take.lines.first().json, (QJsonObject {{u"value"_s, u"for the waiter"_s}}));
    QCOMPARE(sizeOf(path), 0);
    QTRY_COMPARE_WITH_TIMEOUT(watchers(), 0.0, 2 * kTtlMs);
}

// Two processes wait on one queue; two puts: each item goes to exactly one of them.
void tst_EtcdqtCliQueue::twoWaitingTakesGetOneItemEach()
{
    const QString path = freshPath();
    QTRY_COMPARE_WITH_TIMEOUT(watchers(), 0.0, 2 * kTtlMs);
    Tool a(cli({u"take"_s, path}));
    Tool b(cli({u"take"_s, path}));
    QTRY_COMPARE_WITH_TIMEOUT(watchers(), 2.0, kStartupMs);
    QCOMPARE(runCli(cli({u"put"_s, path, u"x"_s})).exitCode, 0);
    QCOMPARE(runCli(cli({u"put"_s, path, u"y"_s})).exitCode, 0);
    QVERIFY2(a.exitsWith(0, 2 * kTtlMs), a.transcript().constData());
    QVERIFY2(b.exitsWith(0, 2 * kTtlMs), b.transcript().constData());
    QCOMPARE(a.lines.size(), 1);
    QCOMPARE(b.lines.size(), 1);
    QStringList got {a.lines.first().json.value(u"value"_s).toString(),
        b.lines.first().json.value(u"value"_s).toString()};
    got.sort();
    QCOMPARE(got, (QStringList {u"x"_s, u"y"_s}));
    QCOMPARE(sizeOf(path), 0);
}

// SIGTERM cancels the parked take: exit 128+15, nothing printed, its watch gone; an item put
// afterwards stays in the queue (a take left behind in etcd or the process would eat it).
void tst_EtcdqtCliQueue::sigtermEndsAWaitingTakeWithoutTaking()
{
    for (const bool priority : {false, true}) {
        const QString path = freshPath();
        QTRY_COMPARE_WITH_TIMEOUT(watchers(), 0.0, 2 * kTtlMs);
        QStringList args {u"take"_s, path};
        if (priority)
            args.append(u"--priority"_s);
        Tool take(cli(args));
        QTRY_COMPARE_WITH_TIMEOUT(watchers(), 1.0, kStartupMs);
        take.sendSignal(SIGTERM);
        QVERIFY2(take.exitsWith(128 + SIGTERM, kTtlMs), take.transcript().constData());
        QVERIFY2(take.lines.isEmpty(), take.transcript().constData());
        QTRY_COMPARE_WITH_TIMEOUT(watchers(), 0.0, 2 * kTtlMs);

        QStringList put {u"put"_s, path, u"kept"_s};
        if (priority)
            put += QStringList {u"--priority"_s, u"7"_s};
        QCOMPARE(runCli(cli(put)).exitCode, 0);
        QCOMPARE(sizeOf(path, priority), 1);
    }
}

// The tool speaks the library's layouts: each takes what the other put, bytes that are not
// UTF-8 come out as hex.
void tst_EtcdqtCliQueue::libraryAndToolReadEachOther()
{
    const QString path = freshPath();
    EtcdQueue fifo(m_client.get(), path.toUtf8());
    const QByteArray binary("\xff\x00\x01q", 4);
    QVERIFY_OK(await(fifo.enqueue(binary)).status);
    QVERIFY_OK(await(fifo.enqueue("text")).status);
    Run r = runCli(cli({u"take"_s, path}));
    QVERIFY2(r.exitCode == 0, r.log.constData());
    QCOMPARE(r.lines, (QList<QJsonObject> {{{u"valueHex"_s, u"ff000171"_s}}}));
    QCOMPARE(takenValue(runCli(cli({u"take"_s, path}))), u"text"_s);

    QCOMPARE(runCli(cli({u"put"_s, path, u"from the tool"_s})).exitCode, 0);
    const auto item = await(fifo.tryDequeue());
    QVERIFY_OK(item.status);
    QVERIFY(item->found());
    QCOMPARE(item->value(), "from the tool"_ba);

    const QString ranked = freshPath();
    EtcdPriorityQueue priorities(m_client.get(), ranked.toUtf8());
    QVERIFY_OK(await(priorities.enqueue("library at 9", 9)).status);
    QCOMPARE(runCli(cli({u"put"_s, ranked, u"tool at 3"_s, u"--priority"_s, u"3"_s})).exitCode, 0);
    const auto head = await(priorities.tryDequeue());
    QVERIFY_OK(head.status);
    QCOMPARE(head->value(), "tool at 3"_ba);
    QCOMPARE(takenValue(runCli(cli({u"take"_s, ranked, u"--priority"_s}))), u"library at 9"_s);
    fifo.close();
    priorities.close();
}

void tst_EtcdqtCliQueue::refusesBadInput()
{
    const QString p = u"/q"_s;
    const QList<QStringList> cases {{u"queue"_s}, {u"queue"_s, u"frob"_s, p},
        {u"queue"_s, u"put"_s}, {u"queue"_s, u"put"_s, p}, {u"queue"_s, u"put"_s, u""_s, u"v"_s},
        {u"queue"_s, u"put"_s, p, u"v"_s, u"extra"_s},
        {u"queue"_s, u"put"_s, p, u"v"_s, u"--frob"_s},
        {u"queue"_s, u"put"_s, p, u"v"_s, u"--priority"_s},
        {u"queue"_s, u"put"_s, p, u"v"_s, u"--priority"_s, u"-1"_s},
        {u"queue"_s, u"put"_s, p, u"v"_s, u"--priority"_s, u"65536"_s},
        {u"queue"_s, u"put"_s, p, u"v"_s, u"--priority"_s, u"high"_s}, {u"queue"_s, u"take"_s},
        {u"queue"_s, u"take"_s, u""_s}, {u"queue"_s, u"take"_s, p, p},
        {u"queue"_s, u"take"_s, p, u"--frob"_s}, {u"queue"_s, u"take"_s, p, u"--timeout-ms"_s},
        {u"queue"_s, u"take"_s, p, u"--timeout-ms"_s, u"0"_s},
        {u"queue"_s, u"take"_s, p, u"--timeout-ms"_s, u"-5"_s},
        {u"queue"_s, u"take"_s, p, u"--timeout-ms"_s, u"soon"_s},
        {u"queue"_s, u"take"_s, p, u"--priority"_s, u"3"_s}, {u"queue"_s, u"size"_s},
        {u"queue"_s, u"size"_s, u""_s}, {u"queue"_s, u"size"_s, p, p},
        {u"queue"_s, u"size"_s, p, u"--frob"_s}};
    QList<QStringList> withEndpoint;
    for (const QStringList &c : cases)
        withEndpoint.append(QStringList {u"--endpoints"_s, m_server.clientUrl().toString()} + c);
    const QStringList wrong = notRefusedWithOneLine(withEndpoint);
    QVERIFY2(wrong.isEmpty(), qPrintable(wrong.join(u"; "_s)));
    QCOMPARE(sizeOf(p), 0); // nothing was put on the way
}

// Every command fails with one line within the call deadline (and a start), a take with a
// long timeout too: an unreachable etcd is an error, not a wait.
void tst_EtcdqtCliQueue::unreachableEtcdFails()
{
    const quint16 port = EtcdTestServer::freePorts(1).first();
    QList<QStringList> cases;
    for (const QStringList &command : QList<QStringList> {{u"put"_s, u"/q"_s, u"v"_s},
             {u"put"_s, u"/q"_s, u"v"_s, u"--priority"_s, u"2"_s}, {u"take"_s, u"/q"_s},
             {u"take"_s, u"/q"_s, u"--timeout-ms"_s, u"60000"_s},
             {u"take"_s, u"/q"_s, u"--priority"_s}, {u"size"_s, u"/q"_s}})
        cases.append(
            QStringList {u"--endpoints"_s, u"127.0.0.1:%1"_s.arg(port), u"queue"_s} + command);
    QElapsedTimer waited;
    waited.start();
    const QList<Run> runs = runAll(cases, kCallDeadlineMs + kStartupMs);
    QStringList wrong;
    for (qsizetype i = 0; i < cases.size(); ++i) {
        if (!isOneLineRefusal(runs.at(i)))
            wrong.append(cases.at(i).join(u' ') + u" -> exit %1: "_s.arg(runs.at(i).exitCode)
                + QString::fromUtf8(runs.at(i).log.trimmed()));
    }
    QVERIFY2(wrong.isEmpty(), qPrintable(wrong.join(u"; "_s)));
    qInfo("all failed within %lld ms", waited.elapsed());
    QVERIFY(waited.elapsed() <= kCallDeadlineMs + kStartupMs);
}

QTEST_GUILESS_MAIN(tst_EtcdqtCliQueue)
#include "tst_etcdqtcli_queue.moc"
