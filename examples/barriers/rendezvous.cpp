// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
// A rendezvous: four workers, each with its own EtcdCountedBarrier for 4 members on one path
// (as four processes would have), arrive one after another, 300 ms apart, and block in
// waitOnBarrier() on their own threads. Nobody passes before the fourth arrives; then all
// four are released together, with no coordinator: the last to arrive sees 4 members waiting
// in etcd and deletes the round's "ready" key, which releases the others. Every member
// leaves the barrier on its way out (its lease revoked, its waiting key deleted), so nothing
// is left under the path.
// Usage: etcdqt-example-barrier-rendezvous [http://127.0.0.1:2379]
#include "exampleutil.h"

#include <EtcdQt/EtcdCountedBarrier>
#include <EtcdQt/EtcdQt>

#include <QtCore/qcoreapplication.h>
#include <QtCore/qelapsedtimer.h>

#include <algorithm>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace {
const QByteArray kPath = "/example/barriers/rendezvous"_ba;
constexpr int kWorkers = 4;
constexpr auto kArrivalGap = 300ms;

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    EtcdClient client({endpointArgument(argc, argv)});
    client.connectToEndpoints();
    std::vector<std::unique_ptr<EtcdCountedBarrier>> members;
    for (int i = 1; i <= kWorkers; ++i) {
        members.push_back(std::make_unique<EtcdCountedBarrier>(&client, kPath, kWorkers,
            EtcdCountedBarrierOptions {.clientId = u"worker-%1"_s.arg(i)}));
    }
    QElapsedTimer clock;
    clock.start();
    const auto stamp = [&clock] { return u"+%1 ms"_s.arg(clock.elapsed(), 4); };
    // Each worker writes its own slot; the main thread reads them after the worker posted.
    std::vector<qint64> arrivedMs(kWorkers), releasedMs(kWorkers);
    int exitCode = 0;
    int released = 0;
    quitWhenAllClosed(members, exitCode);
    // Once all returned: nobody may have passed before the last arrival. Then every barrier
    // closes.
    const auto workerDone = [&](bool tripped) {
        if (!tripped)
            exitCode = 1;
        if (++released < kWorkers)
            return;
        const qint64 lastArrival = *std::max_element(arrivedMs.begin(), arrivedMs.end());
        const qint64 firstRelease = *std::min_element(releasedMs.begin(), releasedMs.end());
        if (firstRelease < lastArrival)
            exitCode = 1;
        say(u"all %1 workers arrived; released %2 ms after the last arrival"_s.arg(kWorkers).arg(
            firstRelease - lastArrival));
        for (const auto &member : members)
            member->close();
    };

    say(u"%1 workers meet at %2, arriving %3 ms apart"_s.arg(kWorkers)
            .arg(QString::fromUtf8(kPath))
            .arg(kArrivalGap.count()));
    // waitOnBarrier() blocks, so it belongs on worker threads (the barrier's thread is refused).
    std::vector<std::jthread> workers;
    for (int i = 0; i < kWorkers; ++i) {
        workers.emplace_back([&, member = members[i].get(), n = i + 1] {
            std::this_thread::sleep_for(kArrivalGap * (n - 1)); // each has its own work first
            arrivedMs[n - 1] = clock.elapsed();
            say(u"%1  worker %2 arrives"_s.arg(stamp()).arg(n));
            const bool tripped = member->waitOnBarrier(10s);
            releasedMs[n - 1] = clock.elapsed();
            say(u"%1  worker %2 %3"_s.arg(stamp()).arg(n).arg(
                tripped ? u"released"_s : u"gave up waiting"_s));
            QMetaObject::invokeMethod(
                &app, [&workerDone, tripped] { workerDone(tripped); }, Qt::QueuedConnection);
        });
    }
    return QCoreApplication::exec();
}
