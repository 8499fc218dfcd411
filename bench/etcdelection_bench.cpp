// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// The scenarios of EtcdElection, etcd's own election layout, beside Go's concurrency.Election
// on the same layout (the peers' s3_immediate and s4): election_handoff_etcd and
// election_crash_failover_etcd (see etcdqt_bench.cpp's header).
#include "benchutil.h"

#include <EtcdQt/etcdelection.h>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace Bench {

namespace {

// How many candidates' keys are under `prefix`/ now; -1 when etcd did not answer. Only for
// the untimed set-up between measurements: whether a successor is queued in etcd.
qint64 candidatesUnder(EtcdClient &client, const QByteArray &prefix)
{
    EtcdRangeOptions o;
    o.prefix = true;
    o.countOnly = true;
    EtcdRangeReply *r = client.get(prefix + '/', o);
    r->setAutoDelete(false);
    bool done = false;
    QObject::connect(r, &EtcdReply::finished, r, [&done] { done = true; });
    const bool answered = spinUntil([&] { return done; }, 5s);
    const qint64 n = answered && r->status().isOk() ? r->count() : -1;
    delete r;
    return n;
}

bool waitForCandidates(EtcdClient &client, const QByteArray &prefix, qint64 n)
{
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < 10000) {
        if (candidatesUnder(client, prefix) == n)
            return true;
        runFor(1ms);
    }
    return false;
}

struct NativeCandidate
{
    std::unique_ptr<EtcdElection> election;
    int elected = 0;
    qint64 electedAt = 0;
};

std::unique_ptr<NativeCandidate> makeNative(EtcdClient *client, const QByteArray &prefix)
{
    auto c = std::make_unique<NativeCandidate>();
    c->election = std::make_unique<EtcdElection>(client, prefix, EtcdElectionOptions {.ttl = 10s});
    NativeCandidate *p = c.get();
    QObject::connect(p->election.get(), &EtcdElection::elected, p->election.get(), [p] {
        p->electedAt = now();
        ++p->elected;
    });
    return c;
}

} // namespace

// Go's s3 (held) and s3_immediate on its own layout: the successor is queued (its key in etcd),
// the leader leads on for peersLeadTime() when `held`, then resigns; resign() -> the
// successor's elected().
void benchHandoffEtcd(const QUrl &url, int n, bool held)
{
    const QString scenario = held ? u"election_handoff_etcd_held"_s : u"election_handoff_etcd"_s;
    const QByteArray prefix = "/bench/etcdqt/election/"_ba + scenario.toUtf8();
    EtcdClient ca({url}), cb({url});
    ca.connectToEndpoints();
    cb.connectToEndpoints();
    auto a = makeNative(&ca, prefix);
    auto b = makeNative(&cb, prefix);
    if (!a->election->campaign("a") || !spinUntil([&] { return a->elected > 0; }, 15s))
        qFatal("%s: the first candidate was not elected within 15 s", qPrintable(scenario));
    NativeCandidate *leader = a.get(), *follower = b.get();
    std::mt19937 rng(42); // the peers' seed
    std::vector<double> lat;
    for (int i = 0; i < n; ++i) {
        const int elected0 = follower->elected;
        if (!follower->election->campaign(i % 2 ? "a" : "b"))
            qFatal("%s: campaign() refused", qPrintable(scenario));
        if (!waitForCandidates(ca, prefix, 2) || follower->elected != elected0)
            qFatal("%s: the successor was not queued behind the leader", qPrintable(scenario));
        if (held) {
            runFor(peersLeadTime(rng));
            if (follower->elected != elected0)
                qFatal("%s: the successor led before the resign", qPrintable(scenario));
        }
        const qint64 t0 = now();
        leader->election->resign();
        if (!spinUntil([&] { return follower->elected > elected0; }, 10s))
            qFatal("%s: no hand-off within 10 s of resign()", qPrintable(scenario));
        lat.push_back(msBetween(t0, follower->electedAt));
        std::swap(leader, follower);
    }
    a->election->close();
    b->election->close();
    runFor(200ms); // the revokes leave before the clients go
    emitLine({{u"scenario"_s, scenario}, {u"n"_s, n}, {u"p50_ms"_s, percentile(lat, 0.5)},
        {u"p99_ms"_s, percentile(lat, 0.99)}, {u"min_ms"_s, percentile(lat, 0)},
        {u"max_ms"_s, percentile(lat, 1)}, {u"ttl_s"_s, 10}, {u"held"_s, held}});
}

// Child mode of election_crash_failover_etcd: one candidate in its own process.
int runNativeCandidate(const QUrl &url, const QByteArray &prefix, int ttlSeconds)
{
    ::prctl(PR_SET_PDEATHSIG, SIGKILL); // a bench that died (qFatal) leaves no leader behind
    EtcdClient client({url});
    client.connectToEndpoints();
    EtcdElection election(
        &client, prefix, EtcdElectionOptions {.ttl = std::chrono::seconds(ttlSeconds)});
    QObject::connect(&election, &EtcdElection::elected, &election, [] {
        std::printf("LEADER\n");
        std::fflush(stdout);
    });
    if (!election.campaign(QByteArray::number(getpid())))
        return 3;
    return QCoreApplication::exec();
}

// Go's s4 on its own layout: the leader (own process) is SIGKILLed; kill -> the next leads.
void benchCrashFailoverEtcd(const QUrl &url, int n)
{
    const int ttl = 2;
    const QByteArray prefix = "/bench/etcdqt/election/crash_failover_etcd"_ba;
    const auto patience = std::chrono::seconds(3 * ttl + 10);
    EtcdClient client({url});
    client.connectToEndpoints();
    auto leader = spawnCandidate(url, prefix, ttl, u"election_candidate_etcd"_s);
    if (!spinUntil([&] { return leader->leader; }, patience)) // a last run's key expires first
        qFatal("election_crash_failover_etcd: the first child did not lead");
    std::vector<double> lat;
    for (int i = 0; i < n; ++i) {
        auto next = spawnCandidate(url, prefix, ttl, u"election_candidate_etcd"_s);
        if (!waitForCandidates(client, prefix, 2) || next->leader)
            qFatal("election_crash_failover_etcd: the next child was not queued");
        const qint64 t0 = now();
        killChild(*leader);
        if (!spinUntil([&] { return next->leader; }, patience))
            qFatal("election_crash_failover_etcd: no successor within %lld s",
                qint64(patience.count()));
        lat.push_back(msBetween(t0, next->leaderAt));
        leader = std::move(next);
    }
    killChild(*leader);
    emitLine({{u"scenario"_s, u"election_crash_failover_etcd"_s}, {u"n"_s, n},
        {u"p50_ms"_s, percentile(lat, 0.5)}, {u"p99_ms"_s, percentile(lat, 0.99)},
        {u"min_ms"_s, percentile(lat, 0)}, {u"max_ms"_s, percentile(lat, 1)}, {u"ttl_s"_s, ttl}});
}

} // namespace Bench
