// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0

// examples/qml/election-dashboard as issue 8 describes it: three instances side by side
// elect a leader and list each other, and closing the leader's window (SIGTERM closes it as
// the window manager would) hands leadership on at once, not when its lease runs out.

#include "etcdtestserver.h"

#include <EtcdQt/etcdclient.h>
#include <EtcdQt/etcdparticipants.h>

#include <QtCore/qelapsedtimer.h>
#include <childprocess_p.h>
#include <QtCore/qprocess.h>
#include <QtTest/qtest.h>

#include <memory>

using namespace Qt::StringLiterals;

class tst_Dashboard : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void handOffWhenTheLeaderWindowCloses();
    void cleanupTestCase();

private:
    ChildProcess *startDashboard(const QString &name, int slot);

    std::unique_ptr<EtcdTestServer> m_server;
    std::vector<std::unique_ptr<ChildProcess>> m_dashboards;
};

void tst_Dashboard::initTestCase()
{
    m_server = std::make_unique<EtcdTestServer>();
    ETCDQT_START_OR_SKIP(*m_server);
}

ChildProcess *tst_Dashboard::startDashboard(const QString &name, int slot)
{
    auto process = std::make_unique<ChildProcess>();
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    process->setProcessEnvironment(env);
    process->setProcessChannelMode(QProcess::ForwardedErrorChannel);
    process->start(QStringLiteral(ETCDQT_DASHBOARD),
        {QStringLiteral("--endpoint"), m_server->clientUrl().toString(), QStringLiteral("--name"),
            name, QStringLiteral("--slot"), QString::number(slot)});
    m_dashboards.push_back(std::move(process));
    return m_dashboards.back().get();
}

void tst_Dashboard::handOffWhenTheLeaderWindowCloses()
{
    EtcdClient client({m_server->clientUrl()});
    client.connectToEndpoints();
    // The dashboard's default election path; its lease TTL is 2 s.
    EtcdParticipantsModel participants(&client, "/examples/election-dashboard");
    participants.start();

    const QStringList names {u"dashboard-1"_s, u"dashboard-2"_s, u"dashboard-3"_s};
    QHash<QString, ChildProcess *> byName;
    for (int i = 0; i < names.size(); ++i) {
        byName.insert(names[i], startDashboard(names[i], i));
        QVERIFY(byName[names[i]]->waitForStarted(5000));
    }
    QTRY_COMPARE_WITH_TIMEOUT(participants.rowCount(), 3, 20000);
    QTRY_VERIFY_WITH_TIMEOUT(names.contains(participants.leader()), 10000);

    const QString first = participants.leader();
    ChildProcess *leader = byName.value(first);
    QElapsedTimer handOff;
    handOff.start();
    leader->terminate(); // SIGTERM: closes its window
    QTRY_VERIFY_WITH_TIMEOUT(
        names.contains(participants.leader()) && participants.leader() != first, 10000);
    // Resigned and revoked as the window went: expiry would take the 2 s TTL and more.
    QVERIFY2(handOff.elapsed() < 1500, qPrintable(u"hand-off took %1 ms"_s.arg(handOff.elapsed())));
    QTRY_COMPARE_WITH_TIMEOUT(participants.rowCount(), 2, 5000);
    QVERIFY(leader->state() == QProcess::NotRunning || leader->waitForFinished(10000));
    QCOMPARE(leader->exitStatus(), QProcess::NormalExit);
    QCOMPARE(leader->exitCode(), 0);

    for (ChildProcess *process : std::as_const(byName)) {
        if (process != leader)
            process->terminate();
    }
    QTRY_COMPARE_WITH_TIMEOUT(participants.rowCount(), 0, 5000);
    for (ChildProcess *process : std::as_const(byName)) {
        QVERIFY(process->state() == QProcess::NotRunning || process->waitForFinished(10000));
        QCOMPARE(process->exitStatus(), QProcess::NormalExit);
        QCOMPARE(process->exitCode(), 0);
    }
}

void tst_Dashboard::cleanupTestCase()
{
    for (const auto &process : m_dashboards) {
        if (process->state() != QProcess::NotRunning) {
            process->kill();
            process->waitForFinished(5000);
        }
    }
    m_dashboards.clear();
    m_server.reset();
}

QTEST_GUILESS_MAIN(tst_Dashboard)
#include "tst_dashboard.moc"
