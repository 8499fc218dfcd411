// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// EtcdAtomicCounter against a real etcd: etcd-recipes' DistributedAtomicLongTests (bad
// arguments, default and non-default initial values, increment/decrement, add/subtract,
// serial and threaded counting), its key layout, one transaction per uncontended change, and
// 20 threads on 4 clients whose 2,000 increments return 2,000 distinct values.
#include "leaseledger.h"
#include "lockutil.h"

#include <EtcdQt/etcdatomiccounter.h>
#include <EtcdQt/etcdcodec.h>
#include <etcdtestserver.h>

#include <QtCore/qregularexpression.h>

#include <set>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace {
constexpr int kWaitMs = kLockWaitMs;

// The value of a finished counter reply; -999 (and a failed QVERIFY in the caller's
// QCOMPARE) when it failed.
qint64 valueOf(EtcdValueReply *reply)
{
    const auto r = await(reply);
    if (!r.status.isOk()) {
        qWarning().noquote() << "counter reply failed:" << r.status.toString();
        return -999;
    }
    return r->value();
}
} // namespace

class tst_EtcdAtomicCounter : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void badInputIsRefused();
    void keyLayoutIsEtcdRecipes();
    void defaultInitialValue();
    void nonDefaultInitialValue();
    void firstCreatorsInitialValueWins();
    void incrementDecrementAnswerInCallOrder();
    void addSubtract();
    void uncontendedChangeIsOneTransaction();
    void serialCounters();
    void threadedIncrementsAreExactAndDistinct();
    void foreignValueIsRefused();
    void workerFormsAreRefusedInOwnThread();
    void workerFormsWait();

private:
    qint64 stored(const QByteArray &key);
    void removeCounter(const QByteArray &path);
    EtcdTestServer m_server;
    LeaseLedger m_leases; // issue 22 item 7: no test leaves a lease
    std::unique_ptr<EtcdClient> m_client;
};

void tst_EtcdAtomicCounter::initTestCase()
{
    ETCDQT_START_OR_SKIP(m_server);
    m_client = connectedClient(m_server.clientUrl());
}

void tst_EtcdAtomicCounter::init()
{
    m_leases.begin(m_server);
}

void tst_EtcdAtomicCounter::cleanup()
{
    VERIFY_NO_LEASE_LEFT(m_leases);
}

// What etcd holds at `key`, decoded; -999 when absent or not 8 bytes.
qint64 tst_EtcdAtomicCounter::stored(const QByteArray &key)
{
    return Etcd::decodeInt64(keyValueOf(*m_client, key).value).value_or(-999);
}

void tst_EtcdAtomicCounter::removeCounter(const QByteArray &path)
{
    const auto r = await(EtcdAtomicCounter::remove(m_client.get(), path));
    QVERIFY_OK(r.status);
}

void tst_EtcdAtomicCounter::badInputIsRefused()
{
    EtcdAtomicCounter empty(m_client.get(), "");
    const std::function<EtcdValueReply *()> calls[] = {[&] { return empty.get(); },
        [&] { return empty.increment(); }, [&] { return empty.add(3); }};
    for (const auto &call : calls) {
        EtcdValueReply *reply = call();
        QVERIFY(!reply->isFinished()); // never synchronously
        QCOMPARE(await(reply).status.code(), Etcd::ErrorCode::InvalidArgument);
    }
    QCOMPARE(await(EtcdAtomicCounter::remove(m_client.get(), "")).status.code(),
        Etcd::ErrorCode::InvalidArgument);
    QCOMPARE(await(EtcdAtomicCounter::remove(nullptr, "/ctr/x")).status.code(),
        Etcd::ErrorCode::NotConnected);

    EtcdAtomicCounter counter(m_client.get(), "/ctr/closed");
    QSignalSpy closed(&counter, &EtcdRecipe::closed);
    counter.close();
    counter.close(); // idempotent
    QVERIFY(closed.wait(kWaitMs));
    QCOMPARE(closed.count(), 1);
    QCOMPARE(await(counter.get()).status.code(), Etcd::ErrorCode::Cancelled);
    QCOMPARE(await(counter.increment()).status.code(), Etcd::ErrorCode::Cancelled);
    QCOMPARE(await(counter.subtract(1)).status.code(), Etcd::ErrorCode::Cancelled);
    QCOMPARE(keyValueOf(*m_client, "/ctr/closed").key, QByteArray());
}

// "<path>" = the value as 8 bytes big-endian, no lease (etcd-recipes' Long).
void tst_EtcdAtomicCounter::keyLayoutIsEtcdRecipes()
{
    EtcdAtomicCounter counter(m_client.get(), "/ctr/golden", -2);
    QCOMPARE(valueOf(counter.add(1)), -1);
    const EtcdKeyValue kv = keyValueOf(*m_client, "/ctr/golden");
    QCOMPARE(kv.value, QByteArray::fromHex("ffffffffffffffff"));
    QCOMPARE(kv.lease, 0);
    QCOMPARE(valueOf(counter.add(2)), 1);
    QCOMPARE(keyValueOf(*m_client, "/ctr/golden").value, QByteArray::fromHex("0000000000000001"));
    removeCounter("/ctr/golden");
}

void tst_EtcdAtomicCounter::defaultInitialValue()
{
    EtcdAtomicCounter counter(m_client.get(), "/ctr/default");
    QCOMPARE(counter.initialValue(), 0);
    const auto got = await(counter.get());
    QVERIFY_OK(got.status);
    QCOMPARE(got->value(), 0);
    QVERIFY(got->written()); // get() created it
    QCOMPARE(stored("/ctr/default"), 0);
    const auto again = await(counter.get());
    QCOMPARE(again->value(), 0);
    QVERIFY(!again->written());
    QCOMPARE(valueOf(counter.increment()), 1);
    removeCounter("/ctr/default");
}

void tst_EtcdAtomicCounter::nonDefaultInitialValue()
{
    EtcdAtomicCounter counter(m_client.get(), "/ctr/nondefault", 100);
    QCOMPARE(valueOf(counter.get()), 100);
    QCOMPARE(valueOf(counter.decrement()), 99);
    removeCounter("/ctr/nondefault");
    // An add on an absent counter creates initialValue + delta in its one transaction.
    EtcdAtomicCounter adder(m_client.get(), "/ctr/nondefault", 100);
    QCOMPARE(valueOf(adder.add(5)), 105);
    QCOMPARE(stored("/ctr/nondefault"), 105);
    removeCounter("/ctr/nondefault");
}

// Two objects, initial values 5 and 9: the first to run creates the counter, the other sees
// its value and counts on from it.
void tst_EtcdAtomicCounter::firstCreatorsInitialValueWins()
{
    std::unique_ptr<EtcdClient> other = connectedClient(m_server.clientUrl());
    EtcdAtomicCounter first(m_client.get(), "/ctr/first", 5);
    EtcdAtomicCounter second(other.get(), "/ctr/first", 9);
    QCOMPARE(valueOf(first.get()), 5);
    QCOMPARE(valueOf(second.get()), 5);
    QCOMPARE(valueOf(second.increment()), 6);
    QCOMPARE(valueOf(first.increment()), 7); // its cached 5 is stale: one retry, no error
    removeCounter("/ctr/first");
}

// All 100 calls queued at once: they run one at a time, in call order.
void tst_EtcdAtomicCounter::incrementDecrementAnswerInCallOrder()
{
    EtcdAtomicCounter counter(m_client.get(), "/ctr/incdec");
    QCOMPARE(valueOf(counter.get()), 0);
    QList<qint64> answers;
    int finished = 0;
    for (int i = 0; i < 100; ++i) {
        EtcdValueReply *r = counter.increment();
        connect(r, &EtcdReply::finished, this, [&, r](const EtcdStatus &s) {
            answers.append(s.isOk() ? r->value() : -1);
            ++finished;
        });
    }
    QTRY_COMPARE_WITH_TIMEOUT(finished, 100, kWaitMs);
    QList<qint64> expected;
    for (int i = 1; i <= 100; ++i)
        expected.append(i);
    QCOMPARE(answers, expected);
    answers.clear();
    finished = 0;
    for (int i = 0; i < 100; ++i) {
        EtcdValueReply *r = counter.decrement();
        connect(r, &EtcdReply::finished, this, [&, r](const EtcdStatus &s) {
            answers.append(s.isOk() ? r->value() : -1);
            ++finished;
        });
    }
    QTRY_COMPARE_WITH_TIMEOUT(finished, 100, kWaitMs);
    std::reverse(expected.begin(), expected.end());
    for (qint64 &v : expected)
        --v; // 99 .. 0
    QCOMPARE(answers, expected);
    QCOMPARE(stored("/ctr/incdec"), 0);
    removeCounter("/ctr/incdec");
}

void tst_EtcdAtomicCounter::addSubtract()
{
    EtcdAtomicCounter counter(m_client.get(), "/ctr/addsub");
    QCOMPARE(valueOf(counter.add(10)), 10);
    QCOMPARE(valueOf(counter.subtract(3)), 7);
    QCOMPARE(valueOf(counter.add(-7)), 0);
    QCOMPARE(valueOf(counter.subtract(-5)), 5);
    QCOMPARE(valueOf(counter.add(0)), 5);
    QCOMPARE(valueOf(counter.subtract(5)), 0);
    QCOMPARE(stored("/ctr/addsub"), 0);
    removeCounter("/ctr/addsub");
}

// With the last value cached, an uncontended increment is one Txn and no read: what etcd's
// own gRPC counters say.
void tst_EtcdAtomicCounter::uncontendedChangeIsOneTransaction()
{
    const QUrl url = m_server.clientUrl();
    const auto calls = [&url](const QByteArray &method) {
        return etcdMetric(url, "grpc_server_handled_total", "grpc_method=\"" + method + '"');
    };
    EtcdAtomicCounter counter(m_client.get(), "/ctr/onetxn");
    QCOMPARE(valueOf(counter.increment()), 1);
    const double ranges = calls("Range"), txns = calls("Txn");
    QVERIFY(txns >= 1);
    for (int i = 2; i <= 11; ++i)
        QCOMPARE(valueOf(counter.increment()), i);
    QCOMPARE(calls("Txn") - txns, 10.0);
    QCOMPARE(calls("Range") - ranges, 0.0);
    removeCounter("/ctr/onetxn");
}

// etcd-recipes' serialTest: 20 counters, 20 increments each, one after another.
void tst_EtcdAtomicCounter::serialCounters()
{
    std::vector<std::unique_ptr<EtcdAtomicCounter>> counters;
    for (int c = 0; c < 20; ++c) {
        counters.push_back(std::make_unique<EtcdAtomicCounter>(
            m_client.get(), "/ctr/serial/" + QByteArray::number(c)));
    }
    for (int i = 1; i <= 20; ++i) {
        for (const auto &counter : counters)
            QCOMPARE(valueOf(counter->increment()), i);
    }
    for (int c = 0; c < 20; ++c) {
        QCOMPARE(stored("/ctr/serial/" + QByteArray::number(c)), 20);
        removeCounter("/ctr/serial/" + QByteArray::number(c));
    }
}

// 20 worker threads, each with its own counter object on one path, spread over 4 clients:
// every increment is a compare-and-set that contends with the other 19 objects. Exactly
// 2,000 in the end, and the 2,000 answers are 1..2,000, each once, rising in each thread.
void tst_EtcdAtomicCounter::threadedIncrementsAreExactAndDistinct()
{
    constexpr int kThreads = 20;
    constexpr int kIncrements = 100;
    std::vector<std::unique_ptr<EtcdClient>> clients;
    for (int c = 0; c < 4; ++c)
        clients.push_back(connectedClient(m_server.clientUrl()));
    std::vector<std::unique_ptr<EtcdAtomicCounter>> counters;
    for (int t = 0; t < kThreads; ++t) {
        counters.push_back(
            std::make_unique<EtcdAtomicCounter>(clients[t % 4].get(), "/ctr/threaded"));
    }
    const auto txns = [url = m_server.clientUrl()] {
        return etcdMetric(url, "grpc_server_handled_total", "grpc_method=\"Txn\"");
    };
    const double txnsBefore = txns();
    std::vector<std::vector<qint64>> answers(kThreads);
    std::atomic<int> failures = 0;
    std::vector<std::unique_ptr<Worker>> workers;
    for (int t = 0; t < kThreads; ++t) {
        workers.push_back(std::make_unique<Worker>([&, t] {
            for (int i = 0; i < kIncrements; ++i) {
                EtcdStatus status;
                const std::optional<qint64> v = counters[t]->addAndWait(1, 60s, &status);
                if (!v) {
                    qWarning().noquote() << "increment failed:" << status.toString();
                    ++failures;
                    return;
                }
                answers[t].push_back(*v);
            }
        }));
    }
    for (auto &w : workers)
        QVERIFY(w->finish(180'000));
    QCOMPARE(failures.load(), 0);
    std::set<qint64> all;
    for (const auto &mine : answers) {
        QCOMPARE(int(mine.size()), kIncrements);
        QVERIFY(std::is_sorted(mine.begin(), mine.end()));
        all.insert(mine.begin(), mine.end());
    }
    QCOMPARE(int(all.size()), kThreads * kIncrements);
    QCOMPARE(*all.begin(), 1);
    QCOMPARE(*all.rbegin(), kThreads * kIncrements);
    QCOMPARE(stored("/ctr/threaded"), kThreads * kIncrements);
    // More transactions than increments: the objects really raced each other.
    const double sent = txns() - txnsBefore;
    QVERIFY2(sent > kThreads * kIncrements, qPrintable(QString::number(sent)));
    QCOMPARE(valueOf(counters.front()->get()), kThreads * kIncrements);
    removeCounter("/ctr/threaded");
}

// A key holding something else than 8 bytes (here etcd-recipes' 4-byte Int) is no counter:
// every operation fails with FailedPrecondition and the key is left alone.
void tst_EtcdAtomicCounter::foreignValueIsRefused()
{
    QVERIFY_OK(await(m_client->put("/ctr/foreign", Etcd::encodeInt32(7))).status);
    EtcdAtomicCounter counter(m_client.get(), "/ctr/foreign");
    const std::function<EtcdValueReply *()> calls[] = {[&] { return counter.get(); },
        [&] { return counter.increment(); }, [&] { return counter.add(2); }};
    for (const auto &call : calls) {
        const auto r = await(call());
        QCOMPARE(r.status.code(), Etcd::ErrorCode::FailedPrecondition);
        QVERIFY2(r.status.message().contains(u"/ctr/foreign does not hold an 8-byte number"_s),
            qPrintable(r.status.toString()));
    }
    QCOMPARE(keyValueOf(*m_client, "/ctr/foreign").value, Etcd::encodeInt32(7));
    // Once it holds a number again, the same object counts on from it.
    QVERIFY_OK(await(m_client->put("/ctr/foreign", Etcd::encodeInt64(41))).status);
    QCOMPARE(valueOf(counter.increment()), 42);
    removeCounter("/ctr/foreign");
}

void tst_EtcdAtomicCounter::workerFormsAreRefusedInOwnThread()
{
    EtcdAtomicCounter counter(m_client.get(), "/ctr/ownthread");
    EtcdStatus status;
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"own thread"_s));
    QCOMPARE(counter.waitForValue(1s, &status), std::nullopt);
    QCOMPARE(status.code(), Etcd::ErrorCode::WrongThread);
    status = {};
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"own thread"_s));
    QCOMPARE(counter.addAndWait(1, 1s, &status), std::nullopt);
    QCOMPARE(status.code(), Etcd::ErrorCode::WrongThread);
    QCOMPARE(keyValueOf(*m_client, "/ctr/ownthread").key, QByteArray());
}

void tst_EtcdAtomicCounter::workerFormsWait()
{
    EtcdAtomicCounter counter(m_client.get(), "/ctr/worker", 40);
    std::optional<qint64> read, added, refused;
    EtcdStatus refusal;
    Worker worker([&] {
        read = counter.waitForValue(10s);
        added = counter.addAndWait(2, 10s);
    });
    QVERIFY(worker.finish());
    QCOMPARE(read, std::optional<qint64>(40));
    QCOMPARE(added, std::optional<qint64>(42));
    counter.close();
    Worker late([&] { refused = counter.addAndWait(1, 10s, &refusal); });
    QVERIFY(late.finish());
    QCOMPARE(refused, std::nullopt);
    QCOMPARE(refusal.code(), Etcd::ErrorCode::Cancelled);
    removeCounter("/ctr/worker");
}

QTEST_GUILESS_MAIN(tst_EtcdAtomicCounter)
#include "tst_etcdatomiccounter.moc"
