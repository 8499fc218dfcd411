// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/EtcdQt>

#include <QtCore/qeventloop.h>
#include <QtCore/qfile.h>
#include <QtCore/qprocess.h>
#include <QtCore/qtemporaryfile.h>
#include <QtCore/qthread.h>
#include <QtNetwork/qnetworkaccessmanager.h>
#include <QtNetwork/qnetworkreply.h>
#include <QtTest/qsignalspy.h>
#include <QtTest/qtest.h>

#include <faultproxy.h>
#include <testprocess_p.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <thread>

#include <sched.h>
#include <sys/types.h>
#include <unistd.h>

// A finished reply kept alive for inspection, and the status it finished with.
template <class R>
struct Finished
{
    std::unique_ptr<R> reply;
    EtcdStatus status;
    R *operator->() const { return reply.get(); }
};

// Waits for `reply` to finish; a reply that does not finish in time reads as a test-made
// DeadlineExceeded naming the wait, so the assertion that follows says what happened.
template <class R>
Finished<R> await(R *reply, std::chrono::milliseconds timeout = std::chrono::seconds(10))
{
    reply->setAutoDelete(false);
    QSignalSpy spy(reply, &EtcdReply::finished);
    if (!reply->isFinished() && !spy.wait(int(timeout.count())))
        return {std::unique_ptr<R>(reply),
            EtcdStatus(Etcd::ErrorCode::DeadlineExceeded,
                QStringLiteral("test: reply unfinished after %1 ms").arg(timeout.count()))};
    return {std::unique_ptr<R>(reply), reply->status()};
}

#define QVERIFY_OK(status)                                                                         \
    do {                                                                                           \
        const EtcdStatus s_ = (status);                                                            \
        QVERIFY2(s_.isOk(), qPrintable(s_.toString()));                                            \
    } while (false)

// Threads of this process, from /proc (Linux).
inline int threadCount()
{
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : f.readAll().split('\n')) {
        if (line.startsWith("Threads:"))
            return line.mid(8).trimmed().toInt();
    }
    return -1;
}

// Whether thread `tid` of this process sleeps in a futex wait (a condition variable), read
// from /proc (Linux): a worker that is past everything else before a blocking wait and reads
// as parked twice, 10 ms apart, is inside that wait.
inline bool threadIsParked(pid_t tid)
{
    const QString task = QStringLiteral("/proc/self/task/%1/").arg(tid);
    QFile stat(task + QStringLiteral("stat")), wchan(task + QStringLiteral("wchan"));
    if (!stat.open(QIODevice::ReadOnly) || !wchan.open(QIODevice::ReadOnly))
        return false;
    const QByteArray fields = stat.readAll();
    const qsizetype end = fields.lastIndexOf(')'); // the state follows the command name
    return end > 0 && fields.mid(end + 2, 1) == "S" && wchan.readAll().contains("futex");
}

inline bool waitUntilParked(pid_t tid, int timeoutMs)
{
    return QTest::qWaitFor(
        [tid] {
            if (!threadIsParked(tid))
                return false;
            QTest::qWait(10);
            return threadIsParked(tid);
        },
        timeoutMs);
}

// A scheduling fault for destroy-while-waiting tests (Linux): the test thread and a waiter
// share CPU 0, the waiter at SCHED_IDLE, so a waiter woken by a destructor runs only once the
// test thread sleeps again, after the destructor freed everything. A waiter that touches its
// object after waking then does so in freed memory every time, not once in a thousand runs,
// and ASan builds report it. The test thread's CPUs come back when this goes.
class WaiterRunsLast
{
public:
    WaiterRunsLast()
    {
        sched_getaffinity(0, sizeof(m_saved), &m_saved);
        pinToCpu0();
    }
    ~WaiterRunsLast() { sched_setaffinity(0, sizeof(m_saved), &m_saved); }
    WaiterRunsLast(const WaiterRunsLast &) = delete;
    WaiterRunsLast &operator=(const WaiterRunsLast &) = delete;

    // In the waiter, before its wait.
    static void becomeWaiter()
    {
        pinToCpu0();
        sched_param none {};
        sched_setscheduler(0, SCHED_IDLE, &none);
    }

private:
    static void pinToCpu0()
    {
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(0, &one);
        sched_setaffinity(0, sizeof(one), &one);
    }
    cpu_set_t m_saved {};
};

// A worker thread for destroy-while-waiting tests: it makes itself the WaiterRunsLast
// waiter, then calls `wait` and keeps what it returned. parked() says it is inside the wait
// (not merely started); result() is -1 until the wait returned, then 1 or 0.
class ParkedWaiter
{
public:
    template <typename Wait>
    explicit ParkedWaiter(Wait wait)
        : m_thread([this, wait]() mutable {
              QThread::currentThread(); // adopted here, not inside the wait
              WaiterRunsLast::becomeWaiter();
              m_tid = gettid();
              m_result = wait() ? 1 : 0;
          })
    { }
    ~ParkedWaiter() { m_thread.join(); } // a hang here is a failed test: ctest's timeout says so
    ParkedWaiter(const ParkedWaiter &) = delete;
    ParkedWaiter &operator=(const ParkedWaiter &) = delete;

    [[nodiscard]] bool parked(int timeoutMs) const
    {
        return QTest::qWaitFor([this] { return m_tid.load() != 0; }, timeoutMs)
            && waitUntilParked(m_tid.load(), timeoutMs);
    }
    // Waits (the event loop running) until the wait returned; then its result, else -1.
    [[nodiscard]] int result(int timeoutMs) const
    {
        const bool returned = QTest::qWaitFor([this] { return m_result.load() != -1; }, timeoutMs);
        return returned ? m_result.load() : -1;
    }

private:
    std::atomic<pid_t> m_tid {0};
    std::atomic<int> m_result {-1};
    std::thread m_thread; // last: it starts once the fields above exist
};

// The environment etcdctl runs in from a test: its v3 API (etcd 3.4's etcdctl defaults to v2).
inline QProcessEnvironment etcdctlEnvironment()
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("ETCDCTL_API"), QStringLiteral("3"));
    return env;
}

// etcdctl (v3) against `endpoint`; true when it exited 0 (else its output is logged). Through
// the test kit's TestProcess: spawned without the fork after which TSan stops watching the
// test's new threads.
inline bool etcdctl(const QUrl &endpoint, const QStringList &args)
{
    QTemporaryFile output;
    if (!output.open())
        return false;
    TestProcess p;
    p.setEnvironment({QStringLiteral("ETCDCTL_API=3")});
    p.start(QStringLiteral("etcdctl"),
        QStringList {QStringLiteral("--endpoints=") + endpoint.toString()} + args,
        output.fileName());
    if (!p.waitForStarted() || !p.waitForFinished(20000) || p.exitCode() != 0) {
        qWarning() << "etcdctl" << args << output.readAll();
        return false;
    }
    return true;
}

// Turns auth on at `endpoint`: a root user ("root-pw") and a user "app" ("app-pw") whose role
// reads and writes /app/ only. True when every step worked.
inline bool enableAuthWithAppUser(const QUrl &endpoint)
{
    const auto run = [&endpoint](const char *line) {
        return etcdctl(endpoint, QString::fromLatin1(line).split(QLatin1Char(' ')));
    };
    return run("user add root --new-user-password=root-pw") && run("role add root")
        && run("user grant-role root root") && run("role add app")
        && run("role grant-permission app readwrite /app/ --prefix=true")
        && run("user add app --new-user-password=app-pw") && run("user grant-role app app")
        && run("auth enable --user=root:root-pw");
}

// A connected client for `url`, owned by the caller.
inline std::unique_ptr<EtcdClient> connectedClient(const QUrl &url, const QByteArray &prefix = {})
{
    auto client = std::make_unique<EtcdClient>(QList<QUrl> {url});
    client->setKeyPrefix(prefix);
    client->connectToEndpoints();
    return client;
}

// One value from etcd's Prometheus /metrics page (sum over label sets matching `labels`),
// e.g. etcd_debugging_mvcc_watch_stream_total: what the server itself counts.
inline double etcdMetric(
    const QUrl &clientUrl, const QByteArray &name, const QByteArray &labels = {})
{
    QNetworkAccessManager nam;
    QUrl url = clientUrl;
    url.setPath(QStringLiteral("/metrics"));
    QNetworkReply *reply = nam.get(QNetworkRequest(url));
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    loop.exec();
    double sum = 0;
    for (const QByteArray &line : reply->readAll().split('\n')) {
        if (line.startsWith('#') || !line.startsWith(name))
            continue;
        const QByteArray rest = line.mid(name.size());
        if (!(rest.startsWith(' ') || rest.startsWith('{')) || !rest.contains(labels))
            continue;
        sum += line.mid(line.lastIndexOf(' ') + 1).toDouble();
    }
    reply->deleteLater();
    return sum;
}

// A client behind its own FaultProxy to etcd's `port` (`liveness`: how soon its streams
// notice silence; 0: the client's default).
struct ProxiedClient
{
    explicit ProxiedClient(quint16 port, std::chrono::milliseconds liveness = {})
        : proxy(QStringLiteral("127.0.0.1"), port)
    {
        started = proxy.start();
        client.setEndpoints({proxy.url()});
        if (liveness.count() > 0)
            client.setStreamLivenessInterval(liveness);
        client.connectToEndpoints();
    }
    FaultProxy proxy;
    EtcdClient client;
    bool started = false;
};

// The partitioned side of a partition test: its streams notice silence within a second.
struct PartitionedClient : ProxiedClient
{
    explicit PartitionedClient(quint16 port) : ProxiedClient(port, std::chrono::milliseconds(500))
    { }
};

// Watch creations on one stream are answered in order, so once a watch started now is live,
// every watch `client` started before it is (only a live watch is suspended by a fault).
inline bool watchesLive(EtcdClient &client, int timeoutMs)
{
    EtcdWatch fence(&client, QByteArrayLiteral("/testutil/fence"));
    fence.start();
    return QTest::qWaitFor([&] { return fence.state() == EtcdWatch::State::Active; }, timeoutMs);
}

// The leases etcd holds with no key attached ({-1} when etcd did not answer). A client keeps
// one such standby lease per TTL its self-healing leases use, the next heal's lease granted
// ahead; nothing else of ours stays keyless for long, so a leaked lease shows here.
inline QList<qint64> keylessLeases(EtcdClient &client)
{
    const auto listed = await(client.leases());
    if (!listed.status.isOk())
        return {-1};
    QList<qint64> keyless;
    for (const qint64 id : listed->leaseIds()) {
        const auto ttl = await(client.leaseTimeToLive(id, Etcd::LeaseKeys::Include));
        if (!ttl.status.isOk())
            return {-1};
        if (ttl->keys().isEmpty() && ttl->ttl().count() > 0)
            keyless.append(id);
    }
    return keyless;
}
