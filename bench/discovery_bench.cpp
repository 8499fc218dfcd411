// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// The service discovery scenario of etcdqt-bench (issue 18; see etcdqt_bench.cpp's header).
// No peer has it: etcd-recipes' provider is Kotlin, and the peers have no discovery.
#include "benchutil.h"

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace Bench {

namespace {

constexpr int kInstances = 100;
constexpr int kBatches = 15;
constexpr int kCallsPerBatch = 200000;

// Waits for `reply` in the event loop; fatal unless it succeeded.
void await(EtcdReply *reply, const char *what)
{
    reply->setAutoDelete(false);
    bool done = false;
    QObject::connect(reply, &EtcdReply::finished, reply, [&done] { done = true; });
    spinUntil([&] { return done; });
    if (!reply->status().isOk())
        qFatal("discovery bench: %s: %s", what, qPrintable(reply->status().toString()));
    delete reply;
}

// What a cache reads: 100 registrations of one service, put without leases (the provider
// only reads them; keep-alives would be noise here). Untimed. The deletion goes first, on
// its own: etcd refuses a txn whose delete range overlaps its puts.
void seed(EtcdClient &client, const QByteArray &servicePath, const QString &name)
{
    const QByteArray prefix = servicePath + "/names/" + name.toUtf8() + '/';
    await(client.remove(prefix, {.prefix = true}), "clearing");
    EtcdTxn txn;
    for (int i = 0; i < kInstances; ++i) {
        EtcdServiceInstance s = EtcdServiceInstance::create(name, uR"({"weight":1})"_s);
        s.id = u"b"_s + QString::number(i).rightJustified(6, u'0');
        s.address = u"10.0.%1.%2"_s.arg(i / 256).arg(i % 256);
        s.port = 8000 + i;
        txn.success.append(EtcdTxnOp::put(prefix + s.id.toUtf8(), s.toJson()));
    }
    await(client.txn(txn), "seeding");
}

// Median ns per call of `call` over kBatches batches of kCallsPerBatch calls.
template <class Call>
double nsPerCall(Call call)
{
    for (int i = 0; i < kCallsPerBatch / 10; ++i) // warm-up: caches, branch predictors
        call();
    std::vector<double> batches;
    for (int b = 0; b < kBatches; ++b) {
        QElapsedTimer t;
        t.start();
        for (int i = 0; i < kCallsPerBatch; ++i)
            call();
        batches.push_back(double(t.nsecsElapsed()) / kCallsPerBatch);
    }
    return percentile(batches, 0.5);
}

} // namespace

// ns per provider.instance() from a warm cache of 100 instances, per built-in strategy; and
// copy_floor_ns, a copy of one instance out of a list (what returning one by value costs
// alone, whatever the strategy).
void benchDiscoveryLookup(const QUrl &url)
{
    EtcdClient client({url});
    client.connectToEndpoints();
    const QByteArray path = "/bench/discovery"_ba;
    const QString name = u"lookup"_s;
    seed(client, path, name);
    EtcdServiceProvider provider(&client, path, name);
    bool started = false;
    QObject::connect(&provider, &EtcdServiceProvider::started, &provider, [&] { started = true; });
    provider.start();
    if (!spinUntil([&] { return started && provider.count() == kInstances; }, 10s))
        qFatal("discovery bench: %d of %d instances after 10 s", provider.count(), kInstances);
    // The result feeds a sum the compiler cannot drop.
    qint64 sink = 0;
    const auto lookup = [&] {
        const std::optional<EtcdServiceInstance> s = provider.instance();
        sink += s ? s->port : -1;
    };
    QJsonObject line {{u"scenario"_s, u"discovery_lookup"_s}, {u"n"_s, kInstances},
        {u"batches"_s, kBatches}, {u"calls_per_batch"_s, kCallsPerBatch}};
    const std::pair<EtcdServiceProvider::Strategy, QString> strategies[]
        = {{EtcdServiceProvider::Strategy::Random, u"random_ns"_s},
            {EtcdServiceProvider::Strategy::RoundRobin, u"round_robin_ns"_s},
            {EtcdServiceProvider::Strategy::Sticky, u"sticky_ns"_s}};
    for (const auto &[strategy, field] : strategies) {
        provider.setStrategy(strategy);
        line.insert(field, nsPerCall(lookup));
    }
    const QList<EtcdServiceInstance> all = provider.availableInstances();
    int i = 0;
    line.insert(u"copy_floor_ns"_s, nsPerCall([&] {
        const std::optional<EtcdServiceInstance> s = all.at(i++ % kInstances);
        sink += s->port;
    }));
    if (sink == 0)
        qFatal("discovery bench: no instance picked");
    emitLine(line);
}

// Watch creations on one stream are answered in order: once a watch started now is live,
// every watch `client` started before it is.
void awaitWatchesLive(EtcdClient &client)
{
    EtcdWatch fence(&client, "/bench/heal-fence"_ba);
    fence.start();
    if (!spinUntil([&] { return fence.state() == EtcdWatch::State::Active; }, 10s))
        qFatal("discovery bench: a watch did not go live within 10 s");
}

// discovery_heal: an instance's lease revoked by another client -> the instance written again
// under a new lease, with the registry's default resilience (as users get it). Timed from a
// third client's watch of the instance's key, from the DELETE the revoke caused to the PUT of
// the heal: both events take the same path, so their difference is the registry's alone.
// detect_p50_ms: the DELETE -> instanceLost() in this (the owner) thread. after_report_p50_ms:
// etcd's report that the lease is gone -> the PUT, what the issue bounds by one round trip
// (heal_rtts); the report is timed apart from the registry, as the answer to a lease check
// the bench sends on the registrant's client at the DELETE, when the registry sends its own.
// rtt_p50_ms: the unit, the round trip of the heal's own request: a compare-and-set of its
// shape (create the key under a lease if absent, else read it) that creates a fresh key of
// the same size each round, on the registrant's client before each revoke.
// rtt_read_p50_ms: the same compare-and-set on a key that exists, which writes nothing (the
// unit this bench used before, which leaves out the write the heal itself makes). A write
// lets a watch of the registry's created after it start behind etcd's revision, and etcd
// serves such a watch from its catch-up loop, up to 100 ms late; so each round waits until
// the registry's new watch is live before it writes.
void benchDiscoveryHeal(const QUrl &url, int n)
{
    EtcdClient registrant({url});
    EtcdClient revoker({url});
    EtcdClient watcher({url});
    for (EtcdClient *c : {&registrant, &revoker, &watcher})
        c->connectToEndpoints();
    const QByteArray path = "/bench/heal"_ba;
    EtcdServiceInstance s = EtcdServiceInstance::create(u"heal"_s, uR"({"weight":1})"_s);
    s.id = u"h1"_s;
    EtcdServiceRegistry registry(&registrant, path);
    EtcdReply *registered = registry.registerService(s);
    await(registered, "registering");
    const QByteArray key = registry.keyOf(s);
    qint64 deletedAt = -1, restoredAt = -1, lostAt = -1, reportedAt = -1, lease = -1;
    EtcdWatch watch(&watcher, key);
    const auto askEtcd = [&] {
        EtcdLeaseTimeToLiveReply *r = registrant.leaseTimeToLive(lease);
        QObject::connect(r, &EtcdReply::finished, &watch, [&reportedAt, r](const EtcdStatus &st) {
            if (st.code() == Etcd::ErrorCode::LeaseNotFound || (st.isOk() && r->ttl().count() <= 0))
                reportedAt = now();
        });
    };
    QObject::connect(
        &watch, &EtcdWatch::eventsReceived, &watch, [&](const QList<EtcdWatchEvent> &events) {
            for (const EtcdWatchEvent &e : events) {
                if (e.type == EtcdWatchEvent::Type::Delete) {
                    deletedAt = now();
                    askEtcd();
                } else
                    restoredAt = now();
            }
        });
    QObject::connect(
        &registry, &EtcdServiceRegistry::instanceLost, &registry, [&] { lostAt = now(); });
    watch.start();
    spinUntil([&] { return watch.state() == EtcdWatch::State::Active; });
    const QByteArray probeKey = path + "/rtt";
    await(registrant.put(probeKey, "x"), "writing the round trip's key");
    const EtcdTxn readProbe {{EtcdCompare::missing(probeKey)}, {EtcdTxnOp::put(probeKey, "x")},
        {EtcdTxnOp::get(probeKey)}};
    EtcdLeaseGrantReply *probeGrant = registrant.grantLease(60s);
    await(probeGrant, "granting the round trip's lease");
    EtcdPutOptions onProbeLease;
    onProbeLease.lease = probeGrant->leaseId();
    const QByteArray json = s.toJson();
    const auto writeProbe = [&](int i) {
        const QByteArray k = path + "/rtt-" + QByteArray::number(i).rightJustified(4, '0');
        return EtcdTxn {{EtcdCompare::missing(k)}, {EtcdTxnOp::put(k, json, onProbeLease)},
            {EtcdTxnOp::get(k)}};
    };
    const auto timed = [&](const EtcdTxn &txn) {
        const qint64 sent = now();
        await(registrant.txn(txn), "timing a compare-and-set");
        return msBetween(sent, now());
    };
    std::vector<double> heal, detect, afterReport, rtt, rttRead;
    for (int i = 0; i < n; ++i) {
        lease = registry.leaseIdOf(s);
        deletedAt = restoredAt = lostAt = reportedAt = -1;
        awaitWatchesLive(registrant);
        rttRead.push_back(timed(readProbe));
        rtt.push_back(timed(writeProbe(i)));
        await(revoker.revokeLease(lease), "revoking");
        const auto healed = [&] {
            return restoredAt > deletedAt && deletedAt > 0 && lostAt > 0 && reportedAt > 0;
        };
        if (!spinUntil(healed, 10s))
            qFatal("discovery bench: instance not healed 10 s after the revoke");
        spinUntil([&] { return registry.isHealthy() && registry.leaseIdOf(s) != lease; });
        heal.push_back(msBetween(deletedAt, restoredAt));
        detect.push_back(msBetween(deletedAt, lostAt));
        afterReport.push_back(msBetween(reportedAt, restoredAt));
    }
    await(registrant.revokeLease(onProbeLease.lease), "revoking the round trip's lease");
    const double afterP50 = percentile(afterReport, 0.5);
    const double rttP50 = percentile(rtt, 0.5);
    emitLine({{u"scenario"_s, u"discovery_heal"_s}, {u"n"_s, n},
        {u"p50_ms"_s, percentile(heal, 0.5)}, {u"p99_ms"_s, percentile(heal, 0.99)},
        {u"detect_p50_ms"_s, percentile(detect, 0.5)}, {u"after_report_p50_ms"_s, afterP50},
        {u"after_report_p99_ms"_s, percentile(afterReport, 0.99)}, {u"rtt_p50_ms"_s, rttP50},
        {u"rtt_read_p50_ms"_s, percentile(rttRead, 0.5)}, {u"heal_rtts"_s, afterP50 / rttP50}});
    bool closed = false;
    QObject::connect(&registry, &EtcdRecipe::closed, &registry, [&closed] { closed = true; });
    registry.close();
    spinUntil([&] { return closed; }, 5s);
}

} // namespace Bench
