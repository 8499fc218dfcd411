// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// The lock scenarios of etcdqt-bench (see etcdqt_bench.cpp's header for what each measures).
#include "benchutil.h"

#include <QtCore/qjsonarray.h>
#include <QtCore/qthread.h>

#include <atomic>
#include <map>
#include <mutex>
#include <set>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace Bench {
// ---- locks -------------------------------------------------------------------------------

namespace {

constexpr auto kLockTtl = std::chrono::seconds(10); // the peers' session TTL for s1 and s2
constexpr int kWarmUpCycles = 20; // the first grant and the watch start are not cycles
constexpr int kEdge = 200; // cycles at the start and the end of a run, compared

// A lock path of this process alone: etcd keeps every deleted key name in its index until
// a compaction (the bench's etcd never compacts), and a prefix read walks all of them, so a
// run on a path an earlier run used would pay for that run's keys.
QByteArray lockPath(const char *name)
{
    return "/bench/etcdqt/lock/"_ba + name + '-' + QByteArray::number(qint64(::getpid()));
}

// The p50 of the first and of the last kEdge cycles: whether a cycle gets dearer as a run
// goes on (with a new key name per acquisition, the dead names pile up under the path).
QJsonObject growthFields(const std::vector<double> &lat)
{
    if (lat.size() < 2 * kEdge)
        return {};
    return {{u"first_200_p50_ms"_s, percentile({lat.begin(), lat.begin() + kEdge}, 0.5)},
        {u"last_200_p50_ms"_s, percentile({lat.end() - kEdge, lat.end()}, 0.5)}};
}

// etcd's counters over a stretch of cycles, per cycle: gRPC messages received by method
// (keep-alives included: here each acquisition's lease sends one), and store/raft work.
QJsonObject perCycle(const QHash<QString, double> &before, const QHash<QString, double> &after,
    int cycles, double *requests)
{
    QJsonObject byMethod, store;
    *requests = 0;
    for (auto it = after.cbegin(); it != after.cend(); ++it) {
        const double delta = (it.value() - before.value(it.key())) / std::max(cycles, 1);
        if (delta == 0)
            continue;
        if (it.key().startsWith(u"rpc."_s)) {
            byMethod.insert(it.key().mid(4), delta);
            *requests += delta;
        } else {
            store.insert(it.key(), delta);
        }
    }
    return {{u"requests_by_method"_s, byMethod}, {u"etcd_counters"_s, store}};
}

QJsonObject latencyFields(const std::vector<double> &lat)
{
    return {{u"n"_s, qint64(lat.size())}, {u"p50_ms"_s, percentile(lat, 0.5)},
        {u"p99_ms"_s, percentile(lat, 0.99)}, {u"min_ms"_s, percentile(lat, 0)},
        {u"max_ms"_s, percentile(lat, 1)}};
}

void merge(QJsonObject &into, const QJsonObject &from)
{
    for (auto it = from.begin(); it != from.end(); ++it)
        into.insert(it.key(), it.value());
}

// The uncontended scenarios' common fields: latencies, their growth over the run, and
// etcd's requests per cycle between the two counter snapshots.
void emitUncontended(QJsonObject &line, const std::vector<double> &lat,
    const QHash<QString, double> &before, const QHash<QString, double> &after, int n)
{
    double requests = 0;
    merge(line, latencyFields(lat));
    merge(line, growthFields(lat));
    merge(line, perCycle(before, after, n, &requests));
    line.insert(u"requests_per_cycle"_s, requests);
    emitLine(line);
}

void closeMutex(EtcdMutex &mutex, const char *scenario)
{
    bool closed = false;
    QObject::connect(&mutex, &EtcdRecipe::closed, &mutex, [&] { closed = true; });
    mutex.close();
    if (!spinUntil([&] { return closed; }, std::chrono::seconds(10)))
        qWarning("%s: the mutex did not report closed() within 10 s", scenario);
}

} // namespace

// The owner thread's form: acquire() -> acquired() -> release(), the next acquire() at once.
// release() does not wait for etcd, so a cycle is the period of the loop: whatever the
// delete (and the background revoke) cost shows up in the next acquisition.
void benchLockUncontended(const QUrl &url, int n)
{
    EtcdClient client({url});
    client.connectToEndpoints();
    EtcdMutex mutex(&client, lockPath("uncontended"), {.ttl = kLockTtl});
    int acquired = 0;
    qint64 acquiredAt = 0;
    QObject::connect(&mutex, &EtcdMutex::acquired, &mutex, [&] {
        acquiredAt = now();
        ++acquired;
    });
    QObject::connect(&mutex, &EtcdMutex::lockLost, &mutex, [](const EtcdStatus &why) {
        qFatal("lock_uncontended: lock lost: %s", qPrintable(why.toString()));
    });
    auto cycle = [&](std::vector<double> *lat, std::vector<double> *acq) {
        const int acquired0 = acquired;
        const qint64 t0 = now();
        if (!mutex.acquire())
            qFatal("lock_uncontended: acquire() refused");
        if (!spinUntil([&] { return acquired > acquired0; }, std::chrono::seconds(10)))
            qFatal("lock_uncontended: not acquired within 10 s");
        if (!mutex.release())
            qFatal("lock_uncontended: release() said the hold was not ours");
        if (lat) {
            lat->push_back(msBetween(t0, now()));
            acq->push_back(msBetween(t0, acquiredAt));
        }
    };
    // A mutex's first acquisition has no spare lease and starts the watch: timed apart, on
    // new EtcdMutex objects (same client, a path each).
    std::vector<double> cold;
    for (int i = 0; i < kWarmUpCycles; ++i) {
        EtcdMutex fresh(&client, lockPath("cold") + '-' + QByteArray::number(i));
        bool held = false;
        QObject::connect(&fresh, &EtcdMutex::acquired, &fresh, [&] { held = true; });
        const qint64 t0 = now();
        fresh.acquire();
        if (!spinUntil([&] { return held; }, std::chrono::seconds(10)))
            qFatal("lock_uncontended: a new mutex was not acquired within 10 s");
        cold.push_back(msBetween(t0, now()));
        fresh.release();
        closeMutex(fresh, "lock_uncontended");
    }
    for (int i = 0; i < kWarmUpCycles; ++i)
        cycle(nullptr, nullptr);
    bool settled = false;
    const QHash<QString, double> before = quietCounters(url, &settled);
    std::vector<double> lat, acq;
    QElapsedTimer wall;
    wall.start();
    const Allocations::Window window;
    for (int i = 0; i < n; ++i)
        cycle(&lat, &acq);
    const double seconds = double(wall.nsecsElapsed()) / 1e9;
    const long long allocs = window.process(), ownerAllocs = window.thread();
    bool settledAfter = false;
    const QHash<QString, double> after = quietCounters(url, &settledAfter);
    closeMutex(mutex, "lock_uncontended");
    QJsonObject line {{u"scenario"_s, u"lock_uncontended"_s}, {u"form"_s, u"owner"_s},
        {u"ops_per_s"_s, n / seconds}, {u"acquire_p50_ms"_s, percentile(acq, 0.5)},
        {u"acquire_p99_ms"_s, percentile(acq, 0.99)},
        {u"first_acquire_p50_ms"_s, percentile(cold, 0.5)}, {u"ttl_s"_s, qint64(kLockTtl.count())},
        {u"settled"_s, settled && settledAfter}};
    insertAllocations(line, allocs, ownerAllocs, n);
    emitUncontended(line, lat, before, after, n);
}

// The worker thread's form: lock() and unlock() block a QThread while the mutex's own
// thread (this one) runs the acquisition; a cycle is lock() + unlock(), as Go's s1.
void benchLockUncontendedWorker(const QUrl &url, int n)
{
    EtcdClient client({url});
    client.connectToEndpoints();
    EtcdMutex mutex(&client, lockPath("uncontended_worker"), {.ttl = kLockTtl});
    QObject::connect(&mutex, &EtcdMutex::lockLost, &mutex, [](const EtcdStatus &why) {
        qFatal("lock_uncontended_worker: lock lost: %s", qPrintable(why.toString()));
    });
    // Stamped in the worker; read here once it finished.
    std::vector<double> lat, locked, unlocked;
    std::atomic<bool> measuring = false, failed = false;
    auto work = [&](int cycles) {
        for (int i = 0; i < cycles && !failed; ++i) {
            const qint64 t0 = now();
            if (!mutex.lock())
                failed = true;
            const qint64 t1 = now();
            if (!mutex.unlock())
                failed = true;
            const qint64 t2 = now();
            if (measuring) {
                lat.push_back(msBetween(t0, t2));
                locked.push_back(msBetween(t0, t1));
                unlocked.push_back(msBetween(t1, t2));
            }
        }
    };
    auto runWorker = [&](int cycles) {
        bool finished = false;
        std::unique_ptr<QThread> worker(QThread::create(work, cycles));
        QObject::connect(worker.get(), &QThread::finished, &mutex, [&] { finished = true; });
        worker->start();
        spinUntil([&] { return finished; });
        worker->wait();
        if (failed)
            qFatal("lock_uncontended_worker: lock() or unlock() failed");
    };
    runWorker(kWarmUpCycles);
    bool settled = false;
    const QHash<QString, double> before = quietCounters(url, &settled);
    measuring = true;
    QElapsedTimer wall;
    wall.start();
    const Allocations::Window window; // owner: the mutex's thread (the worker's are in the rest)
    runWorker(n);
    const double seconds = double(wall.nsecsElapsed()) / 1e9;
    const long long allocs = window.process(), ownerAllocs = window.thread();
    bool settledAfter = false;
    const QHash<QString, double> after = quietCounters(url, &settledAfter);
    closeMutex(mutex, "lock_uncontended_worker");
    QJsonObject line {{u"scenario"_s, u"lock_uncontended_worker"_s}, {u"form"_s, u"worker"_s},
        {u"ops_per_s"_s, n / seconds}, {u"acquire_p50_ms"_s, percentile(locked, 0.5)},
        {u"acquire_p99_ms"_s, percentile(locked, 0.99)},
        {u"unlock_p50_ms"_s, percentile(unlocked, 0.5)}, {u"ttl_s"_s, qint64(kLockTtl.count())},
        {u"settled"_s, settled && settledAfter}};
    insertAllocations(line, allocs, ownerAllocs, n);
    emitUncontended(line, lat, before, after, n);
}

namespace {

// What the contenders share; every field under `mutex`.
struct Arena
{
    std::mutex mutex;
    bool stop = false;
    int holder = -1; // the contender inside its (empty) critical section
    int overlaps = 0; // acquired() while another contender held: must stay 0
    qint64 lastRelease = 0; // stamped just before release(), as the peers' s2
    std::vector<double> handoff;
    std::vector<int> perClient;
};

// One contender: its own thread, client and EtcdMutex, as a separate process would have,
// in the owner thread's form: acquire() again right after each release(). Its first
// acquisition (a lease grant, the watch start) is a warm-up, before the clock starts.
class Contender
{
public:
    Contender(int id, Arena &arena, const QUrl &url, const QByteArray &path, QObject *wake)
        : m_thread(QThread::create([=, this, &arena] { run(id, arena, url, path, wake); }))
    { }

    void start() { m_thread->start(); }
    [[nodiscard]] bool ready() const { return m_mutex.load() != nullptr; }
    void go() // from the main thread: the first timed acquire()
    {
        EtcdMutex *m = m_mutex.load();
        QMetaObject::invokeMethod(
            m, [m] { m->acquire(); }, Qt::QueuedConnection);
    }
    [[nodiscard]] QThread *thread() const { return m_thread.get(); }

private:
    void run(int id, Arena &arena, const QUrl &url, const QByteArray &path, QObject *wake)
    {
        EtcdClient client({url});
        client.connectToEndpoints();
        EtcdMutex mutex(&client, path, {.ttl = kLockTtl});
        QObject::connect(&mutex, &EtcdMutex::lockLost, &mutex, [](const EtcdStatus &why) {
            qFatal("lock_contended_4: lock lost: %s", qPrintable(why.toString()));
        });
        bool warmingUp = true, warm = false;
        QObject::connect(&mutex, &EtcdMutex::acquired, &mutex, [&] {
            const qint64 at = now();
            if (warmingUp) {
                warm = true;
                mutex.release();
                return;
            }
            bool again = false;
            {
                std::lock_guard lock(arena.mutex);
                if (arena.holder >= 0)
                    ++arena.overlaps;
                arena.holder = id;
                again = !arena.stop;
                if (again) {
                    if (arena.lastRelease > 0)
                        arena.handoff.push_back(msBetween(arena.lastRelease, at));
                    ++arena.perClient[size_t(id)];
                }
            }
            {
                std::lock_guard lock(arena.mutex);
                arena.holder = -1;
                arena.lastRelease = now();
            }
            if (!mutex.release())
                qFatal("lock_contended_4: release() said the hold was not ours");
            if (again)
                mutex.acquire();
            else
                mutex.close(); // closed() ends this thread
        });
        mutex.acquire();
        spinUntil([&] { return warm; });
        warmingUp = false;
        QEventLoop loop;
        QObject::connect(&mutex, &EtcdRecipe::closed, &loop, &QEventLoop::quit);
        m_mutex = &mutex;
        QMetaObject::invokeMethod(
            wake, [] {}, Qt::QueuedConnection); // wakes the main loop
        loop.exec();
    }

    std::unique_ptr<QThread> m_thread;
    std::atomic<EtcdMutex *> m_mutex = nullptr;
};

} // namespace

// 4 contenders hammer one path for `seconds`: acquisitions/s, hand-off latency (the
// previous holder's release() -> the next acquired()), each one's share, and mutual
// exclusion (overlaps).
void benchLockContended(const QUrl &url, int seconds)
{
    constexpr int kContenders = 4;
    const QByteArray path = lockPath("contended_4");
    Arena arena;
    arena.perClient.assign(kContenders, 0);
    QObject here;
    int finished = 0;
    std::vector<std::unique_ptr<Contender>> all;
    for (int i = 0; i < kContenders; ++i) {
        all.push_back(std::make_unique<Contender>(i, arena, url, path, &here));
        QObject::connect(all.back()->thread(), &QThread::finished, &here, [&] { ++finished; });
        all.back()->start();
    }
    if (!spinUntil(
            [&] {
                return std::all_of(
                    all.begin(), all.end(), [](const auto &c) { return c->ready(); });
            },
            std::chrono::seconds(30)))
        qFatal("lock_contended_4: the contenders did not warm up within 30 s");
    bool settled = false;
    const QHash<QString, double> before = quietCounters(url, &settled);
    const qint64 t0 = now();
    for (auto &c : all)
        c->go();
    runFor(std::chrono::seconds(seconds));
    qint64 t1 = 0;
    int total = 0;
    {
        std::lock_guard lock(arena.mutex);
        arena.stop = true;
        t1 = now();
        for (int k : arena.perClient)
            total += k;
    }
    if (!spinUntil([&] { return finished == kContenders; }, std::chrono::seconds(30)))
        qFatal("lock_contended_4: the contenders did not finish within 30 s of the stop");
    for (auto &c : all)
        c->thread()->wait();
    bool settledAfter = false;
    const QHash<QString, double> after = quietCounters(url, &settledAfter);
    double shareMin = 1, shareMax = 0;
    QJsonArray perClient;
    for (int k : arena.perClient) {
        const double share = total > 0 ? double(k) / total : 0;
        shareMin = std::min(shareMin, share);
        shareMax = std::max(shareMax, share);
        perClient.append(k);
    }
    double requests = 0;
    QJsonObject line {{u"scenario"_s, u"lock_contended_4"_s}, {u"form"_s, u"owner"_s},
        {u"clients"_s, kContenders}, {u"window_s"_s, msBetween(t0, t1) / 1000},
        {u"acquisitions"_s, total}, {u"ops_per_s"_s, total / (msBetween(t0, t1) / 1000)},
        {u"per_client"_s, perClient}, {u"share_min"_s, shareMin}, {u"share_max"_s, shareMax},
        // FIFO fairness: every share within +-20 % of an equal one.
        {u"fair"_s, shareMin >= 0.8 / kContenders && shareMax <= 1.2 / kContenders},
        {u"overlaps"_s, arena.overlaps}, {u"ttl_s"_s, qint64(kLockTtl.count())},
        {u"settled"_s, settled && settledAfter}};
    merge(line, latencyFields(arena.handoff));
    line.insert(u"over_50ms"_s,
        qint64(std::count_if(
            arena.handoff.begin(), arena.handoff.end(), [](double ms) { return ms > 50; })));
    QJsonObject counts = perCycle(before, after, total, &requests);
    line.insert(u"requests_per_acquisition"_s, requests);
    line.insert(u"requests_by_method"_s, counts.value(u"requests_by_method"_s));
    line.insert(u"etcd_counters"_s, counts.value(u"etcd_counters"_s));
    emitLine(line);
}

// ---- where an uncontended cycle's time goes --------------------------------------------

namespace {

// One way to run the recipe's RPCs, with EtcdClient calls and nothing else.
struct Pattern
{
    const char *name;
    bool pipelined; // the delete is not awaited: the next Txn goes at once (release())
    bool grant; // a new lease granted per cycle, just before the Txn (the spare's top-up)
    bool revoke; // the used lease revoked once its delete is answered
    bool keepAlive; // an EtcdKeepAlive started per lease when granted, stopped after use
    bool pool; // leases granted ahead, untimed (one per cycle): no grant on the clock
};

// The recipe's owner-form cycle is `recipe`; the others leave parts of it out.
constexpr Pattern kPatterns[] = {
    {"floor", false, false, false, false, false}, // Txn, DeleteRange awaited: Go's s1 shape
    {"pipelined", true, false, false, false, false}, // two leases taking turns, kept alive
    {"recipe", true, true, true, true, false},
    {"no_keepalive", true, true, true, false, false},
    {"grant_only", true, true, false, false, false},
    {"revoke_only", true, false, true, false, true},
    {"keepalive_only", true, false, false, true, true},
};

struct PatternRun
{
    std::vector<double> cycle, txn;
    int behind = 0; // Txns applied before the previous delete: a recipe would wait for it
};

// The recipe's transaction: create "<dir><lease hex>" unless it exists, read the queue.
EtcdTxn recipeTxn(const QByteArray &dir, const QByteArray &key, qint64 lease)
{
    const EtcdRangeOptions queue {.prefix = true,
        .sortOrder = Etcd::SortOrder::Ascending,
        .sortTarget = Etcd::SortTarget::CreateRevision,
        .keysOnly = true};
    return {.compares = {EtcdCompare::createRevision(key, Etcd::CompareResult::Equal, 0)},
        .success = {EtcdTxnOp::put(key, {}, {.lease = lease}), EtcdTxnOp::get(dir, queue)},
        .failure = {EtcdTxnOp::get(key), EtcdTxnOp::get(dir, queue)}};
}

PatternRun runPattern(EtcdClient &client, const Pattern &p, int n)
{
    static int runs = 0; // a prefix per run: no run reads the dead keys of another
    const QByteArray dir = lockPath("pattern") + '/' + QByteArray::number(++runs) + '/';
    std::set<qint64> live; // revoked at the end, untimed, unless a cycle did
    std::map<qint64, std::unique_ptr<EtcdKeepAlive>> kept;
    auto keep = [&](qint64 lease) {
        kept[lease] = std::make_unique<EtcdKeepAlive>(&client, lease, kLockTtl);
        kept[lease]->start();
    };
    auto grant = [&](qint64 *into) {
        EtcdLeaseGrantReply *g = client.grantLease(kLockTtl);
        QObject::connect(g, &EtcdReply::finished, &client, [&, g, into](const EtcdStatus &s) {
            if (!s.isOk())
                qFatal("lock_rpc_pattern %s: grant failed", p.name);
            live.insert(g->leaseId());
            if (p.keepAlive && p.grant)
                keep(g->leaseId());
            *into = g->leaseId();
        });
    };
    std::vector<qint64> ahead(p.pool ? n + 1 : 2, 0);
    for (qint64 &id : ahead)
        grant(&id);
    spinUntil(
        [&] { return std::all_of(ahead.begin(), ahead.end(), [](qint64 id) { return id; }); });
    if (!p.grant && !p.pool) { // two leases taking turns, kept alive throughout
        keep(ahead[0]);
        keep(ahead[1]);
    }
    qint64 lease = ahead[0], next = 0;
    if (p.keepAlive && p.pool)
        keep(lease);
    std::set<qint64> deleting; // leases whose key's delete is unanswered
    PatternRun out;
    for (int i = 0; i < n; ++i) {
        const qint64 t0 = now();
        next = 0;
        if (p.grant) {
            grant(&next);
        } else {
            next = ahead[size_t(p.pool ? i + 1 : (i + 1) % 2)];
            if (p.keepAlive && p.pool)
                keep(next);
        }
        const QByteArray key = dir + QByteArray::number(lease, 16);
        // A lease comes back only once its last key's delete was answered (else the Txn
        // would find that key still there).
        spinUntil([&] { return !deleting.count(lease); });
        bool answered = false;
        EtcdTxnReply *txn = client.txn(recipeTxn(dir, key, lease));
        QObject::connect(txn, &EtcdReply::finished, &client, [&, txn](const EtcdStatus &s) {
            if (!s.isOk() || !txn->succeeded())
                qFatal("lock_rpc_pattern %s: the Txn failed", p.name);
            const QList<EtcdTxnOpResult> r = txn->results();
            if (r.size() > 1 && !r.at(1).keyValues.isEmpty()
                && r.at(1).keyValues.first().key != key)
                ++out.behind;
            answered = true;
        });
        spinUntil([&] { return answered; });
        const qint64 t1 = now();
        deleting.insert(lease);
        EtcdDeleteReply *del = client.remove(key);
        QObject::connect(del, &EtcdReply::finished, &client, [&, used = lease] {
            deleting.erase(used);
            if (p.keepAlive && (p.grant || p.pool))
                kept.erase(used); // stops it
            if (p.revoke) {
                live.erase(used);
                client.revokeLease(used);
            }
        });
        if (!p.pipelined)
            spinUntil([&] { return deleting.empty(); });
        spinUntil([&] { return next != 0; }); // without a spare, the recipe waits for its grant
        out.txn.push_back(msBetween(t0, t1));
        out.cycle.push_back(msBetween(t0, now()));
        lease = next;
    }
    spinUntil([&] { return deleting.empty(); });
    kept.clear();
    int revoking = 0;
    for (qint64 id : live) {
        ++revoking;
        QObject::connect(
            client.revokeLease(id), &EtcdReply::finished, &client, [&] { --revoking; });
    }
    spinUntil([&] { return revoking == 0; });
    return out;
}

} // namespace

// The recipe's owner-form cycle replayed with plain EtcdClient calls, its parts switched off
// one by one (kPatterns): which of them costs the time. One line per pattern; the patterns
// take turns, `rounds` times n/rounds cycles each, so a machine's load falls on all alike.
void benchLockRpcPattern(const QUrl &url, int n)
{
    constexpr int kRounds = 5;
    EtcdClient client({url});
    client.connectToEndpoints();
    std::map<QString, PatternRun> all;
    for (const Pattern &p : kPatterns)
        runPattern(client, p, 20); // warm-up
    for (int round = 0; round < kRounds; ++round) {
        for (const Pattern &p : kPatterns) {
            PatternRun r = runPattern(client, p, std::max(n / kRounds, 1));
            PatternRun &into = all[QString::fromLatin1(p.name)];
            into.cycle.insert(into.cycle.end(), r.cycle.begin(), r.cycle.end());
            into.txn.insert(into.txn.end(), r.txn.begin(), r.txn.end());
            into.behind += r.behind;
        }
    }
    for (const Pattern &p : kPatterns) {
        const PatternRun &r = all[QString::fromLatin1(p.name)];
        QJsonObject line {{u"scenario"_s, u"lock_rpc_pattern"_s},
            {u"variant"_s, QString::fromLatin1(p.name)}, {u"pipelined"_s, p.pipelined},
            {u"grant"_s, p.grant}, {u"revoke"_s, p.revoke}, {u"keepalive"_s, p.keepAlive},
            {u"txn_p50_ms"_s, percentile(r.txn, 0.5)}, {u"txn_p99_ms"_s, percentile(r.txn, 0.99)},
            {u"txn_behind_delete"_s, r.behind}};
        merge(line, latencyFields(r.cycle));
        emitLine(line);
    }
}

} // namespace Bench
