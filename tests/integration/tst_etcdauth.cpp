// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// etcd's user/password auth: tokens, their transparent refresh, and role-limited users.
#include "leaseledger.h"
#include "testutil.h"

#include <etcdtestserver.h>

#include <QtCore/qloggingcategory.h>
#include <QtCore/qprocess.h>
#include <QtCore/qscopeguard.h>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using Etcd::ErrorCode;

namespace {
constexpr int kTokenTtlMs = 2000; // etcd --auth-token-ttl=2 (simple tokens)

// Every message logged while a test runs, whatever its category and level.
QStringList g_logged;
QtMessageHandler g_next = nullptr;
void recordEveryMessage(QtMsgType type, const QMessageLogContext &context, const QString &text)
{
    g_logged.append(QString::fromLatin1(context.category) + u": "_s + text);
    if (type >= QtWarningMsg)
        g_next(type, context, text);
}
} // namespace

class tst_EtcdAuth : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void roleLimitsTheKeySpace();
    void expiredTokenIsRefreshedForCallsAndStreams();
    void wrongPasswordFails();
    void noLogLineCarriesThePassword();

private:
    std::unique_ptr<EtcdClient> appClient(const QString &password = u"app-pw"_s);
    EtcdTestServer m_server;
    LeaseLedger m_leases; // issue 22 item 7: no test leaves a lease
};

void tst_EtcdAuth::initTestCase()
{
    m_server.setExtraArguments({u"--auth-token-ttl=%1"_s.arg(kTokenTtlMs / 1000)});
    ETCDQT_START_OR_SKIP(m_server);
    // A root user (needed to enable auth) and an "app" user whose role covers /app/ only.
    QVERIFY(enableAuthWithAppUser(m_server.clientUrl()));
}

void tst_EtcdAuth::init()
{
    m_leases.begin(m_server);
}

void tst_EtcdAuth::cleanup()
{
    VERIFY_NO_LEASE_LEFT(m_leases);
}

std::unique_ptr<EtcdClient> tst_EtcdAuth::appClient(const QString &password)
{
    auto client = std::make_unique<EtcdClient>(QList<QUrl> {m_server.clientUrl()});
    client->setCredentials(u"app"_s, password);
    client->connectToEndpoints();
    return client;
}

void tst_EtcdAuth::roleLimitsTheKeySpace()
{
    auto client = appClient();
    QVERIFY_OK(await(client->put("/app/k"_ba, "v"_ba)).status);
    QCOMPARE(await(client->get("/app/k"_ba))->keyValues().first().value, "v"_ba);
    QCOMPARE(await(client->put("/other/k"_ba, "v"_ba)).status.code(), ErrorCode::PermissionDenied);
    QCOMPARE(await(client->get("/other/k"_ba)).status.code(), ErrorCode::PermissionDenied);

    EtcdClient anonymous({m_server.clientUrl()});
    anonymous.connectToEndpoints();
    QVERIFY(!await(anonymous.put("/app/k"_ba, "v"_ba)).status.isOk());
}

void tst_EtcdAuth::expiredTokenIsRefreshedForCallsAndStreams()
{
    auto client = appClient();
    EtcdWatch watch(client.get(), "/app/"_ba, {.prefix = true});
    QSignalSpy events(&watch, &EtcdWatch::eventsReceived);
    watch.start();
    QTRY_COMPARE_WITH_TIMEOUT(watch.state(), EtcdWatch::State::Active, 5000);
    QVERIFY_OK(await(client->put("/app/a"_ba, "1"_ba)).status);
    QTRY_COMPARE_WITH_TIMEOUT(events.size(), 1, 5000);

    QTest::qWait(2 * kTokenTtlMs); // idle past the token's TTL: etcd forgets it
    QVERIFY_OK(await(client->put("/app/a"_ba, "2"_ba)).status); // re-authenticated, repeated
    QTRY_COMPARE_WITH_TIMEOUT(events.size(), 2, 5000); // the stream kept working
    QVERIFY_OK(await(client->get("/app/a"_ba)).status);
}

void tst_EtcdAuth::wrongPasswordFails()
{
    auto client = appClient(u"wrong"_s);
    const auto put = await(client->put("/app/k"_ba, "v"_ba), 10s);
    QVERIFY(!put.status.isOk());
    QVERIFY2(put.status.message().contains(u"authentication failed"_s)
            || put.status.code() == ErrorCode::InvalidAuthToken,
        qPrintable(put.status.toString()));
}

// With every category of the library at debug level, neither a working nor a refused login
// logs the password; nor does a status the client reports.
void tst_EtcdAuth::noLogLineCarriesThePassword()
{
    QLoggingCategory::setFilterRules(u"etcdqt.*.debug=true"_s);
    g_logged.clear();
    g_next = qInstallMessageHandler(recordEveryMessage);
    const auto restore = qScopeGuard([] {
        qInstallMessageHandler(g_next);
        QLoggingCategory::setFilterRules({});
    });
    QStringList statuses;
    {
        auto good = appClient();
        EtcdTransientKeyValue key(good.get(), "/app/secretless"_ba, "v"_ba, 2s);
        key.start();
        QTRY_VERIFY_WITH_TIMEOUT(key.leaseId() > 0, 10000);
        auto bad = appClient(u"wrong-pw-4711"_s);
        connect(bad.get(), &EtcdClient::errorOccurred, this,
            [&](const EtcdStatus &s) { statuses.append(s.toString()); });
        const auto put = await(bad->put("/app/k"_ba, "v"_ba), 10s);
        QVERIFY(!put.status.isOk());
        statuses.append(put.status.toString());
        key.close();
    }
    QVERIFY(!g_logged.isEmpty()); // the categories did log
    for (const QString &line : std::as_const(g_logged) + statuses) {
        QVERIFY2(
            !line.contains(u"app-pw"_s) && !line.contains(u"wrong-pw-4711"_s), qPrintable(line));
    }
}

QTEST_GUILESS_MAIN(tst_EtcdAuth)
#include "tst_etcdauth.moc"
