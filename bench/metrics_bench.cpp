// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// metrics_overhead (issue 24): what an installed EtcdMetricsRegistry costs a put and an
// uncontended lock cycle. One client and one EtcdMutex; blocks of cycles with and without the
// sink take turns (setMetrics() between blocks), so both sides share the machine's load; the
// p50 of each side and their ratio. A scrape of the registry follows, timed too.
#include "benchutil.h"

#include <EtcdQt/etcdmetricsregistry.h>

namespace Bench {

namespace {
constexpr int kBlock = 100; // cycles per block; the sides alternate block by block

// Runs `cycle` n times per side in alternating blocks; returns the two sides' latencies.
template <class Cycle>
std::pair<std::vector<double>, std::vector<double>> alternate(
    EtcdClient &client, const std::shared_ptr<EtcdMetrics> &sink, int n, Cycle cycle)
{
    std::vector<double> without, with;
    for (int done = 0; done < n; done += kBlock) {
        for (const bool measured : {false, true}) {
            client.setMetrics(measured ? sink : nullptr);
            for (int i = 0; i < kBlock; ++i) {
                const qint64 t0 = now();
                cycle();
                (measured ? with : without).push_back(msBetween(t0, now()));
            }
        }
    }
    client.setMetrics(nullptr);
    return {without, with};
}
} // namespace

void benchMetricsOverhead(const QUrl &url, int n)
{
    EtcdClient client({url});
    client.connectToEndpoints();
    const auto registry = std::make_shared<EtcdMetricsRegistry>();
    auto put = [&] {
        bool done = false;
        EtcdReply *r = client.put("/bench/etcdqt/metrics"_ba, "0123456789abcdef"_ba);
        QObject::connect(r, &EtcdReply::finished, r, [&](const EtcdStatus &s) {
            if (!s.isOk())
                qFatal("metrics_overhead: put failed: %s", qPrintable(s.toString()));
            done = true;
        });
        spinUntil([&] { return done; });
    };
    for (int i = 0; i < 50; ++i) // warm-up: the connection, the first calls
        put();
    const auto [putWithout, putWith] = alternate(client, registry, n, put);

    EtcdMutex mutex(&client,
        "/bench/etcdqt/metrics-lock-"_ba + QByteArray::number(qint64(::getpid())), {.ttl = 10s});
    int acquired = 0;
    QObject::connect(&mutex, &EtcdMutex::acquired, &mutex, [&] { ++acquired; });
    auto lockCycle = [&] {
        const int before = acquired;
        mutex.acquire();
        if (!spinUntil([&] { return acquired > before; }, 10s))
            qFatal("metrics_overhead: not acquired within 10 s");
        mutex.release();
    };
    for (int i = 0; i < 20; ++i)
        lockCycle();
    const auto [lockWithout, lockWith] = alternate(client, registry, n, lockCycle);
    mutex.close();

    std::vector<double> scrapes;
    qsizetype bytes = 0;
    for (int i = 0; i < 50; ++i) {
        const qint64 t0 = now();
        bytes = registry->prometheusText().size();
        scrapes.push_back(msBetween(t0, now()));
    }
    const double put50 = percentile(putWithout, 0.5);
    const double putM50 = percentile(putWith, 0.5);
    const double lock50 = percentile(lockWithout, 0.5);
    const double lockM50 = percentile(lockWith, 0.5);
    emitLine({{u"scenario"_s, u"metrics_overhead"_s}, {u"n"_s, n},
        {u"p50_ms"_s, putM50}, // with the sink: the figure judged
        {u"put_p50_ms"_s, put50}, {u"put_metrics_p50_ms"_s, putM50},
        {u"put_ratio"_s, putM50 / put50}, {u"lock_p50_ms"_s, lock50},
        {u"lock_metrics_p50_ms"_s, lockM50}, {u"lock_ratio"_s, lockM50 / lock50},
        {u"registry_text_p50_ms"_s, percentile(scrapes, 0.5)},
        {u"registry_text_bytes"_s, qint64(bytes)}});
}

} // namespace Bench
