// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
// A counter shared through etcd (etcd-recipes' DistributedAtomicLong layout: 8 bytes
// big-endian at one key), incremented from four worker threads. Each worker has its own
// EtcdAtomicCounter on the one path, as four processes would, and calls addAndWait(), the
// blocking form for worker threads, 25 times. Every increment is a compare-and-set, so each
// returns a value that no other increment returned: the 100 answers are 100 distinct numbers
// and the counter ends 100 higher. Then the counter is removed.
// Usage: etcdqt-example-counter [http://127.0.0.1:2379]
#include "exampleutil.h"

#include <EtcdQt/EtcdQt>
#include <EtcdQt/etcdatomiccounter.h>

#include <QtCore/qcoreapplication.h>

#include <atomic>
#include <memory>
#include <set>
#include <thread>
#include <vector>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace {
const QByteArray kPath = "/example/counter"_ba;
constexpr int kWorkers = 4;
constexpr int kIncrements = 25;
} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    EtcdClient client({endpointArgument(argc, argv)});
    client.connectToEndpoints();
    EtcdAtomicCounter reader(&client, kPath);
    std::vector<std::unique_ptr<EtcdAtomicCounter>> counters;
    for (int i = 0; i < kWorkers; ++i)
        counters.push_back(std::make_unique<EtcdAtomicCounter>(&client, kPath));
    std::vector<QList<qint64>> values(kWorkers);
    qint64 from = 0;
    int finished = 0;
    std::atomic<bool> failed = false;

    const auto quit = [](int code) { QCoreApplication::exit(code); };
    // Where it ended: one more get(), then the key goes.
    const auto summarize = [&] {
        std::set<qint64> distinct;
        for (const QList<qint64> &mine : values)
            distinct.insert(mine.begin(), mine.end());
        out() << kWorkers * kIncrements << " increments returned " << distinct.size()
              << " distinct values" << Qt::endl;
        const bool unique = int(distinct.size()) == kWorkers * kIncrements;
        EtcdValueReply *end = reader.get();
        QObject::connect(end, &EtcdReply::finished, &app, [&, end, unique](const EtcdStatus &s) {
            out() << "counter = " << end->value() << " (it started at " << from << ")" << Qt::endl;
            const bool exact = s.isOk() && end->value() == from + kWorkers * kIncrements;
            const bool ok = exact && unique && !failed;
            EtcdReply *removed = EtcdAtomicCounter::remove(&client, kPath);
            QObject::connect(removed, &EtcdReply::finished, &app, [ok, quit](const EtcdStatus &s) {
                out() << (s.isOk() ? "removed " : "could not remove ") << kPath << Qt::endl;
                quit(ok && s.isOk() ? 0 : 1);
            });
        });
    };
    const auto workerDone = [&](int i) {
        out() << "worker " << i + 1 << " got";
        for (qint64 v : values[i])
            out() << ' ' << v;
        out() << Qt::endl;
        if (++finished == kWorkers)
            summarize();
    };

    // The workers block in addAndWait() while this thread runs the counters' events.
    std::vector<std::jthread> workers;
    const auto startWorkers = [&] {
        for (int i = 0; i < kWorkers; ++i) {
            workers.emplace_back([&, i] {
                for (int n = 0; n < kIncrements; ++n) {
                    EtcdStatus status;
                    const std::optional<qint64> v = counters[i]->addAndWait(1, 10s, &status);
                    if (!v) {
                        qWarning().noquote() << "increment failed:" << status.toString();
                        failed = true;
                        break;
                    }
                    values[i].append(*v);
                }
                QMetaObject::invokeMethod(
                    &app, [&, i] { workerDone(i); }, Qt::QueuedConnection);
            });
        }
    };

    // get() creates an absent counter at its initial value (0 here) and says where it starts.
    EtcdValueReply *start = reader.get();
    QObject::connect(start, &EtcdReply::finished, &app, [&, start](const EtcdStatus &status) {
        if (!status.isOk()) {
            out() << "cannot read " << kPath << ": " << status.toString() << Qt::endl;
            return quit(1);
        }
        from = start->value();
        out() << kWorkers << " workers increment " << kPath << ' ' << kIncrements
              << " times each, from " << from << Qt::endl;
        startWorkers();
    });
    return QCoreApplication::exec();
}
