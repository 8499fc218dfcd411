// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// The caches across raft failovers on a 3-member cluster: 1,000 changes (additions, updates,
// deletions, nested names) written while the leader is killed (an election) and, after it
// rejoined, the next leader is stopped (a leadership transfer). The caches' client starts on
// the leader, so its watch stream dies too and resumes on another member. Every change must
// be reported exactly once, in revision order, with the exact key-value before it, and the
// final copy must equal a fresh read.
#include "testutil.h"

#include <etcdtestcluster.h>
#include <etcdtestserver.h>

#include <QtCore/qdeadlinetimer.h>
#include <QtCore/qrandom.h>
#include <QtCore/qset.h>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using State = EtcdRecipe::ConnectionState;

namespace {

constexpr int kBatches = 50;
constexpr int kBatchSize = 20; // changes per transaction: 1,000 in all
constexpr int kKillAt = 15; // the leader is killed while this batch is in flight
constexpr int kRejoinAt = 28; // the killed member rejoins before this batch
constexpr int kStopAt = 35; // the next leader is stopped while this batch is in flight
constexpr int kPool = 150; // names the changes choose from
constexpr int kSeeded = 40; // children there before the caches start
constexpr auto kLiveness = 500ms; // how soon the caches' streams notice a silent member
constexpr auto kAttempt = 2s; // one write attempt
constexpr auto kRetryPause = 100ms; // between write attempts (a dead leader, an election)
const QByteArray kPrefix = "/fo/"_ba;
const QByteArray kSeq = "/fo-seq"_ba; // outside the prefix: no cache sees it
const QString kHot = u"hot"_s; // the node cache's key, changed by every batch

struct Landed
{
    qint64 revision = -1;
    bool before = false; // an attempt whose answer was lost had committed it
};

struct Op
{
    QString name;
    bool remove = false;
    QByteArray value;
};

QByteArray keyOf(const QString &name)
{
    return kPrefix + name.toUtf8();
}

// A key-value as the records show it: every field a change could get wrong.
QString fmt(const EtcdKeyValue &kv)
{
    return u"%1@%2/%3/%4"_s.arg(QString::fromUtf8(kv.value))
        .arg(kv.modRevision)
        .arg(kv.createRevision)
        .arg(kv.version);
}

QString poolName(int i)
{
    switch (i % 3) {
    case 0:
        return u"n%1"_s.arg(i);
    case 1:
        return u"g%1/n%2"_s.arg(i % 4).arg(i);
    default:
        return u"g%1/h/n%2"_s.arg(i % 4).arg(i);
    }
}

// What the writer made etcd hold under the prefix, and what each cache must report of it.
struct Model
{
    QMap<QString, EtcdKeyValue> held;
    QStringList children; // as the path cache's record shows them
    QStringList node; // as the node cache's record shows them

    // One batch: the hot key (put, or deleted every fourth batch), then distinct names of
    // the pool, each an addition when absent, else an update or (one in three) a deletion.
    QList<Op> plan(int batch, QRandomGenerator &random) const
    {
        QList<Op> ops;
        const QByteArray tag = "b" + QByteArray::number(batch) + ".";
        ops.append({kHot, held.contains(kHot) && batch % 4 == 3, tag + "hot"});
        QSet<int> chosen;
        while (ops.size() < kBatchSize) {
            const int i = int(random.bounded(kPool));
            if (chosen.contains(i))
                continue;
            chosen.insert(i);
            const QString name = poolName(i);
            const bool remove = held.contains(name) && random.bounded(3) == 0;
            ops.append({name, remove, tag + QByteArray::number(ops.size())});
        }
        return ops;
    }

    // The batch committed at `revision`: the changes it made, in the order etcd made them.
    void committed(const QList<Op> &ops, qint64 revision)
    {
        for (const Op &op : ops) {
            const auto it = held.constFind(op.name);
            const bool was = it != held.cend();
            const EtcdKeyValue before = was ? it.value() : EtcdKeyValue();
            if (op.remove) {
                children.append(u"removed %1 %2 %3"_s.arg(op.name, fmt(before)).arg(revision));
                held.remove(op.name);
            } else {
                EtcdKeyValue now;
                now.key = keyOf(op.name);
                now.value = op.value;
                now.createRevision = was ? before.createRevision : revision;
                now.modRevision = revision;
                now.version = was ? before.version + 1 : 1;
                children.append(was ? u"updated %1 %2 %3"_s.arg(op.name, fmt(now), fmt(before))
                                    : u"added %1 %2"_s.arg(op.name, fmt(now)));
                held.insert(op.name, now);
            }
            if (op.name == kHot)
                node.append(nodeRecord(op, before.value, was, revision));
        }
    }

    static QString nodeRecord(const Op &op, const QByteArray &before, bool was, qint64 revision)
    {
        const QString value = QString::fromUtf8(op.value);
        const QString previous = QString::fromUtf8(before);
        if (op.remove)
            return u"deleted %1 %2"_s.arg(previous).arg(revision);
        return was ? u"updated %1 %2 %3"_s.arg(value, previous).arg(revision)
                   : u"created %1 %2"_s.arg(value).arg(revision);
    }
};

// What the path cache reported, in order, as the model writes it.
struct ChildrenRecord
{
    explicit ChildrenRecord(EtcdPathChildrenCache *c)
    {
        const auto checkKey = [this, c](const QString &n, const EtcdKeyValue &kv) {
            if (kv.key != c->prefix() + n.toUtf8())
                wrongKeys.append(n);
        };
        QObject::connect(c, &EtcdPathChildrenCache::childAdded, c,
            [this, checkKey](const QString &n, const EtcdKeyValue &kv) {
                checkKey(n, kv);
                list.append(u"added %1 %2"_s.arg(n, fmt(kv)));
            });
        QObject::connect(c, &EtcdPathChildrenCache::childUpdated, c,
            [this, checkKey](const QString &n, const EtcdKeyValue &kv, const EtcdKeyValue &p) {
                checkKey(n, kv);
                checkKey(n, p);
                list.append(u"updated %1 %2 %3"_s.arg(n, fmt(kv), fmt(p)));
            });
        QObject::connect(c, &EtcdPathChildrenCache::childRemoved, c,
            [this, checkKey](const QString &n, const EtcdKeyValue &p, qint64 r) {
                checkKey(n, p);
                list.append(u"removed %1 %2 %3"_s.arg(n, fmt(p)).arg(r));
            });
        QObject::connect(c, &EtcdPathChildrenCache::resynced, c, [this] { ++resyncs; });
    }
    QStringList list;
    QStringList wrongKeys;
    int resyncs = 0;
};

struct NodeRecord
{
    explicit NodeRecord(EtcdNodeCache *c)
    {
        const auto text = [](const QByteArray &b) { return QString::fromUtf8(b); };
        QObject::connect(
            c, &EtcdNodeCache::created, c, [this, text](const QByteArray &v, qint64 r) {
                list.append(u"created %1 %2"_s.arg(text(v)).arg(r));
            });
        QObject::connect(c, &EtcdNodeCache::updated, c,
            [this, text](const QByteArray &v, const QByteArray &p, qint64 r) {
                list.append(u"updated %1 %2 %3"_s.arg(text(v), text(p)).arg(r));
            });
        QObject::connect(
            c, &EtcdNodeCache::deleted, c, [this, text](const QByteArray &p, qint64 r) {
                list.append(u"deleted %1 %2"_s.arg(text(p)).arg(r));
            });
        QObject::connect(c, &EtcdNodeCache::resynced, c, [this] { ++resyncs; });
    }
    QStringList list;
    int resyncs = 0;
};

} // namespace

class tst_EtcdCacheFailover : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void everyChangeOnceAcrossFailovers();

private:
    static Landed commit(EtcdClient &writer, int batch, const QList<Op> &ops,
        std::chrono::milliseconds deadline, const std::function<void()> &sent);
};

// Commits `ops` as batch `batch` exactly once and says at which revision (-1: it could not).
// The client never retries a transaction (its outcome is unknown after a lost answer), so
// this does, guarded by the batch's sequence number: a retry of a batch that had landed
// fails its compare, and the answer's read of the sequence key says at which revision it
// landed. `sent` runs once the first attempt is on its way.
Landed tst_EtcdCacheFailover::commit(EtcdClient &writer, int batch, const QList<Op> &ops,
    std::chrono::milliseconds deadline, const std::function<void()> &sent)
{
    EtcdTxn txn;
    txn.compares
        = {EtcdCompare::value(kSeq, Etcd::CompareResult::Equal, QByteArray::number(batch))};
    for (const Op &op : ops)
        txn.success.append(op.remove ? EtcdTxnOp::remove(keyOf(op.name))
                                     : EtcdTxnOp::put(keyOf(op.name), op.value));
    txn.success.append(EtcdTxnOp::put(kSeq, QByteArray::number(batch + 1)));
    txn.failure = {EtcdTxnOp::get(kSeq)};
    const QDeadlineTimer until(deadline);
    bool first = true;
    while (!until.hasExpired()) {
        EtcdTxnReply *reply = writer.txn(txn);
        if (std::exchange(first, false) && sent)
            sent();
        const auto answer = await(reply, kAttempt + 1s);
        if (!answer.status.isOk()) {
            QTest::qWait(int(kRetryPause.count())); // a dead leader or an election: again
            continue;
        }
        if (answer->succeeded())
            return {answer->revision(), false};
        const QList<EtcdTxnOpResult> results = answer->results();
        if (results.isEmpty() || results.first().keyValues.isEmpty())
            return {};
        const EtcdKeyValue seq = results.first().keyValues.first();
        if (seq.value != QByteArray::number(batch + 1))
            return {}; // not this writer's sequence
        return {seq.modRevision, true};
    }
    return {};
}

void tst_EtcdCacheFailover::everyChangeOnceAcrossFailovers()
{
    EtcdTestCluster cluster(3);
    ETCDQT_START_OR_SKIP(cluster);
    // A new leader within an election timeout or two; a stream notices a silent member
    // within its liveness interval and resumes after a backoff of the same order. Ten times
    // the sum bounds every wait for the cluster or the caches.
    const auto settle = 10 * (cluster.electionTimeout() + kLiveness);
    const int leader = cluster.leaderIndex();
    QVERIFY2(leader >= 0, qPrintable(cluster.log()));
    QList<QUrl> urls {cluster.clientUrl(leader)}; // both clients start on the leader
    for (int i = 0; i < cluster.size(); ++i) {
        if (i != leader)
            urls.append(cluster.clientUrl(i));
    }
    // The writer reaches the leader through a proxy, which loses the answer of the batch in
    // flight when the leader is killed: its retry must find that the batch had landed.
    FaultProxy toLeader(u"127.0.0.1"_s, cluster.member(leader)->clientPort());
    QVERIFY(toLeader.start());
    QList<QUrl> writerUrls = urls;
    writerUrls.first() = toLeader.url();
    EtcdClient writer(writerUrls);
    writer.setRpcResilience({EtcdRetryPolicy::bounded(40, 250ms), kAttempt});
    writer.connectToEndpoints();
    EtcdClient watcher(urls);
    watcher.setStreamLivenessInterval(kLiveness);
    watcher.connectToEndpoints();

    Model model;
    QRandomGenerator random(1000);
    EtcdTxn seed;
    QList<Op> seeded;
    for (int i = 0; i < kSeeded; ++i)
        seeded.append({poolName(i * 7 % kPool), false, "seed" + QByteArray::number(i)});
    for (const Op &op : std::as_const(seeded))
        seed.success.append(EtcdTxnOp::put(keyOf(op.name), op.value));
    seed.success.append(EtcdTxnOp::put(kSeq, "0"));
    const auto seedAnswer = await(writer.txn(seed), settle);
    QVERIFY_OK(seedAnswer.status);
    model.committed(seeded, seedAnswer->revision());
    model.children.clear(); // the snapshot is not reported change by change

    EtcdPathChildrenCache children(&watcher, kPrefix);
    ChildrenRecord childrenRecord(&children);
    EtcdNodeCache node(&watcher, keyOf(kHot));
    NodeRecord nodeRecord(&node);
    QList<State> childrenStates;
    QList<State> nodeStates;
    connect(&children, &EtcdRecipe::connectionStateChanged, this,
        [&childrenStates](State s) { childrenStates.append(s); });
    connect(&node, &EtcdRecipe::connectionStateChanged, this,
        [&nodeStates](State s) { nodeStates.append(s); });
    children.start(EtcdPathChildrenCache::StartMode::BuildInitialCache);
    node.start();
    const int settleMs = int(settle.count());
    QTRY_VERIFY_WITH_TIMEOUT(children.isStarted() && node.isStarted(), settleMs);
    QCOMPARE(children.count(), kSeeded);

    int killed = -1;
    int stopped = -1;
    bool committedBeforeKill = false;
    Landed landed;
    for (int b = 0; b < kBatches; ++b) {
        if (b == kRejoinAt)
            QVERIFY2(cluster.restart(killed), qPrintable(cluster.log()));
        std::function<void()> sent;
        if (b == kKillAt) {
            toLeader.setDelay(settle); // the answer is held back...
            const qsizetype through = model.children.size() + kBatchSize;
            sent = [&, through] {
                // ...until the batch's events reached the caches: it committed.
                committedBeforeKill = QTest::qWaitFor(
                    [&] { return childrenRecord.list.size() >= through; }, settleMs);
                killed = cluster.killLeader();
                toLeader.setMode(FaultProxy::Mode::Reset); // the answer is lost
            };
        }
        if (b == kStopAt) {
            sent = [&] {
                stopped = cluster.leaderIndex();
                if (stopped >= 0)
                    cluster.stop(stopped); // graceful: it hands leadership over first
            };
        }
        const QList<Op> ops = model.plan(b, random);
        landed = commit(writer, b, ops, settle, sent);
        QVERIFY2(landed.revision > 0, qPrintable(u"batch %1 not committed"_s.arg(b)));
        model.committed(ops, landed.revision);
        if (b == kKillAt) {
            QVERIFY(committedBeforeKill);
            QVERIFY(landed.before); // found by the retry, not committed twice
            QCOMPARE(killed, leader); // the caches' member
        }
        if (b == kStopAt)
            QVERIFY2(stopped >= 0, qPrintable(cluster.log()));
    }
    QCOMPARE(model.children.size(), kBatches * kBatchSize);

    QTRY_COMPARE_WITH_TIMEOUT(childrenRecord.list.size(), model.children.size(), settleMs);
    QTRY_COMPARE_WITH_TIMEOUT(nodeRecord.list.size(), model.node.size(), settleMs);
    QCOMPARE(childrenRecord.list, model.children);
    QCOMPARE(nodeRecord.list, model.node);
    QVERIFY2(childrenRecord.wrongKeys.isEmpty(), qPrintable(childrenRecord.wrongKeys.join(u' ')));
    QCOMPARE(children.revision(), landed.revision);
    QCOMPARE(childrenRecord.resyncs, 0); // nothing compacted: the watches resumed in place
    QCOMPARE(nodeRecord.resyncs, 0);

    const auto fresh = await(writer.get(kPrefix, {.prefix = true}), settle);
    QVERIFY_OK(fresh.status);
    QCOMPARE(fresh->revision(), landed.revision);
    QCOMPARE(children.currentData(), fresh->keyValues());
    QCOMPARE(children.currentData(), model.held.values());
    const auto hot = await(writer.get(keyOf(kHot)), settle);
    QVERIFY_OK(hot.status);
    QCOMPARE(node.exists(), !hot->keyValues().isEmpty());
    if (node.exists())
        QCOMPARE(node.keyValue(), hot->keyValues().first());

    // The first kill cut the caches' stream: suspended, then reconnected on another member;
    // never lost.
    for (const QList<State> *states : {&childrenStates, &nodeStates}) {
        QVERIFY(states->size() >= 2);
        QCOMPARE(states->first(), State::Suspended);
        QCOMPARE(states->last(), State::Reconnected);
        QVERIFY(!states->contains(State::Lost));
    }
    QVERIFY(children.errors().isEmpty());
    QVERIFY(node.errors().isEmpty());
}

QTEST_GUILESS_MAIN(tst_EtcdCacheFailover)
#include "tst_etcdcache_failover.moc"
