// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// etcdqt work enqueue|receive|ack|dlq|size, run as processes against a real etcd: a receive
// that acknowledges; a consumer SIGKILLed while it holds an item, whose item is delivered
// again (attempt 2) once etcd expires its lease, not before and not long after; deliveries
// without an ack ending in the dead letters, requeued and purged from there; an ack by id
// from another process; bad input refused with one line.
#include "clitestutil.h"
#include "leaseledger.h"
#include "testutil.h"

#include <etcdtestserver.h>

#include <QtCore/qelapsedtimer.h>
#include <QtCore/qjsonarray.h>
#include <QtCore/qjsonobject.h>
#include <QtCore/qrandom.h>

#include <csignal>
#include <memory>

using namespace Qt::StringLiterals;
using namespace CliTest;

namespace {
// What a process start and etcd's first answer may take on a loaded 2-core machine.
constexpr int kStartupMs = 3000;
// The consumers' visibility timeout (their lease's TTL), and etcd's expiry granularity.
constexpr int kVisibilityS = 2;
constexpr int kExpiryLoopMs = 500;
constexpr int kTimedOutExitCode = 2; // the tool's exit code for a wait that timed out
} // namespace

class tst_EtcdqtCliWork : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void receiveAcknowledges();
    void killedConsumersItemIsDeliveredAgain();
    void unacknowledgedDeliveriesEndInTheDeadLetters();
    void ackByIdFromAnotherProcess();
    void refusesBadInput();

private:
    [[nodiscard]] QStringList cli(const QStringList &args) const
    {
        return QStringList {u"--endpoints"_s, m_server.clientUrl().toString(), u"work"_s} + args;
    }
    static QString freshPath()
    {
        return u"/cli-work-"_s + QString::number(QRandomGenerator::global()->generate(), 16);
    }
    [[nodiscard]] qint64 sizeOf(const QString &path) const
    {
        const Run r = runCli(cli({u"size"_s, path}));
        return r.exitCode == 0 && r.lines.size() == 1
            ? r.lines.first().value(u"size"_s).toInteger(-1)
            : -1;
    }
    // A consumer that holds what it receives until it is killed.
    [[nodiscard]] std::unique_ptr<Tool> holder(const QString &path) const
    {
        return std::make_unique<Tool>(cli({u"receive"_s, path, u"--visibility-s"_s,
            QString::number(kVisibilityS), u"--hold-ms"_s, u"-1"_s}));
    }

    EtcdTestServer m_server;
    LeaseLedger m_leases; // issue 22 item 7: no test leaves a lease
};

void tst_EtcdqtCliWork::initTestCase()
{
    ETCDQT_START_OR_SKIP(m_server);
}

void tst_EtcdqtCliWork::init()
{
    m_leases.begin(m_server);
}

void tst_EtcdqtCliWork::cleanup()
{
    VERIFY_NO_LEASE_LEFT(m_leases);
}

void tst_EtcdqtCliWork::receiveAcknowledges()
{
    const QString path = freshPath();
    for (const QString &job : {u"one"_s, u"two"_s}) {
        const Run r = runCli(cli({u"enqueue"_s, path, job}));
        QVERIFY2(r.exitCode == 0, r.log.constData());
        QCOMPARE(r.lines, (QList<QJsonObject> {{{u"enqueued"_s, true}, {u"path"_s, path}}}));
    }
    QCOMPARE(sizeOf(path), 2);
    const Run r = runCli(cli({u"receive"_s, path, u"--ack"_s}));
    QVERIFY2(r.exitCode == 0, r.log.constData());
    QCOMPARE(r.lines.size(), 2);
    QCOMPARE(r.lines.at(0).value(u"value"_s).toString(), u"one"_s);
    QCOMPARE(r.lines.at(0).value(u"attempt"_s).toInt(), 1);
    QVERIFY(r.lines.at(0).value(u"claimRevision"_s).toInteger() > 0);
    QCOMPARE(r.lines.at(1), (QJsonObject {{u"acked"_s, true}}));
    QCOMPARE(sizeOf(path), 1);
}

// The holder's claim lives on its lease: SIGKILL stops the renewals, and the item comes back
// once etcd expired the lease: after at least two thirds of the TTL (renewed every third),
// within the TTL plus etcd's expiry loop plus a process start.
void tst_EtcdqtCliWork::killedConsumersItemIsDeliveredAgain()
{
    const QString path = freshPath();
    QCOMPARE(runCli(cli({u"enqueue"_s, path, u"job"_s})).exitCode, 0);
    auto first = holder(path);
    QTRY_COMPARE_WITH_TIMEOUT(first->lines.size(), 1, kStartupMs + kTtlMs);
    const QJsonObject held = first->lines.first().json;
    QCOMPARE(held.value(u"attempt"_s).toInt(), 1);

    QElapsedTimer sinceKill;
    first->process.kill();
    sinceKill.start();
    const int bound = kVisibilityS * 1000 + kExpiryLoopMs + kStartupMs;
    const Run again
        = runCli(cli({u"receive"_s, path, u"--ack"_s, u"--timeout-ms"_s, QString::number(bound)}));
    const qint64 after = sinceKill.elapsed();
    QVERIFY2(again.exitCode == 0, again.log.constData());
    QCOMPARE(again.lines.first().value(u"id"_s), held.value(u"id"_s));
    QCOMPARE(again.lines.first().value(u"attempt"_s).toInt(), 2);
    QVERIFY2(after >= kVisibilityS * 1000 * 2 / 3, qPrintable(u"after %1 ms"_s.arg(after)));
    QCOMPARE(sizeOf(path), 0);
}

// A receive that exits without an ack revokes its lease: its delivery counts and the item is
// an orphan at once. With --max-deliveries 2 the third receive moves it to the dead letters
// (and finds nothing to deliver); requeued from there it is delivered again as attempt 1.
void tst_EtcdqtCliWork::unacknowledgedDeliveriesEndInTheDeadLetters()
{
    const QString path = freshPath();
    QCOMPARE(runCli(cli({u"enqueue"_s, path, u"poison"_s})).exitCode, 0);
    const QStringList receive {u"receive"_s, path, u"--max-deliveries"_s, u"2"_s, u"--timeout-ms"_s,
        QString::number(kTtlMs)};
    QString id;
    for (int attempt = 1; attempt <= 2; ++attempt) {
        const Run r = runCli(cli(receive + QStringList {u"--hold-ms"_s, u"0"_s}));
        QVERIFY2(r.exitCode == 0, r.log.constData());
        QCOMPARE(r.lines.first().value(u"attempt"_s).toInt(), attempt);
        id = r.lines.first().value(u"id"_s).toString();
    }
    const Run none = runCli(cli(receive));
    QVERIFY2(none.exitCode == kTimedOutExitCode, none.log.constData());
    QVERIFY(none.lines.isEmpty());

    const Run dlq = runCli(cli({u"dlq"_s, path}));
    QVERIFY2(dlq.exitCode == 0, dlq.log.constData());
    const QJsonArray letters = dlq.lines.first().value(u"deadLetters"_s).toArray();
    QCOMPARE(letters.size(), 1);
    QCOMPARE(letters.first().toObject().value(u"id"_s).toString(), id);
    QCOMPARE(letters.first().toObject().value(u"attempts"_s).toInt(), 2);
    QCOMPARE(letters.first().toObject().value(u"value"_s).toString(), u"poison"_s);

    QCOMPARE(runCli(cli({u"dlq"_s, path, u"--requeue"_s, id})).lines,
        (QList<QJsonObject> {{{u"requeued"_s, true}}}));
    const Run back = runCli(cli({u"receive"_s, path, u"--hold-ms"_s, u"0"_s}));
    QCOMPARE(back.lines.first().value(u"attempt"_s).toInt(), 1);
    QCOMPARE(runCli(cli({u"dlq"_s, path, u"--purge"_s, id})).lines,
        (QList<QJsonObject> {{{u"purged"_s, false}}}));
}

// Another process acknowledges the holder's delivery by id (through the claim it reads);
// the second ack finds no claim.
void tst_EtcdqtCliWork::ackByIdFromAnotherProcess()
{
    const QString path = freshPath();
    QCOMPARE(runCli(cli({u"enqueue"_s, path, u"job"_s})).exitCode, 0);
    auto h = holder(path);
    QTRY_COMPARE_WITH_TIMEOUT(h->lines.size(), 1, kStartupMs + kTtlMs);
    const QString id = h->lines.first().json.value(u"id"_s).toString();
    const Run ack = runCli(cli({u"ack"_s, path, id}));
    QVERIFY2(ack.exitCode == 0, ack.log.constData());
    QCOMPARE(ack.lines, (QList<QJsonObject> {{{u"acked"_s, true}}}));
    const Run twice = runCli(cli({u"ack"_s, path, id}));
    QCOMPARE(twice.exitCode, 1);
    h->sendSignal(SIGTERM);
    QVERIFY2(h->ends(kTtlMs), h->transcript().constData());
    QCOMPARE(sizeOf(path), 0);
    QCOMPARE(runCli(cli({u"receive"_s, path, u"--timeout-ms"_s, u"300"_s})).exitCode,
        kTimedOutExitCode); // acknowledged: never delivered again
}

void tst_EtcdqtCliWork::refusesBadInput()
{
    const QList<QStringList> cases {{}, {u"nope"_s}, {u"enqueue"_s, u"/q"_s},
        {u"enqueue"_s, u""_s, u"v"_s}, {u"enqueue"_s, u"/q"_s, u"v"_s, u"--delay-ms"_s, u"-1"_s},
        {u"receive"_s}, {u"receive"_s, u"/q"_s, u"--visibility-s"_s, u"0"_s},
        {u"receive"_s, u"/q"_s, u"--hold-ms"_s, u"-2"_s},
        {u"receive"_s, u"/q"_s, u"--timeout-ms"_s, u"0"_s},
        {u"receive"_s, u"/q"_s, u"--max-deliveries"_s, u"0"_s}, {u"ack"_s, u"/q"_s},
        {u"dlq"_s, u"/q"_s, u"--requeue"_s}, {u"size"_s, u"/q"_s, u"--bogus"_s}};
    QList<QStringList> runs;
    for (const QStringList &c : cases)
        runs.append(cli(c));
    const QList<Run> results = runAll(runs);
    for (qsizetype i = 0; i < cases.size(); ++i) {
        const Run &r = results.at(i);
        QVERIFY2(r.exitCode == 1, qPrintable(cases.at(i).join(u' ')));
        QVERIFY2(r.lines.isEmpty(), qPrintable(cases.at(i).join(u' ')));
        QVERIFY2(r.log.trimmed().count('\n') == 0 && !r.log.isEmpty(),
            qPrintable(cases.at(i).join(u' ') + u": "_s + QString::fromUtf8(r.log)));
    }
}

QTEST_GUILESS_MAIN(tst_EtcdqtCliWork)
#include "tst_etcdqtcli_work.moc"
