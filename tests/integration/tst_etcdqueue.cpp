// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// EtcdQueue and EtcdPriorityQueue against a real etcd: FIFO order across producers, batches
// taken in index order although etcd sorts one revision's keys unstably, priority order and
// the marker CAS of concurrent producers, four consumers taking every item exactly once, the
// empty-queue wait (dequeue(), tryDequeue(), take() from worker threads), close(), bad input
// and an unreachable etcd, an etcd restart, a compaction and a raft leader loss while a
// consumer waits, and keys written in etcd-recipes' layout by plain puts.
#include "leaseledger.h"
#include "lockutil.h"

#include <EtcdQt/etcdpriorityqueue.h>
#include <EtcdQt/etcdqueue.h>
#include <EtcdQt/etcdqueueitemreply.h>
#include <etcdtestcluster.h>
#include <etcdtestserver.h>

#include <QtCore/qelapsedtimer.h>
#include <QtCore/qjsondocument.h>
#include <QtCore/qjsonobject.h>
#include <QtCore/qrandom.h>
#include <QtCore/qregularexpression.h>
#include <QtCore/qset.h>

#include <functional>
#include <numeric>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using Etcd::ErrorCode;

namespace {
constexpr auto kWait = 10s; // one etcd round trip on a loaded 2-core machine, generously
constexpr int kWaitMs = int(std::chrono::milliseconds(kWait).count());
constexpr auto kLiveness = 500ms; // how soon a consumer's stream notices a dead etcd

// "<path>/<millis %019d>-<3 of [A-Za-z0-9]>" and its batch form with "-<index %05d>".
const QRegularExpression kItemKey(u"^/qt/fifo/\\d{19}-[A-Za-z0-9]{3}$"_s);
const QRegularExpression kBatchKey(u"^/qt/batch/(\\d{19})-(\\d{5})-[A-Za-z0-9]{3}$"_s);

// A reply the test awaits later: kept when it finishes before that (close() and abort()
// finish takes at once).
template <class R>
R *pending(R *reply)
{
    reply->setAutoDelete(false);
    return reply;
}

// Watches etcd holds open now, summed over `urls`: a take waits on an empty queue once its
// watch is there.
double watchers(const QList<QUrl> &urls)
{
    double sum = 0;
    for (const QUrl &url : urls)
        sum += etcdMetric(url, "etcd_debugging_mvcc_watcher_total");
    return sum;
}

bool watchersReach(const QList<QUrl> &urls, double count, int timeoutMs = kWaitMs)
{
    return QTest::qWaitFor([&] { return watchers(urls) >= count; }, timeoutMs);
}

QByteArray numbered(const char *stem, int i)
{
    return stem + QByteArray::number(i).rightJustified(3, '0');
}

QList<QByteArray> numberedList(const char *stem, int from, int to)
{
    QList<QByteArray> list;
    for (int i = from; i < to; ++i)
        list.append(numbered(stem, i));
    return list;
}

// `n` values dequeued one by one; a failed take ends the list with "<its status>".
QList<QByteArray> takeN(EtcdAbstractQueue &q, int n, std::chrono::milliseconds wait = kWait)
{
    QList<QByteArray> taken;
    for (int i = 0; i < n; ++i) {
        const auto r = await(q.dequeue(), wait);
        if (!r.status.isOk() || !r->found()) {
            taken.append("<" + r.status.toString().toUtf8() + ">");
            break;
        }
        taken.append(r->value());
    }
    return taken;
}

qint64 sizeOf(EtcdAbstractQueue &q)
{
    const auto r = await(q.size());
    return r.status.isOk() ? r->value() : -1;
}

QList<EtcdKeyValue> keysUnder(EtcdClient &client, const QByteArray &prefix)
{
    const auto r = await(client.get(prefix, {.prefix = true}));
    return r.status.isOk() ? r->keyValues() : QList<EtcdKeyValue>(99);
}

// A client with its own settings, on `urls`.
std::unique_ptr<EtcdClient> clientOn(
    const QList<QUrl> &urls, std::chrono::milliseconds liveness = {})
{
    auto client = std::make_unique<EtcdClient>(urls);
    if (liveness.count() > 0)
        client->setStreamLivenessInterval(liveness);
    client->connectToEndpoints();
    return client;
}
} // namespace

class tst_EtcdQueue : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void fifoAcrossThreeProducers();
    void batchIsTakenInIndexOrder();
    void batchLimits();
    void priorityOrder();
    void priorityRange();
    void urgentItemPutAfterTheReadIsTakenFirst();
    void urgentItemIsTakenFirstThroughAStaleMirror();
    void priorityTakesReadNothingOnceMirrored();
    void concurrentProducersAtOnePriority();
    void burstAtOnePriorityLosesNothingSilently();
    void fourConsumersTakeEveryItemOnce();
    void dequeueWaitsForAnEnqueue();
    void takesAreServedInCallOrder();
    void tryDequeueOnEmptyQueue();
    void takeFromWorkerTimesOut();
    void takeFromWorkerGetsAnItemEnqueuedMeanwhile();
    void takeInOwnThreadIsRefused();
    void closeCancelsWaitingTakes();
    void closeWakesAWaitingWorker();
    void abortedDequeueConsumesNothing();
    void deletedDequeueConsumesNothing();
    void badInputIsRefused();
    void oversizeValueIsRefusedBeforeAnyRpc();
    void unreachableEtcdFailsInBoundedTime();
    void survivesEtcdRestart();
    void waitingTakeOutlastsAnOutage();
    void waitingConsumerSurvivesCompaction();
    void cutOffConsumerResyncsAfterCompaction();
    void deliveredAfterRaftLeaderLoss();
    void takesEtcdRecipesFifoKeys();
    void takesEtcdRecipesPriorityKeys();
    void itemAvailableAfterStart();
    void typedQueuesEncodeAndDecode();

private:
    QList<QUrl> here() const { return {m_server.clientUrl()}; }
    EtcdTestServer m_server;
    LeaseLedger m_leases; // issue 22 item 7: no test leaves a lease
    std::unique_ptr<EtcdClient> m_client;
};

void tst_EtcdQueue::initTestCase()
{
    ETCDQT_START_OR_SKIP(m_server);
    m_client = connectedClient(m_server.clientUrl());
}

// Every test starts with etcd up and no watch open, so a watcher count says what the test's
// own takes do.
void tst_EtcdQueue::init()
{
    if (!m_server.isRunning())
        QVERIFY2(m_server.restart(), qPrintable(m_server.log()));
    QTRY_COMPARE_WITH_TIMEOUT(watchers(here()), 0.0, kWaitMs);
    m_leases.begin(m_server);
}

void tst_EtcdQueue::cleanup()
{
    VERIFY_NO_LEASE_LEFT(m_leases);
    if (!m_server.isRunning())
        return;
    await(m_client->remove("/qt/", {.prefix = true}));
    await(m_client->remove("__/qt/", {.prefix = true})); // the priority markers
}

// Three producers on three clients enqueue 30 items, each awaited before the next, in an
// order that jumps between them: one consumer takes them in exactly that order, at keys in
// etcd-recipes' layout, with no lease.
void tst_EtcdQueue::fifoAcrossThreeProducers()
{
    std::vector<std::unique_ptr<EtcdClient>> clients;
    std::vector<std::unique_ptr<EtcdQueue>> producers;
    for (int i = 0; i < 3; ++i) {
        clients.push_back(connectedClient(m_server.clientUrl()));
        producers.push_back(std::make_unique<EtcdQueue>(clients.back().get(), "/qt/fifo"));
    }
    QRandomGenerator random(19);
    QList<QByteArray> order;
    for (int i = 0; i < 30; ++i) {
        const int p = int(random.bounded(3));
        const QByteArray value = "p" + QByteArray::number(p) + "-" + QByteArray::number(i);
        QVERIFY_OK(await(producers[p]->enqueue(value)).status);
        order.append(value);
    }
    const QList<EtcdKeyValue> stored = keysUnder(*m_client, "/qt/fifo/");
    QCOMPARE(stored.size(), 30);
    for (const EtcdKeyValue &kv : stored) {
        QVERIFY2(kItemKey.match(QString::fromLatin1(kv.key)).hasMatch(), kv.key.constData());
        QCOMPARE(kv.lease, 0);
    }
    EtcdQueue consumer(m_client.get(), "/qt/fifo");
    QCOMPARE(sizeOf(consumer), 30);
    QCOMPARE(takeN(consumer, 30), order);
    QCOMPARE(sizeOf(consumer), 0);
}

// enqueueAll() of 100 values is one transaction: one revision, keys carrying the index. etcd
// sorts by mod revision with an unstable sort (Go's quicksort beyond 12 equal keys), so the
// head it answers can be any of them; the taker must take the batch's first by index. Items
// of producers with skewed clocks around the batch (keys after it written before it, keys
// before it written after it) put etcd's input far from revision order: then it does answer
// a later batch item as the head.
void tst_EtcdQueue::batchIsTakenInIndexOrder()
{
    constexpr int kSkewed = 31;
    EtcdQueue q(m_client.get(), "/qt/batch");
    QList<QByteArray> order;
    for (int i = 0; i < kSkewed; ++i) { // a clock far ahead: keys after the batch's
        const QByteArray value = numbered("ahead", i);
        QVERIFY_OK(
            await(m_client->put(
                      "/qt/batch/90000000000000000" + QByteArray::number(i + 10) + "-aaa", value))
                .status);
        order.append(value);
    }
    const QList<QByteArray> values = numberedList("b", 0, 100);
    QVERIFY_OK(await(q.enqueueAll(values)).status);
    order += values;
    for (int i = 0; i < kSkewed; ++i) { // a clock far behind: keys before the batch's
        const QByteArray value = numbered("behind", i);
        QVERIFY_OK(
            await(m_client->put(
                      "/qt/batch/00000000000000000" + QByteArray::number(i + 10) + "-aaa", value))
                .status);
        order.append(value);
    }

    QSet<qint64> revisions;
    QSet<QString> millis;
    QList<int> indexes;
    for (const EtcdKeyValue &kv : keysUnder(*m_client, "/qt/batch/")) {
        const QRegularExpressionMatch m = kBatchKey.match(QString::fromLatin1(kv.key));
        if (!m.hasMatch())
            continue; // the skewed producers' items
        revisions.insert(kv.modRevision);
        millis.insert(m.captured(1));
        indexes.append(m.captured(2).toInt());
        QCOMPARE(kv.value, numbered("b", m.captured(2).toInt()));
    }
    QCOMPARE(revisions.size(), 1);
    QCOMPARE(millis.size(), 1);
    QList<int> expected(100);
    std::iota(expected.begin(), expected.end(), 0);
    QCOMPARE(indexes, expected); // key order is index order

    QCOMPARE(takeN(q, kSkewed), order.first(kSkewed));
    // What etcd answers as the head now: not the batch's first, or this test shows nothing.
    const auto head = await(m_client->get("/qt/batch/",
        {.prefix = true,
            .limit = 1,
            .sortOrder = Etcd::SortOrder::Ascending,
            .sortTarget = Etcd::SortTarget::ModRevision}));
    QVERIFY_OK(head.status);
    QCOMPARE(head->keyValues().size(), 1);
    QVERIFY2(!head->keyValues().first().key.contains("-00000-"),
        "etcd answered the batch in index order: the layout no longer scrambles it");
    QCOMPARE(takeN(q, int(order.size()) - kSkewed), order.mid(kSkewed));
}

// etcd takes at most 128 operations per transaction: a batch of 128 is stored, one of 129 is
// refused before it is sent, and so is an empty one.
void tst_EtcdQueue::batchLimits()
{
    EtcdQueue q(m_client.get(), "/qt/limits");
    QVERIFY_OK(await(q.enqueueAll(numberedList("l", 0, 128))).status);
    QCOMPARE(sizeOf(q), 128);
    QCOMPARE(
        await(q.enqueueAll(numberedList("m", 0, 129))).status.code(), ErrorCode::InvalidArgument);
    QCOMPARE(await(q.enqueueAll({})).status.code(), ErrorCode::InvalidArgument);
    QCOMPARE(sizeOf(q), 128);
}

// Lower numbers first; equal priorities in enqueue order; the keys and markers are
// etcd-recipes' ("<q>/<prio %05d>/<seq %016d>", "__<q>/<prio %05d>" = "").
void tst_EtcdQueue::priorityOrder()
{
    EtcdPriorityQueue q(m_client.get(), "/qt/prio");
    const QList<std::pair<QByteArray, int>> items
        = {{"five", 5}, {"one-first", 1}, {"nine", 9}, {"one-second", 1}, {"zero", 0}};
    for (const auto &[value, priority] : items)
        QVERIFY_OK(await(q.enqueue(value, priority)).status);

    QList<QByteArray> keys;
    for (const EtcdKeyValue &kv : keysUnder(*m_client, "/qt/prio/"))
        keys.append(kv.key);
    QCOMPARE(keys,
        QList<QByteArray>({"/qt/prio/00000/0000000000000000", "/qt/prio/00001/0000000000000000",
            "/qt/prio/00001/0000000000000001", "/qt/prio/00005/0000000000000000",
            "/qt/prio/00009/0000000000000000"}));
    QList<QByteArray> markers;
    for (const EtcdKeyValue &kv : keysUnder(*m_client, "__/qt/prio/")) {
        markers.append(kv.key);
        QCOMPARE(kv.value, QByteArray(""));
    }
    QCOMPARE(markers,
        QList<QByteArray>(
            {"__/qt/prio/00000", "__/qt/prio/00001", "__/qt/prio/00005", "__/qt/prio/00009"}));

    QCOMPARE(sizeOf(q), 5);
    QCOMPARE(takeN(q, 5), QList<QByteArray>({"zero", "one-first", "one-second", "five", "nine"}));
    // The markers stay (as in etcd-recipes); the next item at a level continues at 0 again
    // because the level is empty.
    QCOMPARE(keysUnder(*m_client, "__/qt/prio/").size(), 4);
}

// A take reads a few heads at once and tries the next one without reading again; each try is
// guarded (a range compare) against keys put before its candidate since that read. An urgent
// item enqueued by another client after the read is therefore taken next, not the stale
// candidates behind which it sorts.
void tst_EtcdQueue::urgentItemPutAfterTheReadIsTakenFirst()
{
    EtcdPriorityQueue q(m_client.get(), "/qt/urgent");
    auto other = connectedClient(m_server.clientUrl());
    EtcdPriorityQueue producer(other.get(), "/qt/urgent");
    for (const QByteArray &value : {"five-a"_ba, "five-b"_ba, "five-c"_ba})
        QVERIFY_OK(await(q.enqueue(value, 5)).status);
    QCOMPARE(takeN(q, 1), QList<QByteArray>({"five-a"})); // read five-b, five-c as well
    QVERIFY_OK(await(producer.enqueue("zero", 0)).status);
    QCOMPARE(takeN(q, 3), QList<QByteArray>({"zero", "five-b", "five-c"}));
}

// The consumer's mirror of the queue has not seen the urgent put when it takes: etcd's answers
// to it, its watch's events too, come 300 ms late. Its take is refused (a marker below the
// head's priority changed after the mirror's revision) and it takes the urgent item once its
// watch brought it; without that guard it would take five-b.
void tst_EtcdQueue::urgentItemIsTakenFirstThroughAStaleMirror()
{
    ProxiedClient consumer(quint16(m_server.clientUrl().port()));
    QVERIFY(consumer.started);
    EtcdPriorityQueue q(&consumer.client, "/qt/urgent-stale");
    EtcdPriorityQueue producer(m_client.get(), "/qt/urgent-stale");
    for (const QByteArray &value : {"five-a"_ba, "five-b"_ba, "five-c"_ba})
        QVERIFY_OK(await(producer.enqueue(value, 5)).status);
    QCOMPARE(takeN(q, 1), QList<QByteArray>({"five-a"})); // its mirror holds five-b, five-c
    consumer.proxy.setDelay(300ms);
    QVERIFY_OK(await(producer.enqueue("zero", 0)).status);
    QCOMPARE(takeN(q, 3), QList<QByteArray>({"zero", "five-b", "five-c"}));
}

// Once a priority queue has read its first keys, its watch keeps them: each take sends its
// transaction and nothing else (etcd counts no further Range call over 30 takes).
void tst_EtcdQueue::priorityTakesReadNothingOnceMirrored()
{
    EtcdPriorityQueue q(m_client.get(), "/qt/mirror");
    for (int i = 0; i < 31; ++i)
        QVERIFY_OK(await(q.enqueue(numbered("m", i), i % 3)).status);
    QCOMPARE(takeN(q, 1), QList<QByteArray>({"m000"}));
    const auto ranges = [this] {
        return etcdMetric(
            m_server.clientUrl(), "grpc_server_handled_total", "grpc_method=\"Range\"");
    };
    const double before = ranges();
    QList<QByteArray> expected;
    for (int priority = 0; priority < 3; ++priority) {
        for (int i = priority; i < 31; i += 3) {
            if (i > 0)
                expected.append(numbered("m", i));
        }
    }
    QCOMPARE(takeN(q, 30), expected);
    QCOMPARE(ranges(), before);
}

void tst_EtcdQueue::priorityRange()
{
    EtcdPriorityQueue q(m_client.get(), "/qt/range");
    QCOMPARE(await(q.enqueue("low", -1)).status.code(), ErrorCode::InvalidArgument);
    QCOMPARE(await(q.enqueue("high", 65536)).status.code(), ErrorCode::InvalidArgument);
    QCOMPARE(await(q.enqueue("min", std::numeric_limits<int>::min())).status.code(),
        ErrorCode::InvalidArgument);
    QCOMPARE(sizeOf(q), 0);
    QCOMPARE(keysUnder(*m_client, "__/qt/range/").size(), 0);
    QVERIFY_OK(await(q.enqueue("last", EtcdPriorityQueue::kMaxPriority)).status);
    QVERIFY_OK(await(q.enqueue("first", 0)).status);
    QCOMPARE(keysUnder(*m_client, "/qt/range/65535/").size(), 1);
    QCOMPARE(takeN(q, 2), QList<QByteArray>({"first", "last"}));
}

// Two producers on two clients enqueue 50 items each at one priority, at the same time (each
// sends its next as soon as its last was stored). Without the marker's CAS both would read
// one last sequence number and write one key twice, losing a value: every value must be at
// its own key, sequence numbers 0..99, each producer's in its order.
void tst_EtcdQueue::concurrentProducersAtOnePriority()
{
    constexpr int kEach = 50;
    std::vector<std::unique_ptr<EtcdClient>> clients;
    std::vector<std::unique_ptr<EtcdPriorityQueue>> producers;
    for (int i = 0; i < 2; ++i) {
        clients.push_back(connectedClient(m_server.clientUrl()));
        producers.push_back(
            std::make_unique<EtcdPriorityQueue>(clients.back().get(), "/qt/contended"));
    }
    int stored = 0;
    QList<EtcdStatus> failures;
    std::function<void(int, int)> send = [&](int p, int i) {
        EtcdReply *r = producers[p]->enqueue(numbered(p == 0 ? "a" : "b", i), 3);
        connect(r, &EtcdReply::finished, producers[p].get(), [&, p, i](const EtcdStatus &s) {
            if (!s.isOk())
                return failures.append(s);
            ++stored;
            if (i + 1 < kEach)
                send(p, i + 1);
        });
    };
    send(0, 0);
    send(1, 0);
    QTRY_VERIFY_WITH_TIMEOUT(stored == 2 * kEach || !failures.isEmpty(), 6 * kWaitMs);
    QVERIFY2(failures.isEmpty(), qPrintable(failures.value(0).toString()));

    const QList<EtcdKeyValue> kvs = keysUnder(*m_client, "/qt/contended/");
    QCOMPARE(kvs.size(), 2 * kEach);
    QList<QByteArray> a;
    QList<QByteArray> b;
    for (qsizetype i = 0; i < kvs.size(); ++i) {
        QCOMPARE(
            kvs[i].key, "/qt/contended/00003/" + QByteArray::number(i).rightJustified(16, '0'));
        QCOMPARE(kvs[i].version, 1); // written once: no key was overwritten
        (kvs[i].value.startsWith('a') ? a : b).append(kvs[i].value);
    }
    QCOMPARE(a, numberedList("a", 0, kEach));
    QCOMPARE(b, numberedList("b", 0, kEach));
}

// 100 enqueues at one priority sent at once (50 on each of two clients): each round of CAS
// races has one winner, so some give up after etcd-recipes' 50 attempts (Aborted). None is
// lost silently: every enqueue that said OK is stored at its own key, and nothing else is.
void tst_EtcdQueue::burstAtOnePriorityLosesNothingSilently()
{
    constexpr int kEach = 50;
    std::vector<std::unique_ptr<EtcdClient>> clients;
    std::vector<std::unique_ptr<EtcdPriorityQueue>> producers;
    for (int i = 0; i < 2; ++i) {
        clients.push_back(connectedClient(m_server.clientUrl()));
        producers.push_back(std::make_unique<EtcdPriorityQueue>(clients.back().get(), "/qt/burst"));
    }
    QList<std::pair<QByteArray, EtcdReply *>> sent;
    for (int i = 0; i < kEach; ++i) {
        for (int p = 0; p < 2; ++p) {
            const QByteArray value = numbered(p == 0 ? "a" : "b", i);
            sent.append({value, pending(producers[p]->enqueue(value, 3))});
        }
    }
    QSet<QByteArray> acknowledged;
    for (const auto &[value, reply] : std::as_const(sent)) {
        const auto done = await(reply, 6 * kWait);
        if (done.status.isOk())
            acknowledged.insert(value);
        else
            QCOMPARE(done.status.code(), ErrorCode::Aborted);
    }
    QVERIFY(!acknowledged.isEmpty());
    const QList<EtcdKeyValue> kvs = keysUnder(*m_client, "/qt/burst/");
    QCOMPARE(kvs.size(), acknowledged.size());
    QSet<QByteArray> stored;
    for (const EtcdKeyValue &kv : kvs) {
        QCOMPARE(kv.version, 1);
        stored.insert(kv.value);
    }
    QCOMPARE(stored, acknowledged);
}

// Four consumers on four clients, each its own EtcdQueue, take from one queue of 400 items
// (200 there before they start, 200 enqueued one by one while they take) with dequeue() in a
// loop: every item is taken exactly once, and each consumer's takes are in queue order.
void tst_EtcdQueue::fourConsumersTakeEveryItemOnce()
{
    constexpr int kItems = 400;
    struct Consumer
    {
        std::unique_ptr<EtcdClient> client;
        std::unique_ptr<EtcdQueue> queue;
        QList<QByteArray> taken;
    };
    EtcdQueue producer(m_client.get(), "/qt/many");
    QVERIFY_OK(await(producer.enqueueAll(numberedList("i", 0, 100))).status);
    QVERIFY_OK(await(producer.enqueueAll(numberedList("i", 100, 200))).status);

    int total = 0;
    QList<EtcdStatus> failures;
    std::function<void(Consumer *)> next = [&](Consumer *c) {
        EtcdQueueItemReply *r = c->queue->dequeue();
        connect(r, &EtcdReply::finished, c->queue.get(), [&, c, r](const EtcdStatus &s) {
            if (s.code() == ErrorCode::Cancelled)
                return; // closed once everything was taken
            if (!s.isOk() || !r->found())
                return failures.append(s);
            c->taken.append(r->value());
            if (++total < kItems)
                next(c);
        });
    };
    std::vector<Consumer> consumers(4); // destroyed first: their closing takes end here
    for (Consumer &c : consumers) {
        c.client = connectedClient(m_server.clientUrl());
        c.queue = std::make_unique<EtcdQueue>(c.client.get(), "/qt/many");
        next(&c);
    }
    for (int i = 200; i < kItems; ++i)
        QVERIFY_OK(await(producer.enqueue(numbered("i", i))).status);
    QTRY_VERIFY_WITH_TIMEOUT(total >= kItems || !failures.isEmpty(), 6 * kWaitMs);
    QVERIFY2(failures.isEmpty(), qPrintable(failures.value(0).toString()));
    QVERIFY(closeAndWait(consumers[0].queue.get(), consumers[1].queue.get(),
        consumers[2].queue.get(), consumers[3].queue.get()));

    QList<QByteArray> all;
    int busy = 0;
    for (const Consumer &c : consumers) {
        QVERIFY2(std::is_sorted(c.taken.begin(), c.taken.end()),
            qPrintable(QString::fromLatin1(c.taken.join(' '))));
        all += c.taken;
        busy += c.taken.isEmpty() ? 0 : 1;
    }
    QCOMPARE(all.size(), kItems); // none twice...
    std::sort(all.begin(), all.end());
    QCOMPARE(all, numberedList("i", 0, kItems)); // ...and none missing
    QVERIFY(busy >= 2); // they did take concurrently
    QCOMPARE(sizeOf(producer), 0);
}

// A dequeue() on an empty queue waits on a watch (etcd counts it), and gets the item another
// client enqueues then.
void tst_EtcdQueue::dequeueWaitsForAnEnqueue()
{
    std::unique_ptr<EtcdClient> other = connectedClient(m_server.clientUrl());
    EtcdQueue consumer(m_client.get(), "/qt/wait");
    EtcdQueue producer(other.get(), "/qt/wait");
    EtcdQueueItemReply *waiting = pending(consumer.dequeue());
    QVERIFY(watchersReach(here(), 1));
    QVERIFY(!waiting->isFinished());
    QVERIFY_OK(await(producer.enqueue("hello")).status);
    const auto got = await(waiting);
    QVERIFY_OK(got.status);
    QVERIFY(got->found());
    QCOMPARE(got->value(), "hello"_ba);
    QVERIFY(got->key().startsWith("/qt/wait/"));
    QCOMPARE(sizeOf(consumer), 0);
}

// Three dequeue()s of one object waiting on an empty queue get three items in call order.
void tst_EtcdQueue::takesAreServedInCallOrder()
{
    EtcdQueue consumer(m_client.get(), "/qt/calls");
    std::unique_ptr<EtcdClient> other = connectedClient(m_server.clientUrl());
    EtcdQueue producer(other.get(), "/qt/calls");
    QList<EtcdQueueItemReply *> replies;
    for (int i = 0; i < 3; ++i) {
        replies.append(pending(consumer.dequeue()));
    }
    QVERIFY(watchersReach(here(), 1));
    for (const QByteArray &v : {"x"_ba, "y"_ba, "z"_ba})
        QVERIFY_OK(await(producer.enqueue(v)).status);
    QList<QByteArray> values;
    for (EtcdQueueItemReply *r : std::as_const(replies)) {
        const auto done = await(r);
        values.append(done.status.isOk() ? done->value() : "<failed>"_ba);
    }
    QCOMPARE(values, QList<QByteArray>({"x", "y", "z"}));
}

void tst_EtcdQueue::tryDequeueOnEmptyQueue()
{
    EtcdQueue q(m_client.get(), "/qt/try");
    const auto empty = await(q.tryDequeue());
    QVERIFY_OK(empty.status);
    QVERIFY(!empty->found());
    QCOMPARE(empty->value(), QByteArray());
    QVERIFY_OK(await(q.enqueue("one")).status);
    const auto one = await(q.tryDequeue());
    QVERIFY_OK(one.status);
    QVERIFY(one->found());
    QCOMPARE(one->value(), "one"_ba);
    QVERIFY(!await(q.tryDequeue())->found());
    QCOMPARE(watchers(here()), 0.0); // a FIFO's try never waits on a watch
    {
        // A priority queue keeps its first keys from one watch once it took (or tried to):
        // its next takes read nothing. It goes with the queue.
        EtcdPriorityQueue pq(m_client.get(), "/qt/try-prio");
        const auto none = await(pq.tryDequeue());
        QVERIFY_OK(none.status);
        QVERIFY(!none->found());
        QTRY_COMPARE(watchers(here()), 1.0);
    }
    QTRY_COMPARE(watchers(here()), 0.0);
}

// take(timeout) from a worker on an empty queue: nullopt, DeadlineExceeded, not before the
// timeout.
void tst_EtcdQueue::takeFromWorkerTimesOut()
{
    constexpr auto kTimeout = 700ms;
    EtcdQueue q(m_client.get(), "/qt/worker-empty");
    std::optional<QByteArray> got = "unset"_ba;
    std::optional<QByteArray> tried = "unset"_ba;
    EtcdStatus why;
    EtcdStatus tryWhy(ErrorCode::Unknown, u"unset"_s);
    qint64 elapsed = 0;
    Worker worker([&] {
        QElapsedTimer timer;
        timer.start();
        got = q.take(kTimeout, &why);
        elapsed = timer.elapsed();
        tried = q.tryTake(&tryWhy);
    });
    QVERIFY(worker.finish());
    QCOMPARE(got, std::nullopt);
    QCOMPARE(why.code(), ErrorCode::DeadlineExceeded);
    QVERIFY2(elapsed >= kTimeout.count(), qPrintable(QString::number(elapsed)));
    QVERIFY2(elapsed < kTimeout.count() + kWaitMs, qPrintable(QString::number(elapsed)));
    QCOMPARE(tried, std::nullopt); // empty: nullopt with an OK status
    QVERIFY_OK(tryWhy);
    // The timed-out take is over: it does not take what comes next, another object does.
    std::unique_ptr<EtcdClient> other = connectedClient(m_server.clientUrl());
    EtcdQueue another(other.get(), "/qt/worker-empty");
    QVERIFY_OK(await(another.enqueue("later")).status);
    QCOMPARE(takeN(another, 1), QList<QByteArray> {"later"});
}

void tst_EtcdQueue::takeFromWorkerGetsAnItemEnqueuedMeanwhile()
{
    constexpr auto kTimeout = 30s;
    EtcdQueue q(m_client.get(), "/qt/worker-item");
    std::unique_ptr<EtcdClient> other = connectedClient(m_server.clientUrl());
    EtcdQueue producer(other.get(), "/qt/worker-item");
    std::optional<QByteArray> got;
    EtcdStatus why(ErrorCode::Unknown, u"unset"_s);
    qint64 elapsed = 0;
    Worker worker([&] {
        QElapsedTimer timer;
        timer.start();
        got = q.take(kTimeout, &why);
        elapsed = timer.elapsed();
    });
    QVERIFY(watchersReach(here(), 1)); // the worker's take waits
    QVERIFY_OK(await(producer.enqueue("for-the-worker")).status);
    QVERIFY(worker.finish(kWaitMs));
    QVERIFY_OK(why);
    QCOMPARE(got, std::optional<QByteArray>("for-the-worker"));
    QVERIFY2(elapsed < std::chrono::milliseconds(kTimeout).count() / 2,
        qPrintable(QString::number(elapsed)));
    QCOMPARE(sizeOf(q), 0);
}

void tst_EtcdQueue::takeInOwnThreadIsRefused()
{
    EtcdQueue q(m_client.get(), "/qt/own");
    QVERIFY_OK(await(q.enqueue("stays")).status);
    EtcdStatus why;
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"own thread"_s));
    QCOMPARE(q.take(1s, &why), std::nullopt);
    QCOMPARE(why.code(), ErrorCode::WrongThread);
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"own thread"_s));
    QCOMPARE(q.tryTake(&why), std::nullopt);
    QCOMPARE(why.code(), ErrorCode::WrongThread);
    QCOMPARE(sizeOf(q), 1); // nothing was taken
}

// close() cancels every waiting dequeue() and lets go of the watch; it takes nothing, and
// what other clients enqueue afterwards stays in etcd.
void tst_EtcdQueue::closeCancelsWaitingTakes()
{
    std::unique_ptr<EtcdClient> other = connectedClient(m_server.clientUrl());
    EtcdQueue producer(other.get(), "/qt/close");
    EtcdQueue q(m_client.get(), "/qt/close");
    QSignalSpy closed(&q, &EtcdRecipe::closed);
    EtcdQueueItemReply *first = pending(q.dequeue());
    EtcdQueueItemReply *second = pending(q.dequeue());
    QVERIFY(watchersReach(here(), 1));
    q.close();
    QCOMPARE(await(first).status.code(), ErrorCode::Cancelled);
    QCOMPARE(await(second).status.code(), ErrorCode::Cancelled);
    QVERIFY(closed.wait(kWaitMs));
    QTRY_COMPARE_WITH_TIMEOUT(watchers(here()), 0.0, kWaitMs);

    for (const QByteArray &v : {"a"_ba, "b"_ba, "c"_ba})
        QVERIFY_OK(await(producer.enqueue(v)).status);
    QCOMPARE(sizeOf(producer), 3);
    QCOMPARE(await(q.dequeue()).status.code(), ErrorCode::Cancelled);
    QCOMPARE(await(q.tryDequeue()).status.code(), ErrorCode::Cancelled);
    QCOMPARE(await(q.enqueue("late")).status.code(), ErrorCode::Cancelled);
    QCOMPARE(await(q.size()).status.code(), ErrorCode::Cancelled);
    QCOMPARE(takeN(producer, 3), QList<QByteArray>({"a", "b", "c"}));
}

void tst_EtcdQueue::closeWakesAWaitingWorker()
{
    EtcdQueue q(m_client.get(), "/qt/close-worker");
    std::optional<QByteArray> got = "unset"_ba;
    EtcdStatus why;
    qint64 elapsed = 0;
    Worker worker([&] {
        QElapsedTimer timer;
        timer.start();
        got = q.take(60s, &why);
        elapsed = timer.elapsed();
    });
    QVERIFY(watchersReach(here(), 1));
    q.close();
    QVERIFY(worker.finish(kWaitMs));
    QCOMPARE(got, std::nullopt);
    QCOMPARE(why.code(), ErrorCode::Cancelled);
    QVERIFY2(elapsed < 30000, qPrintable(QString::number(elapsed)));
}

// abort() on a waiting dequeue() cancels the take: the item enqueued next is not consumed.
void tst_EtcdQueue::abortedDequeueConsumesNothing()
{
    EtcdQueue q(m_client.get(), "/qt/abort");
    std::unique_ptr<EtcdClient> other = connectedClient(m_server.clientUrl());
    EtcdQueue producer(other.get(), "/qt/abort");
    EtcdQueueItemReply *waiting = pending(q.dequeue());
    QVERIFY(watchersReach(here(), 1));
    waiting->abort();
    QCOMPARE(await(waiting).status.code(), ErrorCode::Cancelled);
    QVERIFY_OK(await(producer.enqueue("kept")).status);
    QCOMPARE(sizeOf(producer), 1);
    QCOMPARE(takeN(q, 1), QList<QByteArray> {"kept"}); // the object still works
}

// Deleting a waiting dequeue()'s reply cancels the take (EtcdReply: "a request still in
// flight is cancelled"): the next item is not consumed, and close() later touches no freed
// reply (the take once kept the raw reply pointer and crashed here).
void tst_EtcdQueue::deletedDequeueConsumesNothing()
{
    std::unique_ptr<EtcdClient> other = connectedClient(m_server.clientUrl());
    EtcdQueue producer(other.get(), "/qt/deleted");
    {
        EtcdQueue q(m_client.get(), "/qt/deleted");
        EtcdQueueItemReply *waiting = q.dequeue();
        QVERIFY(watchersReach(here(), 1)); // it waits on the empty queue
        delete waiting;
        QVERIFY_OK(await(producer.enqueue("kept")).status);
        QCOMPARE(sizeOf(producer), 1);
        q.close();
    }
    QCOMPARE(takeN(producer, 1), QList<QByteArray> {"kept"});
}

void tst_EtcdQueue::badInputIsRefused()
{
    EtcdQueue q(m_client.get(), "");
    QCOMPARE(await(q.enqueue("v")).status.code(), ErrorCode::InvalidArgument);
    QCOMPARE(await(q.enqueueAll({"v"})).status.code(), ErrorCode::InvalidArgument);
    QCOMPARE(await(q.dequeue()).status.code(), ErrorCode::InvalidArgument);
    QCOMPARE(await(q.tryDequeue()).status.code(), ErrorCode::InvalidArgument);
    QCOMPARE(await(q.size()).status.code(), ErrorCode::InvalidArgument);
    EtcdPriorityQueue pq(m_client.get(), "");
    QCOMPARE(await(pq.enqueue("v", 1)).status.code(), ErrorCode::InvalidArgument);
    QCOMPARE(await(pq.dequeue()).status.code(), ErrorCode::InvalidArgument);
    QCOMPARE(await(pq.size()).status.code(), ErrorCode::InvalidArgument);
    EtcdStatus why;
    std::optional<QByteArray> got = "unset"_ba;
    Worker worker([&] { got = q.take(5s, &why); });
    QVERIFY(worker.finish());
    QCOMPARE(got, std::nullopt);
    QCOMPARE(why.code(), ErrorCode::InvalidArgument);
    q.start(); // refused: no watch, not active
    QVERIFY(!q.isActive());
    QCOMPARE(keysUnder(*m_client, "/").size(), 0); // nothing was written anywhere
}

// A value over etcd's request limit (1.5 MiB) is refused with InvalidArgument before any RPC:
// even a client that reaches no etcd says InvalidArgument, not Unavailable.
void tst_EtcdQueue::oversizeValueIsRefusedBeforeAnyRpc()
{
    const QByteArray big(2 * 1024 * 1024, 'x');
    const QByteArray half(1024 * 1024, 'y');
    EtcdClient nowhere({QUrl(u"http://127.0.0.1:%1"_s.arg(EtcdTestServer::freePort()))});
    nowhere.connectToEndpoints();
    for (EtcdClient *c : {m_client.get(), &nowhere}) {
        EtcdQueue q(c, "/qt/big");
        EtcdPriorityQueue pq(c, "/qt/big-prio");
        QCOMPARE(await(q.enqueue(big)).status.code(), ErrorCode::InvalidArgument);
        QCOMPARE(await(q.enqueueAll({big})).status.code(), ErrorCode::InvalidArgument);
        QCOMPARE(await(q.enqueueAll({half, half})).status.code(), ErrorCode::InvalidArgument);
        QCOMPARE(await(pq.enqueue(big, 1)).status.code(), ErrorCode::InvalidArgument);
    }
    EtcdQueue q(m_client.get(), "/qt/big");
    QCOMPARE(sizeOf(q), 0);
    QVERIFY_OK(await(q.enqueue(half)).status); // 1 MiB is fine
    QCOMPARE(takeN(q, 1), QList<QByteArray> {half});
}

// A client on a port nobody listens on: every operation fails with an error within the
// client's call deadline and retries, and a waiting take does not wait forever.
void tst_EtcdQueue::unreachableEtcdFailsInBoundedTime()
{
    constexpr auto kDeadline = 3s;
    EtcdClient nowhere({QUrl(u"http://127.0.0.1:%1"_s.arg(EtcdTestServer::freePort()))});
    nowhere.setConnectTimeout(1s);
    nowhere.setCallDeadline(kDeadline);
    nowhere.connectToEndpoints();
    EtcdQueue q(&nowhere, "/qt/nowhere");
    EtcdPriorityQueue pq(&nowhere, "/qt/nowhere-prio");
    // Five attempts of the default retry policy, each within the call deadline.
    const qint64 bound = 5 * std::chrono::milliseconds(kDeadline).count() + 2000;
    const auto failsInTime = [bound](EtcdReply *reply, const char *what) {
        QElapsedTimer timer;
        timer.start();
        const auto done = await(reply, std::chrono::milliseconds(bound + 5000));
        const qint64 took = timer.elapsed();
        const bool failed = !done.status.isOk() && !done.status.message().startsWith(u"test:"_s);
        if (!failed || took > bound)
            qWarning("%s: %s after %lld ms", what, qPrintable(done.status.toString()), took);
        return failed && took <= bound;
    };
    QVERIFY(failsInTime(q.enqueue("v"), "enqueue"));
    QVERIFY(failsInTime(q.enqueueAll({"v", "w"}), "enqueueAll"));
    QVERIFY(failsInTime(q.dequeue(), "dequeue"));
    QVERIFY(failsInTime(q.tryDequeue(), "tryDequeue"));
    QVERIFY(failsInTime(q.size(), "size"));
    QVERIFY(failsInTime(pq.enqueue("v", 2), "priority enqueue"));
    QVERIFY(failsInTime(pq.dequeue(), "priority dequeue"));

    std::optional<QByteArray> got = "unset"_ba;
    EtcdStatus why;
    qint64 elapsed = 0;
    Worker worker([&] {
        QElapsedTimer timer;
        timer.start();
        got = q.take(60s, &why);
        elapsed = timer.elapsed();
    });
    QVERIFY(worker.finish(int(bound) + 5000));
    QCOMPARE(got, std::nullopt);
    QVERIFY(!why.isOk());
    QVERIFY2(elapsed <= bound, qPrintable(QString::number(elapsed)));
}

// A dequeue() waiting while etcd is killed and restarted gets the item enqueued after the
// restart; items enqueued before a restart are all still taken, in order.
void tst_EtcdQueue::survivesEtcdRestart()
{
    std::unique_ptr<EtcdClient> consumerClient = clientOn(here(), kLiveness);
    EtcdQueue consumer(consumerClient.get(), "/qt/restart");
    EtcdQueue producer(m_client.get(), "/qt/restart");
    EtcdQueueItemReply *waiting = pending(consumer.dequeue());
    QVERIFY(watchersReach(here(), 1));
    m_server.kill();
    QVERIFY2(m_server.restart(), qPrintable(m_server.log()));
    QVERIFY_OK(await(producer.enqueue("after-restart"), 20s).status);
    const auto got = await(waiting, 20s);
    QVERIFY_OK(got.status);
    QCOMPARE(got->value(), "after-restart"_ba);

    const QList<QByteArray> before = numberedList("r", 0, 5);
    for (const QByteArray &v : before)
        QVERIFY_OK(await(producer.enqueue(v)).status);
    m_server.kill();
    QVERIFY2(m_server.restart(), qPrintable(m_server.log()));
    QCOMPARE(takeN(consumer, 5, 20s), before);
    QCOMPARE(sizeOf(consumer), 0);
    QVERIFY(consumer.errors().isEmpty());
}

// A take that waits, begun while etcd is down: its read fails (one attempt of 500 ms here, as
// a busy machine's reconnect can outlast a call's retries) and it reads again until etcd is
// back, instead of ending with Unavailable. The metrics say when its read failed.
void tst_EtcdQueue::waitingTakeOutlastsAnOutage()
{
    std::unique_ptr<EtcdClient> consumerClient = clientOn(here(), kLiveness);
    consumerClient->setRpcResilience({EtcdRetryPolicy::bounded(1), 500ms});
    const auto registry = std::make_shared<EtcdMetricsRegistry>();
    consumerClient->setMetrics(registry);
    EtcdQueue consumer(consumerClient.get(), "/qt/outage");
    EtcdQueue producer(m_client.get(), "/qt/outage");
    QCOMPARE(sizeOf(consumer), 0); // connected once: what follows is an outage
    m_server.kill();
    EtcdQueueItemReply *waiting = pending(consumer.dequeue());
    QTRY_VERIFY_WITH_TIMEOUT(
        registry->prometheusText().contains("etcdqt_rpc_errors_total{method=\"Range\""), 20000);
    QVERIFY(!waiting->isFinished());
    QVERIFY2(m_server.restart(), qPrintable(m_server.log()));
    QVERIFY_OK(await(producer.enqueue("after-outage"), 20s).status);
    const auto got = await(waiting, 20s);
    QVERIFY_OK(got.status);
    QCOMPARE(got->value(), "after-outage"_ba);
}

// History compacted up to now from a second client while a consumer waits: its watch is
// past it, and the next enqueue is still delivered.
void tst_EtcdQueue::waitingConsumerSurvivesCompaction()
{
    std::unique_ptr<EtcdClient> other = connectedClient(m_server.clientUrl());
    EtcdQueue consumer(m_client.get(), "/qt/compact");
    EtcdQueue producer(other.get(), "/qt/compact");
    EtcdQueueItemReply *waiting = pending(consumer.dequeue());
    QVERIFY(watchersReach(here(), 1));
    const auto put = await(other->put("/qt/compact-marker", "x"));
    QVERIFY_OK(put.status);
    QVERIFY_OK(await(other->compact(put->revision())).status);
    QVERIFY_OK(await(producer.enqueue("after-compaction")).status);
    const auto got = await(waiting);
    QVERIFY_OK(got.status);
    QCOMPARE(got->value(), "after-compaction"_ba);
}

// A waiting consumer cut off while an item is enqueued and that history is compacted away:
// its watch cannot resume where it was, so it must read the queue again and take the item.
void tst_EtcdQueue::cutOffConsumerResyncsAfterCompaction()
{
    PartitionedClient side(m_server.clientPort());
    QVERIFY(side.started);
    EtcdQueue consumer(&side.client, "/qt/resync");
    EtcdQueue producer(m_client.get(), "/qt/resync");
    EtcdQueueItemReply *waiting = pending(consumer.dequeue());
    QVERIFY(watchersReach(here(), 1));
    side.proxy.setMode(FaultProxy::Mode::Reset); // nothing of the enqueue reaches it
    QVERIFY_OK(await(producer.enqueue("while-cut-off")).status);
    const auto put = await(m_client->put("/qt/resync-marker", "x"));
    QVERIFY_OK(put.status);
    QVERIFY_OK(await(m_client->compact(put->revision())).status);
    QVERIFY(!waiting->isFinished());
    side.proxy.setMode(FaultProxy::Mode::Pass);
    const auto got = await(waiting, 3 * kWait);
    QVERIFY_OK(got.status);
    QCOMPARE(got->value(), "while-cut-off"_ba);
    QCOMPARE(sizeOf(producer), 0);
}

// A 3-member cluster loses its raft leader while a consumer, connected to that leader, waits:
// its watch resumes on another member, and an item enqueued after the election is delivered.
void tst_EtcdQueue::deliveredAfterRaftLeaderLoss()
{
    EtcdTestCluster cluster(3);
    ETCDQT_START_OR_SKIP(cluster);
    // A new leader within an election timeout or two; a stream notices a dead member within
    // its liveness interval: ten times their sum bounds every wait.
    const auto settle = 10 * (cluster.electionTimeout() + kLiveness);
    const int leader = cluster.leaderIndex();
    QVERIFY2(leader >= 0, qPrintable(cluster.log()));
    QList<QUrl> urls {cluster.clientUrl(leader)}; // the consumer starts on the leader
    for (int i = 0; i < cluster.size(); ++i) {
        if (i != leader)
            urls.append(cluster.clientUrl(i));
    }
    std::unique_ptr<EtcdClient> consumerClient = clientOn(urls, kLiveness);
    EtcdClient producerClient(urls.mid(1));
    producerClient.setRpcResilience({EtcdRetryPolicy::bounded(40, 250ms), 2s});
    producerClient.connectToEndpoints();
    EtcdQueue consumer(consumerClient.get(), "/qt/failover");
    EtcdQueue producer(&producerClient, "/qt/failover");

    QVERIFY_OK(await(producer.enqueue("before"), settle).status);
    QCOMPARE(takeN(consumer, 1, settle), QList<QByteArray> {"before"});
    EtcdQueueItemReply *waiting = pending(consumer.dequeue());
    QVERIFY(watchersReach({cluster.clientUrl(leader)}, 1, int(settle.count())));
    QCOMPARE(cluster.killLeader(), leader);
    QVERIFY2(cluster.waitForLeader(settle), qPrintable(cluster.log()));
    QVERIFY_OK(await(producer.enqueue("after-failover"), settle).status);
    const auto got = await(waiting, settle);
    QVERIFY_OK(got.status);
    QCOMPARE(got->value(), "after-failover"_ba);
    QVERIFY_OK(await(producer.enqueueAll({"x", "y"}), settle).status);
    QCOMPARE(takeN(consumer, 2, settle), QList<QByteArray>({"x", "y"}));
}

// Items written by plain puts in etcd-recipes' exact layout are taken in mod-revision order,
// whatever the millis in their names say; a batch (one transaction, written in reverse) in
// its index order; a rewritten item moves to the end, as in etcd-recipes.
void tst_EtcdQueue::takesEtcdRecipesFifoKeys()
{
    const QByteArray q = "/qt/kotlin";
    QVERIFY_OK(await(m_client->put(q + "/0000001700000000000-abc", "k1")).status);
    QVERIFY_OK(await(m_client->put(q + "/0000001600000000000-zzz", "k2")).status);
    QVERIFY_OK(await(m_client->put(q + "/0000001650000000000-Moo", "moved")).status);
    EtcdTxn batch;
    for (int i = 14; i >= 0; --i) {
        batch.success.append(EtcdTxnOp::put(q + "/0000001800000000000-"
                + QByteArray::number(i).rightJustified(5, '0') + "-b" + QByteArray::number(i % 10)
                + "Z",
            numbered("b", i)));
    }
    QVERIFY_OK(await(m_client->txn(batch)).status);
    QVERIFY_OK(await(m_client->put(q + "/0000001500000000000-AAA", "k3")).status);
    QVERIFY_OK(await(m_client->put(q + "/0000001650000000000-Moo", "moved")).status);

    EtcdQueue consumer(m_client.get(), q);
    QCOMPARE(sizeOf(consumer), 19);
    const auto first = await(consumer.dequeue());
    QVERIFY_OK(first.status);
    QCOMPARE(first->key(), q + "/0000001700000000000-abc");
    QCOMPARE(first->value(), "k1"_ba);
    QCOMPARE(takeN(consumer, 18),
        QList<QByteArray> {"k2"} + numberedList("b", 0, 15) + QList<QByteArray>({"k3", "moved"}));
    QCOMPARE(sizeOf(consumer), 0);

    // A path ending in '/' joins rawly: "<path>//…", as etcd-recipes' "$path/…".
    EtcdQueue slashed(m_client.get(), "/qt/slash/");
    QVERIFY_OK(await(slashed.enqueue("s")).status);
    const QList<EtcdKeyValue> kvs = keysUnder(*m_client, "/qt/slash/");
    QCOMPARE(kvs.size(), 1);
    QVERIFY2(kvs.first().key.startsWith("/qt/slash//"), kvs.first().key.constData());
    QCOMPARE(takeN(slashed, 1), QList<QByteArray> {"s"});
}

// Priority keys written raw ("<q>/<prio %05d>/<seq %016d>") are taken by priority then
// sequence; an enqueue continues a level's sequence after the raw keys.
void tst_EtcdQueue::takesEtcdRecipesPriorityKeys()
{
    const QByteArray q = "/qt/kotlin-prio";
    QVERIFY_OK(await(m_client->put(q + "/00003/0000000000000000", "p3a")).status);
    QVERIFY_OK(await(m_client->put(q + "/00001/0000000000000005", "p1")).status);
    QVERIFY_OK(await(m_client->put(q + "/00003/0000000000000001", "p3b")).status);
    EtcdPriorityQueue pq(m_client.get(), q);
    QCOMPARE(sizeOf(pq), 3);
    QVERIFY_OK(await(pq.enqueue("p3c", 3)).status);
    QVERIFY_OK(await(pq.enqueue("p2", 2)).status);
    QCOMPARE(keyValueOf(*m_client, q + "/00003/0000000000000002").value, "p3c"_ba);
    QCOMPARE(keyValueOf(*m_client, q + "/00002/0000000000000000").value, "p2"_ba);
    QCOMPARE(sizeOf(pq), 5);
    const auto first = await(pq.dequeue());
    QVERIFY_OK(first.status);
    QCOMPARE(first->key(), q + "/00001/0000000000000005");
    QCOMPARE(takeN(pq, 4), QList<QByteArray>({"p2", "p3a", "p3b", "p3c"}));
}

// After start(), every put another client makes into the queue is signalled, one per item;
// an object not started signals nothing.
void tst_EtcdQueue::itemAvailableAfterStart()
{
    std::unique_ptr<EtcdClient> consumerClient = connectedClient(m_server.clientUrl());
    EtcdQueue followed(consumerClient.get(), "/qt/avail");
    EtcdQueue idle(consumerClient.get(), "/qt/avail");
    EtcdPriorityQueue followedPrio(consumerClient.get(), "/qt/avail-prio");
    QSignalSpy available(&followed, &EtcdAbstractQueue::itemAvailable);
    QSignalSpy idleAvailable(&idle, &EtcdAbstractQueue::itemAvailable);
    QSignalSpy prioAvailable(&followedPrio, &EtcdAbstractQueue::itemAvailable);
    followed.start();
    followedPrio.start();
    QVERIFY(followed.isActive());
    QVERIFY(watchesLive(*consumerClient, kWaitMs));

    EtcdQueue producer(m_client.get(), "/qt/avail");
    EtcdPriorityQueue prioProducer(m_client.get(), "/qt/avail-prio");
    for (const QByteArray &v : {"a"_ba, "b"_ba, "c"_ba})
        QVERIFY_OK(await(producer.enqueue(v)).status);
    QVERIFY_OK(await(producer.enqueueAll({"d", "e"})).status);
    QVERIFY_OK(await(prioProducer.enqueue("p", 4)).status);
    QTRY_COMPARE_WITH_TIMEOUT(available.count(), 5, kWaitMs);
    QTRY_COMPARE_WITH_TIMEOUT(prioAvailable.count(), 1, kWaitMs);
    QCOMPARE(idleAvailable.count(), 0);
    QCOMPARE(sizeOf(followed), 5); // signalled, not taken
    QCOMPARE(takeN(followed, 5), QList<QByteArray>({"a", "b", "c", "d", "e"}));
    QCOMPARE(available.count(), 5); // takes are deletes: no signal
}

// The typed queues write the codec's bytes (etcd-recipes' encodings) and decode what they take;
// bytes that do not decode are taken all the same and reported.
void tst_EtcdQueue::typedQueuesEncodeAndDecode()
{
    EtcdTypedQueue<EtcdInt64Codec> numbers(m_client.get(), "/qt/typed/numbers");
    QVERIFY_OK(await(numbers.enqueueAll({7, -1})).status);
    QVERIFY_OK(await(numbers.untyped()->enqueue("bad")).status); // not 8 bytes
    EtcdTypedPriorityQueue<EtcdTextCodec> words(m_client.get(), "/qt/typed/words");
    QVERIFY_OK(await(words.enqueue(u"späť"_s, 2)).status);
    QVERIFY_OK(await(words.enqueue(u"first"_s, 1)).status);
    const auto raw = await(m_client->get("/qt/typed/numbers/", EtcdRangeOptions {.prefix = true}));
    QVERIFY_OK(raw.status);
    QCOMPARE(raw->keyValues().first().value, Etcd::encodeInt64(7));
    std::optional<qint64> a, b, c;
    std::optional<QString> w1, w2;
    EtcdStatus badWhy;
    Worker worker([&] {
        a = numbers.take(kWait);
        b = numbers.take(kWait);
        c = numbers.take(kWait, &badWhy);
        w1 = words.take(kWait);
        w2 = words.tryTake();
    });
    QVERIFY(worker.finish());
    QCOMPARE(a, 7);
    QCOMPARE(b, -1);
    QCOMPARE(c, std::nullopt);
    QCOMPARE(badWhy.code(), ErrorCode::InvalidArgument);
    QCOMPARE(sizeOf(*numbers.untyped()), 0); // the bad value was taken, not left behind
    QCOMPARE(w1, u"first"_s);
    QCOMPARE(w2, u"späť"_s);
    EtcdTypedWorkQueue<EtcdJsonCodec> jobs(m_client.get(), "/qt/typed/jobs");
    QVERIFY_OK(await(jobs.enqueue(QJsonDocument(QJsonObject {{u"n"_s, 1}}))).status);
    const auto got = await(jobs.untyped()->receive());
    QVERIFY_OK(got.status);
    QCOMPARE(EtcdTypedWorkQueue<EtcdJsonCodec>::valueOf(got->item())->object().value(u"n"_s), 1);
    QVERIFY(await(jobs.untyped()->ack(got->item()))->result());
}

QTEST_GUILESS_MAIN(tst_EtcdQueue)
#include "tst_etcdqueue.moc"
