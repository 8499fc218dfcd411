// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// The election scenarios of etcdqt-bench (see etcdqt_bench.cpp's header for what each
// measures).
#include "benchutil.h"

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace Bench {
// ---- elections ---------------------------------------------------------------------------

qint64 now()
{
    static const QElapsedTimer clock = [] {
        QElapsedTimer t;
        t.start();
        return t;
    }();
    return clock.nsecsElapsed();
}

double msBetween(qint64 from, qint64 to)
{
    return double(to - from) / 1e6;
}

// One selector and what it said, in the owner thread, stamped on one clock.
struct Candidate
{
    std::unique_ptr<EtcdLeaderSelector> selector;
    int started = 0, elected = 0, finished = 0, closed = 0, failed = 0;
    qint64 startedAt = 0, electedAt = 0;
    qint64 vacantAt = 0; // the last leaderChanged("") (LEADER's DELETE seen)
};

std::unique_ptr<Candidate> makeCandidate(
    EtcdClient *client, const QByteArray &path, std::chrono::seconds ttl)
{
    auto c = std::make_unique<Candidate>();
    c->selector = std::make_unique<EtcdLeaderSelector>(
        client, path, EtcdLeaderSelectorOptions {.ttl = ttl});
    Candidate *p = c.get();
    EtcdLeaderSelector *s = p->selector.get();
    QObject::connect(s, &EtcdLeaderSelector::started, s, [p] {
        p->startedAt = now();
        ++p->started;
    });
    QObject::connect(s, &EtcdLeaderSelector::elected, s, [p] {
        p->electedAt = now();
        ++p->elected;
    });
    QObject::connect(s, &EtcdLeaderSelector::leaderChanged, s, [p](const QString &id) {
        if (id.isEmpty())
            p->vacantAt = now();
    });
    QObject::connect(s, &EtcdLeaderSelector::termFinished, s, [p] { ++p->finished; });
    QObject::connect(s, &EtcdRecipe::closed, s, [p] { ++p->closed; });
    QObject::connect(s, &EtcdLeaderSelector::failed, s, [p](const EtcdStatus &why) {
        ++p->failed;
        qWarning("selector failed: %s", qPrintable(why.toString()));
    });
    return c;
}

// close() every selector and wait (bounded) until each has revoked its leases.
void closeAll(const std::vector<Candidate *> &all)
{
    for (Candidate *c : all)
        c->selector->close();
    if (!spinUntil(
            [&] {
                return std::all_of(
                    all.begin(), all.end(), [](Candidate *c) { return c->closed > 0; });
            },
            std::chrono::seconds(10)))
        qWarning("not every selector reported closed() within 10 s");
}

// The peers' s3 (held) and s3_immediate (queued): resign() -> the follower's elected().
void benchHandoff(const QUrl &url, int n, bool held)
{
    const QString scenario = held ? u"election_handoff"_s : u"election_handoff_queued"_s;
    const QByteArray path = "/bench/etcdqt/election/"_ba + scenario.toUtf8();
    const auto ttl = std::chrono::seconds(10); // the peers' session TTL for s3
    EtcdClient ca({url}), cb({url});
    ca.connectToEndpoints();
    cb.connectToEndpoints();
    auto a = makeCandidate(&ca, path, ttl);
    auto b = makeCandidate(&cb, path, ttl);
    a->selector->start();
    if (!spinUntil([&] { return a->elected > 0; }, std::chrono::seconds(15)))
        qFatal("%s: the first candidate was not elected within 15 s", qPrintable(scenario));
    Candidate *leader = a.get(), *follower = b.get();
    std::mt19937 rng(42);
    std::vector<double> lat, queue, relinquish, vacant;
    for (int i = 0; i < n; ++i) {
        const int started0 = follower->started, elected0 = follower->elected,
                  finished0 = leader->finished;
        const qint64 s0 = now();
        if (!follower->selector->start())
            qFatal("%s: start() refused", qPrintable(scenario));
        if (!spinUntil([&] { return follower->started > started0; }, std::chrono::seconds(10)))
            qFatal("%s: the follower was not in the running within 10 s", qPrintable(scenario));
        queue.push_back(msBetween(s0, follower->startedAt));
        if (held)
            runFor(peersLeadTime(rng));
        if (follower->elected != elected0 || !leader->selector->isLeader())
            qFatal("%s: two leaders, or none, before the resign", qPrintable(scenario));
        const qint64 t0 = now();
        leader->selector->resign();
        const qint64 t1 = now();
        if (!spinUntil([&] { return follower->elected > elected0; }, std::chrono::seconds(10)))
            qFatal("%s: no hand-off within 10 s of resign()", qPrintable(scenario));
        lat.push_back(msBetween(t0, follower->electedAt));
        if (follower->vacantAt > t0)
            vacant.push_back(msBetween(t0, follower->vacantAt));
        relinquish.push_back(msBetween(t0, t1));
        if (!spinUntil([&] { return leader->finished > finished0; }, std::chrono::seconds(10)))
            qFatal("%s: the old leader's term did not finish", qPrintable(scenario));
        std::swap(leader, follower);
    }
    closeAll({a.get(), b.get()});
    emitLine({{u"scenario"_s, scenario}, {u"n"_s, n}, {u"p50_ms"_s, percentile(lat, 0.5)},
        {u"p99_ms"_s, percentile(lat, 0.99)}, {u"min_ms"_s, percentile(lat, 0)},
        {u"max_ms"_s, percentile(lat, 1)},
        {u"over_50ms"_s,
            qint64(std::count_if(lat.begin(), lat.end(), [](double ms) { return ms > 50; }))},
        {u"resign_call_p50_ms"_s, percentile(relinquish, 0.5)},
        {u"resign_to_vacant_p50_ms"_s, percentile(vacant, 0.5)},
        {u"start_to_started_p50_ms"_s, percentile(queue, 0.5)}, {u"ttl_s"_s, qint64(ttl.count())},
        {u"held"_s, held}});
}

// Child mode of the crash scenario: one candidate in its own process, leads until killed.
int runCandidate(const QUrl &url, const QByteArray &path, int ttlSeconds)
{
    ::prctl(PR_SET_PDEATHSIG, SIGKILL); // a bench that died (qFatal) leaves no leader behind
    EtcdClient client({url});
    client.connectToEndpoints();
    EtcdLeaderSelector selector(
        &client, path, EtcdLeaderSelectorOptions {.ttl = std::chrono::seconds(ttlSeconds)});
    QObject::connect(&selector, &EtcdLeaderSelector::started, &selector, [] {
        std::printf("STARTED\n");
        std::fflush(stdout);
    });
    QObject::connect(&selector, &EtcdLeaderSelector::elected, &selector, [] {
        std::printf("LEADER\n");
        std::fflush(stdout);
    });
    QObject::connect(&selector, &EtcdLeaderSelector::failed, &selector, [](const EtcdStatus &s) {
        std::fprintf(stderr, "candidate failed: %s\n", qPrintable(s.toString()));
        std::exit(3);
    });
    QObject::connect(
        &selector, &EtcdLeaderSelector::leadershipLost, &selector, [](const EtcdStatus &s) {
            std::fprintf(stderr, "candidate %d lost leadership: %s\n", int(getpid()),
                qPrintable(s.toString()));
        });
    selector.start();
    return QCoreApplication::exec();
}

std::unique_ptr<Child> spawnCandidate(
    const QUrl &url, const QByteArray &path, int ttlSeconds, const QString &mode)
{
    auto c = std::make_unique<Child>();
    Child *p = c.get();
    p->process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    QObject::connect(&p->process, &QProcess::readyReadStandardOutput, &p->process, [p] {
        const qint64 at = now();
        while (p->process.canReadLine()) {
            const QByteArray line = p->process.readLine().trimmed();
            if (line == "STARTED") {
                p->started = true;
            } else if (line == "LEADER") {
                p->leaderAt = at;
                p->leader = true;
            }
        }
    });
    QObject::connect(&p->process, &QProcess::finished, &p->process, [p] { p->exited = true; });
    p->process.start(QCoreApplication::applicationFilePath(),
        {url.toString(), mode, QString::fromUtf8(path), QString::number(ttlSeconds)});
    if (!p->process.waitForStarted(5000))
        qFatal("cannot start %s in candidate mode",
            qPrintable(QCoreApplication::applicationFilePath()));
    return c;
}

void killChild(Child &c)
{
    c.process.kill(); // SIGKILL
    if (!spinUntil([&] { return c.exited; }, std::chrono::seconds(5)))
        qWarning("a killed candidate did not exit within 5 s");
}

// The peers' s4: the leader (own process) is SIGKILLed; kill -> the next process leads.
void benchCrashFailover(const QUrl &url, int n)
{
    const int ttl = 2;
    const QByteArray path = "/bench/etcdqt/election/crash_failover"_ba;
    const auto patience = std::chrono::seconds(3 * ttl + 10);
    auto leader = spawnCandidate(url, path, ttl);
    if (!spinUntil(
            [&] { return leader->leader; }, patience)) // a key left by a last run expires first
        qFatal("election_crash_failover: the first child did not lead");
    std::vector<double> lat;
    for (int i = 0; i < n; ++i) {
        auto next = spawnCandidate(url, path, ttl);
        if (!spinUntil([&] { return next->started; }, patience))
            qFatal("election_crash_failover: the next child was not in the running");
        if (next->leader)
            qFatal("election_crash_failover: two leaders");
        const qint64 t0 = now();
        killChild(*leader);
        if (!spinUntil([&] { return next->leader; }, patience))
            qFatal("election_crash_failover: no successor within %lld s", qint64(patience.count()));
        lat.push_back(msBetween(t0, next->leaderAt));
        leader = std::move(next);
    }
    killChild(*leader);
    emitLine({{u"scenario"_s, u"election_crash_failover"_s}, {u"n"_s, n},
        {u"p50_ms"_s, percentile(lat, 0.5)}, {u"p99_ms"_s, percentile(lat, 0.99)},
        {u"min_ms"_s, percentile(lat, 0)}, {u"max_ms"_s, percentile(lat, 1)}, {u"ttl_s"_s, ttl}});
}

// GET /metrics from etcd's client URL (plain HTTP/1.0; the bench links no QtNetwork).
QByteArray httpGet(const QUrl &url, const QByteArray &path)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr {};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(quint16(url.port(2379)));
    const QByteArray host = url.host().toLatin1();
    if (fd < 0 || ::inet_pton(AF_INET, host.constData(), &addr.sin_addr) != 1
        || ::connect(fd, reinterpret_cast<sockaddr *>(&addr), sizeof addr) != 0)
        qFatal("cannot connect to %s for %s", host.constData(), path.constData());
    const QByteArray request = "GET " + path + " HTTP/1.0\r\nHost: " + host + "\r\n\r\n";
    for (qsizetype sent = 0; sent < request.size();) {
        const ssize_t k = ::write(fd, request.constData() + sent, size_t(request.size() - sent));
        if (k <= 0)
            qFatal("writing to %s failed", host.constData());
        sent += k;
    }
    QByteArray response;
    char buf[65536];
    for (ssize_t k; (k = ::read(fd, buf, sizeof buf)) > 0;)
        response.append(buf, k);
    ::close(fd);
    return response.mid(response.indexOf("\r\n\r\n") + 4);
}

// The counters one hand-off moves: gRPC messages etcd received per method (a unary call is
// one message; on the Watch and LeaseKeepAlive streams every create/cancel/progress request
// and every keep-alive is one), and what its MVCC store and raft did.
QHash<QString, double> etcdCounters(const QUrl &url)
{
    static const QRegularExpression method(u"grpc_method=\"([^\"]+)\""_s);
    QHash<QString, double> out;
    for (const QByteArray &raw : httpGet(url, "/metrics").split('\n')) {
        const QString line = QString::fromLatin1(raw);
        const qsizetype space = line.lastIndexOf(u' ');
        if (line.startsWith(u'#') || space < 0)
            continue;
        const QString name = line.left(space);
        const double value = line.mid(space + 1).toDouble();
        if (name.startsWith(u"grpc_server_msg_received_total{"_s)) {
            out[u"rpc."_s + method.match(name).captured(1)] += value;
        } else {
            for (const char *counter : {"etcd_debugging_mvcc_txn_total",
                     "etcd_debugging_mvcc_range_total", "etcd_debugging_mvcc_put_total",
                     "etcd_debugging_mvcc_delete_total", "etcd_debugging_mvcc_events_total",
                     "etcd_debugging_lease_granted_total", "etcd_debugging_lease_revoked_total",
                     "etcd_server_proposals_committed_total"}) {
                if (name == QLatin1String(counter))
                    out[name.mid(name.indexOf(u'_', 5) + 1)] = value;
            }
        }
    }
    return out;
}

// Keep-alives renew leases on their own clock, whatever the election does: left out.
bool isBackground(const QString &counter)
{
    return counter == u"rpc.LeaseKeepAlive";
}

// Reads etcd's counters until two reads `gap` apart agree (background traffic aside), at
// most `tries` times; `settled` says whether they did.
QHash<QString, double> quietCounters(const QUrl &url, bool *settled)
{
    const auto gap = std::chrono::milliseconds(300);
    auto same = [](const QHash<QString, double> &x, const QHash<QString, double> &y) {
        for (auto it = y.cbegin(); it != y.cend(); ++it) {
            if (!isBackground(it.key()) && x.value(it.key()) != it.value())
                return false;
        }
        return true;
    };
    QHash<QString, double> last = etcdCounters(url);
    for (int tries = 0; tries < 30; ++tries) {
        runFor(gap);
        QHash<QString, double> next = etcdCounters(url);
        if (same(last, next)) {
            *settled = true;
            return next;
        }
        last = std::move(next);
    }
    *settled = false;
    return last;
}

// 100 candidates on one path (10 clients x 10 selectors): what one hand-off costs etcd.
void benchElectionRequests(const QUrl &url, int n)
{
    constexpr int kClients = 10, kPerClient = 10, kCandidates = kClients * kPerClient;
    const auto ttl = std::chrono::seconds(60); // keep-alives every 20 s: little background
    const QByteArray path = "/bench/etcdqt/election/requests_100"_ba;
    std::vector<std::unique_ptr<EtcdClient>> clients;
    std::vector<std::unique_ptr<Candidate>> owned;
    std::vector<Candidate *> cands;
    for (int c = 0; c < kClients; ++c) {
        clients.push_back(std::make_unique<EtcdClient>(QList<QUrl> {url}));
        // No watch-progress probes while the streams are idle: they would count as requests.
        clients.back()->setStreamLivenessInterval(std::chrono::seconds(60));
        clients.back()->connectToEndpoints();
        for (int k = 0; k < kPerClient; ++k) {
            owned.push_back(makeCandidate(clients.back().get(), path, ttl));
            cands.push_back(owned.back().get());
        }
    }
    auto electedTotal = [&] {
        int total = 0;
        for (Candidate *c : cands)
            total += c->elected;
        return total;
    };
    auto currentLeader = [&]() -> Candidate * {
        Candidate *found = nullptr;
        for (Candidate *c : cands) {
            if (c->selector->isLeader()) {
                if (found)
                    qFatal("election_requests_100: two leaders");
                found = c;
            }
        }
        return found;
    };
    QElapsedTimer startup;
    startup.start();
    for (Candidate *c : cands)
        c->selector->start();
    if (!spinUntil(
            [&] {
                return electedTotal() == 1
                    && std::all_of(
                        cands.begin(), cands.end(), [](Candidate *c) { return c->started > 0; });
            },
            std::chrono::seconds(60)))
        qFatal("election_requests_100: 100 candidates not in the running within 60 s");
    const double startupMs = double(startup.nsecsElapsed()) / 1e6;

    std::vector<double> lat, requests;
    QHash<QString, std::vector<double>> perCounter;
    bool allSettled = true;
    for (int i = 0; i < n; ++i) {
        bool settled = false;
        const QHash<QString, double> before = quietCounters(url, &settled);
        allSettled = allSettled && settled;
        Candidate *leader = currentLeader();
        if (!leader)
            qFatal("election_requests_100: no leader");
        const int elected0 = electedTotal(), finished0 = leader->finished,
                  started0 = leader->started;
        const qint64 t0 = now();
        leader->selector->resign();
        if (!spinUntil([&] { return electedTotal() > elected0; }, std::chrono::seconds(10)))
            qFatal("election_requests_100: no hand-off within 10 s");
        Candidate *next = currentLeader();
        if (!next || next == leader)
            qFatal("election_requests_100: the hand-off went nowhere");
        lat.push_back(msBetween(t0, next->electedAt));
        const QHash<QString, double> after = quietCounters(url, &settled);
        allSettled = allSettled && settled;
        double total = 0;
        for (auto it = after.cbegin(); it != after.cend(); ++it) {
            const double delta = it.value() - before.value(it.key());
            perCounter[it.key()].push_back(delta);
            if (it.key().startsWith(u"rpc."_s) && !isBackground(it.key()))
                total += delta;
        }
        requests.push_back(total);
        // Back into the running: the next hand-off again has 100 candidates.
        if (!spinUntil([&] { return leader->finished > finished0; }, std::chrono::seconds(10)))
            qFatal("election_requests_100: the old leader's term did not finish");
        leader->selector->start();
        if (!spinUntil([&] { return leader->started > started0; }, std::chrono::seconds(10)))
            qFatal("election_requests_100: the old leader did not rejoin");
    }
    QJsonObject byMethod, store;
    for (auto it = perCounter.cbegin(); it != perCounter.cend(); ++it) {
        const double median = percentile(it.value(), 0.5);
        if (median == 0 && percentile(it.value(), 1) == 0)
            continue;
        if (it.key().startsWith(u"rpc."_s))
            byMethod.insert(it.key().mid(4), median);
        else
            store.insert(it.key(), median);
    }
    closeAll(cands);
    emitLine(
        {{u"scenario"_s, u"election_requests_100"_s}, {u"n"_s, n}, {u"candidates"_s, kCandidates},
            {u"clients"_s, kClients}, {u"requests_per_handoff"_s, percentile(requests, 0.5)},
            {u"requests_per_handoff_max"_s, percentile(requests, 1)},
            {u"requests_by_method"_s, byMethod}, {u"etcd_counters"_s, store},
            {u"p50_ms"_s, percentile(lat, 0.5)}, {u"p99_ms"_s, percentile(lat, 0.99)},
            {u"startup_ms"_s, startupMs}, {u"settled"_s, allSettled},
            {u"ttl_s"_s, qint64(ttl.count())}});
}

} // namespace Bench
