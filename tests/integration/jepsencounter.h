// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// The Jepsen-style counter run that tst_etcdlock_jepsen and tst_etcdelection_jepsen share:
// four etcdqt processes count on one etcd key, each write made while the process owns a lock
// (`etcdqt incr`) or leads (`etcdqt elect --layout etcd --incr`), while faults hit an owner
// between its read of the counter and its write. A hit is proved, not inferred: the process
// said it read under its hold (`--events`), the owner key etcd shows at the head of the queue
// is that hold's key, with its create revision and its lease, the counter was not written
// under it, and after the fault the process itself reports that hold lost (and, where its late
// write reached etcd, refused when fenced). The counter's whole history is replayed from etcd
// at the end.
#pragma once

#include "testutil.h"

#include <etcdtestcluster.h>
#include <etcdtestserver.h>

#include <QtCore/qdeadlinetimer.h>
#include <QtCore/qelapsedtimer.h>
#include <QtCore/qjsonarray.h>
#include <QtCore/qjsondocument.h>
#include <QtCore/qjsonobject.h>
#include <QtCore/qprocess.h>
#include <QtCore/qrandom.h>
#include <QtCore/qscopeguard.h>
#include <QtCore/qset.h>
#include <childprocess_p.h>

#include <array>
#include <csignal>
#include <functional>
#include <optional>

namespace Jepsen {

using namespace Qt::StringLiterals;

constexpr int kTtlS = 2;
constexpr int kTtlMs = kTtlS * 1000;
// etcd expires a lease up to a TTL after its last renewal, checking twice a second.
constexpr int kExpiryMs = kTtlMs + 1000;
// A new raft leader extends every lease by its TTL, after an election of up to a second.
constexpr int kFailoverExpiryMs = kExpiryMs + kTtlMs + 1000;
constexpr int kProcesses = 4;
// The work between a faulted owner's read and its write: long enough for the test to see the
// read and start the fault before the write is sent.
constexpr int kSlowHoldMs = 300;
// The client->server delay of the delayed-delivery partition: the owner's write, sent during
// its work, reaches etcd after its lease expired and another process counted on.
constexpr int kDeliveryDelayMs = kExpiryMs + kTtlMs;
// Bound on the search for a hit: ten TTLs of owners taking turns.
constexpr int kSearchMs = 10 * kTtlMs;

enum class Recipe { Lock, Election };
// Whether the fenced runs may fence: ETCDQT_JEPSEN_FENCING=off runs them with --unfenced, to
// see them fail (the test's own check).
inline bool fencingSwitchedOff()
{
    return qEnvironmentVariable("ETCDQT_JEPSEN_FENCING") == u"off"_s;
}

// One etcdqt process; its events as they come, its summary at the end.
struct Counter
{
    ~Counter()
    {
        if (process.state() != QProcess::NotRunning) {
            process.kill();
            process.waitForFinished();
        }
    }
    void sendSignal(int signal) const { ::kill(pid_t(process.processId()), signal); }
    void readLines()
    {
        pending += process.readAllStandardOutput();
        for (qsizetype end; (end = pending.indexOf('\n')) >= 0; pending.remove(0, end + 1)) {
            const QJsonObject line = QJsonDocument::fromJson(pending.left(end)).object();
            if (line.contains(u"event"_s))
                events.append(line);
            else if (!line.isEmpty())
                summary = line;
        }
    }
    // What it wrote before it was stopped is in the pipe: read it all.
    void drain()
    {
        while (process.waitForReadyRead(0)) { }
        readLines();
    }
    [[nodiscard]] bool said(const QString &event, qint64 token) const
    {
        return std::any_of(events.cbegin(), events.cend(), [&](const QJsonObject &e) {
            return e.value(u"event"_s) == event && e.value(u"token"_s).toInteger() == token;
        });
    }
    // Its last hold's token (0 before any), for "it counts again after the fault".
    [[nodiscard]] qint64 lastHeld() const
    {
        for (qsizetype i = events.size() - 1; i >= 0; --i) {
            if (events.at(i).value(u"event"_s) == u"held"_s)
                return events.at(i).value(u"token"_s).toInteger();
        }
        return 0;
    }
    [[nodiscard]] qint64 count(const QString &name) const
    {
        return summary.value(name).toInteger(-1);
    }

    ChildProcess process;
    QByteArray pending; // stdout not yet a whole line
    QList<QJsonObject> events;
    QJsonObject summary;
    QByteArray log; // stderr
    QString role; // for messages
    int member = -1; // the cluster member it talks to
};

// A fault that hit: the owner key etcd showed held by the faulted process's lease.
struct Hit
{
    int process = -1;
    QString fault;
    QByteArray key;
    QString lease; // lowercase hex, as the process reports it
    qint64 token = 0;
    qint64 valueRead = 0;
    bool writeReachesEtcd = false; // late (pause, delay, member pause), not dropped
    // Whether the process must see the hold lost: one whose write fails at once (its etcd
    // member was killed) releases the hold itself and reports the cycle failed instead.
    bool holdOutlivesWrite = true;
    qint64 ms = 0; // how long the fault lasted
    int misses = 0;
};

struct Outcome
{
    bool fenced = true;
    qint64 finalValue = 0;
    qint64 succeeded = 0;
    qint64 unknown = 0;
    QList<qint64> history; // the counter after every write, in etcd's order
    QList<Hit> hits;
    QStringList summaries;

    [[nodiscard]] int anomalies() const // writes that did not set the previous value plus one
    {
        int n = 0;
        for (qsizetype i = 0; i < history.size(); ++i)
            n += history.at(i) != (i == 0 ? 0 : history.at(i - 1)) + 1;
        return n;
    }
    [[nodiscard]] int staleWrites() const // a value no greater than the one before
    {
        int n = 0;
        for (qsizetype i = 1; i < history.size(); ++i)
            n += history.at(i) <= history.at(i - 1);
        return n;
    }
    [[nodiscard]] QString describe() const
    {
        QStringList h;
        for (const Hit &hit : hits) {
            h.append(u"%1 on process %2 (%3@%4, lease %5, read %6) %7 ms after %8 misses"_s
                         .arg(hit.fault)
                         .arg(hit.process)
                         .arg(QString::fromUtf8(hit.key))
                         .arg(hit.token)
                         .arg(hit.lease)
                         .arg(hit.valueRead)
                         .arg(hit.ms)
                         .arg(hit.misses));
        }
        return u"%1: final %2, sum of succeeded %3 (unknown %4), %5 writes, %6 not previous+1 "
               "(%7 stale); hits: %8; per process: %9"_s.arg(fenced ? u"fenced"_s : u"unfenced"_s)
                   .arg(finalValue)
                   .arg(succeeded)
                   .arg(unknown)
                   .arg(history.size())
                   .arg(anomalies())
                   .arg(staleWrites())
                   .arg(h.join(u"; "_s), summaries.join(u", "_s));
    }
};

// Runs one counter under one recipe. The test function arranges the faults in between
// start() and finish(); each fault is one call of hit().
class CounterRun
{
public:
    CounterRun(Recipe recipe, const QString &name, bool fenced)
        : m_recipe(recipe), m_fenced(fenced && !fencingSwitchedOff())
    {
        const QByteArray base = "/jepsen/" + name.toUtf8() + '-'
            + QByteArray::number(QRandomGenerator::global()->generate(), 16);
        m_owners = base + (recipe == Recipe::Lock ? "/lock" : "/election");
        m_counter = base + "/n";
        m_outcome.fenced = m_fenced;
    }

    [[nodiscard]] Outcome &outcome() { return m_outcome; }
    [[nodiscard]] Counter &process(int i) { return m_processes[size_t(i)]; }
    void setReader(EtcdClient *client) { m_reader = client; }

    // Starts the processes; `endpoint(i)` is where process i talks to, `slow(i)` whether it
    // works kSlowHoldMs between read and write (the processes that faults will hit).
    void start(const std::function<QString(int)> &endpoint, const std::function<bool(int)> &slow)
    {
        for (int i = 0; i < kProcesses; ++i) {
            Counter &c = m_processes[size_t(i)];
            QObject::connect(&c.process, &ChildProcess::readyReadStandardError, &c.process,
                [&c] { c.log += c.process.readAllStandardError(); });
            QObject::connect(&c.process, &ChildProcess::readyReadStandardOutput, &c.process,
                [&c] { c.readLines(); });
            QStringList args {u"--endpoints"_s, endpoint(i)};
            if (m_recipe == Recipe::Lock) {
                args << u"incr"_s << QString::fromUtf8(m_owners) << QString::fromUtf8(m_counter)
                     << u"--count"_s << u"1000000"_s;
            } else {
                args << u"elect"_s << u"--layout"_s << u"etcd"_s << QString::fromUtf8(m_owners)
                     << u"--incr"_s << QString::fromUtf8(m_counter) << u"--term-writes"_s << u"5"_s
                     << u"--value"_s << u"p%1"_s.arg(i);
            }
            args << u"--ttl"_s << QString::number(kTtlS) << u"--events"_s << u"--hold-ms"_s
                 << QString::number(slow(i) ? kSlowHoldMs : 0)
                 << (m_fenced ? u"--fenced"_s : u"--unfenced"_s);
            c.process.start(QStringLiteral(ETCDQT_CLI), args);
        }
        for (Counter &c : m_processes)
            QVERIFY(c.process.waitForStarted());
        QTRY_VERIFY2_WITH_TIMEOUT(
            writes() >= 20, qPrintable(u"%1 writes; %2"_s.arg(writes()).arg(queue())), 4 * kTtlMs);
    }

    // One fault on one of `candidates`, which must be slow: waits until one of them says it
    // read the counter under its hold, begins the fault on it, and checks that etcd shows that
    // hold's key (create revision and lease) owning, the counter not written under it. Then
    // the fault lasts until etcd expired the key and the others counted on three times, and
    // `minMs` at least (the fault's own duration); then it ends, and the process must say the
    // hold was lost (and, when fenced and `writeReachesEtcd`, that etcd refused its write),
    // and count again. A fault that found no such hold is ended and tried again.
    // `candidates()` is asked before each attempt (on a cluster, who talks to the leader).
    void hit(const QString &fault, const std::function<QList<int>()> &candidatesNow,
        const std::function<void(int)> &begin, const std::function<void(int)> &end, int minMs,
        bool writeReachesEtcd, int expiryMs = kExpiryMs, bool holdOutlivesWrite = true)
    {
        const QDeadlineTimer searching(kSearchMs);
        QSet<qint64> tried;
        for (int misses = 0; !searching.hasExpired(); ++misses) {
            const QList<int> candidates = candidatesNow();
            int p = -1;
            QJsonObject read;
            const bool reading = QTest::qWaitFor(
                [&] {
                    for (int c : candidates) {
                        const QList<QJsonObject> &events = m_processes[size_t(c)].events;
                        if (!events.isEmpty() && events.last().value(u"event"_s) == u"read"_s
                            && !tried.contains(events.last().value(u"token"_s).toInteger())) {
                            p = c;
                            read = events.last();
                            return true;
                        }
                    }
                    return false;
                },
                int(searching.remainingTime()));
            if (!reading)
                break;
            QElapsedTimer faulted;
            faulted.start();
            begin(p);
            Counter &c = m_processes[size_t(p)];
            c.drain(); // a stopped process: the last word it said
            Hit h;
            h.process = p;
            h.fault = fault;
            h.key = read.value(u"key"_s).toString().toUtf8();
            h.lease = read.value(u"lease"_s).toString();
            h.token = read.value(u"token"_s).toInteger();
            h.valueRead = read.value(u"value"_s).toInteger();
            h.writeReachesEtcd = writeReachesEtcd;
            h.holdOutlivesWrite = holdOutlivesWrite;
            h.misses = misses;
            tried.insert(h.token);
            // The owner etcd shows, read until it answers (a new raft leader may be on its way);
            // no answer leaves `owner` empty or `written` unset, which is no hit.
            EtcdKeyValue owner;
            std::optional<bool> written;
            (void)QTest::qWaitFor([&] { return head(&owner); }, kTtlMs);
            (void)QTest::qWaitFor(
                [&] { return (written = wroteUnder(h.token)).has_value(); }, kTtlMs);
            const bool held = owner.key == h.key && owner.createRevision == h.token
                && QString::number(quint64(owner.lease), 16) == h.lease && written == false
                && c.events.last().value(u"token"_s) == read.value(u"token"_s);
            if (!held) {
                end(p);
                continue;
            }
            const qint64 before = writes();
            QTRY_VERIFY2_WITH_TIMEOUT(!exists(h.key),
                qPrintable(u"the key that owned during the %1 outlived its lease; %2"_s.arg(
                    fault, queue())),
                expiryMs + kTtlMs);
            QTRY_VERIFY2_WITH_TIMEOUT(writes() >= before + 3,
                qPrintable(
                    u"the others did not count on after the %1 owner's key expired; %2"_s.arg(
                        fault, queue())),
                4 * kTtlMs);
            QTest::qWait(std::max<int>(0, minMs - int(faulted.elapsed())));
            h.ms = faulted.elapsed();
            end(p);
            m_outcome.hits.append(h);
            // The process itself: that hold was lost; its late write refused (fenced); and it
            // counts again.
            QTRY_VERIFY2_WITH_TIMEOUT(c.said(u"lost"_s, h.token)
                    || (!holdOutlivesWrite
                        && (c.said(u"failed"_s, h.token) || c.said(u"unknown"_s, h.token))),
                qPrintable(u"process %1 did not report its hold %2 lost after the %3"_s.arg(p)
                               .arg(h.token)
                               .arg(fault)),
                4 * kTtlMs);
            if (m_fenced && writeReachesEtcd) {
                QTRY_VERIFY2_WITH_TIMEOUT(c.said(u"refused"_s, h.token),
                    qPrintable(
                        u"process %1's late write under %2 was not refused after the %3"_s.arg(p)
                            .arg(h.token)
                            .arg(fault)),
                    4 * kTtlMs);
            }
            QTRY_VERIFY2_WITH_TIMEOUT(c.lastHeld() > h.token,
                qPrintable(
                    u"process %1 did not own again after the %2; %3"_s.arg(p).arg(fault, queue())),
                kSearchMs);
            return;
        }
        QFAIL(qPrintable(
            u"no %1 hit an owner within %2 ms; %3"_s.arg(fault).arg(kSearchMs).arg(queue())));
    }

    // SIGTERM; each process ends its cycle and prints its summary. Then the counter's history.
    void finish()
    {
        for (Counter &c : m_processes)
            c.sendSignal(SIGTERM);
        for (int i = 0; i < kProcesses; ++i) {
            Counter &c = m_processes[size_t(i)];
            // A fenced write without an answer is settled first, within ten TTLs.
            QVERIFY2(c.process.waitForFinished(12 * kTtlMs), c.log.constData());
            QCOMPARE(c.process.exitStatus(), QProcess::NormalExit);
            QVERIFY2(c.process.exitCode() == 128 + SIGTERM, c.log.constData());
            c.readLines();
            QVERIFY2(c.count(u"succeeded"_s) >= 0, c.pending.constData());
            m_outcome.succeeded += c.count(u"succeeded"_s);
            m_outcome.unknown += c.count(u"unknown"_s);
            m_outcome.summaries.append(u"%1%2 %3"_s.arg(i).arg(c.role).arg(
                QString::fromUtf8(QJsonDocument(c.summary).toJson(QJsonDocument::Compact))));
        }
        const auto last = await(m_reader->get(m_counter));
        QVERIFY_OK(last.status);
        QCOMPARE(last->keyValues().size(), 1);
        const EtcdKeyValue kv = last->keyValues().first();
        m_outcome.finalValue = kv.value.toLongLong();
        // Every write, replayed from etcd's history (nothing is compacted in the run).
        EtcdWatchOptions from;
        from.startRevision = kv.createRevision;
        EtcdWatch watch(m_reader, m_counter, from);
        QObject::connect(&watch, &EtcdWatch::eventsReceived, &watch,
            [this](const QList<EtcdWatchEvent> &events) {
                for (const EtcdWatchEvent &e : events) {
                    if (e.type == EtcdWatchEvent::Type::Put
                        && e.keyValue.modRevision <= m_lastRevision)
                        m_outcome.history.append(e.keyValue.value.toLongLong());
                }
            });
        m_lastRevision = kv.modRevision;
        watch.start();
        QTRY_COMPARE_WITH_TIMEOUT(qint64(m_outcome.history.size()), kv.version, 2 * kTtlMs);
        qInfo().noquote() << m_outcome.describe();
        QTRY_VERIFY2_WITH_TIMEOUT(keys().isEmpty(), qPrintable(queue()), 2 * kTtlMs);
    }

    // The fenced verdict: nothing lost or doubled, and every hit proved by its process.
    void verifyFenced()
    {
        const Outcome &o = m_outcome;
        const QByteArray d = o.describe().toUtf8();
        QVERIFY2(o.unknown == 0, d.constData()); // every write without an answer settled
        QVERIFY2(o.finalValue == o.succeeded, d.constData());
        QVERIFY2(o.anomalies() == 0, d.constData()); // 1, 2, 3...
        QVERIFY2(qint64(o.history.size()) == o.finalValue, d.constData());
        for (int p = 0; p < kProcesses; ++p) {
            const Counter &c = m_processes[size_t(p)];
            qint64 hits = 0, late = 0, holdsLost = 0;
            for (const Hit &h : o.hits) {
                if (h.process != p)
                    continue;
                ++hits;
                late += h.writeReachesEtcd;
                holdsLost += h.holdOutlivesWrite;
                QVERIFY2(c.summary.value(u"leases"_s).toArray().contains(h.lease), d.constData());
            }
            // Each hit: a hold lost while held, and a cycle that committed nothing.
            QVERIFY2(c.count(u"lost"_s) >= holdsLost, d.constData());
            QVERIFY2(c.count(u"failed"_s) >= hits, d.constData());
            QVERIFY2(c.count(u"refused"_s) >= late, d.constData());
        }
    }

    // On a failure, what each process logged (QT_LOGGING_RULES=etcdqt.*.debug=true for more),
    // and what became of it: one that said nothing after a fault may have exited, still be
    // stopped, or wait on something (seen once, under QT_NO_GLIB=1, with nothing logged).
    void report() const
    {
        for (int i = 0; i < kProcesses; ++i) {
            const Counter &c = m_processes[size_t(i)];
            qInfo().noquote() << "process" << i << c.role << processState(c.process)
                              << "logged:" << c.log.right(2000)
                              << "last events:" << c.events.mid(c.events.size() - 6);
        }
    }

    // "exited N", "killed by signal N" (QProcess gives a crashed process's signal as its exit
    // code), or the kernel's state letter of a running one (R running, S sleeping, T stopped).
    static QString processState(const ChildProcess &p)
    {
        if (p.state() == QProcess::NotRunning && p.exitStatus() == QProcess::CrashExit)
            return QStringLiteral("(killed by signal %1)").arg(p.exitCode());
        if (p.state() == QProcess::NotRunning)
            return QStringLiteral("(exited %1)").arg(p.exitCode());
        return QStringLiteral("(running, state %1)").arg(QLatin1Char(kernelStateOf(p.processId())));
    }

    // Writes to the counter so far (its version), -1 when etcd did not answer.
    qint64 writes()
    {
        const auto r = await(m_reader->get(m_counter));
        if (!r.status.isOk())
            return -1;
        return r->keyValues().isEmpty() ? 0 : r->keyValues().first().version;
    }

private:
    QList<EtcdKeyValue> keys(qint64 revision = 0, qint64 limit = 0, bool *ok = nullptr)
    {
        EtcdRangeOptions o;
        o.prefix = true;
        o.limit = limit;
        o.revision = revision;
        o.sortTarget = Etcd::SortTarget::CreateRevision;
        o.sortOrder = Etcd::SortOrder::Ascending;
        const auto r = await(m_reader->get(m_owners + '/', o));
        if (ok)
            *ok = r.status.isOk();
        return r.status.isOk() ? r->keyValues() : QList<EtcdKeyValue>();
    }
    // The owner now: the oldest key under the prefix; false when etcd did not answer.
    bool head(EtcdKeyValue *owner)
    {
        bool ok = false;
        const QList<EtcdKeyValue> kvs = keys(0, 1, &ok);
        *owner = kvs.isEmpty() ? EtcdKeyValue() : kvs.first();
        return ok;
    }
    // Whether the counter's last write was made while the key created at `token` owned.
    // nullopt when etcd did not answer.
    std::optional<bool> wroteUnder(qint64 token)
    {
        const auto r = await(m_reader->get(m_counter));
        if (!r.status.isOk())
            return std::nullopt;
        if (r->keyValues().isEmpty())
            return false;
        bool ok = false;
        const QList<EtcdKeyValue> owners = keys(r->keyValues().first().modRevision, 1, &ok);
        if (!ok)
            return std::nullopt;
        return !owners.isEmpty() && owners.first().createRevision == token;
    }
    bool exists(const QByteArray &key)
    {
        const auto r = await(m_reader->get(key));
        return !r.status.isOk() || !r->keyValues().isEmpty();
    }
    // For failure messages: the owner keys by create revision.
    QString queue()
    {
        QStringList list;
        for (const EtcdKeyValue &kv : keys())
            list.append(u"%1@%2"_s.arg(QString::fromUtf8(kv.key)).arg(kv.createRevision));
        return u"the queue: "_s + list.join(u' ');
    }

    Recipe m_recipe;
    bool m_fenced;
    QByteArray m_owners;
    QByteArray m_counter;
    EtcdClient *m_reader = nullptr;
    qint64 m_lastRevision = 0;
    std::array<Counter, kProcesses> m_processes;
    Outcome m_outcome;
};

// One etcd, four processes: process 0 reaches it through a FaultProxy, process 1 is paused.
// Faults: process 1 paused (SIGSTOP) past its TTL; process 0 cut off (Blackhole) past it, its
// write dropped; process 0's requests delayed past it (the delayed-delivery partition), its
// write reaching etcd late.
inline void singleServerRun(CounterRun &run, const EtcdTestServer &server, EtcdClient *reader)
{
    constexpr int kProxied = 0, kPaused = 1;
    FaultProxy proxy(u"127.0.0.1"_s, server.clientPort());
    QVERIFY(proxy.start());
    run.setReader(reader);
    run.process(kProxied).role = u" (behind the proxy)"_s;
    run.process(kPaused).role = u" (paused)"_s;
    run.start([&](int i) { return i == kProxied ? proxy.endpoint() : server.endpoint(); },
        [](int i) { return i == kProxied || i == kPaused; });
    if (QTest::currentTestFailed())
        return;
    const auto only = [](int p) { return [p] { return QList<int> {p}; }; };
    run.hit(
        u"pause"_s, only(kPaused), [&](int p) { run.process(p).sendSignal(SIGSTOP); },
        [&](int p) { run.process(p).sendSignal(SIGCONT); }, kTtlMs * 5 / 4, true);
    if (QTest::currentTestFailed())
        return;
    run.hit(
        u"cut-off"_s, only(kProxied), [&](int) { proxy.setMode(FaultProxy::Mode::Blackhole); },
        [&](int) { proxy.setMode(FaultProxy::Mode::Pass); }, kTtlMs * 3 / 2, false);
    if (QTest::currentTestFailed())
        return;
    // Held until the test ends it: only after etcd gave the owner's key away and the others
    // counted on, and kDeliveryDelayMs at least.
    run.hit(
        u"delayed delivery"_s, only(kProxied),
        [&](int) { proxy.setDelay(std::chrono::minutes(1), FaultProxy::Direction::ToTarget); },
        [&](int) { proxy.setMode(FaultProxy::Mode::Pass); }, kDeliveryDelayMs, true);
    if (QTest::currentTestFailed())
        return;
    run.finish();
}

// A 3-member cluster, four processes, each talking to one member (i % 3). Faults: the raft
// leader is killed while a process talking to it owns (it is restarted once etcd gave the key
// away and the others counted on), then a follower is paused while a process talking to it
// owns, its write waiting in the member until it resumes.
inline void clusterRun(CounterRun &run, EtcdTestCluster &cluster,
    const std::array<std::unique_ptr<EtcdClient>, 3> &clients)
{
    const auto memberOf = [](int p) { return p % 3; };
    const auto on = [&](int member) {
        QList<int> ps;
        for (int p = 0; p < kProcesses; ++p) {
            if (memberOf(p) == member)
                ps.append(p);
        }
        return ps;
    };
    int leader = cluster.leaderIndex();
    QVERIFY(leader >= 0);
    run.setReader(clients[size_t((leader + 1) % 3)].get());
    for (int p = 0; p < kProcesses; ++p) {
        run.process(p).member = memberOf(p);
        run.process(p).role = u" (member %1)"_s.arg(memberOf(p));
    }
    run.start([&](int p) { return cluster.endpoint(memberOf(p)); }, [](int) { return true; });
    if (QTest::currentTestFailed())
        return;
    int target = -1;
    run.hit(
        u"raft leader kill"_s,
        [&] {
            leader = cluster.leaderIndex();
            target = leader < 0 ? 0 : leader;
            run.setReader(clients[size_t((target + 1) % 3)].get());
            return on(target);
        },
        [&](int) { cluster.kill(target); },
        [&](int) { QVERIFY2(cluster.restart(target), qPrintable(cluster.log().right(3000))); },
        kTtlMs * 3 / 2, false, kFailoverExpiryMs, false);
    if (QTest::currentTestFailed())
        return;
    QVERIFY(cluster.waitForLeader());
    run.hit(
        u"member pause"_s,
        [&] {
            leader = cluster.leaderIndex();
            target = ((leader < 0 ? 0 : leader) + 1) % 3; // a follower
            run.setReader(clients[size_t((target + 1) % 3)].get());
            return on(target);
        },
        [&](int) { QVERIFY(cluster.pause(target)); }, [&](int) { QVERIFY(cluster.resume(target)); },
        kTtlMs * 5 / 4, true, kFailoverExpiryMs);
    if (QTest::currentTestFailed())
        return;
    run.finish();
}

// What both Jepsen tests check, for one recipe; `name` starts each run's paths. A failed run
// prints its processes' logs.
inline void verifyLosesIncrements(const Outcome &o)
{
    QVERIFY2(o.finalValue < o.succeeded, qPrintable(o.describe()));
    QVERIFY2(o.staleWrites() >= 1, qPrintable(o.describe()));
}

// Runs `faults` on `run`, then checks its verdict: exact when fenced, increments lost when not.
template <typename Faults>
void verifyRun(CounterRun &run, bool fenced, Faults faults)
{
    const auto report = qScopeGuard([&] {
        if (QTest::currentTestFailed())
            run.report();
    });
    faults();
    if (QTest::currentTestFailed())
        return;
    if (fenced)
        run.verifyFenced();
    else
        verifyLosesIncrements(run.outcome());
}

inline void onOneEtcd(Recipe recipe, const QString &name, bool fenced, const EtcdTestServer &server,
    EtcdClient *reader)
{
    CounterRun run(recipe, name + (fenced ? u"-fenced"_s : u"-unfenced"_s), fenced);
    verifyRun(run, fenced, [&] { singleServerRun(run, server, reader); });
}

inline void onCluster(Recipe recipe, const QString &name, bool fenced)
{
    EtcdTestCluster cluster(3);
    ETCDQT_START_OR_SKIP(cluster);
    std::array<std::unique_ptr<EtcdClient>, 3> clients;
    for (int i = 0; i < 3; ++i)
        clients[size_t(i)] = connectedClient(cluster.clientUrl(i));
    CounterRun run(recipe, name + (fenced ? u"-cluster-fenced"_s : u"-cluster"_s), fenced);
    verifyRun(run, fenced, [&] { clusterRun(run, cluster, clients); });
}

} // namespace Jepsen
