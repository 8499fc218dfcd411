// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// The queue scenarios of etcdqt-bench, beside Go's contrib/recipes Queue and PriorityQueue
// (the peers' q1, q2, q3; see etcdqt_bench.cpp's header for what each measures).
#include "benchutil.h"

#include <QtCore/qjsonarray.h>
#include <QtCore/qthread.h>

#include <mutex>
#include <unordered_map>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace Bench {

namespace {

// A path of this process alone (a prefix read walks every dead key name an earlier run left).
QByteArray queuePath(const char *name)
{
    return "/bench/etcdqt/queue/"_ba + name + '-' + QByteArray::number(qint64(::getpid()));
}

constexpr int kConsumers = 4;
constexpr auto kDrain = 10s; // as the peer: after the window, up to 10 s to take the rest

// What the producer sent (its own thread) and the consumers got (this, the owner thread).
struct Tally
{
    std::mutex mutex; // guards sentAt: the producer appends while the consumers read
    std::vector<qint64> sentAt; // by item number
    std::unordered_map<qint64, int> seen;
    std::vector<double> latency;
    qint64 windowEnd = 0; // set by the producer's start, in this thread
    int inWindow = 0; // items taken before windowEnd: what items/s counts
    int taken() const { return int(seen.size()); }
    int sent()
    {
        std::lock_guard lock(mutex);
        return int(sentAt.size());
    }
    qint64 send()
    {
        std::lock_guard lock(mutex);
        sentAt.push_back(now());
        return qint64(sentAt.size()) - 1;
    }
    void got(const QByteArray &value)
    {
        bool ok = false;
        const qint64 i = value.toLongLong(&ok);
        std::lock_guard lock(mutex);
        if (!ok || i < 0 || i >= qint64(sentAt.size()))
            return;
        if (seen[i]++ != 0)
            return;
        const qint64 at = now();
        latency.push_back(msBetween(sentAt[size_t(i)], at));
        inWindow += at <= windowEnd;
    }
    int duplicates() const
    {
        return int(
            std::count_if(seen.begin(), seen.end(), [](const auto &e) { return e.second > 1; }));
    }
};

// One consumer: its own client and queue, taking in a loop until stopped.
template <class Queue>
struct Taker
{
    std::unique_ptr<EtcdClient> client;
    std::unique_ptr<Queue> queue;
};

std::unique_ptr<EtcdClient> connected(const QUrl &url)
{
    auto c = std::make_unique<EtcdClient>(QList<QUrl> {url});
    c->connectToEndpoints();
    return c;
}

void takeLoop(EtcdAbstractQueue *q, Tally &tally, const bool &stop)
{
    EtcdQueueItemReply *r = q->dequeue();
    QObject::connect(r, &EtcdReply::finished, q, [q, r, &tally, &stop](const EtcdStatus &s) {
        if (!s.isOk())
            return; // closed at the end
        tally.got(r->value());
        if (!stop)
            takeLoop(q, tally, stop);
    });
}

void workLoop(EtcdWorkQueue *q, Tally &tally, const bool &stop, int &ackFailures)
{
    EtcdWorkItemReply *r = q->receive();
    QObject::connect(
        r, &EtcdReply::finished, q, [q, r, &tally, &stop, &ackFailures](const EtcdStatus &s) {
            if (!s.isOk())
                return;
            const EtcdWorkItem item = r->item();
            EtcdBoolReply *a = q->ack(item);
            QObject::connect(a, &EtcdReply::finished, q,
                [q, a, item, &tally, &stop, &ackFailures](const EtcdStatus &st) {
                    if (st.isOk() && a->result())
                        tally.got(item.value); // delivered means acknowledged
                    else
                        ++ackFailures;
                    if (!stop)
                        workLoop(q, tally, stop, ackFailures);
                });
        });
}

// The producer: a thread, client and queue of its own, as the peer's producer is a goroutine
// with its own client running beside its consumers; one enqueue after another (each waited
// for), as the peer's loop, for `window`. Meanwhile this thread serves the consumers; then it
// gives them up to kDrain to take everything.
template <class Queue, class Enqueue>
void produce(const QUrl &url, const QByteArray &path, Tally &tally, Enqueue enqueue,
    std::chrono::seconds window, qint64 *t0, qint64 *t1)
{
    *t0 = now();
    const qint64 end = *t0 + std::chrono::nanoseconds(window).count();
    tally.windowEnd = end;
    std::unique_ptr<QThread> thread(QThread::create([&] {
        auto client = connected(url);
        Queue out(client.get(), path);
        bool busy = false;
        while (now() < end) {
            const qint64 i = tally.send();
            busy = true;
            EtcdReply *r = enqueue(out, QByteArray::number(i), int(i));
            QObject::connect(r, &EtcdReply::finished, r, [&busy](const EtcdStatus &s) {
                if (!s.isOk())
                    qFatal("enqueue failed: %s", qPrintable(s.toString()));
                busy = false;
            });
            spinUntil([&] { return !busy; });
        }
    }));
    bool produced = false; // posted to this thread: it wakes the loop waiting for it
    QObject::connect(thread.get(), &QThread::finished, qApp, [&produced] { produced = true; });
    thread->start();
    spinUntil([&] { return produced; });
    spinUntil([&] { return tally.taken() >= tally.sent(); }, kDrain);
    *t1 = now();
}

// items/s: the items taken within the window, per second of it (etcdqt-queue-peer counts Go's
// the same way); the drain's takes count in `taken` and the latencies only.
QJsonObject throughputLine(const QString &scenario, const Tally &tally, qint64 t0, qint64 t1)
{
    const double wall = msBetween(t0, t1) / 1000;
    const double window = msBetween(t0, tally.windowEnd) / 1000;
    return {{u"scenario"_s, scenario}, {u"n"_s, tally.taken()},
        {u"p50_ms"_s, percentile(tally.latency, 0.5)},
        {u"p99_ms"_s, percentile(tally.latency, 0.99)}, {u"ops_per_s"_s, tally.inWindow / window},
        {u"taken_in_window"_s, tally.inWindow}, {u"enqueued"_s, int(tally.sentAt.size())},
        {u"taken"_s, tally.taken()}, {u"producer"_s, u"own thread"_s},
        {u"duplicates"_s, tally.duplicates()}, {u"consumers"_s, kConsumers}, {u"wall_s"_s, wall},
        {u"threads"_s, threadCount()}};
}

template <class Queue, class Enqueue>
void queueThroughput(const QUrl &url, const QString &scenario, const char *name,
    std::chrono::seconds window, Enqueue enqueue)
{
    const QByteArray path = queuePath(name);
    Tally tally;
    bool stop = false;
    std::vector<Taker<Queue>> takers;
    for (int i = 0; i < kConsumers; ++i) {
        Taker<Queue> t {connected(url), nullptr};
        t.queue = std::make_unique<Queue>(t.client.get(), path);
        takeLoop(t.queue.get(), tally, stop);
        takers.push_back(std::move(t));
    }
    qint64 t0 = 0, t1 = 0;
    produce<Queue>(url, path, tally, enqueue, window, &t0, &t1);
    stop = true;
    for (auto &t : takers)
        t.queue->close();
    emitLine(throughputLine(scenario, tally, t0, t1));
}
} // namespace

void benchQueueThroughput(const QUrl &url, std::chrono::seconds window)
{
    queueThroughput<EtcdQueue>(url, u"queue_throughput"_s, "fifo", window,
        [](EtcdQueue &q, const QByteArray &v, int) { return q.enqueue(v); });
}

void benchPriorityQueueThroughput(const QUrl &url, std::chrono::seconds window)
{
    queueThroughput<EtcdPriorityQueue>(url, u"priority_queue_throughput"_s, "priority", window,
        [](EtcdPriorityQueue &q, const QByteArray &v, int i) { return q.enqueue(v, i % 10); });
}

void benchWorkQueueThroughput(const QUrl &url, std::chrono::seconds window)
{
    const QByteArray path = queuePath("work");
    Tally tally;
    bool stop = false;
    int ackFailures = 0;
    std::vector<std::unique_ptr<EtcdClient>> clients;
    std::vector<std::unique_ptr<EtcdWorkQueue>> consumers;
    for (int i = 0; i < kConsumers; ++i) {
        clients.push_back(connected(url));
        consumers.push_back(std::make_unique<EtcdWorkQueue>(clients.back().get(), path));
        workLoop(consumers.back().get(), tally, stop, ackFailures);
    }
    qint64 t0 = 0, t1 = 0;
    produce<EtcdWorkQueue>(
        url, path, tally,
        [](EtcdWorkQueue &out, const QByteArray &v, int) { return out.enqueue(v); }, window, &t0,
        &t1);
    stop = true;
    int closed = 0;
    for (auto &c : consumers) {
        QObject::connect(c.get(), &EtcdRecipe::closed, c.get(), [&closed] { ++closed; });
        c->close();
    }
    spinUntil([&] { return closed == kConsumers; }, 10s); // the consumer leases revoked
    QJsonObject line = throughputLine(u"workqueue_throughput"_s, tally, t0, t1);
    line.insert(u"ack_failures"_s, ackFailures);
    line.insert(u"peer"_s, QJsonValue()); // no peer has a work queue
    emitLine(line);
}

// One consumer parked on an empty queue (its watch live), one producer: enqueue() called ->
// the consumer's dequeue() reply finished in the owner thread, one item at a time.
void benchQueueLatency(const QUrl &url, int n)
{
    const QByteArray path = queuePath("latency");
    auto producer = connected(url), consumer = connected(url);
    EtcdQueue out(producer.get(), path), in(consumer.get(), path);
    qint64 gotAt = 0, seenAt = 0;
    int got = 0;
    // The put's event reaching this thread (the watch's share of the latency).
    QObject::connect(&in, &EtcdAbstractQueue::itemAvailable, &in, [&] { seenAt = now(); });
    in.start();
    std::function<void()> take = [&] {
        EtcdQueueItemReply *r = in.dequeue();
        QObject::connect(r, &EtcdReply::finished, &in, [&](const EtcdStatus &s) {
            if (!s.isOk())
                return;
            gotAt = now();
            ++got;
            take();
        });
    };
    take();
    // Warm-up: the first take reads the queue empty and starts the watch.
    out.enqueue("warm-up"_ba);
    spinUntil([&] { return got == 1; }, 10s);
    std::vector<double> lat, event;
    const qint64 t0 = now();
    const Allocations::Window window; // the 2 ms of waiting between items included
    for (int i = 0; i < n; ++i) {
        runFor(2ms); // the consumer is parked on its watch again, as in the peer's loop
        const qint64 sent = now();
        out.enqueue(QByteArray::number(i));
        if (!spinUntil([&] { return got > i + 1; }, 10s))
            qFatal("queue_latency: item %d not taken within 10 s", i);
        lat.push_back(msBetween(sent, gotAt));
        event.push_back(msBetween(sent, seenAt));
    }
    QJsonObject line {{u"scenario"_s, u"queue_latency"_s}, {u"n"_s, n},
        {u"p50_ms"_s, percentile(lat, 0.5)}, {u"p99_ms"_s, percentile(lat, 0.99)},
        {u"ops_per_s"_s, n / (msBetween(t0, now()) / 1000)},
        {u"event_p50_ms"_s, percentile(event, 0.5)},
        {u"over_50ms"_s,
            qint64(std::count_if(lat.begin(), lat.end(), [](double ms) { return ms > 50; }))}};
    insertAllocations(line, window, n);
    emitLine(line);
    in.close();
}

} // namespace Bench
