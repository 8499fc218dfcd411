// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
// EtcdQt's side of the scenario benchmarks. One JSON line per scenario on stdout.
// usage: etcdqt-bench ENDPOINT_URL SCENARIO[,SCENARIO...] [N]
//   put                   sequential put round trips from the owner thread
//   txn                   the lock-shaped transaction (create-if-absent + owner read) the peers
//                         time as raw_txn, each followed by an untimed delete
//   put_outstanding_1000  1,000 puts issued at once from one thread; threads before/after
//   watch_latency         put from one client -> event delivered in the owner thread of a
//                         second client watching the key (the peers' s5)
//   keepalive_1000        1,000 leases (TTL 6 s) kept alive on one client for S6_SECONDS
//                         (default 30): this process's CPU, and every lease alive at the end
//                         (the peers' s6)
//   election_handoff      two EtcdLeaderSelectors (own client each, TTL 10 s, no body): the
//                         follower starts, and once it is in the running (started()) the
//                         leader leads 100-200 ms more, then resign(); resign() -> the
//                         follower's elected(); min(N, 20) hand-offs, roles alternate (the
//                         peers' s3). Also: resign_call_p50_ms (resign() itself, in the owner
//                         thread), resign_to_vacant_p50_ms (resign() -> the follower's
//                         leaderChanged(""), LEADER's DELETE seen), start_to_started_p50_ms
//                         (start() -> started()), over_50ms
//                         (hand-offs that waited for etcd's 100 ms unsynced-watcher loop)
//   election_handoff_queued  the same, resign() as soon as the follower's started() arrives
//                         (the peers' s3_immediate)
//   election_crash_failover  the leader is a child process (this binary in candidate mode,
//                         TTL 2 s) that is SIGKILLed; kill -> the next child prints that it
//                         leads; min(N, 5) kills (the peers' s4)
//   election_requests_100 100 selectors (10 clients x 10, all in this thread) on one path,
//                         TTL 60 s: the etcd requests one hand-off costs (resign -> next
//                         elected -> etcd's counters still for 300 ms), from etcd's /metrics:
//                         gRPC messages received per method (keep-alives left out), MVCC and
//                         raft counters; medians over min(N, 5) hand-offs, the resigned
//                         leader rejoining between them. p50_ms: resign -> next elected
//   metrics_overhead      put and lock_uncontended's owner cycle, N of each with an
//                         EtcdMetricsRegistry installed and N without, in alternating blocks
//                         of 100 on one client: p50 of each side and with/without ratios
//                         (put_ratio, lock_ratio; issue 24: within 3 %), and the registry's
//                         text afterwards (registry_text_p50_ms)
//   lock_uncontended      one client, one EtcdMutex (TTL 10 s, a path of its own), N cycles in the
//                         owner thread's form: acquire() -> acquired() -> release(), the next
//                         acquire() at once (release() does not wait for etcd: a cycle is the
//                         loop's period, and what the delete costs shows in the next cycle);
//                         after 20 untimed warm-up cycles (the first grant, the watch start).
//                         Also first_acquire_p50_ms (a new EtcdMutex's first acquisition:
//                         no spare lease yet, the watch starting; 20 of them, untimed in p50),
//                         acquire_p50_ms (acquire() -> acquired()), etcd's requests per
//                         cycle by method (/metrics), and the p50 of the first and the last
//                         200 cycles (does a cycle get dearer as dead key names pile up under
//                         the path?) (the peers' s1)
//   lock_uncontended_worker  the same from a worker QThread: lock() + unlock(), both blocking
//                         until etcd answered, the mutex's thread (this one) running the
//                         acquisition. Also acquire_p50_ms (lock()), unlock_p50_ms
//   lock_contended_4      4 contenders, each its own thread, client and EtcdMutex (as four
//                         processes), owner form, acquire() again right after each release(),
//                         for LOCK_SECONDS (default 10): acquisitions/s, hand-off latency
//                         (release() -> the next acquired(), p50/p99), per_client counts and
//                         shares (fair: each within +-20 % of 25 %), overlaps (must be 0),
//                         etcd's requests per acquisition (the peers' s2)
//   lock_rpc_pattern      diagnosis, not in bench/run: lock_uncontended's owner-form cycle
//                         replayed with plain EtcdClient calls (Txn, DeleteRange not awaited,
//                         a lease granted per cycle and kept alive, the used one revoked),
//                         and the same with parts left out; one line per variant (see
//                         lock_bench.cpp's kPatterns), the variants taking turns
//   cache_load_10k        an EtcdPathChildrenCache of 10,000 children (24-byte names, 64-byte
//                         values, seeded untimed in txns of 128 puts) started in
//                         PostInitializedEvent mode: start() -> initialized() (every child in)
//                         in the owner thread, p50 over 5 loads after an untimed one, one
//                         client; also started_p50_ms (-> started(), the watch live) and
//                         cpu_p50_ms (this process's CPU, every thread, per load). The floor
//                         is raw_floor.cpp's paged read of the same keys
//   cache_load_100k       the same with 100,000 children
//   cache_event_latency   put from one client (in a thread of its own) -> childUpdated() in the
//                         owner thread of a second client's cache of 100 children, min(N, 1000)
//                         puts one after another (compared with the peers' s5); also
//                         watch_p50_ms/watch_p99_ms: the same with a plain EtcdWatch on the
//                         prefix instead of the cache
//   cache_memory          the heap (mallinfo2, every arena) and RSS a loaded cache of 100,000
//                         children holds, per child, against 2 x (key + value bytes) + 100 B
//   discovery_lookup      EtcdServiceProvider::instance() from a warm cache of 100 instances
//                         (seeded untimed, no leases): ns per call, median of 15 batches of
//                         200,000 calls, per built-in strategy (random_ns, round_robin_ns,
//                         sticky_ns); copy_floor_ns: one instance copied out of a list, what
//                         returning one by value costs alone. No RPC is timed; no peer has it
//   discovery_heal        an instance's lease revoked by another client -> the instance put again
//                         under a new lease (default resilience), seen by a third client's watch:
//                         the revoke's DELETE -> the heal's PUT, min(N, 20) revokes; also
//                         detect_p50_ms (DELETE -> instanceLost()), after_report_p50_ms (etcd's
//                         answer that the lease is gone, to a check the bench sends at the
//                         DELETE -> the PUT), rtt_p50_ms (a compare-and-set like the heal's,
//                         creating a key), rtt_read_p50_ms (one that writes nothing),
//                         heal_rtts (after_report_p50 / rtt_p50). No peer heals a registration
//   election_handoff_etcd    EtcdElection (etcd's own layout, Go's concurrency.Election): the
//                         successor queued in etcd, then resign() -> its elected(); beside
//                         Go's s3_immediate, which uses that very layout
//   election_handoff_etcd_held  the same, the leader leading on for 100-200 ms after the
//                         successor queued (as election_handoff); beside Go's s3
//   election_crash_failover_etcd  the same as election_crash_failover with EtcdElection
//                         children (mode election_candidate_etcd); beside Go's s4
//   queue_throughput      EtcdQueue: 1 producer (a thread and client of its own, as the peer's
//                         producer goroutine; enqueue after enqueue, each waited for) and 4
//                         consumers (own client each, dequeue() in a loop, in this thread),
//                         Q_SECONDS (default 10) long, then up to 10 s to drain: items/s taken
//                         within the window (taken_in_window / window), enqueue call ->
//                         dequeue answer latency, duplicates (the peers' q1, and Go's queue
//                         counted the same way by bench/go's etcdqt-queue-peer)
//   priority_queue_throughput  the same with EtcdPriorityQueue, priorities 0..9 (the peers' q3)
//   workqueue_throughput  the same with EtcdWorkQueue, each item received and acknowledged
//                         (counted once ack() answered true); no peer has a work queue
//   queue_latency         one consumer parked on an empty EtcdQueue, one producer: enqueue()
//                         -> the dequeue() reply, min(N, 1000) items, 2 ms apart (the peers'
//                         q2; its floor is the raw watch, the peers' s5)
// put, txn, watch_latency, lock_uncontended(_worker) and queue_latency also count heap
// allocations (alloccount.cpp; issue 21 item 3): allocs_per_op is the whole process's per
// timed operation, owner_allocs_per_op the owner thread's share of it (the scenario's own
// waiting included); both null in a sanitizer build.
// The scale curves (bench/scale_bench.cpp, issue 21 item 4; bench/run --scale): N is the point's
// size x, one point per process; each line has "x", "threads" and "engine_threads" (this
// process's; EtcdQt's engine has one per client, and neither may grow with x). No Go beside
// them: the peers' harness has no scale parameters.
//   scale_leases          N leases (TTL 10 s) kept alive by EtcdKeepAlive on one client (one
//                         LeaseKeepAlive stream) for SCALE_SECONDS (default 10): this process's
//                         CPU over the window (and per thread name), rss_mb, heap and RSS per
//                         lease; all revoked after, leases_left (etcd's lease list) must be 0
//   scale_watches         N EtcdWatch objects on one client (one Watch stream), a key each: heap
//                         and RSS per watch, setup_ms (every watch Active), and put from a
//                         second client -> eventsReceived in the owner thread, 200 puts
//   scale_election_candidates  a leader and N candidates behind it (EtcdLeaderSelector, TTL 60
//                         s, 10 clients whatever N, all in this thread; started 100 at a time):
//                         10 hand-offs (SCALE_HANDOFFS), resign() -> the next elected();
//                         per hand-off etcd's requests (keep-alives left out; median, max, by
//                         method) and this process's CPU (cpu_per_handoff_ms: until 50 ms
//                         after the election)
//   scale_lock_waiters    an EtcdMutex holder and N waiters queued on one path (TTL 60 s, 10
//                         clients): 10 hand-offs (SCALE_HANDOFFS), release() -> the next
//                         acquired(), measured as the election's
//   scale_cache_children  cache_load with N children (seeded on its path): p50 of 5 loads, heap
//                         and RSS per child of one loaded cache
//   etcdqt-bench ENDPOINT_URL election_candidate PATH TTL_S   child mode of the crash scenario:
#include "benchutil.h"

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using namespace Bench;

namespace {

// Runs `step` n times one after another, each started when the previous finished, and reports
// the round trips as seen in this (the owner) thread.
void sequential(const QString &scenario, int n, const Step &step, const Step &after = {})
{
    std::vector<double> lat;
    lat.reserve(n);
    QElapsedTimer wall;
    wall.start();
    long long allocs = 0, ownerAllocs = 0; // in the timed steps only
    for (int i = 0; i < n; ++i) {
        EtcdStatus status;
        QEventLoop loop; // the waiting's own allocations stay out of the count
        QElapsedTimer t;
        t.start();
        const Allocations::Window window;
        EtcdReply *reply = step();
        QObject::connect(reply, &EtcdReply::finished, &loop, [&](const EtcdStatus &s) {
            status = s;
            loop.quit();
        });
        loop.exec();
        lat.push_back(double(t.nsecsElapsed()) / 1e6);
        allocs += window.process();
        ownerAllocs += window.thread();
        if (!status.isOk())
            qFatal("%s failed: %s", qPrintable(scenario), qPrintable(status.toString()));
        if (after) {
            QEventLoop l2;
            QObject::connect(after(), &EtcdReply::finished, &l2, &QEventLoop::quit);
            l2.exec();
        }
    }
    const double seconds = double(wall.nsecsElapsed()) / 1e9;
    QJsonObject line {{u"scenario"_s, scenario}, {u"n"_s, n}, {u"p50_ms"_s, percentile(lat, 0.5)},
        {u"p99_ms"_s, percentile(lat, 0.99)}};
    // With an untimed step after each, the wall clock is not a rate of the timed step: no
    // ops_per_s then (it read 0 in bench/run --report's tables).
    if (!after)
        line.insert(u"ops_per_s"_s, n / seconds);
    insertAllocations(line, allocs, ownerAllocs, n);
    emitLine(line);
}

EtcdTxn lockShapedTxn(const QByteArray &dir, const QByteArray &key, qint64 lease)
{
    return {.compares = {EtcdCompare::createRevision(key, Etcd::CompareResult::Equal, 0)},
        .success = {EtcdTxnOp::put(key, {}, {.lease = lease}),
            EtcdTxnOp::get(dir,
                {.prefix = true,
                    .limit = 1,
                    .sortOrder = Etcd::SortOrder::Ascending,
                    .sortTarget = Etcd::SortTarget::CreateRevision})}};
}

void benchTxn(EtcdClient &client, int n)
{
    qint64 lease = 0;
    {
        QEventLoop loop;
        auto *grant = client.grantLease(60s);
        QObject::connect(grant, &EtcdReply::finished, &loop, [&] {
            lease = grant->leaseId();
            loop.quit();
        });
        loop.exec();
    }
    const QByteArray dir = "/bench/etcdqt/lock/"_ba;
    const QByteArray key = dir + QByteArray::number(lease, 16);
    sequential(
        u"txn"_s, n, [&] { return client.txn(lockShapedTxn(dir, key, lease)); },
        [&] { return client.remove(key); });
    client.revokeLease(lease);
}

void benchOutstanding(EtcdClient &client)
{
    const int before = threadCount();
    int peak = before, done = 0, failed = 0;
    QElapsedTimer t;
    t.start();
    QEventLoop loop;
    for (int i = 0; i < 1000; ++i) {
        auto *reply = client.put("/bench/etcdqt/many/"_ba + QByteArray::number(i), "v"_ba);
        QObject::connect(reply, &EtcdReply::finished, &loop, [&](const EtcdStatus &s) {
            failed += s.isOk() ? 0 : 1;
            peak = std::max(peak, threadCount());
            if (++done == 1000)
                loop.quit();
        });
    }
    loop.exec();
    emitLine({{u"scenario"_s, u"put_outstanding_1000"_s}, {u"n"_s, 1000}, {u"failed"_s, failed},
        {u"wall_ms"_s, double(t.nsecsElapsed()) / 1e6}, {u"threads_before"_s, before},
        {u"threads_peak"_s, peak}, {u"threads_after"_s, threadCount()}});
}

void benchWatchLatency(const QUrl &url, int n)
{
    EtcdClient writer({url}), watcher({url});
    writer.connectToEndpoints();
    watcher.connectToEndpoints();
    const QByteArray key = "/bench/etcdqt/watch"_ba;
    EtcdWatch watch(&watcher, key);
    QElapsedTimer clock;
    clock.start();
    qint64 seenAt = 0;
    int seen = 0;
    QObject::connect(
        &watch, &EtcdWatch::eventsReceived, &watch, [&](const QList<EtcdWatchEvent> &events) {
            seen += int(events.size());
            seenAt = clock.nsecsElapsed();
        });
    watch.start();
    spinUntil([&] { return watch.state() == EtcdWatch::State::Active; });
    std::vector<double> lat;
    QElapsedTimer wall;
    wall.start();
    const Allocations::Window window; // the put and its answer included
    for (int i = 0; i < n; ++i) {
        const qint64 sent = clock.nsecsElapsed();
        writer.put(key, QByteArray::number(i));
        spinUntil([&] { return seen > i; });
        lat.push_back(double(seenAt - sent) / 1e6);
    }
    QJsonObject line {{u"scenario"_s, u"watch_latency"_s}, {u"n"_s, n},
        {u"p50_ms"_s, percentile(lat, 0.5)}, {u"p99_ms"_s, percentile(lat, 0.99)},
        {u"ops_per_s"_s, n / (double(wall.nsecsElapsed()) / 1e9)}};
    insertAllocations(line, window, n);
    emitLine(line);
}

void benchKeepAlive(EtcdClient &client, int leases, std::chrono::seconds ttl, int seconds)
{
    std::vector<std::unique_ptr<EtcdKeepAlive>> keeps;
    int granted = 0;
    for (int i = 0; i < leases; ++i) {
        auto *g = client.grantLease(ttl);
        QObject::connect(g, &EtcdReply::finished, &client, [&, g](const EtcdStatus &s) {
            if (!s.isOk())
                qFatal("grant failed: %s", qPrintable(s.toString()));
            keeps.push_back(std::make_unique<EtcdKeepAlive>(&client, g->leaseId(), ttl));
            keeps.back()->start();
            ++granted;
        });
    }
    spinUntil([&] { return granted == leases; });
    long expired = 0; // nobody listens to renewed(), as an application with many leases
    for (auto &k : keeps)
        QObject::connect(k.get(), &EtcdKeepAlive::expired, k.get(), [&] { ++expired; });
    const CpuWindow measured;
    bool over = false; // with nobody listening, renewals wake nothing in this thread
    QTimer::singleShot(
        std::chrono::seconds(seconds), Qt::PreciseTimer, &client, [&] { over = true; });
    spinUntil([&] { return over; });
    const CpuWindow::Use cpu = measured.use();
    int alive = 0, answered = 0;
    for (auto &k : keeps) {
        auto *ttlReply = client.leaseTimeToLive(k->leaseId());
        QObject::connect(ttlReply, &EtcdReply::finished, &client, [&, ttlReply] {
            alive += ttlReply->ttl().count() > 0 ? 1 : 0;
            ++answered;
        });
        k->stop();
    }
    spinUntil([&] { return answered == leases; });
    int revoked = 0;
    for (auto &k : keeps)
        QObject::connect(
            client.revokeLease(k->leaseId()), &EtcdReply::finished, &client, [&] { ++revoked; });
    spinUntil([&] { return revoked == leases; });
    emitLine({{u"scenario"_s, u"keepalive_1000"_s}, {u"leases"_s, leases},
        {u"ttl_s"_s, qint64(ttl.count())}, {u"window_s"_s, cpu.seconds},
        {u"expired"_s, qint64(expired)}, {u"alive_at_end"_s, alive}, {u"client_cpu_pct"_s, cpu.pct},
        {u"cpu_pct_by_thread"_s, cpu.byThread}});
}

} // namespace

namespace {
// The queue scenarios' window: Q_SECONDS, default 10 s (the peers' -q-seconds).
std::chrono::seconds queueWindow()
{
    return std::chrono::seconds(
        qEnvironmentVariableIsSet("Q_SECONDS") ? qEnvironmentVariableIntValue("Q_SECONDS") : 10);
}

// scale_leases' window: SCALE_SECONDS, default 10 s.
std::chrono::seconds scaleWindow()
{
    return std::chrono::seconds(qEnvironmentVariableIsSet("SCALE_SECONDS")
            ? qEnvironmentVariableIntValue("SCALE_SECONDS")
            : 10);
}

// The scale election's and lock's hand-offs per point: SCALE_HANDOFFS, default 10 (more to
// profile one point).
int scaleHandoffs()
{
    return qEnvironmentVariableIsSet("SCALE_HANDOFFS")
        ? std::max(1, qEnvironmentVariableIntValue("SCALE_HANDOFFS"))
        : 10;
}
} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    if (argc == 5 && std::strcmp(argv[2], "election_candidate") == 0)
        return runCandidate(
            QUrl(QString::fromLocal8Bit(argv[1])), QByteArray(argv[3]), std::atoi(argv[4]));
    if (argc == 5 && std::strcmp(argv[2], "election_candidate_etcd") == 0)
        return runNativeCandidate(
            QUrl(QString::fromLocal8Bit(argv[1])), QByteArray(argv[3]), std::atoi(argv[4]));
    if (argc < 3) {
        std::fprintf(stderr,
            "usage: %s ENDPOINT_URL SCENARIO[,SCENARIO...] [N] (scenarios: see the source "
            "header)\n",
            argv[0]);
        return 2;
    }
    const int n = argc > 3 ? std::atoi(argv[3]) : 2000;
    EtcdClient client({QUrl(QString::fromLocal8Bit(argv[1]))});
    client.connectToEndpoints();
    for (const QString &scenario : QString::fromLocal8Bit(argv[2]).split(u',')) {
        if (scenario == u"put")
            sequential(u"put"_s, n,
                [&] { return client.put("/bench/etcdqt/put"_ba, "0123456789abcdef"_ba); });
        else if (scenario == u"txn")
            benchTxn(client, n);
        else if (scenario == u"put_outstanding_1000")
            benchOutstanding(client);
        else if (scenario == u"watch_latency")
            benchWatchLatency(client.endpoints().first(), std::min(n, 1000));
        else if (scenario == u"keepalive_1000")
            benchKeepAlive(client, 1000, std::chrono::seconds(6),
                qEnvironmentVariableIsSet("S6_SECONDS") ? qEnvironmentVariableIntValue("S6_SECONDS")
                                                        : 30);
        else if (scenario == u"election_handoff")
            benchHandoff(client.endpoints().first(), std::min(n, 20), true);
        else if (scenario == u"election_handoff_queued")
            benchHandoff(client.endpoints().first(), std::min(n, 20), false);
        else if (scenario == u"election_crash_failover")
            benchCrashFailover(client.endpoints().first(), std::min(n, 5));
        else if (scenario == u"election_handoff_etcd")
            benchHandoffEtcd(client.endpoints().first(), std::min(n, 20), false);
        else if (scenario == u"election_handoff_etcd_held")
            benchHandoffEtcd(client.endpoints().first(), std::min(n, 20), true);
        else if (scenario == u"election_crash_failover_etcd")
            benchCrashFailoverEtcd(client.endpoints().first(), std::min(n, 5));
        else if (scenario == u"election_requests_100")
            benchElectionRequests(client.endpoints().first(), std::min(n, 5));
        else if (scenario == u"metrics_overhead")
            benchMetricsOverhead(client.endpoints().first(), n);
        else if (scenario == u"lock_uncontended")
            benchLockUncontended(client.endpoints().first(), n);
        else if (scenario == u"lock_uncontended_worker")
            benchLockUncontendedWorker(client.endpoints().first(), n);
        else if (scenario == u"lock_rpc_pattern")
            benchLockRpcPattern(client.endpoints().first(), n);
        else if (scenario == u"lock_contended_4")
            benchLockContended(client.endpoints().first(),
                qEnvironmentVariableIsSet("LOCK_SECONDS")
                    ? qEnvironmentVariableIntValue("LOCK_SECONDS")
                    : 10);
        else if (scenario == u"cache_load_10k")
            benchCacheLoad(client.endpoints().first(), scenario, 10000, 5);
        else if (scenario == u"cache_load_100k")
            benchCacheLoad(client.endpoints().first(), scenario, 100000, 5);
        else if (scenario == u"cache_event_latency")
            benchCacheEventLatency(client.endpoints().first(), std::min(n, 1000));
        else if (scenario == u"cache_memory")
            benchCacheMemory(client.endpoints().first(), 100000);
        else if (scenario == u"queue_throughput")
            benchQueueThroughput(client.endpoints().first(), queueWindow());
        else if (scenario == u"priority_queue_throughput")
            benchPriorityQueueThroughput(client.endpoints().first(), queueWindow());
        else if (scenario == u"workqueue_throughput")
            benchWorkQueueThroughput(client.endpoints().first(), queueWindow());
        else if (scenario == u"queue_latency")
            benchQueueLatency(client.endpoints().first(), std::min(n, 1000));
        else if (scenario == u"discovery_lookup")
            benchDiscoveryLookup(client.endpoints().first());
        else if (scenario == u"discovery_heal")
            benchDiscoveryHeal(client.endpoints().first(), std::min(n, 20));
        else if (scenario == u"scale_leases")
            benchScaleLeases(client.endpoints().first(), n, scaleWindow());
        else if (scenario == u"scale_watches")
            benchScaleWatches(client.endpoints().first(), n, 200);
        else if (scenario == u"scale_election_candidates")
            benchScaleElectionCandidates(client.endpoints().first(), n, scaleHandoffs());
        else if (scenario == u"scale_lock_waiters")
            benchScaleLockWaiters(client.endpoints().first(), n, scaleHandoffs());
        else if (scenario == u"scale_cache_children")
            benchScaleCacheChildren(client.endpoints().first(), n, 5);
        else
            qFatal("unknown scenario %s", qPrintable(scenario));
    }
    return 0;
}
