// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// The scale curves of etcdqt-bench (issue 21, item 4; see etcdqt_bench.cpp's header): one
// point per process, x its size, so that one point's memory is not the last one's. Every line
// has "threads" and "engine_threads" (this process's, with the point's objects live): the claim
// is that EtcdQt's own do not grow with x (gRPC's pools vary by a thread or two on their own).
// Go's counterparts are bench/go/src/etcdqtscalepeer's, run beside these by
// bench/run --scale --peers.
#include "benchutil.h"

#include <malloc.h> // malloc_trim

#include <ctime>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace Bench {

namespace {

constexpr int kInFlight = 256; // grants, revokes: outstanding at once, as an application would
constexpr int kClients = 10; // election and lock points: the same clients whatever x is
constexpr size_t kStartBatch = 100; // candidates started at once

// A key space of this process alone (etcd keeps deleted names until a compaction, and a
// prefix read walks them: a run must not pay for the last one's).
QByteArray scalePath(const char *name)
{
    return "/bench/scale/"_ba + name + '/' + QByteArray::number(qint64(::getpid()));
}

// At most kInFlight outstanding (grants, revokes), as an application would.
void windowed(const std::function<EtcdReply *(int)> &issue, int count,
    const std::function<void(int, EtcdReply *)> &done = {})
{
    Bench::windowed("scale bench", count, kInFlight, issue, done);
}

// Lets deleted replies go, and freed memory back, before memory is read.
void settleHeap()
{
    settle();
    malloc_trim(0);
}

// The ids of the leases etcd holds (every client's), read with client.leases().
QList<qint64> leasesInEtcd(EtcdClient &client)
{
    QList<qint64> ids;
    auto *reply = client.leases();
    windowed([&](int) { return reply; }, 1, [&](int, EtcdReply *) { ids = reply->leaseIds(); });
    return ids;
}

std::vector<qint64> grantLeases(EtcdClient &client, int count, std::chrono::seconds ttl)
{
    std::vector<qint64> ids(size_t(count), 0);
    windowed([&](int) { return client.grantLease(ttl); }, count,
        [&](int i, EtcdReply *r) {
            ids[size_t(i)] = static_cast<EtcdLeaseGrantReply *>(r)->leaseId();
        });
    return ids;
}

void revokeLeases(EtcdClient &client, const std::vector<qint64> &ids)
{
    windowed([&](int i) { return client.revokeLease(ids[size_t(i)]); }, int(ids.size()));
}

void merge(QJsonObject &into, const QJsonObject &from)
{
    for (auto it = from.begin(); it != from.end(); ++it)
        into.insert(it.key(), it.value());
}

// What a point's hand-offs measured: latency, this process's CPU (the hand-off and every
// candidate's reaction to it, 50 ms after it), and the requests etcd received for it, read
// from its counters quiet on either side (keep-alives left out: they run on their own clock).
struct Handoffs
{
    std::vector<double> lat, cpu, requests;
    QHash<QString, std::vector<double>> byMethod;
    bool settled = true;

    QHash<QString, double> counters(const QUrl &url)
    {
        bool quiet = false;
        QHash<QString, double> c = quietCounters(url, &quiet);
        settled = settled && quiet;
        return c;
    }
    void record(double ms, double cpuMs, const QHash<QString, double> &before,
        const QHash<QString, double> &after)
    {
        lat.push_back(ms);
        cpu.push_back(cpuMs);
        double total = 0;
        for (auto it = after.cbegin(); it != after.cend(); ++it) {
            if (!it.key().startsWith(u"rpc."_s) || it.key() == u"rpc.LeaseKeepAlive"_s)
                continue;
            const double delta = it.value() - before.value(it.key());
            byMethod[it.key().mid(4)].push_back(delta);
            total += delta;
        }
        requests.push_back(total);
    }
    [[nodiscard]] QJsonObject fields() const
    {
        QJsonObject methods, methodsMax; // the max: which requests an outlying hand-off made
        for (auto it = byMethod.cbegin(); it != byMethod.cend(); ++it) {
            if (percentile(it.value(), 1) > 0) {
                methods.insert(it.key(), percentile(it.value(), 0.5));
                methodsMax.insert(it.key(), percentile(it.value(), 1));
            }
        }
        return {{u"n"_s, qint64(lat.size())}, {u"p50_ms"_s, percentile(lat, 0.5)},
            {u"p99_ms"_s, percentile(lat, 0.99)}, {u"cpu_per_handoff_ms"_s, percentile(cpu, 0.5)},
            {u"requests_per_handoff"_s, percentile(requests, 0.5)},
            {u"requests_per_handoff_max"_s, percentile(requests, 1)},
            {u"requests_by_method"_s, methods}, {u"requests_by_method_max"_s, methodsMax},
            {u"settled"_s, settled}};
    }
};

std::vector<std::unique_ptr<EtcdClient>> makeClients(const QUrl &url)
{
    std::vector<std::unique_ptr<EtcdClient>> clients;
    for (int c = 0; c < kClients; ++c) {
        clients.push_back(std::make_unique<EtcdClient>(QList<QUrl> {url}));
        // No watch-progress probes on idle streams: they would count as requests.
        clients.back()->setStreamLivenessInterval(std::chrono::seconds(60));
        clients.back()->connectToEndpoints();
    }
    return clients;
}

} // namespace

// x leases kept alive on one client's one LeaseKeepAlive stream for `window`: this process's
// CPU over the window, the heap and RSS they hold, the leases that expired meanwhile (0).
// A warm-up lease opens the stream before the baseline, so per lease is per lease.
void benchScaleLeases(const QUrl &url, int x, std::chrono::seconds window)
{
    constexpr auto ttl = std::chrono::seconds(10);
    EtcdClient client({url});
    client.connectToEndpoints();
    const std::vector<qint64> warm = grantLeases(client, 1, ttl);
    EtcdKeepAlive warmKeep(&client, warm.front(), ttl);
    warmKeep.start();
    settleHeap();
    const qint64 heap0 = heapInUse(), rss0 = rssBytes();
    const std::vector<qint64> ids = grantLeases(client, x, ttl);
    std::vector<std::unique_ptr<EtcdKeepAlive>> keeps;
    long expired = 0;
    for (qint64 id : ids) {
        keeps.push_back(std::make_unique<EtcdKeepAlive>(&client, id, ttl));
        QObject::connect(keeps.back().get(), &EtcdKeepAlive::expired, &client, [&] { ++expired; });
        keeps.back()->start();
    }
    settleHeap();
    const qint64 heap1 = heapInUse(), rss1 = rssBytes();
    const CpuWindow measured;
    runFor(window);
    const CpuWindow::Use cpu = measured.use(); // by thread: the owner, EtcdQt's engine, gRPC's
    const QJsonObject threads = threadFields();
    for (auto &k : keeps)
        k->stop();
    warmKeep.stop();
    revokeLeases(client, ids);
    revokeLeases(client, warm);
    int left = 0;
    for (qint64 id : leasesInEtcd(client))
        left += (std::find(ids.begin(), ids.end(), id) != ids.end() || id == warm.front()) ? 1 : 0;
    QJsonObject line {{u"scenario"_s, u"scale_leases"_s}, {u"x"_s, x},
        {u"ttl_s"_s, qint64(ttl.count())}, {u"window_s"_s, cpu.seconds},
        {u"client_cpu_pct"_s, cpu.pct}, {u"rss_mb"_s, double(rss1) / 1e6},
        {u"heap_per_lease_b"_s, double(heap1 - heap0) / x},
        {u"rss_per_lease_b"_s, double(rss1 - rss0) / x}, {u"expired"_s, qint64(expired)},
        {u"leases_left"_s, left}, {u"cpu_pct_by_thread"_s, cpu.byThread}};
    merge(line, threads);
    emitLine(line);
    if (left != 0)
        qFatal("scale_leases: %d leases left in etcd after revoking", left);
}

namespace {

// x watches of one client, one key each, counting every event they deliver.
struct Watches
{
    std::vector<std::unique_ptr<EtcdWatch>> all;
    int active = 0, seen = 0;
    qint64 seenAt = 0;
};

void startWatches(Watches &w, EtcdClient &client, const QByteArray &prefix, int x)
{
    for (int i = 0; i < x; ++i) {
        w.all.push_back(std::make_unique<EtcdWatch>(&client, prefix + QByteArray::number(i)));
        EtcdWatch *watch = w.all.back().get();
        QObject::connect(watch, &EtcdWatch::stateChanged, watch,
            [&w](EtcdWatch::State s) { w.active += s == EtcdWatch::State::Active ? 1 : 0; });
        QObject::connect(
            watch, &EtcdWatch::eventsReceived, watch, [&w](const QList<EtcdWatchEvent> &events) {
                w.seenAt = now();
                w.seen += int(events.size());
            });
        watch->start();
    }
    if (!spinUntil([&] { return w.active == x; }, std::chrono::seconds(120)))
        qFatal("scale_watches: %d of %d watches active after 120 s", w.active, x);
}

} // namespace

// x EtcdWatch objects on one client (one Watch stream), each on its own key: the heap and RSS
// they hold, and `samples` puts from a second client to one of the keys (they take turns) ->
// eventsReceived in this (the owner) thread. A warm-up watch opens the stream first.
void benchScaleWatches(const QUrl &url, int x, int samples)
{
    EtcdClient watcher({url}), writer({url});
    watcher.connectToEndpoints();
    writer.connectToEndpoints();
    const QByteArray prefix = scalePath("watch") + '/';
    Watches warm, w;
    startWatches(warm, watcher, prefix + "warm-", 1);
    settleHeap();
    const qint64 heap0 = heapInUse(), rss0 = rssBytes();
    QElapsedTimer setup;
    setup.start();
    startWatches(w, watcher, prefix, x);
    const double setupMs = double(setup.nsecsElapsed()) / 1e6;
    settleHeap();
    const qint64 heap1 = heapInUse(), rss1 = rssBytes();
    std::vector<double> lat;
    for (int s = 0; s < samples; ++s) {
        const int before = w.seen;
        const qint64 sent = now();
        writer.put(prefix + QByteArray::number((s * 7919) % x), QByteArray::number(s));
        if (!spinUntil([&] { return w.seen > before; }, std::chrono::seconds(10)))
            qFatal("scale_watches: put %d not seen within 10 s", s);
        lat.push_back(msBetween(sent, w.seenAt));
    }
    QJsonObject line {{u"scenario"_s, u"scale_watches"_s}, {u"x"_s, x}, {u"n"_s, samples},
        {u"p50_ms"_s, percentile(lat, 0.5)}, {u"p99_ms"_s, percentile(lat, 0.99)},
        {u"setup_ms"_s, setupMs}, {u"rss_mb"_s, double(rss1) / 1e6},
        {u"heap_per_watch_b"_s, double(heap1 - heap0) / x},
        {u"rss_per_watch_b"_s, double(rss1 - rss0) / x}};
    merge(line, threadFields());
    emitLine(line);
    w.all.clear();
    warm.all.clear();
    writer.remove(prefix, {.prefix = true});
    settleHeap();
}

namespace {

// One selector and the signals a hand-off is read from.
struct Candidate
{
    std::unique_ptr<EtcdLeaderSelector> selector;
    int started = 0, finished = 0, closed = 0;
};

struct Election
{
    std::vector<std::unique_ptr<Candidate>> all;
    int elected = 0;
    qint64 electedAt = 0;

    Candidate *leader() const
    {
        Candidate *found = nullptr;
        for (const auto &c : all) {
            if (c->selector->isLeader()) {
                if (found)
                    qFatal("scale_election_candidates: two leaders");
                found = c.get();
            }
        }
        return found;
    }
    [[nodiscard]] bool startedUpTo(size_t last) const
    {
        return std::all_of(all.begin(), all.begin() + qsizetype(last),
            [](const auto &c) { return c->started > 0; });
    }
};

void addCandidate(Election &e, EtcdClient *client, const QByteArray &path)
{
    auto c = std::make_unique<Candidate>();
    // TTL 60 s: 1,000 candidates' keep-alives stay a small background.
    c->selector = std::make_unique<EtcdLeaderSelector>(
        client, path, EtcdLeaderSelectorOptions {.ttl = std::chrono::seconds(60)});
    Candidate *p = c.get();
    EtcdLeaderSelector *s = p->selector.get();
    QObject::connect(s, &EtcdLeaderSelector::started, s, [p] { ++p->started; });
    QObject::connect(s, &EtcdLeaderSelector::termFinished, s, [p] { ++p->finished; });
    QObject::connect(s, &EtcdRecipe::closed, s, [p] { ++p->closed; });
    QObject::connect(s, &EtcdLeaderSelector::elected, s, [&e] {
        e.electedAt = now();
        ++e.elected;
    });
    QObject::connect(s, &EtcdLeaderSelector::failed, s, [](const EtcdStatus &why) {
        qFatal("scale_election_candidates: %s", qPrintable(why.toString()));
    });
    e.all.push_back(std::move(c));
}

// The leader resigns -> the next is elected; the old leader then rejoins at the back, so
// every hand-off has x candidates behind the leader.
void electionHandoff(Election &e, const QUrl &url, Handoffs &h)
{
    const QHash<QString, double> before = h.counters(url);
    Candidate *old = e.leader();
    if (!old)
        qFatal("scale_election_candidates: no leader");
    const int elected0 = e.elected, finished0 = old->finished, started0 = old->started;
    const double cpu0 = processCpuMs();
    const qint64 t0 = now();
    old->selector->resign();
    if (!spinUntil([&] { return e.elected > elected0; }, std::chrono::seconds(10)))
        qFatal("scale_election_candidates: no hand-off within 10 s");
    runFor(50ms); // the other candidates' reactions to the hand-off
    const double cpu = processCpuMs() - cpu0;
    h.record(msBetween(t0, e.electedAt), cpu, before, h.counters(url));
    if (!spinUntil([&] { return old->finished > finished0; }, std::chrono::seconds(10)))
        qFatal("scale_election_candidates: the old leader's term did not finish");
    old->selector->start();
    if (!spinUntil([&] { return old->started > started0; }, std::chrono::seconds(10)))
        qFatal("scale_election_candidates: the old leader did not rejoin");
}

} // namespace

// A leader and x candidates behind it in one EtcdLeaderSelector election, on kClients clients
// whatever x is (candidate i on client i % kClients): per hand-off, resign() -> the next
// elected() and the requests etcd received for it. x starts at 1: one candidate behind the
// leader is the smallest hand-off.
void benchScaleElectionCandidates(const QUrl &url, int x, int handoffs)
{
    auto clients = makeClients(url);
    const QByteArray path = scalePath("election");
    Election e;
    for (int i = 0; i <= x; ++i)
        addCandidate(e, clients[size_t(i % kClients)].get(), path);
    QElapsedTimer startup;
    startup.start();
    // In batches: 1,001 selectors granting two leases each at once made a loaded etcd answer
    // "waiting for the applied index took too long" to hundreds of them.
    for (size_t first = 0; first < e.all.size(); first += kStartBatch) {
        const size_t last = std::min(e.all.size(), first + kStartBatch);
        for (size_t i = first; i < last; ++i)
            e.all[i]->selector->start();
        if (!spinUntil([&] { return e.startedUpTo(last); }, std::chrono::seconds(60)))
            qFatal("scale_election_candidates: candidates %zu-%zu not in the running in 60 s",
                first, last - 1);
    }
    if (!spinUntil([&] { return e.elected == 1; }, std::chrono::seconds(10)))
        qFatal("scale_election_candidates: no leader 10 s after every candidate started");
    const double startupMs = double(startup.nsecsElapsed()) / 1e6;
    Handoffs h;
    for (int i = 0; i < handoffs; ++i)
        electionHandoff(e, url, h);
    QJsonObject line = h.fields();
    merge(line, threadFields());
    for (auto &c : e.all)
        c->selector->close();
    if (!spinUntil(
            [&] {
                return std::all_of(
                    e.all.begin(), e.all.end(), [](const auto &c) { return c->closed > 0; });
            },
            std::chrono::seconds(60)))
        qWarning("scale_election_candidates: not every selector closed within 60 s");
    merge(line,
        {{u"scenario"_s, u"scale_election_candidates"_s}, {u"x"_s, x}, {u"candidates"_s, x + 1},
            {u"clients"_s, kClients}, {u"startup_ms"_s, startupMs}});
    emitLine(line);
}

namespace {

struct Waiters
{
    std::vector<std::unique_ptr<EtcdMutex>> all;
    int acquired = 0;
    qint64 acquiredAt = 0;
    EtcdMutex *holder = nullptr;
};

void addWaiter(Waiters &w, EtcdClient *client, const QByteArray &path)
{
    w.all.push_back(std::make_unique<EtcdMutex>(client, path, EtcdMutexOptions {.ttl = 60s}));
    EtcdMutex *m = w.all.back().get();
    QObject::connect(m, &EtcdMutex::acquired, m, [&w, m] {
        w.acquiredAt = now();
        w.holder = m;
        ++w.acquired;
    });
    QObject::connect(m, &EtcdMutex::lockLost, m, [](const EtcdStatus &why) {
        qFatal("scale_lock_waiters: lock lost: %s", qPrintable(why.toString()));
    });
}

// The holder releases -> the first waiter's acquired(); the old holder then queues again at
// the back, so every hand-off has x waiters.
void lockHandoff(Waiters &w, const QUrl &url, Handoffs &h)
{
    const QHash<QString, double> before = h.counters(url);
    EtcdMutex *old = w.holder;
    const int acquired0 = w.acquired;
    const double cpu0 = processCpuMs();
    const qint64 t0 = now();
    if (!old->release())
        qFatal("scale_lock_waiters: release() said the hold was not ours");
    if (!spinUntil([&] { return w.acquired > acquired0; }, std::chrono::seconds(10)))
        qFatal("scale_lock_waiters: no hand-off within 10 s");
    runFor(50ms); // as the election's: whatever else the hand-off sets off here
    const double cpu = processCpuMs() - cpu0;
    h.record(msBetween(t0, w.acquiredAt), cpu, before, h.counters(url));
    if (w.holder == old || !old->acquire())
        qFatal("scale_lock_waiters: the hand-off went nowhere, or the old holder cannot queue");
}

} // namespace

// One EtcdMutex holding and x queued behind it on the same path (TTL 60 s), on kClients
// clients whatever x is: per hand-off, release() -> the next acquired(), and the requests
// etcd received for it. Quiet counters before each hand-off also mean every waiter (and the
// last hand-off's old holder) is in line.
void benchScaleLockWaiters(const QUrl &url, int x, int handoffs)
{
    auto clients = makeClients(url);
    const QByteArray path = scalePath("lock");
    Waiters w;
    for (int i = 0; i <= x; ++i)
        addWaiter(w, clients[size_t(i % kClients)].get(), path);
    w.all.front()->acquire();
    if (!spinUntil([&] { return w.acquired == 1; }, std::chrono::seconds(10)))
        qFatal("scale_lock_waiters: the first holder was not granted in 10 s");
    for (size_t i = 1; i < w.all.size(); ++i)
        w.all[i]->acquire(); // in line once the first hand-off's counters are quiet
    Handoffs h;
    for (int i = 0; i < handoffs; ++i)
        lockHandoff(w, url, h);
    QJsonObject line = h.fields();
    merge(line, threadFields());
    int closed = 0;
    for (auto &m : w.all) {
        QObject::connect(m.get(), &EtcdRecipe::closed, m.get(), [&] { ++closed; });
        m->close();
    }
    if (!spinUntil([&] { return closed == x + 1; }, std::chrono::seconds(60)))
        qWarning("scale_lock_waiters: %d of %d mutexes closed within 60 s", closed, x + 1);
    merge(line, {{u"scenario"_s, u"scale_lock_waiters"_s}, {u"x"_s, x}, {u"clients"_s, kClients}});
    emitLine(line);
}

} // namespace Bench
