// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include <EtcdQt/etcdmetricsregistry.h>

#include "metricfamily_p.h"

#include <QtCore/qmetaobject.h>
#include <QtCore/qset.h>

#include <array>

using namespace Etcd::Internal;
using Labels = MetricFamily::Labels;
using Kind = MetricFamily::Kind;

namespace {

// RPCs and other short spans: 100 µs to 10 s.
constexpr std::array<double, 16> kFastBuckets {0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01,
    0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10};
// Waits and holds: 1 ms to 5 min.
constexpr std::array<double, 14> kSlowBuckets {
    0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300};

constexpr int kRpcCount = int(EtcdMetrics::Rpc::Authenticate) + 1;

// A key's name in lower snake case ("TimedOut" -> "timed_out").
QByteArray snakeCase(const char *key)
{
    QByteArray name;
    for (const char *c = key; c && *c; ++c) {
        if (*c >= 'A' && *c <= 'Z') {
            if (c != key)
                name += '_';
            name += char(*c - 'A' + 'a');
        } else {
            name += *c;
        }
    }
    return name;
}

// An enum's value as a label, made once per value: a report copies a shared QByteArray.
template <typename E>
const QByteArray &snakeName(E value)
{
    static const QList<QByteArray> names = [] {
        const QMetaEnum e = QMetaEnum::fromType<E>();
        QList<QByteArray> all(e.keyCount());
        for (int i = 0; i < e.keyCount(); ++i)
            all[e.value(i)] = snakeCase(e.key(i));
        return all;
    }();
    return names.at(qsizetype(value));
}

// Counters by one enum label, every value written (0 too), so that a rate has a series from
// the start.
template <typename E, int N>
struct EnumCounters
{
    std::array<std::atomic<quint64>, N> counts {};
    void add(E value) { counts[std::size_t(value)].fetch_add(1, std::memory_order_relaxed); }
    void write(QByteArray &out, const char *name, const char *label, const char *help) const
    {
        PromText::header(out, name, help, "counter");
        for (int i = 0; i < N; ++i) {
            PromText::sample(out, name, QByteArray(label) + "=\"" + snakeName(E(i)) + '"',
                qint64(counts[std::size_t(i)].load(std::memory_order_relaxed)));
        }
    }
};

} // namespace

class EtcdMetricsRegistryPrivate
{
public:
    QByteArray pathLabel(QByteArrayView path);

    // RPCs: a histogram per method without a lock (every call reports one).
    std::array<std::unique_ptr<Histogram>, kRpcCount> rpcLatency;
    std::array<std::atomic<quint64>, kRpcCount> rpcRetries {};
    MetricFamily rpcErrors {"etcdqt_rpc_errors_total",
        "RPCs that ended with an error, by method and status code.", Kind::Counter,
        {"method", "code"}};
    EnumCounters<EtcdMetrics::WatchRecovery, 4> watchRecoveries;
    EnumCounters<EtcdMetrics::KeepAlive, 4> keepAlives;
    EnumCounters<EtcdMetrics::Heal, 3> heals;
    MetricFamily lockWait {"etcdqt_lock_wait_seconds",
        "Time from asking for a lock, read-write lock side or permit until it was held or the "
        "wait ended.",
        Kind::Histogram, {"lock", "path", "outcome"}, kSlowBuckets};
    MetricFamily lockHold {"etcdqt_lock_hold_seconds",
        "Time a lock, read-write lock side or permit was held (released or lost).", Kind::Histogram,
        {"lock", "path"}, kSlowBuckets};
    MetricFamily transitions {"etcdqt_election_transitions_total",
        "Leadership transitions of this process's candidates: acquired, relinquished (every "
        "term's end) and lost (the ends that were losses).",
        Kind::Counter, {"path", "transition"}};
    MetricFamily leader {"etcdqt_election_leader",
        "1 while a candidate of this process leads the election, else 0.", Kind::Gauge, {"path"}};
    MetricFamily waits {"etcdqt_wait_seconds",
        "Time a barrier, counted barrier or latch wait lasted, by how it ended.", Kind::Histogram,
        {"wait", "path", "outcome"}, kSlowBuckets};
    MetricFamily queueOps {"etcdqt_queue_operation_seconds",
        "Duration of queue operations; a dequeue counts from the request to the item.",
        Kind::Histogram, {"operation", "path"}, kSlowBuckets};
    MetricFamily cacheSyncs {"etcdqt_cache_sync_seconds",
        "Time a cache took to read its keys (at start and after a compaction).", Kind::Histogram,
        {"path"}, kFastBuckets};
    MetricFamily cacheSize {
        "etcdqt_cache_size", "Keys a cache held after its last sync.", Kind::Gauge, {"path"}};

    std::mutex labelMutex;
    std::shared_ptr<const EtcdMetricsRegistry::PathLabeler> labeler;
    int maximumPathLabels = 100;
    QSet<QByteArray> pathLabels;
};

QByteArray EtcdMetricsRegistryPrivate::pathLabel(QByteArrayView path)
{
    std::shared_ptr<const EtcdMetricsRegistry::PathLabeler> mapper;
    {
        std::lock_guard lock(labelMutex);
        mapper = labeler;
    }
    // The user's function runs without our lock: it may do anything, even report. Without
    // one, the path is looked up as it is, copied only the first time it is seen.
    const QByteArray label
        = mapper ? (*mapper)(path) : QByteArray::fromRawData(path.data(), path.size());
    std::lock_guard lock(labelMutex);
    if (label.isEmpty())
        return QByteArrayLiteral("other");
    if (const auto known = pathLabels.constFind(label); known != pathLabels.cend())
        return *known;
    if (pathLabels.size() >= maximumPathLabels)
        return QByteArrayLiteral("other");
    return *pathLabels.insert(QByteArray(label.constData(), label.size())); // a deep copy
}

/*!
    \class EtcdMetricsRegistry
    \inmodule EtcdQt
    \brief The built-in metrics sink: counters, gauges and fixed-bucket histograms of
    everything EtcdMetrics reports, written in Prometheus' text exposition format.

    \snippet cpp/observability.cpp registry

    Install it on each client with EtcdClient::setMetrics() (one registry may serve several
    clients) and serve prometheusText() with EtcdPrometheusExporter, or hand the text to any
    HTTP stack. Metric names start with \c etcdqt_; durations are in seconds.

    Recipe paths become the \c path label. Their number is bounded: the first
    maximumPathLabels() distinct values are kept, later ones count as \c other. A
    setPathLabeler() function maps paths to labels first (for instance \c /jobs/4711/lock to
    \c /jobs/lock), so a fleet's dashboards need not see every path.

    Thread-safe: reports come from any thread, and prometheusText() may run at the same time.
*/

/*! Constructs an empty registry. */
EtcdMetricsRegistry::EtcdMetricsRegistry() : d(std::make_unique<EtcdMetricsRegistryPrivate>())
{
    for (auto &h : d->rpcLatency)
        h = std::make_unique<Histogram>(kFastBuckets);
}

/*! Destroys the registry. */
EtcdMetricsRegistry::~EtcdMetricsRegistry() = default;

/*! \typedef EtcdMetricsRegistry::PathLabeler
    A function from a recipe path to its \c path label; an empty result counts as \c other.
*/

/*! Sets \a labeler, which maps recipe paths to labels from now on (before the bound on
    distinct labels applies). It runs on the reporting thread, so it must be thread-safe. */
void EtcdMetricsRegistry::setPathLabeler(PathLabeler labeler)
{
    std::lock_guard lock(d->labelMutex);
    d->labeler = labeler ? std::make_shared<const PathLabeler>(std::move(labeler)) : nullptr;
}

/*! Returns how many distinct \c path labels are kept (100 by default). */
int EtcdMetricsRegistry::maximumPathLabels() const
{
    std::lock_guard lock(d->labelMutex);
    return d->maximumPathLabels;
}

/*! Keeps at most \a count distinct \c path labels; further paths count as \c other. */
void EtcdMetricsRegistry::setMaximumPathLabels(int count)
{
    std::lock_guard lock(d->labelMutex);
    d->maximumPathLabels = qMax(count, 0);
}

/*! \reimp */
void EtcdMetricsRegistry::recordRpc(Rpc rpc, Duration latency, int attempts, Etcd::ErrorCode code)
{
    const auto i = std::size_t(rpc);
    if (i >= d->rpcLatency.size())
        return;
    d->rpcLatency[i]->observe(latency);
    if (attempts > 1)
        d->rpcRetries[i].fetch_add(quint64(attempts - 1), std::memory_order_relaxed);
    if (code != Etcd::ErrorCode::Ok) {
        const char *codeName = QMetaEnum::fromType<Etcd::ErrorCode>().valueToKey(int(code));
        d->rpcErrors.add({QMetaEnum::fromType<Rpc>().valueToKey(int(rpc)),
                             codeName ? QByteArray(codeName) : QByteArray::number(int(code))},
            1);
    }
}

/*! \reimp */
void EtcdMetricsRegistry::recordWatchRecovery(WatchRecovery kind)
{
    d->watchRecoveries.add(kind);
}

/*! \reimp */
void EtcdMetricsRegistry::recordKeepAlive(KeepAlive event)
{
    d->keepAlives.add(event);
}

/*! \reimp */
void EtcdMetricsRegistry::recordHeal(Heal event)
{
    d->heals.add(event);
}

/*! \reimp */
void EtcdMetricsRegistry::recordLockWait(
    Lock lock, QByteArrayView path, Duration wait, Outcome outcome)
{
    d->lockWait.observe({snakeName(lock), d->pathLabel(path), snakeName(outcome)}, wait);
}

/*! \reimp */
void EtcdMetricsRegistry::recordLockHold(Lock lock, QByteArrayView path, Duration hold)
{
    d->lockHold.observe({snakeName(lock), d->pathLabel(path)}, hold);
}

/*! \reimp */
void EtcdMetricsRegistry::recordLeadershipTransition(QByteArrayView path, Transition transition)
{
    const QByteArray label = d->pathLabel(path);
    d->transitions.add({label, snakeName(transition)}, 1);
    if (transition == Transition::Acquired)
        d->leader.add({label}, 1);
    else if (transition == Transition::Relinquished)
        d->leader.add({label}, -1);
}

/*! \reimp */
void EtcdMetricsRegistry::recordWait(
    Wait wait, QByteArrayView path, Duration duration, Outcome outcome)
{
    d->waits.observe({snakeName(wait), d->pathLabel(path), snakeName(outcome)}, duration);
}

/*! \reimp */
void EtcdMetricsRegistry::recordQueueOperation(
    QueueOperation operation, QByteArrayView path, Duration duration)
{
    d->queueOps.observe({snakeName(operation), d->pathLabel(path)}, duration);
}

/*! \reimp */
void EtcdMetricsRegistry::recordCacheSync(QByteArrayView path, Duration duration, qsizetype size)
{
    const QByteArray label = d->pathLabel(path);
    d->cacheSyncs.observe({label}, duration);
    d->cacheSize.set({label}, size);
}

/*!
    Returns every metric in Prometheus' text exposition format (version 0.0.4): \c # HELP and
    \c # TYPE lines, then the samples; histograms with cumulative \c _bucket lines, \c _sum
    and \c _count. Consistent within each histogram even while reports go on.
*/
QByteArray EtcdMetricsRegistry::prometheusText() const
{
    QByteArray out;
    out.reserve(16 * 1024);
    const char *latency = "etcdqt_rpc_duration_seconds";
    PromText::header(out, latency,
        "Time from an RPC's start to its result, over every attempt, by method.", "histogram");
    for (int i = 0; i < kRpcCount; ++i) {
        if (d->rpcLatency[std::size_t(i)]->count() == 0)
            continue; // methods this process never called stay out
        const QByteArray method = QMetaEnum::fromType<Rpc>().valueToKey(i);
        d->rpcLatency[std::size_t(i)]->write(out, latency, "method=\"" + method + '"');
    }
    const char *retries = "etcdqt_rpc_retries_total";
    PromText::header(out, retries, "Attempts of RPCs beyond their first, by method.", "counter");
    for (int i = 0; i < kRpcCount; ++i) {
        if (d->rpcLatency[std::size_t(i)]->count() == 0)
            continue;
        PromText::sample(out, retries,
            "method=\"" + QByteArray(QMetaEnum::fromType<Rpc>().valueToKey(i)) + '"',
            qint64(d->rpcRetries[std::size_t(i)].load(std::memory_order_relaxed)));
    }
    d->rpcErrors.write(out);
    d->watchRecoveries.write(out, "etcdqt_watch_recoveries_total", "kind",
        "Watch stream outages and how each watch came back (per watch).");
    d->keepAlives.write(out, "etcdqt_keepalive_events_total", "event",
        "Lease keep-alive events: renewals acknowledged, suspensions, resumptions, expiries.");
    d->heals.write(out, "etcdqt_heal_events_total", "event",
        "Self-healing leases: heal attempts, heals that restored ownership, and heals that "
        "gave up.");
    for (const MetricFamily *f : {&d->lockWait, &d->lockHold, &d->transitions, &d->leader,
             &d->waits, &d->queueOps, &d->cacheSyncs, &d->cacheSize})
        f->write(out);
    return out;
}
