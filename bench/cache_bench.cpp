// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// The cache scenarios of etcdqt-bench (issue 17; see etcdqt_bench.cpp's header). Their floors
// are bench/raw_floor.cpp (the paged read) and the peers' raw watch (s5).
#include "benchutil.h"

#include <QtCore/qthread.h>

#include <atomic>
#include <ctime>

#include <malloc.h> // malloc_trim

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace Bench {

namespace {

constexpr int kTxnOps = 128; // etcd's default --max-txn-ops
constexpr int kSeedInFlight = 8; // seeding txns outstanding at once
constexpr int kEventChildren = 100; // cache_event_latency's cache

// What the caches read: the same keys as raw_floor.cpp's (kept in step by hand).
QByteArray childName(int i)
{
    return QByteArray("child-") + QByteArray::number(i).rightJustified(18, '0'); // 24 bytes
}

QByteArray childValue(int i)
{
    return QByteArray::number(i).rightJustified(16, '0').repeated(4); // 64 bytes
}

// Waits for `reply` in the event loop; fatal unless it succeeded.
template <class Reply>
std::unique_ptr<Reply> await(Reply *reply)
{
    reply->setAutoDelete(false);
    bool done = false;
    QObject::connect(reply, &EtcdReply::finished, reply, [&done] { done = true; });
    spinUntil([&] { return done; });
    if (!reply->status().isOk())
        qFatal("cache bench: %s", qPrintable(reply->status().toString()));
    return std::unique_ptr<Reply>(reply);
}

// Puts `count` children under `path` + '/' unless exactly they are there, in txns of kTxnOps
// puts, kSeedInFlight at a time. Untimed.
void seed(EtcdClient &client, const QByteArray &path, int count)
{
    const QByteArray prefix = path + '/';
    EtcdRangeOptions countOnly {.prefix = true, .countOnly = true};
    if (await(client.get(prefix, countOnly))->count() == count)
        return;
    await(client.remove(prefix, {.prefix = true}));
    const int txns = (count + kTxnOps - 1) / kTxnOps;
    const QByteArray what = "seeding " + path;
    windowed(what.constData(), txns, kSeedInFlight, [&](int t) {
        EtcdTxn txn;
        for (int i = t * kTxnOps; i < std::min(count, (t + 1) * kTxnOps); ++i)
            txn.success.append(EtcdTxnOp::put(prefix + childName(i), childValue(i)));
        return client.txn(txn);
    });
}

struct Load
{
    double initializedMs = 0; // start() -> initialized(): every child in
    double startedMs = 0; // start() -> started(): the watch live too
    double cpuMs = 0; // this process's CPU from start() to initialized()
    int count = 0;
};

Load loadOnce(EtcdClient &client, const QByteArray &path)
{
    EtcdPathChildrenCache cache(&client, path);
    qint64 initializedAt = 0, startedAt = 0;
    double cpu = 0;
    QObject::connect(&cache, &EtcdPathChildrenCache::initialized, &cache, [&] {
        initializedAt = now();
        cpu = processCpuMs();
    });
    QObject::connect(&cache, &EtcdPathChildrenCache::started, &cache, [&] { startedAt = now(); });
    QObject::connect(&cache, &EtcdPathChildrenCache::failed, &cache,
        [](const EtcdStatus &s) { qFatal("cache failed: %s", qPrintable(s.toString())); });
    const double cpu0 = processCpuMs();
    const qint64 t0 = now();
    cache.start(EtcdPathChildrenCache::StartMode::PostInitializedEvent);
    spinUntil([&] { return startedAt != 0; });
    return {msBetween(t0, initializedAt), msBetween(t0, startedAt), cpu - cpu0, cache.count()};
}

} // namespace

void benchCacheLoad(const QUrl &url, const QString &scenario, int children, int reps)
{
    EtcdClient client({url});
    client.connectToEndpoints();
    const QByteArray path = "/bench/cache/"_ba + QByteArray::number(children);
    seed(client, path, children);
    loadOnce(client, path); // warm-up: the connection, etcd's and malloc's first touches
    settle();
    std::vector<double> initialized, started, cpu;
    for (int i = 0; i < reps; ++i) {
        const Load load = loadOnce(client, path);
        if (load.count != children)
            qFatal(
                "%s: %d children cached, %d expected", qPrintable(scenario), load.count, children);
        initialized.push_back(load.initializedMs);
        started.push_back(load.startedMs);
        cpu.push_back(load.cpuMs);
        settle();
    }
    emitLine({{u"scenario"_s, scenario}, {u"n"_s, children}, {u"reps"_s, reps},
        {u"p50_ms"_s, percentile(initialized, 0.5)}, {u"min_ms"_s, percentile(initialized, 0)},
        {u"max_ms"_s, percentile(initialized, 1)}, {u"started_p50_ms"_s, percentile(started, 0.5)},
        {u"cpu_p50_ms"_s, percentile(cpu, 0.5)}, {u"page_size"_s, 1000}});
}

namespace {

// The writer of cache_event_latency: another client in a thread of its own (as another
// process would be), so its put's reply is not served in the owner thread before the event;
// in the raw floor too a second connection's reader thread stamps the event.
class Writer
{
public:
    explicit Writer(const QUrl &url)
    {
        m_thread.start();
        m_context.moveToThread(&m_thread);
        QMetaObject::invokeMethod(
            &m_context,
            [this, url] {
                m_client = new EtcdClient({url});
                m_client->connectToEndpoints();
            },
            Qt::BlockingQueuedConnection);
    }
    ~Writer()
    {
        QMetaObject::invokeMethod(
            &m_context, [this] { delete m_client; }, Qt::BlockingQueuedConnection);
        m_thread.quit();
        m_thread.wait();
    }
    // Puts in the writer's thread, stamping when the put was asked for.
    void put(const QByteArray &key, const QByteArray &value)
    {
        QMetaObject::invokeMethod(&m_context, [this, key, value] {
            m_sent = now();
            m_client->put(key, value); // deletes itself once answered
        });
    }
    [[nodiscard]] qint64 sent() const { return m_sent; }

private:
    QThread m_thread;
    QObject m_context;
    EtcdClient *m_client = nullptr;
    std::atomic<qint64> m_sent {0};
};

// n updates of the children under `prefix`, one after another: put -> `*seen` counted past
// the put's number, `*seenAt` stamped in this thread.
std::vector<double> updateLatencies(
    Writer &writer, const QByteArray &prefix, int n, const int *seen, const qint64 *seenAt)
{
    std::vector<double> lat;
    for (int i = 0; i < n; ++i) {
        const int before = *seen;
        writer.put(prefix + childName(i % kEventChildren), childValue(i + kEventChildren));
        spinUntil([&] { return *seen > before; });
        lat.push_back(msBetween(writer.sent(), *seenAt));
    }
    return lat;
}

} // namespace

// Also watch_p50_ms/watch_p99_ms: the same puts seen by a plain EtcdWatch on the prefix on the
// same client (the cache gone), right after: what the cache adds to the client's watch.
void benchCacheEventLatency(const QUrl &url, int n)
{
    EtcdClient reader({url});
    reader.connectToEndpoints();
    const QByteArray path = "/bench/cache/events"_ba;
    seed(reader, path, kEventChildren);
    Writer writer(url);
    qint64 seenAt = 0;
    int seen = 0;
    std::vector<double> lat, watchLat;
    QElapsedTimer wall;
    {
        EtcdPathChildrenCache cache(&reader, path);
        QObject::connect(&cache, &EtcdPathChildrenCache::childUpdated, &cache, [&] {
            seenAt = now();
            ++seen;
        });
        cache.start(EtcdPathChildrenCache::StartMode::BuildInitialCache);
        spinUntil([&] { return cache.isStarted(); });
        wall.start();
        lat = updateLatencies(writer, cache.prefix(), n, &seen, &seenAt);
    }
    const double seconds = double(wall.nsecsElapsed()) / 1e9;
    {
        EtcdWatch watch(&reader, path + '/', {.prefix = true});
        QObject::connect(
            &watch, &EtcdWatch::eventsReceived, &watch, [&](const QList<EtcdWatchEvent> &events) {
                seenAt = now();
                seen += int(events.size());
            });
        watch.start();
        spinUntil([&] { return watch.state() == EtcdWatch::State::Active; });
        watchLat = updateLatencies(writer, path + '/', n, &seen, &seenAt);
    }
    emitLine(
        {{u"scenario"_s, u"cache_event_latency"_s}, {u"n"_s, n}, {u"children"_s, kEventChildren},
            {u"p50_ms"_s, percentile(lat, 0.5)}, {u"p99_ms"_s, percentile(lat, 0.99)},
            {u"ops_per_s"_s, n / seconds}, {u"watch_p50_ms"_s, percentile(watchLat, 0.5)},
            {u"watch_p99_ms"_s, percentile(watchLat, 0.99)}});
}

// The heap (and RSS) a loaded cache of `children` holds, per child, against the target
// 2 x (key + value bytes) + 100 B. key+value counts the full key (as EtcdKeyValue holds
// it); name+value (the key relative to the prefix) is given too.
void benchCacheMemory(const QUrl &url, int children)
{
    EtcdClient client({url});
    client.connectToEndpoints();
    const QByteArray path = "/bench/cache/"_ba + QByteArray::number(children);
    seed(client, path, children);
    loadOnce(client, path); // the client's own first-use allocations are not the cache's
    settle();
    malloc_trim(0);
    const qint64 heap0 = heapInUse(), rss0 = rssBytes();
    auto cache = std::make_unique<EtcdPathChildrenCache>(&client, path);
    bool started = false;
    QObject::connect(
        cache.get(), &EtcdPathChildrenCache::started, cache.get(), [&] { started = true; });
    cache->start(EtcdPathChildrenCache::StartMode::BuildInitialCache);
    spinUntil([&] { return started; });
    settle();
    const qint64 heap1 = heapInUse(), rss1 = rssBytes();
    const int count = cache->count();
    qint64 keyBytes = 0, nameBytes = 0, valueBytes = 0;
    for (const EtcdKeyValue &kv : cache->currentData()) {
        keyBytes += kv.key.size();
        nameBytes += kv.key.size() - cache->prefix().size();
        valueBytes += kv.value.size();
    }
    cache.reset();
    settle();
    const qint64 heap2 = heapInUse();
    const double perChild = double(heap1 - heap0) / count;
    const double kv = double(keyBytes + valueBytes) / count;
    const double nv = double(nameBytes + valueBytes) / count;
    emitLine({{u"scenario"_s, u"cache_memory"_s}, {u"n"_s, count},
        {u"heap_per_child_b"_s, perChild}, {u"rss_per_child_b"_s, double(rss1 - rss0) / count},
        {u"heap_left_after_delete_per_child_b"_s, double(heap2 - heap0) / count},
        {u"key_value_b"_s, kv}, {u"name_value_b"_s, nv}, {u"target_b"_s, 2 * kv + 100},
        {u"ratio_to_target"_s, perChild / (2 * kv + 100)},
        {u"ratio_to_target_by_name"_s, perChild / (2 * nv + 100)}});
}

// scale_cache_children: cache_load's loads at `children` (p50 over `reps` after an untimed
// one), then the heap and RSS one loaded cache holds per child, and this process's threads
// with it loaded (they should not grow with the size). Seeded on cache_load's paths.
void benchScaleCacheChildren(const QUrl &url, int children, int reps)
{
    EtcdClient client({url});
    client.connectToEndpoints();
    const QByteArray path = "/bench/cache/"_ba + QByteArray::number(children);
    seed(client, path, children);
    loadOnce(client, path);
    settle();
    std::vector<double> initialized, cpu;
    for (int i = 0; i < reps; ++i) {
        const Load load = loadOnce(client, path);
        if (load.count != children)
            qFatal("scale_cache_children: %d children cached, %d expected", load.count, children);
        initialized.push_back(load.initializedMs);
        cpu.push_back(load.cpuMs);
        settle();
    }
    malloc_trim(0);
    const qint64 heap0 = heapInUse(), rss0 = rssBytes();
    EtcdPathChildrenCache cache(&client, path);
    bool started = false;
    QObject::connect(&cache, &EtcdPathChildrenCache::started, &cache, [&] { started = true; });
    cache.start(EtcdPathChildrenCache::StartMode::BuildInitialCache);
    spinUntil([&] { return started; });
    settle();
    QJsonObject line {{u"scenario"_s, u"scale_cache_children"_s}, {u"x"_s, children},
        {u"reps"_s, reps}, {u"p50_ms"_s, percentile(initialized, 0.5)},
        {u"cpu_p50_ms"_s, percentile(cpu, 0.5)},
        {u"load_us_per_child"_s, 1e3 * percentile(initialized, 0.5) / children},
        {u"cpu_us_per_child"_s, 1e3 * percentile(cpu, 0.5) / children},
        {u"heap_per_child_b"_s, double(heapInUse() - heap0) / children},
        {u"rss_per_child_b"_s, double(rssBytes() - rss0) / children},
        {u"rss_mb"_s, double(rssBytes()) / 1e6}};
    const QJsonObject threads = threadFields();
    for (auto it = threads.begin(); it != threads.end(); ++it)
        line.insert(it.key(), it.value());
    emitLine(line);
}

} // namespace Bench
