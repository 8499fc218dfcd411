// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// The etcdqt command line, run as a process against a real etcd.
#include "testutil.h"

#include <etcdtestserver.h>

#include <QtCore/qdeadlinetimer.h>
#include <QtCore/qjsondocument.h>
#include <QtCore/qjsonobject.h>
#include <QtCore/qprocess.h>

#include <csignal>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace {
constexpr int kTtlMs = 2000;

// The next JSON line the process prints within `ms`; empty when none came.
QJsonObject nextLine(QProcess &p, int ms = 2 * kTtlMs)
{
    const QDeadlineTimer deadline(ms);
    while (!p.canReadLine() && p.state() == QProcess::Running && !deadline.hasExpired())
        p.waitForReadyRead(int(deadline.remainingTime()));
    return QJsonDocument::fromJson(p.readLine()).object();
}
} // namespace

class tst_EtcdqtCli : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void leaseKeepHealsAndRevokesOnSigterm();
    void badInputFailsWithOneLine();
    void unreachableEtcdFails();

private:
    QByteArray value(const QByteArray &key);
    EtcdTestServer m_server;
    std::unique_ptr<EtcdClient> m_client;
};

void tst_EtcdqtCli::initTestCase()
{
    ETCDQT_START_OR_SKIP(m_server);
    m_client = connectedClient(m_server.clientUrl());
}

QByteArray tst_EtcdqtCli::value(const QByteArray &key)
{
    const auto r = await(m_client->get(key));
    return r->keyValues().isEmpty() ? QByteArray() : r->keyValues().first().value;
}

void tst_EtcdqtCli::leaseKeepHealsAndRevokesOnSigterm()
{
    QProcess p;
    p.start(QStringLiteral(ETCDQT_CLI),
        {u"--endpoints"_s, m_server.clientUrl().toString(), u"lease"_s, u"keep"_s, u"/cli/k"_s,
            u"hello"_s, u"--ttl"_s, u"2"_s});
    QVERIFY(p.waitForStarted());
    const QJsonObject granted = nextLine(p);
    QCOMPARE(granted.value(u"event"_s).toString(), u"granted"_s);
    const qint64 first = granted.value(u"lease"_s).toInteger();
    QCOMPARE(value("/cli/k"_ba), "hello"_ba);
    QVERIFY_OK(await(m_client->revokeLease(first)).status); // out of band
    QCOMPARE(nextLine(p).value(u"event"_s).toString(), u"expired"_s);
    const QJsonObject restored = nextLine(p);
    QCOMPARE(restored.value(u"event"_s).toString(), u"restored"_s);
    QCOMPARE(restored.value(u"old"_s).toInteger(), first);
    QTRY_COMPARE_WITH_TIMEOUT(value("/cli/k"_ba), "hello"_ba, kTtlMs);
    ::kill(pid_t(p.processId()), SIGTERM);
    QVERIFY(p.waitForFinished(kTtlMs));
    QCOMPARE(p.exitCode(), 0);
    QCOMPARE(value("/cli/k"_ba), QByteArray()); // revoked before it exited
    QVERIFY(await(m_client->leases())->leaseIds().isEmpty());
}

void tst_EtcdqtCli::badInputFailsWithOneLine()
{
    const QList<QStringList> cases {{u"lease"_s, u"keep"_s, u"/k"_s, u"v"_s, u"--ttl"_s, u"0"_s},
        {u"lease"_s, u"keep"_s, u"/k"_s}, {u"nonsense"_s}, {u"--endpoints"_s}};
    for (const QStringList &args : cases) {
        QProcess p;
        p.start(QStringLiteral(ETCDQT_CLI), args);
        QVERIFY(p.waitForFinished(kTtlMs));
        QVERIFY2(p.exitCode() != 0, qPrintable(args.join(u' ')));
        const QList<QByteArray> lines = p.readAllStandardError().trimmed().split('\n');
        QCOMPARE(lines.size(), 1);
        QVERIFY(lines.first().startsWith("etcdqt: "));
        QVERIFY(p.readAllStandardOutput().isEmpty());
    }
}

void tst_EtcdqtCli::unreachableEtcdFails()
{
    const quint16 port = EtcdTestServer::freePorts(1).first();
    QProcess p;
    p.start(QStringLiteral(ETCDQT_CLI),
        {u"--endpoints"_s, u"127.0.0.1:%1"_s.arg(port), u"lease"_s, u"keep"_s, u"/k"_s, u"v"_s});
    QVERIFY(p.waitForFinished(15000));
    QCOMPARE(p.exitCode(), 1);
    QVERIFY(p.readAllStandardError().startsWith("etcdqt: "));
}

QTEST_GUILESS_MAIN(tst_EtcdqtCli)
#include "tst_etcdqtcli.moc"
