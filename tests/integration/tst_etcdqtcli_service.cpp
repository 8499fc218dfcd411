// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// etcdqt service register|list|watch, run as processes against a real etcd: a registration
// is listed and watched; SIGTERM revokes it at once, SIGKILL leaves it to its TTL; bad input
// is refused with one line. (tst_etcdqtcli.cpp holds the other commands; its file is full.)
#include "clitestutil.h"
#include "leaseledger.h"
#include "testutil.h"

#include <EtcdQt/etcdservicecache.h>
#include <EtcdQt/etcdserviceregistry.h>

#include <etcdtestserver.h>

#include <QtCore/qdeadlinetimer.h>
#include <QtCore/qelapsedtimer.h>
#include <QtCore/qjsondocument.h>
#include <QtCore/qjsonobject.h>
#include <childprocess_p.h>
#include <QtCore/qprocess.h>
#include <QtCore/qrandom.h>
#include <QtTest/qsignalspy.h>

#include <csignal>
#include <memory>
#include <vector>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using namespace CliTest;

class tst_EtcdqtCliService : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void registerThenListShowsIt();
    void sigtermRevokesAtOnce();
    void sigkillLeavesItToTheTtl();
    void watchPrintsInstancesThenChanges();
    void takenIdExits3();
    void refusesBadInput();
    void unreachableEtcdFails();

private:
    [[nodiscard]] QStringList cli(const QStringList &args) const
    {
        return QStringList {u"--endpoints"_s, m_server.clientUrl().toString(), u"service"_s} + args;
    }
    // A service path of its own per test: no test sees another's instances.
    static QString freshPath()
    {
        return u"/cli-svc-"_s + QString::number(QRandomGenerator::global()->generate(), 16);
    }
    QByteArray value(const QByteArray &key)
    {
        const auto r = await(m_client->get(key));
        return r.status.isOk() && !r->keyValues().isEmpty() ? r->keyValues().first().value
                                                            : QByteArray();
    }
    QList<qint64> liveLeases()
    {
        const auto r = await(m_client->leases());
        return r.status.isOk() ? r->leaseIds() : QList<qint64> {-1};
    }
    // A finished run's stdout, or a marker that says why there is none.
    QByteArray output(const QStringList &args)
    {
        ChildProcess p;
        p.start(QStringLiteral(ETCDQT_CLI), cli(args));
        if (!p.waitForFinished(kRunMs) || p.exitCode() != 0)
            return "(failed: " + p.readAllStandardError() + ')';
        return p.readAllStandardOutput();
    }

    EtcdTestServer m_server;
    LeaseLedger m_leases; // issue 22 item 7: no test leaves a lease
    std::unique_ptr<EtcdClient> m_client;
};

void tst_EtcdqtCliService::initTestCase()
{
    ETCDQT_START_OR_SKIP(m_server);
    m_client = connectedClient(m_server.clientUrl());
}

void tst_EtcdqtCliService::init()
{
    m_leases.begin(m_server);
}

void tst_EtcdqtCliService::cleanup()
{
    VERIFY_NO_LEASE_LEFT(m_leases);
}

void tst_EtcdqtCliService::registerThenListShowsIt()
{
    const QString path = freshPath();
    Tool reg(cli({u"register"_s, path, u"api"_s, u"--id"_s, u"i1"_s, u"--address"_s, u"10.0.0.5"_s,
        u"--port"_s, u"8080"_s, u"--payload"_s, uR"({"v":2})"_s}));
    QTRY_VERIFY2_WITH_TIMEOUT(reg.has(u"registered"_s), reg.transcript().constData(), 2 * kTtlMs);
    const QJsonObject registered = reg.json(u"registered"_s);
    const QByteArray key = (path + u"/names/api/i1"_s).toUtf8();
    QCOMPARE(registered.value(u"key"_s).toString(), QString::fromUtf8(key));
    QCOMPARE(registered.value(u"id"_s).toString(), u"i1"_s);
    bool hex = false;
    const qint64 lease = registered.value(u"lease"_s).toString().toLongLong(&hex, 16);
    QVERIFY2(hex && liveLeases().contains(lease), reg.transcript().constData());
    // What etcd holds is the instance's etcd-recipes JSON, the one the line carries.
    const QByteArray stored = value(key);
    const QJsonObject instance = registered.value(u"instance"_s).toObject();
    QCOMPARE(QJsonDocument::fromJson(stored).object(), instance);
    QCOMPARE(instance.value(u"jsonPayload"_s).toString(), uR"({"v":2})"_s);
    QCOMPARE(instance.value(u"port"_s).toInt(), 8080);

    QCOMPARE(output({u"list"_s, path}), "api\n"_ba);
    QCOMPARE(output({u"list"_s, path, u"--json"_s}), "{\"service\":\"api\"}\n"_ba);
    QCOMPARE(output({u"list"_s, path, u"api"_s, u"--json"_s}), stored + '\n'); // byte for byte
    const QByteArray text = output({u"list"_s, path, u"api"_s});
    QVERIFY2(text.startsWith("i1  10.0.0.5:8080  enabled  registered "), text.constData());
    QVERIFY2(text.contains(R"(payload "{"v":2}")"), text.constData());
    QCOMPARE(output({u"list"_s, path, u"web"_s}), QByteArray()); // no such service: nothing

    reg.sendSignal(SIGTERM);
    QVERIFY2(reg.exitsWith(0, 2 * kTtlMs), reg.transcript().constData());
}

void tst_EtcdqtCliService::sigtermRevokesAtOnce()
{
    const QString path = freshPath();
    const QList<qint64> before = liveLeases();
    // Any text is a payload: etcd-recipes keeps it opaque.
    Tool reg(cli({u"register"_s, path, u"api"_s, u"--payload"_s, u"not json {"_s}));
    QTRY_VERIFY2_WITH_TIMEOUT(reg.has(u"registered"_s), reg.transcript().constData(), 2 * kTtlMs);
    const QByteArray key = reg.json(u"registered"_s).value(u"key"_s).toString().toUtf8();
    QVERIFY(!value(key).isEmpty());
    reg.sendSignal(SIGTERM);
    QVERIFY2(reg.exitsWith(0, kTtlMs), reg.transcript().constData());
    // Gone when the process is: the revoke was answered before it exited.
    QCOMPARE(value(key), QByteArray());
    QCOMPARE(liveLeases(), before);
}

// No revoke from a killed process: its instance lasts until etcd expires the lease, within
// the TTL of the last renewal (and etcd's expiry check, every 500 ms) — seen through a watch.
void tst_EtcdqtCliService::sigkillLeavesItToTheTtl()
{
    const QString path = freshPath();
    EtcdServiceCache cache(m_client.get(), path.toUtf8(), u"api"_s);
    QSignalSpy removed(&cache, &EtcdServiceCache::instanceRemoved);
    QSignalSpy added(&cache, &EtcdServiceCache::instanceAdded);
    cache.start();
    QTRY_VERIFY_WITH_TIMEOUT(cache.isStarted(), 2 * kTtlMs);
    Tool reg(cli({u"register"_s, path, u"api"_s, u"--id"_s, u"doomed"_s, u"--ttl"_s,
        QString::number(kTtlMs / 1000)}));
    QTRY_VERIFY2_WITH_TIMEOUT(
        reg.has(u"registered"_s) && added.size() == 1, reg.transcript().constData(), 2 * kTtlMs);
    QElapsedTimer sinceKill;
    reg.sendSignal(SIGKILL);
    sinceKill.start();
    QVERIFY(reg.process.waitForFinished(kTtlMs));
    QCOMPARE(reg.process.exitStatus(), QProcess::CrashExit);
    QVERIFY(removed.wait(kTtlMs + 500 + 1000)); // the bound below is what is asserted
    qInfo("instance gone %lld ms after SIGKILL (TTL %d ms)", sinceKill.elapsed(), kTtlMs);
    QVERIFY2(sinceKill.elapsed() <= kTtlMs + 500, qPrintable(QString::number(sinceKill.elapsed())));
    QCOMPARE(removed.first().first().value<EtcdServiceInstance>().id, u"doomed"_s);
    cache.close();
}

void tst_EtcdqtCliService::watchPrintsInstancesThenChanges()
{
    const QString path = freshPath();
    EtcdServiceRegistry registry(m_client.get(), path.toUtf8());
    EtcdServiceInstance first = EtcdServiceInstance::create(u"api"_s, u"one"_s);
    first.id = u"a1"_s;
    QVERIFY_OK(await(registry.registerService(first)).status);
    Tool watch(cli({u"watch"_s, path, u"api"_s}));
    QTRY_VERIFY2_WITH_TIMEOUT(watch.has(u"snapshot"_s), watch.transcript().constData(), 2 * kTtlMs);
    QCOMPARE(watch.events(), (QStringList {u"instance"_s, u"snapshot"_s}));
    QCOMPARE(watch.lines.first().json.value(u"id"_s).toString(), u"a1"_s);
    QCOMPARE(watch.lines.first().json.value(u"instance"_s).toObject(),
        QJsonDocument::fromJson(first.toJson()).object());
    QCOMPARE(watch.lines.first().json.value(u"lease"_s).toString(),
        QString::number(registry.leaseIdOf(first), 16));
    QCOMPARE(watch.json(u"snapshot"_s).value(u"count"_s).toInt(), 1);

    EtcdServiceInstance second = EtcdServiceInstance::create(u"api"_s, u"two"_s);
    second.id = u"b2"_s;
    QVERIFY_OK(await(registry.registerService(second)).status);
    QTRY_VERIFY2_WITH_TIMEOUT(watch.has(u"added"_s), watch.transcript().constData(), kTtlMs);
    EtcdServiceInstance disabled = first;
    disabled.enabled = false;
    QVERIFY_OK(await(registry.updateService(disabled)).status);
    QTRY_VERIFY2_WITH_TIMEOUT(watch.has(u"updated"_s), watch.transcript().constData(), kTtlMs);
    QCOMPARE(watch.json(u"updated"_s).value(u"instance"_s).toObject().value(u"enabled"_s),
        QJsonValue(false));
    QCOMPARE(watch.json(u"updated"_s).value(u"previous"_s).toObject().value(u"enabled"_s),
        QJsonValue(true));
    QVERIFY_OK(await(registry.unregisterService(second)).status);
    QTRY_VERIFY2_WITH_TIMEOUT(watch.has(u"removed"_s), watch.transcript().constData(), kTtlMs);
    QCOMPARE(watch.json(u"removed"_s).value(u"id"_s).toString(), u"b2"_s);
    QCOMPARE(watch.events(),
        (QStringList {u"instance"_s, u"snapshot"_s, u"added"_s, u"updated"_s, u"removed"_s}));
    watch.sendSignal(SIGTERM);
    QVERIFY2(watch.exitsWith(0, kTtlMs), watch.transcript().constData());
    registry.close();
}

// The id is someone else's: exit 3 as barrier set does, their key untouched.
void tst_EtcdqtCliService::takenIdExits3()
{
    const QString path = freshPath();
    const QByteArray key = (path + u"/names/api/mine"_s).toUtf8();
    QVERIFY_OK(await(m_client->put(key, "theirs")).status);
    const QStringList wrong
        = notRefusedWithOneLine({cli({u"register"_s, path, u"api"_s, u"--id"_s, u"mine"_s})}, 3);
    QVERIFY2(wrong.isEmpty(), qPrintable(wrong.join(u"; "_s)));
    QCOMPARE(value(key), "theirs"_ba);
    QVERIFY_OK(await(m_client->remove(key)).status);
}

void tst_EtcdqtCliService::refusesBadInput()
{
    const QString p = u"/svc"_s;
    const QList<QStringList> cases {{u"service"_s}, {u"service"_s, u"frob"_s},
        {u"service"_s, u"register"_s}, {u"service"_s, u"register"_s, p},
        {u"service"_s, u"register"_s, u""_s, u"api"_s}, {u"service"_s, u"register"_s, p, u""_s},
        {u"service"_s, u"register"_s, p, u"a/b"_s},
        {u"service"_s, u"register"_s, p, u"api"_s, u"--id"_s, u"x/y"_s},
        {u"service"_s, u"register"_s, p, u"api"_s, u"--id"_s, u""_s},
        {u"service"_s, u"register"_s, p, u"api"_s, u"--ttl"_s, u"0"_s},
        {u"service"_s, u"register"_s, p, u"api"_s, u"--ttl"_s, u"-1"_s},
        {u"service"_s, u"register"_s, p, u"api"_s, u"--ttl"_s, u"soon"_s},
        {u"service"_s, u"register"_s, p, u"api"_s, u"--port"_s, u"65536"_s},
        {u"service"_s, u"register"_s, p, u"api"_s, u"--port"_s, u"-1"_s},
        {u"service"_s, u"register"_s, p, u"api"_s, u"--port"_s, u"http"_s},
        {u"service"_s, u"register"_s, p, u"api"_s, u"--ssl-port"_s, u"70000"_s},
        {u"service"_s, u"register"_s, p, u"api"_s, u"--port"_s},
        {u"service"_s, u"register"_s, p, u"api"_s, u"--frob"_s, u"1"_s},
        {u"service"_s, u"register"_s, p, u"api"_s, u"extra"_s}, {u"service"_s, u"list"_s},
        {u"service"_s, u"list"_s, u""_s}, {u"service"_s, u"list"_s, p, u"a/b"_s},
        {u"service"_s, u"list"_s, p, u"api"_s, u"extra"_s},
        {u"service"_s, u"list"_s, p, u"--frob"_s}, {u"service"_s, u"watch"_s, p},
        {u"service"_s, u"watch"_s, p, u""_s}, {u"service"_s, u"watch"_s, p, u"a/b"_s},
        {u"service"_s, u"watch"_s, u""_s, u"api"_s}};
    const QStringList wrong = notRefusedWithOneLine(cases);
    QVERIFY2(wrong.isEmpty(), qPrintable(wrong.join(u"; "_s)));
}

void tst_EtcdqtCliService::unreachableEtcdFails()
{
    const quint16 port = EtcdTestServer::freePorts(1).first();
    QList<QStringList> cases;
    for (const QStringList &command : QList<QStringList> {{u"register"_s, u"/s"_s, u"api"_s},
             {u"list"_s, u"/s"_s}, {u"list"_s, u"/s"_s, u"api"_s}, {u"watch"_s, u"/s"_s, u"api"_s}})
        cases.append(
            QStringList {u"--endpoints"_s, u"127.0.0.1:%1"_s.arg(port), u"service"_s} + command);
    const QStringList wrong = notRefusedWithOneLine(cases);
    QVERIFY2(wrong.isEmpty(), qPrintable(wrong.join(u"; "_s)));
}

QTEST_GUILESS_MAIN(tst_EtcdqtCliService)
#include "tst_etcdqtcli_service.moc"
