// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
// EtcdMetricsRegistry without etcd: what each report becomes in Prometheus' text format, read
// back by a strict parser (prometheustext.h), bucket edges, label escaping and bounds, and
// scrapes while other threads report.

#include "prometheustext.h"

#include <EtcdQt/etcdmetricsregistry.h>

#include <QtTest/qtest.h>

#include <atomic>
#include <thread>
#include <vector>

using namespace std::chrono_literals;
using namespace Qt::StringLiterals;
using M = EtcdMetrics;

namespace {
PromParse::Exposition scrape(const EtcdMetricsRegistry &r)
{
    return PromParse::parse(r.prometheusText());
}
} // namespace

#define QVERIFY_VALID(e) QVERIFY2((e).error.isEmpty(), qPrintable((e).error))

class tst_MetricsRegistry : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void emptyRegistryIsValid();
    void rpcLatencyErrorsAndRetries();
    void bucketEdgesAreInclusive();
    void lockWaitsAndHoldsByPath();
    void leaderGaugeFollowsTransitions();
    void enumCountersStartAtZero();
    void labelValuesAreEscaped();
    void pathLabelsAreBounded();
    void labelerFoldsPaths();
    void scrapesWhileThreadsReport();
    void parserRefusesBrokenText_data();
    void parserRefusesBrokenText();
};

void tst_MetricsRegistry::emptyRegistryIsValid()
{
    EtcdMetricsRegistry registry;
    const PromParse::Exposition e = scrape(registry);
    QVERIFY_VALID(e);
    QCOMPARE(e.types.value("etcdqt_rpc_duration_seconds"), "histogram"_ba);
    QCOMPARE(e.types.value("etcdqt_lock_wait_seconds"), "histogram"_ba);
    QCOMPARE(e.types.value("etcdqt_election_transitions_total"), "counter"_ba);
    QCOMPARE(e.types.value("etcdqt_election_leader"), "gauge"_ba);
    QCOMPARE(e.types.value("etcdqt_keepalive_events_total"), "counter"_ba);
    QCOMPARE(e.types.size(), 14);
}

void tst_MetricsRegistry::rpcLatencyErrorsAndRetries()
{
    EtcdMetricsRegistry registry;
    for (int i = 0; i < 3; ++i)
        registry.recordRpc(M::Rpc::Put, 300us, 1, Etcd::ErrorCode::Ok);
    registry.recordRpc(M::Rpc::Put, 20ms, 1, Etcd::ErrorCode::Ok);
    registry.recordRpc(M::Rpc::Put, 1500ms, 3, Etcd::ErrorCode::Unavailable);
    registry.recordRpc(M::Rpc::Txn, 1ms, 1, Etcd::ErrorCode::LeaseNotFound);
    const PromParse::Exposition e = scrape(registry);
    QVERIFY_VALID(e);
    const auto put = [&](const char *le) {
        return e.sum("etcdqt_rpc_duration_seconds_bucket", {{"method", "Put"}, {"le", le}});
    };
    QCOMPARE(put("0.00025"), 0.0);
    QCOMPARE(put("0.0005"), 3.0);
    QCOMPARE(put("0.025"), 4.0);
    QCOMPARE(put("2.5"), 5.0);
    QCOMPARE(put("+Inf"), 5.0);
    QCOMPARE(e.sum("etcdqt_rpc_duration_seconds_count", {{"method", "Put"}}), 5.0);
    QVERIFY(qAbs(e.sum("etcdqt_rpc_duration_seconds_sum", {{"method", "Put"}}) - 1.5209) < 1e-9);
    QCOMPARE(e.sum("etcdqt_rpc_retries_total", {{"method", "Put"}}), 2.0);
    QCOMPARE(e.sum("etcdqt_rpc_errors_total", {{"method", "Put"}, {"code", "Unavailable"}}), 1.0);
    QCOMPARE(e.sum("etcdqt_rpc_errors_total", {{"method", "Txn"}, {"code", "LeaseNotFound"}}), 1.0);
    // Methods never called have no series at all.
    QCOMPARE(e.sum("etcdqt_rpc_duration_seconds_count", {{"method", "Range"}}), 0.0);
    QVERIFY(!registry.prometheusText().contains("method=\"Range\""));
}

void tst_MetricsRegistry::bucketEdgesAreInclusive()
{
    EtcdMetricsRegistry registry;
    registry.recordRpc(M::Rpc::Range, 1ms, 1, Etcd::ErrorCode::Ok); // exactly le="0.001"
    registry.recordRpc(M::Rpc::Range, 1ms + 1ns, 1, Etcd::ErrorCode::Ok);
    registry.recordRpc(M::Rpc::Range, 11s, 1, Etcd::ErrorCode::Ok); // past the last bound
    const PromParse::Exposition e = scrape(registry);
    QVERIFY_VALID(e);
    const auto le = [&](const char *bound) {
        return e.sum("etcdqt_rpc_duration_seconds_bucket", {{"method", "Range"}, {"le", bound}});
    };
    QCOMPARE(le("0.0005"), 0.0);
    QCOMPARE(le("0.001"), 1.0);
    QCOMPARE(le("0.0025"), 2.0);
    QCOMPARE(le("10"), 2.0);
    QCOMPARE(le("+Inf"), 3.0);
}

void tst_MetricsRegistry::lockWaitsAndHoldsByPath()
{
    EtcdMetricsRegistry registry;
    registry.recordLockWait(M::Lock::Mutex, "/locks/a", 2ms, M::Outcome::Succeeded);
    registry.recordLockWait(M::Lock::Mutex, "/locks/a", 40ms, M::Outcome::Succeeded);
    registry.recordLockWait(M::Lock::Mutex, "/locks/a", 1s, M::Outcome::TimedOut);
    registry.recordLockWait(M::Lock::Read, "/locks/rw", 3ms, M::Outcome::Succeeded);
    registry.recordLockHold(M::Lock::Mutex, "/locks/a", 7s);
    const PromParse::Exposition e = scrape(registry);
    QVERIFY_VALID(e);
    QCOMPARE(e.sum("etcdqt_lock_wait_seconds_count",
                 {{"lock", "mutex"}, {"path", "/locks/a"}, {"outcome", "succeeded"}}),
        2.0);
    QCOMPARE(e.sum("etcdqt_lock_wait_seconds_count", {{"outcome", "timed_out"}}), 1.0);
    QCOMPARE(e.sum("etcdqt_lock_wait_seconds_count", {{"lock", "read"}}), 1.0);
    QCOMPARE(e.sum("etcdqt_lock_hold_seconds_bucket", {{"path", "/locks/a"}, {"le", "5"}}), 0.0);
    QCOMPARE(e.sum("etcdqt_lock_hold_seconds_bucket", {{"path", "/locks/a"}, {"le", "10"}}), 1.0);
}

void tst_MetricsRegistry::leaderGaugeFollowsTransitions()
{
    EtcdMetricsRegistry registry;
    const auto leader = [&] {
        const PromParse::Exposition e = scrape(registry);
        return e.error.isEmpty() ? e.sum("etcdqt_election_leader", {{"path", "/e"}}) : -1.0;
    };
    registry.recordLeadershipTransition("/e", M::Transition::Acquired);
    QCOMPARE(leader(), 1.0);
    registry.recordLeadershipTransition("/e", M::Transition::Lost);
    QCOMPARE(leader(), 1.0); // Relinquished ends the term; Lost only says why
    registry.recordLeadershipTransition("/e", M::Transition::Relinquished);
    QCOMPARE(leader(), 0.0);
    registry.recordLeadershipTransition("/e", M::Transition::Acquired);
    const PromParse::Exposition e = scrape(registry);
    QCOMPARE(e.sum("etcdqt_election_transitions_total", {{"transition", "acquired"}}), 2.0);
    QCOMPARE(e.sum("etcdqt_election_transitions_total", {{"transition", "relinquished"}}), 1.0);
    QCOMPARE(e.sum("etcdqt_election_transitions_total", {{"transition", "lost"}}), 1.0);
    QCOMPARE(e.sum("etcdqt_election_leader"), 1.0);
}

void tst_MetricsRegistry::enumCountersStartAtZero()
{
    EtcdMetricsRegistry registry;
    registry.recordKeepAlive(M::KeepAlive::Renewed);
    registry.recordKeepAlive(M::KeepAlive::Renewed);
    registry.recordHeal(M::Heal::Restored);
    registry.recordWatchRecovery(M::WatchRecovery::Resynced);
    const PromParse::Exposition e = scrape(registry);
    QVERIFY_VALID(e);
    QCOMPARE(e.sum("etcdqt_keepalive_events_total", {{"event", "renewed"}}), 2.0);
    QCOMPARE(e.sum("etcdqt_heal_events_total", {{"event", "restored"}}), 1.0);
    QCOMPARE(e.sum("etcdqt_watch_recoveries_total", {{"kind", "resynced"}}), 1.0);
    // Every value has its series from the start, so rates work from the first scrape.
    const QByteArray text = registry.prometheusText();
    for (const char *line : {"etcdqt_keepalive_events_total{event=\"expired\"} 0\n",
             "etcdqt_heal_events_total{event=\"failed\"} 0\n",
             "etcdqt_watch_recoveries_total{kind=\"suspended\"} 0\n"})
        QVERIFY2(text.contains(line), line);
}

void tst_MetricsRegistry::labelValuesAreEscaped()
{
    EtcdMetricsRegistry registry;
    const QByteArray hostile = "/a\"b\\c\nd<e>\xff"_ba;
    registry.recordQueueOperation(M::QueueOperation::Enqueue, hostile, 1ms);
    const PromParse::Exposition e = scrape(registry);
    QVERIFY_VALID(e);
    // Read back unescaped; the byte that is no UTF-8 became U+FFFD.
    const QByteArray expected = "/a\"b\\c\nd<e>"_ba + QString(QChar::ReplacementCharacter).toUtf8();
    QCOMPARE(e.sum("etcdqt_queue_operation_seconds_count", {{"path", expected}}), 1.0);
}

void tst_MetricsRegistry::pathLabelsAreBounded()
{
    EtcdMetricsRegistry registry;
    QCOMPARE(registry.maximumPathLabels(), 100);
    registry.setMaximumPathLabels(3);
    for (int i = 0; i < 5; ++i) {
        registry.recordLockHold(M::Lock::Mutex, "/jobs/" + QByteArray::number(i), 1ms);
        registry.recordLockHold(M::Lock::Mutex, "/jobs/" + QByteArray::number(i), 1ms);
    }
    const PromParse::Exposition e = scrape(registry);
    QVERIFY_VALID(e);
    for (const char *kept : {"/jobs/0", "/jobs/1", "/jobs/2"})
        QCOMPARE(e.sum("etcdqt_lock_hold_seconds_count", {{"path", kept}}), 2.0);
    QCOMPARE(e.sum("etcdqt_lock_hold_seconds_count", {{"path", "other"}}), 4.0);
    QCOMPARE(e.sum("etcdqt_lock_hold_seconds_count"), 10.0);
}

void tst_MetricsRegistry::labelerFoldsPaths()
{
    EtcdMetricsRegistry registry;
    registry.setPathLabeler([](QByteArrayView path) {
        if (path.startsWith("/secret"))
            return QByteArray(); // never a label
        return path.startsWith("/jobs/") ? "/jobs/*"_ba : path.toByteArray();
    });
    registry.recordWait(M::Wait::Barrier, "/jobs/1/start", 1ms, M::Outcome::Succeeded);
    registry.recordWait(M::Wait::Barrier, "/jobs/2/start", 1ms, M::Outcome::Succeeded);
    registry.recordWait(M::Wait::Latch, "/secret/x", 1ms, M::Outcome::Cancelled);
    const PromParse::Exposition e = scrape(registry);
    QVERIFY_VALID(e);
    QCOMPARE(e.sum("etcdqt_wait_seconds_count", {{"path", "/jobs/*"}, {"wait", "barrier"}}), 2.0);
    QCOMPARE(e.sum("etcdqt_wait_seconds_count",
                 {{"path", "other"}, {"wait", "latch"}, {"outcome", "cancelled"}}),
        1.0);
    QVERIFY(!registry.prometheusText().contains("secret"));
}

void tst_MetricsRegistry::scrapesWhileThreadsReport()
{
    EtcdMetricsRegistry registry;
    constexpr int kThreads = 4;
    constexpr int kEach = 20000;
    std::atomic<bool> go {false};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&registry, &go, t] {
            while (!go.load()) { }
            const QByteArray path = "/p/" + QByteArray::number(t % 2);
            for (int i = 0; i < kEach; ++i) {
                registry.recordRpc(M::Rpc::Range, std::chrono::microseconds(i % 3000), 1,
                    i % 100 ? Etcd::ErrorCode::Ok : Etcd::ErrorCode::Unavailable);
                registry.recordLockWait(M::Lock::Permit, path, 1ms, M::Outcome::Succeeded);
                registry.recordKeepAlive(M::KeepAlive::Renewed);
            }
        });
    }
    go.store(true);
    // Scrapes while the threads report: each one consistent (buckets add up to _count).
    QString firstError;
    for (int i = 0; i < 50 && firstError.isEmpty(); ++i)
        firstError = scrape(registry).error;
    for (std::thread &t : threads)
        t.join();
    QVERIFY2(firstError.isEmpty(), qPrintable(firstError));
    const PromParse::Exposition e = scrape(registry);
    QVERIFY_VALID(e);
    QCOMPARE(e.sum("etcdqt_rpc_duration_seconds_count"), double(kThreads * kEach));
    QCOMPARE(e.sum("etcdqt_rpc_errors_total"), double(kThreads * kEach / 100));
    QCOMPARE(e.sum("etcdqt_lock_wait_seconds_count"), double(kThreads * kEach));
    QCOMPARE(
        e.sum("etcdqt_keepalive_events_total", {{"event", "renewed"}}), double(kThreads * kEach));
}

// The parser the integration tests rely on must itself refuse what is not the format.
void tst_MetricsRegistry::parserRefusesBrokenText_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::newRow("no final newline") << "a 1"_ba;
    QTest::newRow("bad name") << "1a 1\n"_ba;
    QTest::newRow("bad value") << "a one\n"_ba;
    QTest::newRow("unquoted label") << "a{b=c} 1\n"_ba;
    QTest::newRow("bad escape") << "a{b=\"\\t\"} 1\n"_ba;
    QTest::newRow("repeated label") << "a{b=\"1\",b=\"2\"} 1\n"_ba;
    QTest::newRow("series twice") << "a{b=\"1\"} 1\na{b=\"1\"} 2\n"_ba;
    QTest::newRow("family interleaved") << "a 1\nb 1\na{x=\"1\"} 1\n"_ba;
    QTest::newRow("type after samples") << "a 1\n# TYPE a counter\n"_ba;
    QTest::newRow("negative counter") << "# TYPE a counter\na -1\n"_ba;
    QTest::newRow("bucket without le") << "# TYPE h histogram\nh_bucket 1\nh_sum 1\nh_count 1\n"_ba;
    QTest::newRow("buckets not cumulative")
        << "# TYPE h histogram\nh_bucket{le=\"1\"} 2\nh_bucket{le=\"+Inf\"} 1\nh_sum 1\nh_count 1\n"_ba;
    QTest::newRow("+Inf is not _count")
        << "# TYPE h histogram\nh_bucket{le=\"1\"} 1\nh_bucket{le=\"+Inf\"} 1\nh_sum 1\nh_count 2\n"_ba;
    QTest::newRow("no +Inf") << "# TYPE h histogram\nh_bucket{le=\"1\"} 1\nh_sum 1\nh_count 1\n"_ba;
}

void tst_MetricsRegistry::parserRefusesBrokenText()
{
    QFETCH(QByteArray, text);
    QVERIFY(!PromParse::parse(text).error.isEmpty());
    QVERIFY_VALID(PromParse::parse("# HELP a x\n# TYPE a counter\na{b=\"\\\"\\n\"} 1\n"_ba));
}

QTEST_GUILESS_MAIN(tst_MetricsRegistry)
#include "tst_metricsregistry.moc"
