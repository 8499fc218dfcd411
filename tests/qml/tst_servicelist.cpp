// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0

// examples/qml/service-list offscreen against a test etcd: instances registered by the test
// join, change and leave its list row by row (it logs each change with the number of rows
// its model holds), its own instance is on a lease that goes with its window, and the window
// is saved as service-list.png in the working directory, for a person to look at.

#include "etcdtestserver.h"
#include "examplewindow.h"

#include <EtcdQt/etcdclient.h>
#include <EtcdQt/etcdleasetimetolivereply.h>
#include <EtcdQt/etcdservicecache.h>
#include <EtcdQt/etcdserviceregistry.h>

#include <QtCore/qdir.h>
#include <QtCore/qprocess.h>
#include <QtGui/qimage.h>
#include <QtTest/qsignalspy.h>
#include <QtTest/qtest.h>
#include <childprocess_p.h>

#include <memory>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace {
const QByteArray servicePath = "/examples/services";
const QString serviceName = u"api"_s;

EtcdServiceInstance instance(const QString &id, int port, bool enabled = true)
{
    EtcdServiceInstance s = EtcdServiceInstance::create(serviceName, u"{\"test\":true}"_s);
    s.id = id;
    s.address = u"10.0.0.%1"_s.arg(port % 100);
    s.port = port;
    s.enabled = enabled;
    return s;
}
} // namespace

class tst_ServiceList : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void instancesJoinChangeAndLeave();
    void cleanupTestCase();

private:
    std::unique_ptr<EtcdTestServer> m_server;
    std::unique_ptr<ChildProcess> m_window;
    QString m_output;
};

void tst_ServiceList::initTestCase()
{
    m_server = std::make_unique<EtcdTestServer>();
    ETCDQT_START_OR_SKIP(*m_server);
}

void tst_ServiceList::instancesJoinChangeAndLeave()
{
    // The TTL of the window's own instance, long: renewed every third of it, its lease has
    // two thirds of it left at least, so within half of it an instance that goes went by
    // its lease's revoke, not by expiry. That half is every wait's timeout.
    constexpr auto ttl = 30s;
    constexpr int timeout = int(std::chrono::milliseconds(ttl).count() / 2);
    EtcdClient client({m_server->clientUrl()});
    client.connectToEndpoints();
    EtcdServiceCache seen(&client, servicePath, serviceName);
    seen.start();
    QTRY_VERIFY_WITH_TIMEOUT(seen.isStarted(), timeout);
    QCOMPARE(seen.count(), 0);

    const QString screenshot = QDir::current().absoluteFilePath(u"service-list.png"_s);
    QFile::remove(screenshot);
    m_output.clear();
    m_window = std::make_unique<ChildProcess>();
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"QT_QPA_PLATFORM"_s, u"offscreen"_s);
    env.insert(u"QT_QUICK_BACKEND"_s, u"software"_s); // grabWindow() without a GPU
    m_window->setProcessEnvironment(env);
    m_window->start(QStringLiteral(ETCDQT_SERVICE_LIST),
        {u"--endpoint"_s, m_server->clientUrl().toString(), u"--register"_s, u"--port"_s, u"4711"_s,
            u"--ttl"_s, QString::number(std::chrono::milliseconds(ttl).count()), u"--screenshot"_s,
            screenshot});
    QVERIFY(m_window->waitForStarted(5000));

    // Its own instance: registered at 127.0.0.1:4711, on a lease.
    QTRY_COMPARE_WITH_TIMEOUT(seen.count(), 1, timeout);
    const EtcdServiceInstance own = seen.instances().constFirst();
    QCOMPARE(own.address, u"127.0.0.1"_s);
    QCOMPARE(own.port, 4711);
    QVERIFY(seen.leaseOf(own.id) > 0);
    std::unique_ptr<EtcdLeaseTimeToLiveReply> granted(client.leaseTimeToLive(seen.leaseOf(own.id)));
    granted->setAutoDelete(false);
    QSignalSpy answered(granted.get(), &EtcdReply::finished);
    QVERIFY(answered.isValid());
    QTRY_COMPARE_WITH_TIMEOUT(answered.count(), 1, timeout);
    QCOMPARE(granted->grantedTtl(), ttl);
    // The window's list shows it either as added, or, when the registration landed before
    // the list's first read, as the one row it was ready with.
    const QString ownAdded = u"added: %1 endpoint: 127.0.0.1:4711"_s.arg(own.id);
    QVERIFY2(QTest::qWaitFor(
                 [&] {
                     m_output += QString::fromUtf8(m_window->readAllStandardError());
                     return m_output.contains(ownAdded) || m_output.contains(u"ready, live: 1"_s);
                 },
                 timeout),
        qPrintable(m_output));

    // Instances of the test's own: a row each, in id order.
    EtcdServiceRegistry registry(&client, servicePath, 5s);
    const EtcdServiceInstance one = instance(u"api-eu-1"_s, 8081);
    const EtcdServiceInstance two = instance(u"api-eu-2"_s, 8082, false);
    const EtcdServiceInstance three = instance(u"api-us-1"_s, 8083);
    for (const EtcdServiceInstance &s : {one, two, three}) {
        registry.registerService(s);
        QVERIFY2(waitForOutput(*m_window, m_output,
                     u"added: %1 endpoint: %2:%3 enabled: %4"_s.arg(s.id, s.address)
                         .arg(s.port)
                         .arg(s.enabled ? u"true"_s : u"false"_s),
                     timeout),
            qPrintable(m_output));
    }
    QCOMPARE(lastLiveCount(m_output), 4);

    // An update changes its row in place.
    EtcdServiceInstance moved = one;
    moved.port = 9091;
    registry.updateService(moved);
    QVERIFY2(waitForOutput(
                 *m_window, m_output, u"updated: api-eu-1 endpoint: 10.0.0.81:9091"_s, timeout),
        qPrintable(m_output));

    // An instance that unregisters (its lease revoked) leaves the list at once.
    registry.unregisterService(three);
    QVERIFY2(waitForOutput(*m_window, m_output, u"removed: api-us-1 live: 3"_s, timeout),
        qPrintable(m_output));

    // Closing the window saves it and revokes its own instance's lease: it leaves at once,
    // long before the lease (renewed every third of its TTL) could have expired.
    m_window->terminate();
    QTRY_COMPARE_WITH_TIMEOUT(seen.count(), 2, timeout);
    QVERIFY(!seen.instance(own.id));
    QVERIFY(m_window->state() == QProcess::NotRunning || m_window->waitForFinished(10000));
    QCOMPARE(m_window->exitStatus(), QProcess::NormalExit);
    QCOMPARE(m_window->exitCode(), 0);
    const QImage image(screenshot);
    QVERIFY2(!image.isNull(), qPrintable(screenshot));
    QVERIFY(image.width() >= 700 && image.height() >= 440);
    qInfo("window saved as %s", qUtf8Printable(screenshot));

    registry.close();
    QTRY_COMPARE_WITH_TIMEOUT(seen.count(), 0, timeout);
}

void tst_ServiceList::cleanupTestCase()
{
    killLeftOver(m_window);
    m_server.reset();
}

QTEST_GUILESS_MAIN(tst_ServiceList)
#include "tst_servicelist.moc"
