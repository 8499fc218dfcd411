// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
// `etcdqt ... --metrics-port N`: a running command serves its client's metrics at /metrics
// (read by the strict parser of tests/unit/prometheustext.h), the option is taken wherever it
// stands before a "--" and never from a locked command's own arguments, bad values are
// refused with one line, and by default the tool writes no log line of the library's.

#include "clitestutil.h"
#include "leaseledger.h"
#include "scrapeutil.h"
#include "testutil.h"

#include <QtCore/qregularexpression.h>
#include <QtNetwork/qtcpserver.h>

using namespace CliTest;
using namespace std::chrono_literals;

class tst_EtcdqtCliMetrics : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void leaseKeepServesMetricsAndLogsNothingElse();
    void globalOptionWorksForElect();
    void lockLeavesTheCommandsArgumentsAlone();
    void badValuesAreRefused();

private:
    // The URL a tool noted on stderr ("etcdqt: metrics at URL"), once it did.
    static QUrl metricsUrl(const Tool &tool);
    PromParse::Exposition scrape(const QUrl &url);

    EtcdTestServer m_server;
    LeaseLedger m_leases; // issue 22 item 7: no test leaves a lease
    QNetworkAccessManager m_http;
};

#define QVERIFY_VALID(e) QVERIFY2((e).error.isEmpty(), qPrintable((e).error))

void tst_EtcdqtCliMetrics::initTestCase()
{
    ETCDQT_START_OR_SKIP(m_server);
}

void tst_EtcdqtCliMetrics::init()
{
    m_leases.begin(m_server);
}

void tst_EtcdqtCliMetrics::cleanup()
{
    VERIFY_NO_LEASE_LEFT(m_leases);
}

QUrl tst_EtcdqtCliMetrics::metricsUrl(const Tool &tool)
{
    static const QRegularExpression re(
        u"^etcdqt: metrics at (\\S+)$"_s, QRegularExpression::MultilineOption);
    const QRegularExpressionMatch m = re.match(QString::fromUtf8(tool.log));
    return m.hasMatch() ? QUrl(m.captured(1)) : QUrl();
}

PromParse::Exposition tst_EtcdqtCliMetrics::scrape(const QUrl &url)
{
    return scrapeMetrics(m_http, url, kRunMs);
}

void tst_EtcdqtCliMetrics::leaseKeepServesMetricsAndLogsNothingElse()
{
    Tool tool({u"--endpoints"_s, m_server.clientUrl().toString(), u"lease"_s, u"keep"_s,
        u"/climetrics/k"_s, u"v"_s, u"--ttl"_s, u"2"_s, u"--metrics-port"_s, u"0"_s});
    QTRY_VERIFY_WITH_TIMEOUT(tool.has(u"granted"_s), kRunMs);
    const QUrl url = metricsUrl(tool);
    QVERIFY2(url.isValid() && url.port() > 0, tool.transcript().constData());
    QCOMPARE(url.host(), u"127.0.0.1"_s);
    // Renewals every third of the TTL: one within a TTL and a half.
    QTRY_VERIFY_WITH_TIMEOUT(
        scrape(url).sum("etcdqt_keepalive_events_total", {{"event", "renewed"}}) >= 1.0,
        3 * kTtlMs);
    const PromParse::Exposition e = scrape(url);
    QVERIFY_VALID(e);
    QVERIFY(e.sum("etcdqt_rpc_duration_seconds_count", {{"method", "LeaseGrant"}}) >= 1.0);
    tool.sendSignal(SIGTERM);
    QVERIFY(tool.process.waitForFinished(kRunMs));
    QCOMPARE(tool.process.exitCode(), 0);
    tool.log += tool.process.readAllStandardError();
    // The metrics note is the one line on stderr: no library log line (categories default to
    // warnings, and the tool silences those too).
    const QList<QByteArray> logLines = tool.log.trimmed().split('\n');
    QCOMPARE(logLines.size(), 1);
    QVERIFY(logLines.first().startsWith("etcdqt: metrics at "));
}

// Before the command, as a global option: an elect that leads shows the leader gauge at 1.
void tst_EtcdqtCliMetrics::globalOptionWorksForElect()
{
    Tool tool({u"--metrics-port"_s, u"0"_s, u"--endpoints"_s, m_server.clientUrl().toString(),
        u"elect"_s, u"/climetrics/election"_s, u"--ttl"_s, u"2"_s});
    QTRY_VERIFY_WITH_TIMEOUT(tool.has(u"elected"_s), kRunMs);
    const QUrl url = metricsUrl(tool);
    QVERIFY2(url.isValid(), tool.transcript().constData());
    const PromParse::Exposition e = scrape(url);
    QVERIFY_VALID(e);
    QCOMPARE(e.sum("etcdqt_election_leader", {{"path", "/climetrics/election"}}), 1.0);
    QCOMPARE(e.sum("etcdqt_election_transitions_total", {{"transition", "acquired"}}), 1.0);
    tool.sendSignal(SIGTERM);
    QVERIFY(tool.process.waitForFinished(kRunMs));
}

// After "--" the arguments are the command's: --metrics-port goes to it untouched, and the
// tool serves nothing.
void tst_EtcdqtCliMetrics::lockLeavesTheCommandsArgumentsAlone()
{
    const Run run = runCli({u"--endpoints"_s, m_server.clientUrl().toString(), u"lock"_s,
        u"/climetrics/lock"_s, u"--"_s, u"sh"_s, u"-c"_s, u"echo \"child: $*\" >&2"_s, u"x"_s,
        u"--metrics-port"_s, u"1"_s});
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.log.contains("child: --metrics-port 1"), run.log.constData());
    QVERIFY2(!run.log.contains("metrics at"), run.log.constData());
}

void tst_EtcdqtCliMetrics::badValuesAreRefused()
{
    const QString endpoint = m_server.clientUrl().toString();
    QTcpServer taken;
    QVERIFY(taken.listen(QHostAddress::LocalHost));
    const QStringList get {u"--endpoints"_s, endpoint, u"counter"_s, u"get"_s, u"/c"_s};
    const QStringList wrong = notRefusedWithOneLine({
        get + QStringList {u"--metrics-port"_s, u"abc"_s},
        get + QStringList {u"--metrics-port"_s, u"70000"_s},
        get + QStringList {u"--metrics-port"_s, u"-1"_s},
        get + QStringList {u"--metrics-port"_s, u"0"_s, u"--metrics-address"_s, u"nowhere"_s},
        get + QStringList {u"--metrics-port"_s, QString::number(taken.serverPort())},
        get + QStringList {u"--metrics-port"_s},
    });
    QVERIFY2(wrong.isEmpty(), qPrintable(wrong.join(u'\n')));
}

QTEST_GUILESS_MAIN(tst_EtcdqtCliMetrics)
#include "tst_etcdqtcli_metrics.moc"
