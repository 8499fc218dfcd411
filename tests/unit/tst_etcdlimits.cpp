// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// The bounds the library checks before anything reaches etcd or a QTimer: etcd's maximum
// lease TTL, and the int milliseconds Qt 6.4's timers take.
#include "etcdqt_internal_p.h"
#include "leaseops_p.h"

#include <QtTest/qtest.h>

#include <climits>
#include <limits>

using namespace std::chrono_literals;
using Etcd::Internal::leaseTtlProblem;
using Etcd::Internal::timerDelay;
using ms = std::chrono::milliseconds;

class tst_EtcdLimits : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void leaseTtlWithinEtcdsRange();
    void leaseTtlOutsideIsInvalidArgument_data();
    void leaseTtlOutsideIsInvalidArgument();
    void timerDelayFitsAnInt();
};

void tst_EtcdLimits::leaseTtlWithinEtcdsRange()
{
    QVERIFY(!leaseTtlProblem(1s));
    QVERIFY(!leaseTtlProblem(30 * 24h)); // 2,592,000,000 ms: more than an int holds
    QVERIFY(!leaseTtlProblem(std::chrono::seconds(9'000'000'000))); // etcd's MaxLeaseTTL
}

void tst_EtcdLimits::leaseTtlOutsideIsInvalidArgument_data()
{
    QTest::addColumn<qint64>("seconds");
    QTest::newRow("zero") << qint64(0);
    QTest::newRow("negative") << qint64(-5);
    QTest::newRow("one above etcd's maximum") << qint64(9'000'000'001);
    QTest::newRow("largest") << std::numeric_limits<qint64>::max();
}

void tst_EtcdLimits::leaseTtlOutsideIsInvalidArgument()
{
    QFETCH(qint64, seconds);
    const auto problem = leaseTtlProblem(std::chrono::seconds(seconds));
    QVERIFY(problem);
    QCOMPARE(problem->code(), Etcd::ErrorCode::InvalidArgument);
    QVERIFY2(problem->message().contains(QString::number(seconds)), qPrintable(problem->message()));
}

// What Qt 6.4's QTimer::start(std::chrono::milliseconds) would get after its int(): never a
// wrapped-around value.
void tst_EtcdLimits::timerDelayFitsAnInt()
{
    QCOMPARE(timerDelay(1500ms), 1500ms);
    QCOMPARE(timerDelay(0ms), 0ms);
    QCOMPARE(timerDelay(-1ms), 0ms);
    QCOMPARE(timerDelay(ms(INT_MAX)), ms(INT_MAX));
    QCOMPARE(timerDelay(30 * 24h), ms(INT_MAX)); // int(2,592,000,000) would be negative
    QCOMPARE(timerDelay(ms::max()), ms(INT_MAX));
    static_assert(timerDelay(std::chrono::seconds(9'000'000'000)) == ms(INT_MAX));
}

QTEST_APPLESS_MAIN(tst_EtcdLimits)
#include "tst_etcdlimits.moc"
