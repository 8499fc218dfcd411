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

// discovery_heal: an instance's lease revoked by another client -> the instance written again
// under a new lease, with the registry's default resilience (as users get it). Timed from a
// third client's watch of the instance's key, from the DELETE the revoke caused (etcd telling
// the lease is gone) to the PUT of the heal: both events take the same path, so their
// difference is the registry's alone. detect_p50_ms: the DELETE -> instanceLost() in this
// (the owner) thread. rtt_p50_ms: a put's round trip on the registrant's client, for scale.
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
    qint64 deletedAt = -1, restoredAt = -1, lostAt = -1;
    EtcdWatch watch(&watcher, key);
    QObject::connect(
        &watch, &EtcdWatch::eventsReceived, &watch, [&](const QList<EtcdWatchEvent> &events) {
            for (const EtcdWatchEvent &e : events)
                (e.type == EtcdWatchEvent::Type::Delete ? deletedAt : restoredAt) = now();
        });
    QObject::connect(
        &registry, &EtcdServiceRegistry::instanceLost, &registry, [&] { lostAt = now(); });
    watch.start();
    spinUntil([&] { return watch.state() == EtcdWatch::State::Active; });
    std::vector<double> heal, detect, rtt;
    for (int i = 0; i < n; ++i) {
        const qint64 lease = registry.leaseIdOf(s);
        deletedAt = restoredAt = lostAt = -1;
        await(revoker.revokeLease(lease), "revoking");
        if (!spinUntil([&] { return restoredAt > deletedAt && deletedAt > 0 && lostAt > 0; }, 10s))
            qFatal("discovery bench: instance not healed 10 s after the revoke");
        spinUntil([&] { return registry.isHealthy() && registry.leaseIdOf(s) != lease; });
        heal.push_back(msBetween(deletedAt, restoredAt));
        detect.push_back(msBetween(deletedAt, lostAt));
        const qint64 sent = now();
        await(registrant.put(path + "/rtt", "x"), "timing a put");
        rtt.push_back(msBetween(sent, now()));
    }
    const double healP50 = percentile(heal, 0.5);
    const double rttP50 = percentile(rtt, 0.5);
    emitLine({{u"scenario"_s, u"discovery_heal"_s}, {u"n"_s, n}, {u"p50_ms"_s, healP50},
        {u"p99_ms"_s, percentile(heal, 0.99)}, {u"detect_p50_ms"_s, percentile(detect, 0.5)},
        {u"rtt_p50_ms"_s, rttP50}, {u"heal_rtts"_s, healP50 / rttP50}});
    bool closed = false;
    QObject::connect(&registry, &EtcdRecipe::closed, &registry, [&closed] { closed = true; });
    registry.close();
    spinUntil([&] { return closed; }, 5s);
}

} // namespace Bench
