// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
// Loads each QML snippet of the user guide (docs/snippets/qml) against the EtcdQt module as
// built, with its EtcdClient's endpoint, 127.0.0.1:2379, replaced by a private etcd's, and checks
// that it loads without an error or warning and then does what its page says, read through
// the snippet's own ids.

#include <EtcdQt/etcdclient.h>
#include <EtcdQt/etcdreplies.h>

#include <etcdtestserver.h>

#include <QtCore/qdir.h>
#include <QtCore/qfile.h>
#include <QtQml/qqmlcomponent.h>
#include <QtQml/qqmlcontext.h>
#include <QtQml/qqmlengine.h>
#include <QtQml/qqmlexpression.h>
#include <QtTest/qsignalspy.h>
#include <QtTest/qtest.h>

#include <algorithm>
#include <memory>

using namespace Qt::StringLiterals;

class tst_DocQmlSnippets : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void snippet_data();
    void snippet();
    void everySnippetIsTested();

private:
    int leasedKeysUnder(const QByteArray &prefix);

    EtcdTestServer m_etcd;
    int m_run = 0;
};

void tst_DocQmlSnippets::initTestCase()
{
    ETCDQT_START_OR_SKIP(m_etcd);
}

void tst_DocQmlSnippets::init()
{
    QTest::failOnWarning(QRegularExpression(u".*"_s));
}

namespace {
// Each snippet file, then JavaScript conditions in the snippet's scope that must become true
// in order (a condition may act, e.g. call a method, and return true), and whether the
// snippet then owns leased keys (which destroying it must revoke).
struct Snippet
{
    QString file;
    QStringList conditions;
    bool leases = true;
};
const QList<Snippet> kSnippets = {
    {u"election.qml"_s, {u"election.isLeader && text === 'leading'"_s}},
    {u"observer.qml"_s,
        {u"candidate.isLeader && observer.leader !== '' && observer.leader === candidate.leader"_s,
            u"candidates.count === 1"_s}},
    {u"lock.qml"_s, {u"editLock.held && editLock.fencingToken.valid"_s}},
    {u"barrier.qml"_s,
        {u"gate.state === Barrier.Set"_s, u"waiter.waiterCount === 1"_s,
            u"!maintenanceOver && gate.removeBarrier()"_s, u"maintenanceOver"_s},
        false}, // the gate was removed
    {u"selector.qml"_s,
        {u"scheduler.isLeader && scheduler.fencingToken.valid"_s, u"scheduler.relinquish()"_s,
            u"rounds === 1 && scheduler.isLeader"_s}}, // requeued by itself, and alone: won
    {u"semaphore.qml"_s,
        {u"[encoderSlot, second, third].filter(s => s.held).length === 2"_s,
            // The first holder gives its permit back; the one waiting in line gets it.
            u"[encoderSlot, second, third].filter(s => s.held)[0].active = false, true"_s,
            u"[encoderSlot, second, third].filter(s => s.held).length === 2"
            u" && [encoderSlot, second, third].filter(s => !s.active).every(s => !s.held)"_s}},
    {u"readwritelock.qml"_s,
        {u"reader.held && otherReader.held"_s, u"writer.active = true"_s,
            u"reader.active = false, otherReader.active = false, true"_s,
            u"writer.held && writer.fencingToken.valid && !reader.held && !otherReader.held"_s}},
    {u"countedbarrier.qml"_s,
        {u"batch.arrive()"_s, u"batch.waiting && batch.waiterCount === 1"_s,
            u"batchesDone === 0 && otherWorker.arrive()"_s,
            u"batchesDone === 1 && !batch.waiting && !otherWorker.waiting"_s},
        false}, // tripped: every member left, its lease revoked
    {u"doublebarrier.qml"_s,
        {u"job.phase === DoubleBarrier.Entering && job.enterWaiterCount === 1"_s,
            u"!jobOver && partner.enter()"_s,
            u"jobOver && job.phase === DoubleBarrier.Outside"
            u" && partner.phase === DoubleBarrier.Outside"_s},
        false}, // both left
    {u"counter.qml"_s,
        {u"tickets.increment()"_s, u"tickets.value === 101"_s, u"tickets.add(5)"_s,
            u"tickets.value === 106"_s},
        false}, // a counter has no lease
    {u"latch.qml"_s,
        {u"ready.count === 2 && !ready.open"_s, u"ready.countDown()"_s, u"ready.count === 1"_s,
            u"ready.countDown()"_s, u"ready.open"_s},
        false}, // a latch has no lease
    {u"leases.qml"_s,
        {u"presence.running && presence.leaseId !== ''"_s,
            u"session.state === Lease.Alive && session.remainingValidity() > 0"_s}},
    {u"caches.qml"_s,
        {u"banner.exists && banner.value === 'maintenance at 22:00'"_s,
            u"roster.count === 1 && roster.model.count === 1"_s,
            u"roster.value('kiosk-7') === 'idle'"_s}},
    {u"watch.qml"_s,
        {u"services.ready && services.model.count === 1"_s,
            u"services.model.value('/services/kiosk-7') === '10.0.0.7'"_s}},
};
} // namespace

void tst_DocQmlSnippets::snippet_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QStringList>("conditions");
    QTest::addColumn<bool>("leases");
    for (const Snippet &snippet : kSnippets)
        QTest::newRow(qPrintable(snippet.file))
            << snippet.file << snippet.conditions << snippet.leases;
}

void tst_DocQmlSnippets::snippet()
{
    QFETCH(QString, file);
    QFETCH(QStringList, conditions);
    QFETCH(bool, leases);
    QQmlEngine engine;
    engine.addImportPath(QStringLiteral(ETCDQT_QML_IMPORT_PATH));
    // The snippet as the page shows it, but for its endpoint: this test's etcd instead.
    QFile source(QStringLiteral(SNIPPETS_DIR) + u'/' + file);
    QVERIFY(source.open(QIODevice::ReadOnly));
    QByteArray text = source.readAll();
    QCOMPARE(text.count("\"127.0.0.1:2379\""), 1);
    text.replace("\"127.0.0.1:2379\"", '"' + m_etcd.endpoint().toUtf8() + '"');
    QQmlComponent component(&engine);
    component.setData(text, QUrl::fromLocalFile(source.fileName()));
    QVERIFY2(component.isReady(), qPrintable(component.errorString()));
    // Between creation and completion: the client works under a key prefix of this run's own.
    std::unique_ptr<QObject> root(component.beginCreate(engine.rootContext()));
    QVERIFY2(root, qPrintable(component.errorString()));
    const QString prefix = u"/qml/%1"_s.arg(++m_run);
    int clients = 0;
    for (QObject *child : root->findChildren<QObject *>()) {
        if (qstrcmp(child->metaObject()->className(), "EtcdQmlClient") != 0)
            continue;
        child->setProperty("keyPrefix", prefix);
        ++clients;
    }
    QCOMPARE(clients, 1);
    component.completeCreate();
    for (const QString &condition : conditions) {
        QQmlExpression expression(qmlContext(root.get()), root.get(), condition);
        const auto holds = [&expression] { return expression.evaluate().toBool(); };
        QVERIFY2(QTest::qWaitFor(holds, 15000), qPrintable(condition));
        QVERIFY2(!expression.hasError(), qPrintable(expression.error().toString()));
    }
    QCOMPARE(leasedKeysUnder(prefix.toUtf8()) > 0, leases);
    // Destroyed, the items resign, unlock and revoke without waiting: no leased key stays.
    root.reset();
    QTRY_COMPARE_WITH_TIMEOUT(leasedKeysUnder(prefix.toUtf8()), 0, 10000);
}

int tst_DocQmlSnippets::leasedKeysUnder(const QByteArray &prefix)
{
    EtcdClient client({m_etcd.clientUrl()});
    client.connectToEndpoints();
    EtcdRangeOptions all;
    all.prefix = true;
    EtcdRangeReply *reply = client.get(prefix, all);
    reply->setAutoDelete(false);
    QSignalSpy done(reply, &EtcdReply::finished);
    if (!done.wait(10000) || !reply->status().isOk())
        return -1;
    const QList<EtcdKeyValue> keys = reply->keyValues();
    delete reply;
    return int(std::count_if(
        keys.begin(), keys.end(), [](const EtcdKeyValue &kv) { return kv.lease != 0; }));
}

void tst_DocQmlSnippets::everySnippetIsTested()
{
    QStringList tested;
    for (const Snippet &snippet : kSnippets)
        tested << snippet.file;
    tested.sort();
    QCOMPARE(QDir(QStringLiteral(SNIPPETS_DIR)).entryList({u"*.qml"_s}, QDir::Files, QDir::Name),
        tested);
}

QTEST_MAIN(tst_DocQmlSnippets)
#include "tst_docqmlsnippets.moc"
