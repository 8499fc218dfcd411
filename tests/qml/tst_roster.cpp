// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0

// examples/qml/worker-roster offscreen against a test etcd: workers on leases join and
// leave its list row by row (it logs each change with the number of rows its model holds),
// its own demo worker is on a lease that goes with its window, and the window is saved as
// worker-roster_<language>.png in the working directory, for a person to look at.

#include "etcdtestserver.h"
#include "examplewindow.h"

#include <EtcdQt/etcdclient.h>
#include <EtcdQt/etcdpathchildrencache.h>
#include <EtcdQt/etcdtransientkeyvalue.h>

#include <QtCore/qdir.h>
#include <QtCore/qelapsedtimer.h>
#include <childprocess_p.h>
#include <QtCore/qprocess.h>
#include <QtGui/qimage.h>
#include <QtTest/qsignalspy.h>
#include <QtTest/qtest.h>

#include <memory>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace {
const QByteArray rosterPath = "/examples/worker-roster";
}

class tst_Roster : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void workersJoinAndLeave_data();
    void workersJoinAndLeave();
    void cleanupTestCase();

private:
    std::unique_ptr<EtcdTestServer> m_server;
    std::unique_ptr<ChildProcess> m_roster;
    QString m_output;
};

void tst_Roster::initTestCase()
{
    m_server = std::make_unique<EtcdTestServer>();
    ETCDQT_START_OR_SKIP(*m_server);
}

void tst_Roster::workersJoinAndLeave_data()
{
    QTest::addColumn<QString>("language");
    QTest::newRow("en") << u"en"_s;
    QTest::newRow("de") << u"de"_s;
}

void tst_Roster::workersJoinAndLeave()
{
    QFETCH(QString, language);
    EtcdClient client({m_server->clientUrl()});
    client.connectToEndpoints();
    EtcdPathChildrenCache seen(&client, rosterPath);
    seen.start();
    QTRY_VERIFY_WITH_TIMEOUT(seen.isStarted(), 10000);
    QCOMPARE(seen.count(), 0);

    const QString screenshot
        = QDir::current().absoluteFilePath(u"worker-roster_%1.png"_s.arg(language));
    QFile::remove(screenshot);
    m_output.clear();
    m_roster = std::make_unique<ChildProcess>();
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"QT_QPA_PLATFORM"_s, u"offscreen"_s);
    env.insert(u"QT_QUICK_BACKEND"_s, u"software"_s); // grabWindow() without a GPU
    m_roster->setProcessEnvironment(env);
    m_roster->start(QStringLiteral(ETCDQT_ROSTER),
        {u"--endpoint"_s, m_server->clientUrl().toString(), u"--demo"_s, u"--language"_s, language,
            u"--screenshot"_s, screenshot});
    QVERIFY(m_roster->waitForStarted(5000));

    // Its demo worker: one key under the path, on a lease.
    QTRY_COMPARE_WITH_TIMEOUT(seen.count(), 1, 20000);
    const EtcdKeyValue demo = seen.currentData().constFirst();
    QVERIFY(seen.nameOf(demo.key).startsWith(u"demo-"_s));
    QVERIFY(demo.lease != 0);
    QVERIFY2(waitForOutput(*m_roster, m_output, u"live: 1"_s, 10000), qPrintable(m_output));

    // Workers of the test's own, on 10 s leases: a row each, nested names keep their '/'.
    auto one = std::make_unique<EtcdTransientKeyValue>(
        &client, rosterPath + "/worker-1", "builds, 4 cores", 10s);
    auto two = std::make_unique<EtcdTransientKeyValue>(
        &client, rosterPath + "/eu/worker-2", "renders, 16 cores", 10s);
    auto three = std::make_unique<EtcdTransientKeyValue>(
        &client, rosterPath + "/eu/worker-3", "idle", 10s);
    one->start();
    QVERIFY2(
        waitForOutput(*m_roster, m_output, u"joined: worker-1 value: builds, 4 cores"_s, 10000),
        qPrintable(m_output));
    two->start();
    QVERIFY2(waitForOutput(
                 *m_roster, m_output, u"joined: eu/worker-2 value: renders, 16 cores"_s, 10000),
        qPrintable(m_output));
    three->start();
    QVERIFY2(
        waitForOutput(*m_roster, m_output, u"joined: eu/worker-3"_s, 10000), qPrintable(m_output));
    QCOMPARE(lastLiveCount(m_output), 4);

    // A worker that stops (its lease revoked) leaves the list at once, not after its TTL.
    QElapsedTimer left;
    left.start();
    three->close();
    QVERIFY2(
        waitForOutput(*m_roster, m_output, u"left: eu/worker-3"_s, 5000), qPrintable(m_output));
    QVERIFY2(left.elapsed() < 5000, qPrintable(u"left after %1 ms"_s.arg(left.elapsed())));
    QCOMPARE(lastLiveCount(m_output), 3);

    // Closing the window saves it and revokes the demo worker's lease: it leaves at once.
    // The demo lease's TTL is 5 s, kept alive every third of it: expiry takes over 3 s.
    m_roster->terminate();
    QTRY_COMPARE_WITH_TIMEOUT(seen.count(), 2, 2500);
    QVERIFY(!seen.currentData(seen.nameOf(demo.key)));
    QVERIFY(m_roster->state() == QProcess::NotRunning || m_roster->waitForFinished(10000));
    QCOMPARE(m_roster->exitStatus(), QProcess::NormalExit);
    QCOMPARE(m_roster->exitCode(), 0);
    const QImage image(screenshot);
    QVERIFY2(!image.isNull(), qPrintable(screenshot));
    QVERIFY(image.width() >= 600 && image.height() >= 400);
    qInfo("window saved as %s", qUtf8Printable(screenshot));

    one->close();
    two->close();
    QTRY_COMPARE_WITH_TIMEOUT(seen.count(), 0, 5000);
}

void tst_Roster::cleanupTestCase()
{
    killLeftOver(m_roster);
    m_server.reset();
}

QTEST_GUILESS_MAIN(tst_Roster)
#include "tst_roster.moc"
