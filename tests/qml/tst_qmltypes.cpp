// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0

// Every type of `import EtcdQt` is created once, and its enums are read, without etcd:
// catches registration errors (a missing QML_ELEMENT, an unregistered property type).

#include <EtcdQt/etcdqtglobal.h>

#include <QtQml/qqmlcomponent.h>
#include <QtQml/qqmlengine.h>
#include <QtTest/qtest.h>

#include <memory>

using namespace Qt::StringLiterals;

class tst_QmlTypes : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void create_data();
    void create();
    void inactiveByDefault();
    void latchWithoutClient();
    void callsWithoutClient_data();
    void callsWithoutClient();
    void errorCodesByName();

private:
    std::unique_ptr<QObject> createFrom(QQmlEngine &engine, const QByteArray &qml);
};

void tst_QmlTypes::init()
{
    QTest::failOnWarning(QRegularExpression(u".*"_s));
}

std::unique_ptr<QObject> tst_QmlTypes::createFrom(QQmlEngine &engine, const QByteArray &qml)
{
    QQmlComponent component(&engine);
    component.setData(qml, QUrl(u"inline.qml"_s));
    std::unique_ptr<QObject> object(component.create());
    if (!object)
        qWarning("%s", qPrintable(component.errorString()));
    return object;
}

void tst_QmlTypes::create_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QByteArray>("type");
    QTest::newRow("EtcdClient") << "EtcdClient { endpoints: [\"127.0.0.1:1\"]; active: false; "
                                   "property int s: EtcdClient.Connecting }"_ba
                                << "EtcdQmlClient"_ba;
    QTest::newRow("LeaderElection") << "LeaderElection { path: \"e\"; ttl: 3000; "
                                       "property int s: LeaderElection.Inactive }"_ba
                                    << "EtcdQmlLeaderElection"_ba;
    QTest::newRow("LeaderObserver") << "LeaderObserver { path: \"e\" }"_ba
                                    << "EtcdQmlLeaderObserver"_ba;
    QTest::newRow("TransientKeyValue") << "TransientKeyValue { key: \"k\"; value: \"v\"; "
                                          "property int s: LeaseEvent.Expired }"_ba
                                       << "EtcdQmlTransientKeyValue"_ba;
    QTest::newRow("Lease") << "Lease { ttl: 2000; property int s: Lease.Healing }"_ba
                           << "EtcdQmlLease"_ba;
    QTest::newRow("DistributedLock") << "DistributedLock { path: \"l\" }"_ba
                                     << "EtcdQmlDistributedLock"_ba;
    QTest::newRow("Barrier") << "Barrier { path: \"b\"; clientId: \"me\"; property int s: "
                                "Barrier.Set; property string l: leaseId }"_ba
                             << "EtcdQmlBarrier"_ba;
    QTest::newRow("CountDownLatch") << "CountDownLatch { path: \"c\"; property double n: count; "
                                       "property bool o: open }"_ba
                                    << "EtcdQmlCountDownLatch"_ba;
    QTest::newRow("Semaphore") << "Semaphore { path: \"s\"; permits: 2; property bool h: held; "
                                  "property bool v: fencingToken.valid }"_ba
                               << "EtcdQmlSemaphore"_ba;
    QTest::newRow("ReadWriteLock") << "ReadWriteLock { path: \"rw\"; mode: ReadWriteLock.Read; "
                                      "property int w: ReadWriteLock.Write }"_ba
                                   << "EtcdQmlReadWriteLock"_ba;
    QTest::newRow("CountedBarrier") << "CountedBarrier { path: \"cb\"; memberCount: 3; "
                                       "property bool w: waiting; property int n: waiterCount }"_ba
                                    << "EtcdQmlCountedBarrier"_ba;
    QTest::newRow("DoubleBarrier") << "DoubleBarrier { path: \"db\"; memberCount: 2; "
                                      "property int p: DoubleBarrier.Leaving; "
                                      "property int n: enterWaiterCount + leaveWaiterCount }"_ba
                                   << "EtcdQmlDoubleBarrier"_ba;
    QTest::newRow("AtomicCounter") << "AtomicCounter { path: \"n\"; initialValue: 5; "
                                      "property double v: value }"_ba
                                   << "EtcdQmlAtomicCounter"_ba;
    QTest::newRow("LeaderSelector") << "LeaderSelector { path: \"ls\"; autoRequeue: true; "
                                       "property int s: LeaderSelector.Relinquishing; "
                                       "property bool l: isLeader }"_ba
                                    << "EtcdQmlLeaderSelector"_ba;
    QTest::newRow("ServiceRegistration")
        << "ServiceRegistration { servicePath: \"/s\"; name: \"api\"; port: 80; "
           "property bool r: registered; property string l: leaseId }"_ba
        << "EtcdQmlServiceRegistration"_ba;
    QTest::newRow("ServiceList") << "ServiceList { servicePath: \"/s\"; name: \"api\"; "
                                    "property int n: count; property bool r: ready }"_ba
                                 << "EtcdQmlServiceList"_ba;
    QTest::newRow("Watch") << "Watch { key: \"w\"; prefix: true; property int n: model.count }"_ba
                           << "EtcdQmlWatch"_ba;
    QTest::newRow("Queue") << "Queue { path: \"q\"; consuming: true }"_ba
                           << "EtcdQmlQueue"_ba;
    QTest::newRow("PriorityQueue") << "PriorityQueue { path: \"pq\" }"_ba
                                   << "EtcdQmlPriorityQueue"_ba;
    QTest::newRow("WorkQueue") << "WorkQueue { path: \"wq\"; visibilityTimeout: 5000; "
                                  "maxInFlight: 2; property int n: inFlight }"_ba
                               << "EtcdQmlWorkQueue"_ba;
    QTest::newRow("QueueContents")
        << "QueueContents { path: \"wq\"; kind: QueueContents.Work; "
           "states: QueueContents.Queued | QueueContents.DeadLetter; property int n: count }"_ba
        << "EtcdQmlQueueContents"_ba;
}

void tst_QmlTypes::create()
{
    QFETCH(QByteArray, body);
    QFETCH(QByteArray, type);
    QQmlEngine engine;
    engine.addImportPath(QStringLiteral(ETCDQT_QML_IMPORT_PATH));
    auto object = createFrom(engine, "import EtcdQt\n" + body);
    QVERIFY(object);
    QVERIFY2(object->inherits(type.constData()), object->metaObject()->className());
}

// Without a client nothing starts, whatever `active` says; `active` defaults to false.
void tst_QmlTypes::inactiveByDefault()
{
    QQmlEngine engine;
    engine.addImportPath(QStringLiteral(ETCDQT_QML_IMPORT_PATH));
    auto object = createFrom(engine, "import EtcdQt\nDistributedLock { path: \"l\" }"_ba);
    QVERIFY(object);
    QCOMPARE(object->property("active").toBool(), false);
    QVERIFY(object->setProperty("active", true));
    QCOMPARE(object->property("running").toBool(), false);
    QCOMPARE(object->property("held").toBool(), false);
}

// A latch item without a client follows nothing and refuses calls; a count that is no whole
// number above zero is an InvalidArgument error.
void tst_QmlTypes::latchWithoutClient()
{
    QQmlEngine engine;
    engine.addImportPath(QStringLiteral(ETCDQT_QML_IMPORT_PATH));
    auto object
        = createFrom(engine, "import EtcdQt\nCountDownLatch { path: \"c\"; active: true }"_ba);
    QVERIFY(object);
    QCOMPARE(object->property("count").toDouble(), -1.0);
    QCOMPARE(object->property("open").toBool(), false);
    bool accepted = true;
    QVERIFY(QMetaObject::invokeMethod(object.get(), "countDown", Q_RETURN_ARG(bool, accepted)));
    QCOMPARE(accepted, false);
    QVERIFY(QMetaObject::invokeMethod(
        object.get(), "create", Q_RETURN_ARG(bool, accepted), Q_ARG(double, 1.5)));
    QCOMPARE(accepted, false);
    QCOMPARE(object->property("errorCode").toInt(), int(Etcd::ErrorCode::InvalidArgument));
    QVERIFY(!object->property("errorString").toString().isEmpty());
}

void tst_QmlTypes::callsWithoutClient_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QByteArray>("method");
    QTest::newRow("AtomicCounter.get") << "AtomicCounter { path: \"n\" }"_ba
                                       << "get"_ba;
    QTest::newRow("AtomicCounter.increment") << "AtomicCounter { path: \"n\" }"_ba
                                             << "increment"_ba;
    QTest::newRow("CountedBarrier.arrive") << "CountedBarrier { path: \"b\"; memberCount: 2 }"_ba
                                           << "arrive"_ba;
    QTest::newRow("DoubleBarrier.enter") << "DoubleBarrier { path: \"d\"; memberCount: 2 }"_ba
                                         << "enter"_ba;
    QTest::newRow("DoubleBarrier.leave") << "DoubleBarrier { path: \"d\"; memberCount: 2 }"_ba
                                         << "leave"_ba;
    QTest::newRow("LeaderSelector.relinquish") << "LeaderSelector { path: \"e\" }"_ba
                                               << "relinquish"_ba;
    QTest::newRow("LeaderSelector.requeue") << "LeaderSelector { path: \"e\" }"_ba
                                            << "requeue"_ba;
    QTest::newRow("Queue.tryDequeue") << "Queue { path: \"q\"; consuming: true }"_ba
                                      << "tryDequeue"_ba;
    QTest::newRow("PriorityQueue.size") << "PriorityQueue { path: \"q\" }"_ba
                                        << "size"_ba;
    QTest::newRow("WorkQueue.deadLetters") << "WorkQueue { path: \"w\" }"_ba
                                           << "deadLetters"_ba;
    QTest::newRow("WorkQueue.sweep") << "WorkQueue { path: \"w\" }"_ba
                                     << "sweep"_ba;
}

// Active but without a client, nothing runs: the calls that need the library object refuse.
void tst_QmlTypes::callsWithoutClient()
{
    QFETCH(QByteArray, body);
    QFETCH(QByteArray, method);
    QQmlEngine engine;
    engine.addImportPath(QStringLiteral(ETCDQT_QML_IMPORT_PATH));
    auto object = createFrom(engine, "import EtcdQt\n" + body);
    QVERIFY(object);
    QVERIFY(object->setProperty("active", true));
    QCOMPARE(object->property("running").toBool(), false);
    bool accepted = true;
    QVERIFY(
        QMetaObject::invokeMethod(object.get(), method.constData(), Q_RETURN_ARG(bool, accepted)));
    QCOMPARE(accepted, false);
    QCOMPARE(object->property("errorCode").toInt(), 0);
}

// EtcdError names Etcd::ErrorCode's values, for comparing an item's errorCode.
void tst_QmlTypes::errorCodesByName()
{
    QQmlEngine engine;
    engine.addImportPath(QStringLiteral(ETCDQT_QML_IMPORT_PATH));
    auto object = createFrom(engine,
        "import EtcdQt\nLease { property int notFound: EtcdError.NotFound; "
        "property int expired: EtcdError.LeaseExpired; "
        "property int notConnected: EtcdError.NotConnected }"_ba);
    QVERIFY(object);
    QCOMPARE(object->property("notFound").toInt(), int(Etcd::ErrorCode::NotFound));
    QCOMPARE(object->property("expired").toInt(), int(Etcd::ErrorCode::LeaseExpired));
    QCOMPARE(object->property("notConnected").toInt(), int(Etcd::ErrorCode::NotConnected));
}

QTEST_GUILESS_MAIN(tst_QmlTypes)
#include "tst_qmltypes.moc"
