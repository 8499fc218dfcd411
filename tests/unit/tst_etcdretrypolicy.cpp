// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include <EtcdQt/etcdretrypolicy.h>

#include <QtTest/qtest.h>

using namespace std::chrono_literals;
using ms = std::chrono::milliseconds;

class tst_EtcdRetryPolicy : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void neverGivesUpAtOnce();
    void boundedIsFixedThenStops();
    void exponentialGrowsAndCaps();
    void exponentialHonoursMaxAttempts();
    void exponentialHonoursMaxElapsed();
    void jitterStaysWithinRatio();
    void unboundedKeepsGoing();
    void rejectsNonPositiveAttempt();
    void validatesArguments();
    void rpcDefaults();
};

void tst_EtcdRetryPolicy::neverGivesUpAtOnce()
{
    const auto p = EtcdRetryPolicy::never();
    QVERIFY(!p.nextDelay(1, 0ms).has_value());
    QCOMPARE(p.kind(), EtcdRetryPolicy::Kind::Never);
}

void tst_EtcdRetryPolicy::boundedIsFixedThenStops()
{
    const auto p = EtcdRetryPolicy::bounded(4, 250ms);
    for (int attempt = 1; attempt <= 4; ++attempt)
        QCOMPARE(p.nextDelay(attempt, 10s), std::optional<ms>(250ms));
    QVERIFY(!p.nextDelay(5, 0ms).has_value()); // bounded(4): 4 retries, 5 attempts in all
}

void tst_EtcdRetryPolicy::exponentialGrowsAndCaps()
{
    const auto p = EtcdRetryPolicy::exponentialBackoff(100ms, 1s, 2.0, 0.25);
    // unitRandom 0.5 is the unjittered midpoint.
    QCOMPARE(p.nextDelay(1, 0ms, 0.5), std::optional<ms>(100ms));
    QCOMPARE(p.nextDelay(2, 0ms, 0.5), std::optional<ms>(200ms));
    QCOMPARE(p.nextDelay(4, 0ms, 0.5), std::optional<ms>(800ms));
    QCOMPARE(p.nextDelay(5, 0ms, 0.5), std::optional<ms>(1000ms));
    QCOMPARE(p.nextDelay(30, 0ms, 0.99), std::optional<ms>(1000ms)); // jitter never exceeds max
}

void tst_EtcdRetryPolicy::exponentialHonoursMaxAttempts()
{
    const auto p = EtcdRetryPolicy::exponentialBackoff(10ms, 1s, 2.0, 0.0, 3);
    QVERIFY(p.nextDelay(3, 0ms).has_value());
    QVERIFY(!p.nextDelay(4, 0ms).has_value());
}

void tst_EtcdRetryPolicy::exponentialHonoursMaxElapsed()
{
    const auto p = EtcdRetryPolicy::exponentialBackoff(10ms, 1s, 2.0, 0.0, 100, 5s);
    QVERIFY(p.nextDelay(2, 4999ms).has_value());
    QVERIFY(!p.nextDelay(2, 5s).has_value());
}

void tst_EtcdRetryPolicy::jitterStaysWithinRatio()
{
    const auto p = EtcdRetryPolicy::exponentialBackoff(1000ms, 15s, 2.0, 0.25);
    QCOMPARE(p.nextDelay(1, 0ms, 0.0), std::optional<ms>(750ms));
    for (int i = 0; i < 1000; ++i) {
        const auto d = p.nextDelay(1, 0ms);
        QVERIFY(d.has_value());
        QVERIFY2(*d >= 750ms && *d <= 1250ms, qPrintable(QString::number(d->count())));
    }
}

void tst_EtcdRetryPolicy::unboundedKeepsGoing()
{
    const auto p = EtcdRetryPolicy::unbounded();
    QVERIFY(p.isValid());
    QCOMPARE(p.nextDelay(1'000'000, 24h, 0.5), std::optional<ms>(15s));
    QCOMPARE(p.initialDelay(), 250ms);
    QCOMPARE(p.jitterRatio(), 0.25);
}

void tst_EtcdRetryPolicy::rejectsNonPositiveAttempt()
{
    QVERIFY(!EtcdRetryPolicy::unbounded().nextDelay(0, 0ms).has_value());
    QVERIFY(!EtcdRetryPolicy::bounded(3, 1ms).nextDelay(-1, 0ms).has_value());
}

void tst_EtcdRetryPolicy::validatesArguments()
{
    QTest::ignoreMessage(QtWarningMsg, "EtcdRetryPolicy::exponentialBackoff: invalid arguments");
    const auto bad = EtcdRetryPolicy::exponentialBackoff(0ms);
    QVERIFY(!bad.isValid());
    QVERIFY(!bad.nextDelay(1, 0ms).has_value());
    QTest::ignoreMessage(QtWarningMsg, "EtcdRetryPolicy::exponentialBackoff: invalid arguments");
    QVERIFY(!EtcdRetryPolicy::exponentialBackoff(10ms, 1s, 0.5).isValid());
    QTest::ignoreMessage(QtWarningMsg, "EtcdRetryPolicy::exponentialBackoff: invalid arguments");
    QVERIFY(!EtcdRetryPolicy::exponentialBackoff(10ms, 1s, 2.0, 1.0).isValid());
    QTest::ignoreMessage(QtWarningMsg, "EtcdRetryPolicy::bounded: invalid arguments");
    QVERIFY(!EtcdRetryPolicy::bounded(-1).isValid());
}

void tst_EtcdRetryPolicy::rpcDefaults()
{
    const EtcdRpcResilience r;
    QCOMPARE(r.retryPolicy.kind(), EtcdRetryPolicy::Kind::Fixed);
    QCOMPARE(r.retryPolicy.maxAttempts(), 4);
    QCOMPARE(r.retryPolicy.initialDelay(), 250ms);
    QCOMPARE(r.attemptTimeout, 30s);
    const auto off = EtcdRpcResilience::disabled();
    QVERIFY(!off.retryPolicy.nextDelay(1, 0ms).has_value());
    QCOMPARE(off.attemptTimeout, 0ms);
}

QTEST_GUILESS_MAIN(tst_EtcdRetryPolicy)
#include "tst_etcdretrypolicy.moc"
