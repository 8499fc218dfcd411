// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// Inspector::Sandbox against the real etcd and etcdqt: every part of the workload shows up in
// etcd under /sandbox, leadership changes hands, and stop() leaves no process and no directory.
#include "sandbox.h"

#include <EtcdQt/etcdclient.h>

#include <QtCore/qdir.h>
#include <QtCore/qelapsedtimer.h>
#include <QtCore/qfile.h>
#include <QtCore/qfileinfo.h>
#include <QtCore/qscopeguard.h>
#include <QtCore/qset.h>
#include <QtCore/qstandardpaths.h>
#include <QtCore/qtemporarydir.h>
#include <QtCore/qtimer.h>
#include <QtTest/qsignalspy.h>
#include <QtTest/qtest.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <unistd.h>

using namespace std::chrono_literals;
using namespace Qt::StringLiterals;
using Inspector::Sandbox;

namespace {

constexpr auto kTtl = 2s; // the workload's lease TTL; its runs last a TTL or two
constexpr int kStartTimeoutMs = 20'000; // the sandbox gives etcd 15 s
constexpr int kWorkloadTimeoutMs = int(std::chrono::milliseconds(kTtl * 15).count());
constexpr int kLeftoverTimeoutMs = int(std::chrono::milliseconds(kTtl).count());

// Processes that are alive (zombies do not count: PID 1 may not reap orphans here) and are
// either children of this test or members of one of `groups` (each sandbox child leads one).
QStringList livingProcesses(const QSet<qint64> &groups)
{
    QStringList living;
    const qint64 self = ::getpid();
    const QStringList entries = QDir(u"/proc"_s).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString &entry : entries) {
        QFile stat(u"/proc/%1/stat"_s.arg(entry));
        if (!stat.open(QIODevice::ReadOnly))
            continue; // not a process, or gone meanwhile
        const QByteArray line = stat.readAll();
        // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses.
        const QList<QByteArray> fields = line.mid(line.lastIndexOf(')') + 2).split(' ');
        if (fields.size() < 3 || fields.at(0) == "Z")
            continue;
        if (fields.at(1).toLongLong() == self || groups.contains(fields.at(2).toLongLong()))
            living.append(QString::fromUtf8(line.left(line.lastIndexOf(')') + 1)));
    }
    return living;
}

// Sets an environment variable until the returned guard ends, then restores what was there.
auto scopedEnvironment(const char *name, const QByteArray &value)
{
    const bool wasSet = qEnvironmentVariableIsSet(name);
    const QByteArray before = qgetenv(name);
    qputenv(name, value);
    return qScopeGuard([=] { wasSet ? qputenv(name, before) : qunsetenv(name); });
}

// What the test reads from etcd under /sandbox, accumulated over repeated reads.
struct Observed
{
    QSet<QByteArray> keys; // every key seen at least once
    QSet<QByteArray> leaders; // the candidate ids seen in LEADER
    QSet<QByteArray> latchValues;
    qsizetype mostLockKeysAtOnce = 0;

    void add(const QList<EtcdKeyValue> &keyValues)
    {
        const QByteArray root = Sandbox::prefix();
        qsizetype lockKeys = 0;
        for (const EtcdKeyValue &kv : keyValues) {
            keys.insert(kv.key);
            if (kv.key == root + "/election/LEADER")
                leaders.insert(kv.value.left(kv.value.indexOf(':')));
            if (kv.key == root + "/latch")
                latchValues.insert(kv.value);
            if (kv.key.startsWith(root + "/locks/db/"))
                ++lockKeys;
        }
        mostLockKeysAtOnce = qMax(mostLockKeysAtOnce, lockKeys);
    }

    bool hasKeyStartingWith(const QByteArray &start) const
    {
        return std::any_of(keys.cbegin(), keys.cend(),
            [&](const QByteArray &key) { return key.startsWith(start); });
    }

    // Each part of the workload has written, and the moving parts were seen moving.
    QStringList missing() const
    {
        const QByteArray root = Sandbox::prefix();
        QStringList out;
        const auto require = [&](bool ok, const QString &what) {
            if (!ok)
                out.append(what);
        };
        require(keys.contains(root + "/election/LEADER"), u"election LEADER key"_s);
        require(leaders.size() >= 2, u"a leadership hand-off (two candidates in LEADER)"_s);
        require(hasKeyStartingWith(root + "/locks/db/"), u"a lock key"_s);
        require(mostLockKeysAtOnce >= 2, u"a lock holder and a queued waiter at once"_s);
        require(keys.contains(root + "/gate"), u"the barrier"_s);
        require(keys.contains(root + "/latch"), u"the latch"_s);
        require(latchValues.size() >= 2, u"the latch counting down"_s);
        require(keys.contains(root + "/presence/api-1"), u"the transient key api-1"_s);
        require(
            keys.contains(root + "/discovery/names/api/api-1"), u"the service instance api-1"_s);
        require(keys.contains(root + "/discovery/names/worker/worker-1"),
            u"the service instance worker-1"_s);
        require(hasKeyStartingWith(root + "/jobs/items/"), u"a job in the work queue"_s);
        require(hasKeyStartingWith(root + "/jobs/claims/"), u"a worker's claim on a job"_s);
        require(hasKeyStartingWith(root + "/jobs/delayed/"), u"a delayed job"_s);
        return out;
    }
};

} // namespace

class tst_Sandbox : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void workloadRunsAndStopLeavesNothing();
    void stopWhileStartingLeavesNothing();
    void missingCliFailsNamingIt();
    void missingEtcdFails();

private:
    static bool requireEtcd();
    static bool etcdInstalled() { return !QStandardPaths::findExecutable(u"etcd"_s).isEmpty(); }
};

void tst_Sandbox::init()
{
    QTest::failOnWarning(QRegularExpression(u".*"_s));
}

void tst_Sandbox::workloadRunsAndStopLeavesNothing()
{
    if (!requireEtcd())
        return;
    Sandbox sandbox;
    QSignalSpy started(&sandbox, &Sandbox::started);
    QSignalSpy failed(&sandbox, &Sandbox::failed);
    QSignalSpy stopped(&sandbox, &Sandbox::stopped);
    QVERIFY(started.isValid() && failed.isValid() && stopped.isValid());

    // Workload runs come and go: remember every pid seen alive, to check each one at the end.
    QSet<qint64> pids;
    QTimer sampler;
    sampler.setInterval(20);
    connect(&sampler, &QTimer::timeout, this, [&] {
        for (qint64 pid : sandbox.processIds())
            pids.insert(pid);
    });
    sampler.start();

    sandbox.start();
    QVERIFY(!sandbox.isRunning());
    QTRY_VERIFY_WITH_TIMEOUT(!started.isEmpty() || !failed.isEmpty(), kStartTimeoutMs);
    QVERIFY2(failed.isEmpty(), qPrintable(failed.value(0).value(0).toString()));
    QCOMPARE(started.size(), 1);
    QVERIFY(sandbox.isRunning());
    const QUrl endpoint = sandbox.endpoint();
    QCOMPARE(started.first().first().toUrl(), endpoint);
    QCOMPARE(endpoint.host(), u"127.0.0.1"_s);
    const QString directory = sandbox.directory();
    QVERIFY(QFileInfo(directory).isDir());
    QCOMPARE(sandbox.processSummary().size(), 18); // etcd and seventeen workload processes

    {
        EtcdClient client({endpoint});
        client.connectToEndpoints();
        Observed observed;
        bool reading = false;
        QTimer poll;
        poll.setInterval(200);
        connect(&poll, &QTimer::timeout, &client, [&] {
            if (std::exchange(reading, true))
                return;
            EtcdRangeReply *reply
                = client.get(Sandbox::prefix(), EtcdRangeOptions {.prefix = true});
            connect(reply, &EtcdReply::finished, &client, [&, reply](const EtcdStatus &status) {
                reading = false;
                if (status.isOk())
                    observed.add(reply->keyValues());
            });
        });
        poll.start();
        QTRY_VERIFY2_WITH_TIMEOUT(observed.missing().isEmpty(),
            qPrintable(u"not seen: "_s + observed.missing().join(u", "_s)), kWorkloadTimeoutMs);
        poll.stop();
        QTRY_VERIFY(!reading);
        client.disconnectFromEndpoints();
    }

    sampler.stop();
    for (qint64 pid : sandbox.processIds())
        pids.insert(pid);
    QVERIFY(pids.size() > 10);

    QElapsedTimer stopping;
    stopping.start();
    sandbox.stop();
    const qint64 stopMs = stopping.elapsed();
    QVERIFY2(stopMs < 6000, qPrintable(u"stop() took %1 ms"_s.arg(stopMs)));
    QCOMPARE(stopped.size(), 1);
    QVERIFY(!sandbox.isRunning());
    QVERIFY(sandbox.endpoint().isEmpty());
    QVERIFY(sandbox.processIds().isEmpty());
    QVERIFY(sandbox.directory().isEmpty());
    QVERIFY2(!QFileInfo::exists(directory), qPrintable(directory));
    for (qint64 pid : std::as_const(pids)) {
        errno = 0;
        QVERIFY2(::kill(pid_t(pid), 0) == -1 && errno == ESRCH,
            qPrintable(u"pid %1 is still there"_s.arg(pid)));
    }
    QTRY_VERIFY2_WITH_TIMEOUT(livingProcesses(pids).isEmpty(),
        qPrintable(livingProcesses(pids).join(u", "_s)), kLeftoverTimeoutMs);

    sandbox.stop(); // idempotent
    QCOMPARE(stopped.size(), 1);
    QCOMPARE(failed.size(), 0);
}

// The window can close before etcd is ready: stop() then ends etcd and nothing follows.
void tst_Sandbox::stopWhileStartingLeavesNothing()
{
    if (!requireEtcd())
        return;
    Sandbox sandbox;
    QSignalSpy started(&sandbox, &Sandbox::started);
    QSignalSpy failed(&sandbox, &Sandbox::failed);
    QSignalSpy stopped(&sandbox, &Sandbox::stopped);
    sandbox.start();
    const QList<qint64> pids = sandbox.processIds();
    QCOMPARE(pids.size(), 1); // etcd, not ready yet
    const QString directory = sandbox.directory();
    QVERIFY(QFileInfo(directory).isDir());

    sandbox.stop();
    QCOMPARE(stopped.size(), 1);
    QVERIFY(!QFileInfo::exists(directory));
    const QSet<qint64> groups(pids.cbegin(), pids.cend());
    QTRY_VERIFY2_WITH_TIMEOUT(livingProcesses(groups).isEmpty(),
        qPrintable(livingProcesses(groups).join(u", "_s)), kLeftoverTimeoutMs);
    QCOMPARE(started.size(), 0);
    QCOMPARE(failed.size(), 0);
}

void tst_Sandbox::missingCliFailsNamingIt()
{
    QTemporaryDir empty;
    QVERIFY(empty.isValid());
    const QString missing = empty.filePath(u"no-such-etcdqt"_s);
    const auto restore = scopedEnvironment("ETCDQT_CLI", missing.toLocal8Bit());

    Sandbox sandbox;
    QSignalSpy started(&sandbox, &Sandbox::started);
    QSignalSpy failed(&sandbox, &Sandbox::failed);
    sandbox.start();
    QTRY_COMPARE(failed.size(), 1);
    const QString why = failed.first().first().toString();
    QVERIFY2(why.contains(missing), qPrintable(why));
    QVERIFY2(why.contains(u"ETCDQT_CLI"_s), qPrintable(why));
    QCOMPARE(started.size(), 0);
    QVERIFY(!sandbox.isRunning());
    QVERIFY(sandbox.processIds().isEmpty());
    QVERIFY(sandbox.directory().isEmpty());
    QVERIFY2(livingProcesses({}).isEmpty(), qPrintable(livingProcesses({}).join(u", "_s)));
}

void tst_Sandbox::missingEtcdFails()
{
    // The CLI is found (any executable will do: nothing runs it), etcd is not.
    const auto restoreCli
        = scopedEnvironment("ETCDQT_CLI", QCoreApplication::applicationFilePath().toLocal8Bit());
    QTemporaryDir emptyPath;
    QVERIFY(emptyPath.isValid());
    const auto restorePath = scopedEnvironment("PATH", emptyPath.path().toLocal8Bit());

    Sandbox sandbox;
    QSignalSpy failed(&sandbox, &Sandbox::failed);
    sandbox.start();
    QTRY_COMPARE(failed.size(), 1);
    const QString why = failed.first().first().toString();
    QVERIFY2(why.contains(u"etcd"_s) && why.contains(emptyPath.path()), qPrintable(why));
    QVERIFY(!sandbox.isRunning());
    QVERIFY(sandbox.directory().isEmpty());
    QVERIFY2(livingProcesses({}).isEmpty(), qPrintable(livingProcesses({}).join(u", "_s)));
}

bool tst_Sandbox::requireEtcd()
{
    if (etcdInstalled())
        return true;
    if (qEnvironmentVariableIntValue("ETCDQT_REQUIRE_ETCD"))
        QTest::qFail("etcd not found and ETCDQT_REQUIRE_ETCD=1", __FILE__, __LINE__);
    else
        QTest::qSkip("etcd not installed; run scripts/setup-deps", __FILE__, __LINE__);
    return false;
}

QTEST_GUILESS_MAIN(tst_Sandbox)
#include "tst_sandbox.moc"
