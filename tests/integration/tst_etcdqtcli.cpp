// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// The etcdqt command line, run as a process against a real etcd.
#include "testutil.h"

#include <etcdtestserver.h>

#include <QtCore/qdeadlinetimer.h>
#include <QtCore/qelapsedtimer.h>
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

// A running etcdqt whose JSON lines are collected as they arrive, each stamped with the time
// it came on the test's clock: several tools can be watched at once with QTRY_*.
class Tool
{
public:
    struct Line
    {
        QJsonObject json;
        qint64 atMs = 0;
    };

    Tool(const QElapsedTimer &clock, const QStringList &args)
    {
        QObject::connect(&process, &QProcess::readyReadStandardOutput, &process, [this, &clock] {
            while (process.canReadLine())
                lines.append(
                    {QJsonDocument::fromJson(process.readLine()).object(), clock.elapsed()});
        });
        QObject::connect(&process, &QProcess::readyReadStandardError, &process,
            [this] { log += process.readAllStandardError(); });
        process.start(QStringLiteral(ETCDQT_CLI), args);
    }
    ~Tool()
    {
        if (process.state() != QProcess::NotRunning) {
            process.kill();
            process.waitForFinished();
        }
    }
    Tool(const Tool &) = delete;
    Tool &operator=(const Tool &) = delete;

    // The first line with "event": `name`, or null.
    const Line *event(const QString &name) const
    {
        for (const Line &line : lines) {
            if (line.json.value(u"event"_s).toString() == name)
                return &line;
        }
        return nullptr;
    }
    [[nodiscard]] bool has(const QString &name) const { return event(name) != nullptr; }
    [[nodiscard]] QStringList events() const
    {
        QStringList names;
        for (const Line &line : lines)
            names.append(line.json.value(u"event"_s).toString());
        return names;
    }
    [[nodiscard]] qint64 token() const
    {
        const Line *elected = event(u"elected"_s);
        return elected ? elected->json.value(u"token"_s).toInteger() : 0;
    }
    // What `observe` printed: the leaders' ids, "-" for a vacant election.
    [[nodiscard]] QStringList leaders() const
    {
        QStringList ids;
        for (const Line &line : lines) {
            const QJsonValue leader = line.json.value(u"leader"_s);
            ids.append(leader.isNull() ? u"-"_s : leader.toString(u"?"_s));
        }
        return ids;
    }
    void sendSignal(int sig) const { ::kill(pid_t(process.processId()), sig); }
    // What it printed so far (its JSON lines, then its log), for failure messages.
    [[nodiscard]] QByteArray transcript() const
    {
        QByteArray text;
        for (const Line &line : lines)
            text += QJsonDocument(line.json).toJson(QJsonDocument::Compact) + '\n';
        return text + log;
    }
    // Waits for the end, at most `ms` (it may have come already, seen by a QTRY's event loop).
    bool ends(int ms)
    {
        return process.state() == QProcess::NotRunning || process.waitForFinished(ms);
    }
    // True when it ended by itself within `ms` with `code`.
    bool exitsWith(int code, int ms)
    {
        return ends(ms) && process.exitStatus() == QProcess::NormalExit
            && process.exitCode() == code;
    }

    QProcess process;
    QList<Line> lines;
    QByteArray log; // stderr
};
} // namespace

class tst_EtcdqtCli : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void leaseKeepHealsAndRevokesOnSigterm();
    void badInputFailsWithOneLine();
    void unreachableEtcdFails();
    void electLeadsForHoldThenRelinquishes();
    void electStepsDownWithStatus3();
    void observeSeesHandOff();
    void electFailsOverWithinTtlOfSigkill();

private:
    QByteArray value(const QByteArray &key);
    QStringList electArgs(const QString &path, const QString &id, int ttlS = kTtlMs / 1000) const;
    QList<qint64> liveLeases();
    void verifyNoLeasesWithin(int ms);
    QElapsedTimer m_clock;
    EtcdTestServer m_server;
    std::unique_ptr<EtcdClient> m_client;
};

void tst_EtcdqtCli::initTestCase()
{
    ETCDQT_START_OR_SKIP(m_server);
    m_client = connectedClient(m_server.clientUrl());
    m_clock.start();
}

QStringList tst_EtcdqtCli::electArgs(const QString &path, const QString &id, int ttlS) const
{
    return {u"--endpoints"_s, m_server.clientUrl().toString(), u"elect"_s, path, u"--id"_s, id,
        u"--ttl"_s, QString::number(ttlS)};
}

QList<qint64> tst_EtcdqtCli::liveLeases()
{
    const auto r = await(m_client->leases());
    return r.status.isOk() ? r->leaseIds() : QList<qint64> {-1};
}

void tst_EtcdqtCli::verifyNoLeasesWithin(int ms)
{
    QTRY_COMPARE_WITH_TIMEOUT(liveLeases(), QList<qint64>(), ms);
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
        {u"lease"_s, u"keep"_s, u"/k"_s}, {u"nonsense"_s}, {u"--endpoints"_s}, {u"elect"_s},
        {u"elect"_s, u""_s}, {u"elect"_s, u"/e"_s, u"--ttl"_s, u"0"_s},
        {u"elect"_s, u"/e"_s, u"--ttl"_s, u"-2"_s}, {u"elect"_s, u"/e"_s, u"--ttl"_s, u"two"_s},
        {u"elect"_s, u"/e"_s, u"--hold-ms"_s, u"-1"_s},
        {u"elect"_s, u"/e"_s, u"--hold-ms"_s, u"soon"_s}, {u"elect"_s, u"/e"_s, u"--hold-ms"_s},
        {u"elect"_s, u"/e"_s, u"/f"_s}, {u"observe"_s}, {u"observe"_s, u""_s},
        {u"observe"_s, u"/e"_s, u"/f"_s}};
    for (const QStringList &args : cases) {
        QProcess p;
        p.start(QStringLiteral(ETCDQT_CLI), args);
        QVERIFY(p.waitForFinished(kTtlMs));
        QVERIFY2(p.exitCode() == 1, qPrintable(args.join(u' ')));
        const QList<QByteArray> lines = p.readAllStandardError().trimmed().split('\n');
        QCOMPARE(lines.size(), 1);
        QVERIFY(lines.first().startsWith("etcdqt: "));
        QVERIFY(p.readAllStandardOutput().isEmpty());
    }
}

void tst_EtcdqtCli::unreachableEtcdFails()
{
    const quint16 port = EtcdTestServer::freePorts(1).first();
    const QList<QStringList> commands {
        {u"lease"_s, u"keep"_s, u"/k"_s, u"v"_s}, {u"elect"_s, u"/e"_s}, {u"observe"_s, u"/e"_s}};
    for (const QStringList &command : commands) {
        QProcess p;
        p.start(QStringLiteral(ETCDQT_CLI),
            QStringList {u"--endpoints"_s, u"127.0.0.1:%1"_s.arg(port)} + command);
        QVERIFY(p.waitForFinished(15000));
        QVERIFY2(p.exitCode() == 1, qPrintable(command.join(u' ')));
        const QByteArray err = p.readAllStandardError();
        QVERIFY2(err.startsWith("etcdqt: "), err.constData());
        QVERIFY(p.readAllStandardOutput().isEmpty());
    }
}

void tst_EtcdqtCli::electLeadsForHoldThenRelinquishes()
{
    const int holdMs = kTtlMs; // longer than a keep-alive period: the lease is renewed meanwhile
    Tool a(m_clock,
        electArgs(u"/cli/elect/hold"_s, u"a"_s)
            + QStringList {u"--hold-ms"_s, QString::number(holdMs)});
    QTRY_VERIFY2_WITH_TIMEOUT(a.has(u"elected"_s), a.transcript().constData(), 2 * kTtlMs);
    QCOMPARE(a.events(), (QStringList {u"started"_s, u"elected"_s}));
    QCOMPARE(a.lines.first().json.value(u"id"_s).toString(), u"a"_s);
    QCOMPARE(a.event(u"elected"_s)->json.value(u"id"_s).toString(), u"a"_s);
    QVERIFY(a.token() > 0);
    // etcd agrees: LEADER holds a's token, created at the revision printed as the token.
    const auto leader = await(m_client->get("/cli/elect/hold/LEADER"_ba));
    QVERIFY_OK(leader.status);
    QCOMPARE(leader->keyValues().size(), 1);
    QVERIFY(leader->keyValues().first().value.startsWith("a:"));
    QCOMPARE(leader->keyValues().first().createRevision, a.token());

    QVERIFY2(a.exitsWith(0, holdMs + 2 * kTtlMs), a.transcript().constData());
    QCOMPARE(a.events(), (QStringList {u"started"_s, u"elected"_s, u"relinquished"_s}));
    QVERIFY(a.event(u"relinquished"_s)->atMs - a.event(u"elected"_s)->atMs >= holdMs / 2);
    // It left after etcd answered the revoke: the key is gone now, not after the TTL.
    QCOMPARE(value("/cli/elect/hold/LEADER"_ba), QByteArray());
    QCOMPARE(liveLeases(), QList<qint64>()); // the participation lease too
}

void tst_EtcdqtCli::electStepsDownWithStatus3()
{
    Tool a(m_clock, electArgs(u"/cli/elect/stepdown"_s, u"a"_s));
    QTRY_VERIFY2_WITH_TIMEOUT(a.has(u"elected"_s), a.transcript().constData(), 2 * kTtlMs);
    const auto leader = await(m_client->get("/cli/elect/stepdown/LEADER"_ba));
    QCOMPARE(leader->keyValues().size(), 1);
    QVERIFY_OK(await(m_client->revokeLease(leader->keyValues().first().lease)).status);
    QVERIFY2(a.exitsWith(3, 2 * kTtlMs), a.transcript().constData());
    QCOMPARE(a.events(),
        (QStringList {u"started"_s, u"elected"_s, u"stepped_down"_s, u"relinquished"_s}));
    QVERIFY(!a.event(u"stepped_down"_s)->json.value(u"reason"_s).toString().isEmpty());
    QCOMPARE(liveLeases(), QList<qint64>()); // it still revoked its participation lease
}

void tst_EtcdqtCli::observeSeesHandOff()
{
    const QString path = u"/cli/elect/observed"_s;
    Tool observer(m_clock, {u"--endpoints"_s, m_server.clientUrl().toString(), u"observe"_s, path});
    QTRY_COMPARE_WITH_TIMEOUT(observer.leaders(), QStringList {u"-"_s}, 2 * kTtlMs);
    Tool a(m_clock, electArgs(path, u"a"_s));
    QTRY_VERIFY2_WITH_TIMEOUT(a.has(u"elected"_s), a.transcript().constData(), 2 * kTtlMs);
    QTRY_COMPARE_WITH_TIMEOUT(observer.leaders(), (QStringList {u"-"_s, u"a"_s}), 2 * kTtlMs);
    Tool b(m_clock, electArgs(path, u"b"_s));
    QTRY_VERIFY2_WITH_TIMEOUT(b.has(u"started"_s), b.transcript().constData(), 2 * kTtlMs);
    QVERIFY(!b.has(u"elected"_s));

    a.sendSignal(SIGTERM); // a resigns and revokes: b wins at once, not after a TTL
    QVERIFY2(a.exitsWith(0, kTtlMs), a.transcript().constData());
    QCOMPARE(a.events(), (QStringList {u"started"_s, u"elected"_s, u"relinquished"_s}));
    QTRY_VERIFY2_WITH_TIMEOUT(b.has(u"elected"_s), b.transcript().constData(), kTtlMs);
    QVERIFY(b.token() > a.token());
    QTRY_COMPARE_WITH_TIMEOUT(observer.leaders().last(), u"b"_s, kTtlMs);
    // Between a and b the election may show as vacant for a moment; nothing else.
    QStringList seen = observer.leaders();
    seen.removeAll(u"-"_s);
    QCOMPARE(seen, (QStringList {u"a"_s, u"b"_s}));

    b.sendSignal(SIGINT);
    QVERIFY2(b.exitsWith(0, kTtlMs), b.transcript().constData());
    QTRY_COMPARE_WITH_TIMEOUT(observer.leaders().last(), u"-"_s, kTtlMs);
    observer.sendSignal(SIGTERM);
    QVERIFY2(observer.exitsWith(0, kTtlMs), observer.transcript().constData());
    QCOMPARE(liveLeases(), QList<qint64>());
}

// The fault test: a leader that dies without a word is replaced once its lease runs
// out: within the TTL plus etcd's expiry tick (500 ms) and a hand-off, bounded at TTL + 1 s.
void tst_EtcdqtCli::electFailsOverWithinTtlOfSigkill()
{
    const QString path = u"/cli/elect/failover"_s;
    Tool a(m_clock, electArgs(path, u"a"_s));
    Tool b(m_clock, electArgs(path, u"b"_s));
    QTRY_VERIFY_WITH_TIMEOUT(
        a.has(u"started"_s) && b.has(u"started"_s) && (a.has(u"elected"_s) || b.has(u"elected"_s)),
        2 * kTtlMs);
    Tool &leader = a.has(u"elected"_s) ? a : b;
    Tool &follower = &leader == &a ? b : a;
    QVERIFY(!follower.has(u"elected"_s));

    const qint64 killedAt = m_clock.elapsed();
    leader.sendSignal(SIGKILL);
    QTRY_VERIFY2_WITH_TIMEOUT(
        follower.has(u"elected"_s), follower.transcript().constData(), 2 * kTtlMs);
    const qint64 failoverMs = follower.event(u"elected"_s)->atMs - killedAt;
    qInfo("failover after SIGKILL: %lld ms (TTL %d ms)", failoverMs, kTtlMs);
    QVERIFY2(failoverMs <= kTtlMs + 1000, qPrintable(u"%1 ms"_s.arg(failoverMs)));
    QVERIFY(follower.token() > leader.token());
    QVERIFY2(leader.ends(kTtlMs), leader.transcript().constData());
    QCOMPARE(leader.process.exitStatus(), QProcess::CrashExit);
    QVERIFY(!leader.has(u"relinquished"_s));

    follower.sendSignal(SIGTERM);
    QVERIFY2(follower.exitsWith(0, kTtlMs), follower.transcript().constData());
    QCOMPARE(follower.events(), (QStringList {u"started"_s, u"elected"_s, u"relinquished"_s}));
    // The killed node's participation lease runs out on its own TTL.
    verifyNoLeasesWithin(kTtlMs + 1000);
}

QTEST_GUILESS_MAIN(tst_EtcdqtCli)
#include "tst_etcdqtcli.moc"
