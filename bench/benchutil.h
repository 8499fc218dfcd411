// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// What every benchmark scenario shares: waiting in the event loop, CPU ticks, percentiles and
// the one-JSON-line output.
#pragma once

//                         prints "STARTED" and "LEADER" lines, leads until killed
#include "alloccount.h"
#include "benchcore.h"

#include <EtcdQt/EtcdQt>

#include <QtCore/qabstracteventdispatcher.h>
#include <QtCore/qcoreapplication.h>
#include <QtCore/qdir.h>
#include <QtCore/qelapsedtimer.h>
#include <QtCore/qfile.h>
#include <QtCore/qhash.h>
#include <QtCore/qjsondocument.h>
#include <QtCore/qjsonobject.h>
#include <QtCore/qprocess.h>
#include <QtCore/qregularexpression.h>
#include <QtCore/qtimer.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <functional>
#include <random>

#include <arpa/inet.h>
#include <malloc.h>
#include <netinet/in.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace Bench {

using Step = std::function<EtcdReply *()>;

// utime + stime of a /proc stat file, in clock ticks.
inline long cpuTicks(const QString &statPath = u"/proc/self/stat"_s)
{
    QFile f(statPath);
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    const QByteArray stat = f.readAll();
    const QList<QByteArray> fields = stat.mid(stat.lastIndexOf(')') + 2).split(' ');
    return fields.value(11).toLong() + fields.value(12).toLong();
}

// CPU ticks per thread name (threads of one name summed): where a scenario's CPU goes.
inline QHash<QString, long> cpuTicksByThread()
{
    QHash<QString, long> ticks;
    const QDir tasks(u"/proc/self/task"_s);
    for (const QString &tid : tasks.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        QFile comm(tasks.filePath(tid + u"/comm"_s));
        if (!comm.open(QIODevice::ReadOnly))
            continue;
        const QString name = QString::fromUtf8(comm.readAll().trimmed());
        ticks[name] += cpuTicks(tasks.filePath(tid + u"/stat"_s));
    }
    return ticks;
}

// Runs the event loop until `done` holds. processEvents(WaitForMoreEvents) sends the posted
// events first and then blocks until more come: Qt's own dispatcher (QT_NO_GLIB=1, and Qt
// built without glib, as on many embedded boards) blocks even when one of those events made
// `done` true, and the loop hung there. `done` is asked again just before the dispatcher
// would block (aboutToBlock), and a true answer interrupts the wait.
template <class Pred>
inline void spinUntil(Pred done)
{
    QAbstractEventDispatcher *dispatcher = QAbstractEventDispatcher::instance();
    const QMetaObject::Connection recheck
        = QObject::connect(dispatcher, &QAbstractEventDispatcher::aboutToBlock, [&] {
              if (done())
                  dispatcher->interrupt();
          });
    while (!done())
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
    QObject::disconnect(recheck);
}

// spinUntil() bounded by `timeout`: the timer's event wakes the loop. Returns whether `done`
// held.
template <class Pred>
inline bool spinUntil(Pred done, std::chrono::milliseconds timeout)
{
    bool expired = false;
    QTimer timer;
    timer.setSingleShot(true);
    timer.setTimerType(Qt::PreciseTimer);
    QObject::connect(&timer, &QTimer::timeout, &timer, [&] { expired = true; });
    timer.start(timeout);
    spinUntil([&] { return expired || done(); });
    return done();
}

// Runs the event loop for `d` (timers and signals keep being served).
inline void runFor(std::chrono::milliseconds d)
{
    spinUntil([] { return false; }, d);
}

// Lets replies and watches deleted later go (deleteLater): before memory is read, so that it
// is not counted as the measured object's.
inline void settle()
{
    for (int i = 0; i < 3; ++i) {
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
        runFor(std::chrono::milliseconds(20));
    }
}

// This process's CPU time (every thread), in ms.
inline double processCpuMs()
{
    timespec ts {};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
}

// The CPU this process used over a window, in % of one core: the total from its CPU clock
// (1,000 renewing leases cost about 12 of /proc's 10 ms ticks in 30 s, so a tick either way
// moved a ratio by 8%), and where it went by thread name, which /proc has only in ticks.
class CpuWindow
{
public:
    CpuWindow() : m_cpu0(processCpuMs()), m_threads0(cpuTicksByThread()) { m_wall.start(); }

    struct Use
    {
        double seconds = 0; // the window's length
        double pct = 0;
        QJsonObject byThread;
    };
    // The window up to now.
    [[nodiscard]] Use use() const
    {
        Use u;
        u.seconds = double(m_wall.nsecsElapsed()) / 1e9;
        u.pct = 0.1 * (processCpuMs() - m_cpu0) / u.seconds;
        const double hz = double(sysconf(_SC_CLK_TCK));
        const QHash<QString, long> threads = cpuTicksByThread();
        for (auto it = threads.cbegin(); it != threads.cend(); ++it)
            u.byThread.insert(
                it.key(), 100.0 * double(it.value() - m_threads0.value(it.key())) / hz / u.seconds);
        return u;
    }

private:
    double m_cpu0;
    QHash<QString, long> m_threads0;
    QElapsedTimer m_wall;
};

// Issues `issue(i)` for i in [0, count), at most `window` outstanding, and runs the loop until
// every reply has finished; `done(i, reply)` sees each. A failure is fatal, named by `what`.
inline void windowed(const char *what, int count, int window,
    const std::function<EtcdReply *(int)> &issue,
    const std::function<void(int, EtcdReply *)> &done = {})
{
    int issued = 0, finished = 0;
    std::function<void()> next = [&] {
        const int i = issued++;
        EtcdReply *reply = issue(i);
        QObject::connect(reply, &EtcdReply::finished, reply, [&, i, reply](const EtcdStatus &s) {
            if (!s.isOk())
                qFatal("%s: request %d failed: %s", what, i, qPrintable(s.toString()));
            if (done)
                done(i, reply);
            ++finished;
            if (issued < count)
                next();
        });
    };
    for (int i = 0; i < std::min(window, count); ++i)
        next();
    spinUntil([&] { return finished == count; });
}

inline int threadCount()
{
    QFile f(u"/proc/self/status"_s);
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : f.readAll().split('\n')) {
        if (line.startsWith("Threads:"))
            return line.mid(8).trimmed().toInt();
    }
    return -1;
}

// The heap in use (every arena, mmapped chunks included), in bytes.
inline qint64 heapInUse()
{
    const struct mallinfo2 m = mallinfo2();
    return qint64(m.uordblks + m.hblkhd);
}

inline qint64 rssBytes()
{
    QFile f(u"/proc/self/statm"_s);
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    return f.readAll().split(' ').value(1).toLongLong() * sysconf(_SC_PAGESIZE);
}

// Threads in all, and those of EtcdQt's engine (one per client); the rest are gRPC's own pools,
// which grow and shrink as gRPC sees fit.
inline QJsonObject threadFields()
{
    int engine = 0;
    const QDir tasks(u"/proc/self/task"_s);
    for (const QString &tid : tasks.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        QFile comm(tasks.filePath(tid + u"/comm"_s));
        if (comm.open(QIODevice::ReadOnly) && comm.readAll().startsWith("etcdqt-engine"))
            ++engine;
    }
    return {{u"threads"_s, threadCount()}, {u"engine_threads"_s, engine}};
}

inline void emitLine(QJsonObject o)
{
    o.insert(u"impl"_s, u"etcdqt"_s);
    std::printf("%s\n", QJsonDocument(o).toJson(QJsonDocument::Compact).constData());
    std::fflush(stdout);
}

// Heap allocations per operation (issue 21 item 3): `process` made by the whole process
// (gRPC's threads and the engine's included) over n operations, `thread` by the owner
// thread, whose share includes the scenario's own waiting (an event loop, a connection to
// finished()). Null when not counted (a sanitizer build).
inline void insertAllocations(QJsonObject &line, long long process, long long thread, int n)
{
    const bool counted = Allocations::counted() && n > 0;
    line.insert(u"allocs_per_op"_s, counted ? QJsonValue(double(process) / n) : QJsonValue());
    line.insert(u"owner_allocs_per_op"_s, counted ? QJsonValue(double(thread) / n) : QJsonValue());
}

inline void insertAllocations(QJsonObject &line, const Allocations::Window &window, int n)
{
    insertAllocations(line, window.process(), window.thread(), n);
}

// One monotonic clock for every thread (ns), and the ms between two of its readings.
qint64 now();
double msBetween(qint64 from, qint64 to);

// etcd's counters from its /metrics: gRPC messages received per method ("rpc.<Method>"),
// MVCC and raft; quietCounters() reads until two reads 300 ms apart agree (keep-alives aside).
QHash<QString, double> etcdCounters(const QUrl &url);
QHash<QString, double> quietCounters(const QUrl &url, bool *settled);

// The election scenarios (election_bench.cpp).
void benchHandoff(const QUrl &url, int n, bool held);
void benchCrashFailover(const QUrl &url, int n);
void benchElectionRequests(const QUrl &url, int n);
int runCandidate(const QUrl &url, const QByteArray &path, int ttlSeconds);
// A candidate in its own process (this binary in `mode`), and its SIGKILL.
struct Child
{
    QProcess process;
    bool started = false, leader = false, exited = false;
    qint64 leaderAt = 0;
};
std::unique_ptr<Child> spawnCandidate(const QUrl &url, const QByteArray &path, int ttlSeconds,
    const QString &mode = QStringLiteral("election_candidate"));
void killChild(Child &c);

// etcd's own election layout (etcdelection_bench.cpp).
void benchHandoffEtcd(const QUrl &url, int n, bool held);
void benchCrashFailoverEtcd(const QUrl &url, int n);
int runNativeCandidate(const QUrl &url, const QByteArray &prefix, int ttlSeconds);

// The lock scenarios (lock_bench.cpp).
void benchLockUncontended(const QUrl &url, int n);
void benchLockUncontendedWorker(const QUrl &url, int n);
void benchLockContended(const QUrl &url, int seconds);
void benchLockRpcPattern(const QUrl &url, int n);

// The cache scenarios (cache_bench.cpp).
void benchCacheLoad(const QUrl &url, const QString &scenario, int children, int reps);
void benchCacheEventLatency(const QUrl &url, int n);
void benchCacheMemory(const QUrl &url, int children);

// The scale curves (scale_bench.cpp; the cache's in cache_bench.cpp), x the size of the point.
void benchScaleLeases(const QUrl &url, int x, std::chrono::seconds window);
void benchScaleWatches(const QUrl &url, int x, int samples);
void benchScaleElectionCandidates(const QUrl &url, int x, int handoffs);
void benchScaleLockWaiters(const QUrl &url, int x, int handoffs);
void benchScaleCacheChildren(const QUrl &url, int x, int reps);

// The queue scenarios (queue_bench.cpp).
void benchQueueThroughput(const QUrl &url, std::chrono::seconds window);
void benchPriorityQueueThroughput(const QUrl &url, std::chrono::seconds window);
void benchWorkQueueThroughput(const QUrl &url, std::chrono::seconds window);
void benchQueueLatency(const QUrl &url, int n);
// What an installed metrics sink costs (metrics_bench.cpp).
void benchMetricsOverhead(const QUrl &url, int n);
// The service discovery scenario (discovery_bench.cpp).
void benchDiscoveryLookup(const QUrl &url);
void benchDiscoveryHeal(const QUrl &url, int n);

} // namespace Bench
