// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// Jepsen-style: four `etcdqt incr` processes count on one etcd key under one lock, each with a
// 2 s TTL, while one of them is paused (SIGSTOP) past its TTL as it holds the lock, and another,
// which reaches etcd through a FaultProxy, is cut off past its TTL as it holds the lock. A watch
// records every write to the counter. Fenced, nothing is lost or doubled: the counter ends at
// the sum of the writes the processes saw committed, and its history is 1, 2, 3, ... Unfenced,
// the same faults lose increments: a holder that etcd gave up on still writes.
#include "leaseledger.h"
#include "testutil.h"

#include <etcdtestserver.h>

#include <QtCore/qdeadlinetimer.h>
#include <QtCore/qelapsedtimer.h>
#include <QtCore/qjsondocument.h>
#include <QtCore/qjsonobject.h>
#include <QtCore/qprocess.h>
#include <QtCore/qrandom.h>
#include <QtCore/qscopeguard.h>
#include <QtCore/qthread.h>

#include <array>
#include <csignal>

using namespace Qt::StringLiterals;

namespace {
constexpr int kTtlS = 2;
constexpr int kTtlMs = kTtlS * 1000;
// Longer than a holder that makes progress keeps its key at the head of the queue, on a loaded
// machine (a cycle takes milliseconds): a head that stays put this long is stuck.
constexpr int kStuckMs = kTtlMs / 20;
// etcd expires a lease up to a TTL after its last renewal, checking twice a second.
constexpr int kExpiryMs = kTtlMs + 1000;
constexpr int kProcesses = 4;
constexpr int kCutOff = 0; // the process behind the FaultProxy
constexpr int kPaused = 1; // the process paused with SIGSTOP

struct Paths
{
    QByteArray lock;
    QByteArray counter;
};

// One `etcdqt incr` process. --count is only an upper bound: the test ends every run with
// SIGTERM once its faults are over, and the command finishes its cycle and prints its summary.
struct Incr
{
    ~Incr()
    {
        if (process.state() != QProcess::NotRunning) {
            process.kill();
            process.waitForFinished();
        }
    }
    void sendSignal(int signal) const { ::kill(pid_t(process.processId()), signal); }
    [[nodiscard]] qint64 count(const QString &name) const
    {
        return summary.value(name).toInteger(-1);
    }

    QProcess process;
    QJsonObject summary;
    QByteArray log; // stderr
};

struct Run
{
    bool fenced = true;
    qint64 finalValue = 0;
    qint64 succeeded = 0; // over all processes
    qint64 unknown = 0;
    QList<qint64> history; // the counter's value after every write, in etcd's order
    QStringList summaries;
    QStringList pauses; // per pause that hit a hold
    QString cutOff;

    // Writes that did not set the previous value plus one.
    [[nodiscard]] int anomalies() const
    {
        int n = 0;
        for (qsizetype i = 0; i < history.size(); ++i)
            n += history.at(i) != (i == 0 ? 0 : history.at(i - 1)) + 1;
        return n;
    }
    // Writes that set a value no greater than the one before: stale read, newer count undone.
    [[nodiscard]] int staleWrites() const
    {
        int n = 0;
        for (qsizetype i = 1; i < history.size(); ++i)
            n += history.at(i) <= history.at(i - 1);
        return n;
    }
    [[nodiscard]] QString describe() const
    {
        return u"%1: final %2, sum of succeeded %3 (unknown %4), %5 writes, %6 not previous+1 "
               "(%7 stale); paused %8; cut off %9; per process: %10"_s
                   .arg(fenced ? u"fenced"_s : u"unfenced"_s)
                   .arg(finalValue)
                   .arg(succeeded)
                   .arg(unknown)
                   .arg(history.size())
                   .arg(anomalies())
                   .arg(staleWrites())
                   .arg(pauses.join(u", "_s), cutOff, summaries.join(u", "_s));
    }
};
} // namespace

class tst_EtcdLockJepsen : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void fencedLosesNothingUnderPauseAndPartition();
    void unfencedLosesIncrementsUnderTheSameFaults();

private:
    void run(Run &result, const QString &name, int morePausesUntilStale = 0);
    void pauseWhileHolding(Incr &incr, const Paths &paths, Run &result);
    void cutOffWhileHolding(FaultProxy &proxy, const Paths &paths, Run &result);
    QByteArray head(const QByteArray &lockPath, qint64 revision = 0);
    bool wroteUnder(const Paths &paths, const QByteArray &lockKey);
    bool exists(const QByteArray &key);
    QString queueOf(const QByteArray &lockPath);

    EtcdTestServer m_server;
    LeaseLedger m_leases; // issue 22 item 7: no test leaves a lease
    std::unique_ptr<EtcdClient> m_client;
};

void tst_EtcdLockJepsen::initTestCase()
{
    ETCDQT_START_OR_SKIP(m_server);
    m_client = connectedClient(m_server.clientUrl());
}

void tst_EtcdLockJepsen::init()
{
    m_leases.begin(m_server);
}

void tst_EtcdLockJepsen::cleanup()
{
    VERIFY_NO_LEASE_LEFT(m_leases);
}

// The key that held the lock at `revision` (0: now): the oldest under "<path>/"; empty for none.
QByteArray tst_EtcdLockJepsen::head(const QByteArray &lockPath, qint64 revision)
{
    EtcdRangeOptions o;
    o.prefix = true;
    o.keysOnly = true;
    o.limit = 1;
    o.revision = revision;
    o.sortTarget = Etcd::SortTarget::CreateRevision;
    o.sortOrder = Etcd::SortOrder::Ascending;
    const auto r = await(m_client->get(lockPath + '/', o));
    return r.status.isOk() && !r->keyValues().isEmpty() ? r->keyValues().first().key : QByteArray();
}

// Whether the counter's last write was made while `lockKey` held the lock.
bool tst_EtcdLockJepsen::wroteUnder(const Paths &paths, const QByteArray &lockKey)
{
    const auto r = await(m_client->get(paths.counter));
    return r.status.isOk() && !r->keyValues().isEmpty()
        && head(paths.lock, r->keyValues().first().modRevision) == lockKey;
}

// For failure messages: the lock's keys by create revision, each with its create revision.
QString tst_EtcdLockJepsen::queueOf(const QByteArray &lockPath)
{
    EtcdRangeOptions o;
    o.prefix = true;
    o.sortTarget = Etcd::SortTarget::CreateRevision;
    o.sortOrder = Etcd::SortOrder::Ascending;
    const auto r = await(m_client->get(lockPath + '/', o));
    QStringList keys;
    for (const EtcdKeyValue &kv : r->keyValues())
        keys.append(u"%1@%2"_s.arg(QString::fromUtf8(kv.key)).arg(kv.createRevision));
    return u"the queue: "_s + keys.join(u' ');
}

bool tst_EtcdLockJepsen::exists(const QByteArray &key)
{
    const auto r = await(m_client->get(key));
    return !r.status.isOk() || !r->keyValues().isEmpty();
}

// SIGSTOP until it is caught holding before its write: the head of the queue stays put while
// it is stopped (holders that run release within milliseconds) and the counter was not written
// under that key yet. A stop that found another process holding waits until the head is stuck
// at this one's key (it got the lock while stopped), then lets it run for a few milliseconds
// (it learns it holds, and reads) and stops it again. Then it stays stopped until etcd expired
// the held key and the others counted on, and past its TTL: proof that the pause hit a hold
// that etcd gave away, and that the paused holder's write comes after that.
void tst_EtcdLockJepsen::pauseWhileHolding(Incr &incr, const Paths &paths, Run &result)
{
    const QDeadlineTimer searching(10 * kTtlMs);
    QElapsedTimer stopped;
    stopped.start();
    incr.sendSignal(SIGSTOP);
    QByteArray held = head(paths.lock);
    for (int misses = 0; !searching.hasExpired(); ++misses) {
        QTest::qWait(kStuckMs);
        const QByteArray now = head(paths.lock);
        bool hit = !held.isEmpty() && now == held && !wroteUnder(paths, held);
        if (hit) {
            QTRY_VERIFY2_WITH_TIMEOUT(!exists(held),
                qPrintable(u"the key that held the lock during the pause outlived its lease; "_s
                    + queueOf(paths.lock)),
                kExpiryMs + kTtlMs);
            hit = stopped.elapsed() >= kTtlMs / 2; // sooner, a slow holder released it
        }
        if (hit) {
            const qint64 writes = result.history.size();
            QTRY_VERIFY2_WITH_TIMEOUT(result.history.size() >= writes + 3,
                qPrintable(u"the others did not count on after the paused holder's key "
                           "expired; "_s
                    + queueOf(paths.lock)),
                kTtlMs);
            QTest::qWait(std::max<int>(0, kTtlMs * 5 / 4 - int(stopped.elapsed())));
            result.pauses.append(u"%1 ms after %2 misses"_s.arg(stopped.elapsed()).arg(misses));
            incr.sendSignal(SIGCONT);
            return;
        }
        // Most likely `now` is this process's key, at the head since it was stopped. Let it
        // run for less than one lock-read-write-unlock turn (a few RPCs, ~1-3 ms here), so the
        // next stop often finds it holding, having read, not written.
        incr.sendSignal(SIGCONT);
        QThread::usleep(QRandomGenerator::global()->bounded(150, 2500));
        stopped.start();
        incr.sendSignal(SIGSTOP);
        held = now;
    }
    incr.sendSignal(SIGCONT);
    QFAIL("no pause hit a hold within 10 TTLs");
}

// The same for the process behind the proxy: blackholed until it is seen holding, then cut
// off until etcd expired its key and the others counted on, and one and a half TTLs at least.
void tst_EtcdLockJepsen::cutOffWhileHolding(FaultProxy &proxy, const Paths &paths, Run &result)
{
    const QDeadlineTimer searching(10 * kTtlMs);
    for (int misses = 0; !searching.hasExpired(); ++misses) {
        QElapsedTimer cut;
        cut.start();
        proxy.setMode(FaultProxy::Mode::Blackhole);
        const QByteArray held = head(paths.lock);
        QTest::qWait(kStuckMs);
        bool hit = !held.isEmpty() && head(paths.lock) == held;
        if (hit) {
            QTRY_VERIFY2_WITH_TIMEOUT(!exists(held),
                qPrintable(u"the key that held the lock during the cut outlived its lease; "_s
                    + queueOf(paths.lock)),
                kExpiryMs + kTtlMs);
            hit = cut.elapsed() >= kTtlMs / 2;
        }
        if (!hit) {
            proxy.setMode(FaultProxy::Mode::Pass);
            QTest::qWait(kStuckMs + QRandomGenerator::global()->bounded(4 * kStuckMs));
            continue;
        }
        const qint64 writes = result.history.size();
        QTRY_VERIFY2_WITH_TIMEOUT(result.history.size() >= writes + 3,
            qPrintable(u"the others did not count on after the cut-off holder's key expired; "_s
                + queueOf(paths.lock)),
            kTtlMs);
        QTest::qWait(std::max<int>(0, kTtlMs * 3 / 2 - int(cut.elapsed())));
        result.cutOff = u"%1 ms after %2 misses"_s.arg(cut.elapsed()).arg(misses);
        proxy.setMode(FaultProxy::Mode::Pass);
        return;
    }
    QFAIL("no cut hit a hold within 10 TTLs");
}

void tst_EtcdLockJepsen::run(Run &result, const QString &name, int morePausesUntilStale)
{
    const Paths paths {"/jepsen/" + name.toUtf8() + "/lock", "/jepsen/" + name.toUtf8() + "/n"};
    EtcdWatch watch(m_client.get(), paths.counter);
    QObject::connect(
        &watch, &EtcdWatch::eventsReceived, &watch, [&result](const QList<EtcdWatchEvent> &events) {
            for (const EtcdWatchEvent &e : events) {
                if (e.type == EtcdWatchEvent::Type::Put)
                    result.history.append(e.keyValue.value.toLongLong());
            }
        });
    watch.start();
    QTRY_COMPARE_WITH_TIMEOUT(watch.state(), EtcdWatch::State::Active, kTtlMs);
    FaultProxy proxy(u"127.0.0.1"_s, m_server.clientPort());
    QVERIFY(proxy.start());

    std::array<Incr, kProcesses> incrs;
    for (int i = 0; i < kProcesses; ++i) {
        Incr &incr = incrs[i];
        QObject::connect(&incr.process, &QProcess::readyReadStandardError, &incr.process,
            [&incr] { incr.log += incr.process.readAllStandardError(); });
        incr.process.start(QStringLiteral(ETCDQT_CLI),
            {u"--endpoints"_s, i == kCutOff ? proxy.endpoint() : m_server.endpoint(), u"incr"_s,
                QString::fromUtf8(paths.lock), QString::fromUtf8(paths.counter), u"--count"_s,
                u"1000000"_s, u"--ttl"_s, QString::number(kTtlS),
                result.fenced ? u"--fenced"_s : u"--unfenced"_s});
    }
    // On a failure, what each process logged (QT_LOGGING_RULES=etcdqt.*.debug=true for more).
    const auto report = qScopeGuard([&] {
        if (!QTest::currentTestFailed())
            return;
        for (int i = 0; i < kProcesses; ++i)
            qInfo().noquote() << "process" << i << "logged:" << incrs[i].log.right(2000);
    });
    for (Incr &incr : incrs)
        QVERIFY(incr.process.waitForStarted());
    QTRY_VERIFY2_WITH_TIMEOUT(result.history.size() >= 20,
        qPrintable(u"%1 writes; %2"_s.arg(result.history.size()).arg(queueOf(paths.lock))),
        2 * kTtlMs);

    pauseWhileHolding(incrs[kPaused], paths, result);
    if (QTest::currentTestFailed())
        return;
    QTest::qWait(kTtlMs / 2);
    cutOffWhileHolding(proxy, paths, result);
    if (QTest::currentTestFailed())
        return;
    // A paused holder that read the counter before it stopped overwrites what the others
    // counted meanwhile; one that had not read yet may not. Pause again, a bounded number of
    // times, until the history shows a stale write.
    for (int i = 0; i < morePausesUntilStale; ++i) {
        QTest::qWait(kTtlMs / 4);
        if (result.staleWrites() > 0)
            break;
        pauseWhileHolding(incrs[kPaused], paths, result);
        if (QTest::currentTestFailed())
            return;
    }
    QTest::qWait(kTtlMs); // the faulted processes count again

    for (Incr &incr : incrs)
        incr.sendSignal(SIGTERM);
    for (Incr &incr : incrs) {
        // A fenced write without an answer is settled first, within ten TTLs.
        QVERIFY2(incr.process.waitForFinished(12 * kTtlMs), incr.log.constData());
        QCOMPARE(incr.process.exitStatus(), QProcess::NormalExit);
        QVERIFY2(incr.process.exitCode() == 128 + SIGTERM, incr.log.constData());
        const QByteArray line = incr.process.readAllStandardOutput().trimmed();
        incr.summary = QJsonDocument::fromJson(line).object();
        QVERIFY2(incr.count(u"succeeded"_s) >= 0, line.constData());
        result.succeeded += incr.count(u"succeeded"_s);
        result.unknown += incr.count(u"unknown"_s);
        const QString role = &incr == &incrs[kCutOff] ? u"cut off "_s
            : &incr == &incrs[kPaused]                ? u"paused "_s
                                                      : QString();
        result.summaries.append(role + QString::fromUtf8(line));
    }
    const auto last = await(m_client->get(paths.counter));
    QVERIFY_OK(last.status);
    QCOMPARE(last->keyValues().size(), 1);
    result.finalValue = last->keyValues().first().value.toLongLong();
    // The watch has seen every write once it has seen as many as etcd counted.
    const qint64 writes = last->keyValues().first().version;
    QTRY_COMPARE_WITH_TIMEOUT(qint64(result.history.size()), writes, kTtlMs);
    qInfo().noquote() << result.describe();
    QTRY_COMPARE_WITH_TIMEOUT(head(paths.lock), QByteArray(), kTtlMs); // every key revoked
}

void tst_EtcdLockJepsen::fencedLosesNothingUnderPauseAndPartition()
{
    Run r;
    r.fenced = true;
    run(r, u"fenced"_s);
    if (QTest::currentTestFailed())
        return;
    QVERIFY2(r.unknown == 0, qPrintable(r.describe())); // every write without an answer settled
    QVERIFY2(r.finalValue == r.succeeded, qPrintable(r.describe()));
    QVERIFY2(r.anomalies() == 0, qPrintable(r.describe())); // 1, 2, 3...: none lost or doubled
    QCOMPARE(qint64(r.history.size()), r.finalValue);
}

// The same faults without the fence: in at least one of a bounded number of runs the counter
// ends below the sum of the writes etcd committed.
void tst_EtcdLockJepsen::unfencedLosesIncrementsUnderTheSameFaults()
{
    QStringList runs;
    for (int attempt = 1; attempt <= 2; ++attempt) {
        Run r;
        r.fenced = false;
        run(r, u"unfenced%1"_s.arg(attempt), 3);
        if (QTest::currentTestFailed())
            return;
        runs.append(r.describe());
        if (r.finalValue < r.succeeded) {
            qInfo("unfenced: %lld increments lost in run %d", r.succeeded - r.finalValue, attempt);
            return;
        }
    }
    QFAIL(qPrintable(u"no unfenced run lost an increment: "_s + runs.join(u"; "_s)));
}

QTEST_GUILESS_MAIN(tst_EtcdLockJepsen)
#include "tst_etcdlock_jepsen.moc"
