// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
// One phase of work, started together and finished together: three workers, each with its
// own EtcdDoubleBarrier for 3 members on one path (as three processes would have), on their
// own threads. They reach enter() 200 ms apart, and none starts working before all three
// entered. They work for different times (the first to enter works longest), reach leave()
// in a different order, and none goes on before all three left. The example checks both
// orders from the times it took. Both rounds clean up after themselves: nothing is left under
// the path.
// Usage: etcdqt-example-barrier-phases [http://127.0.0.1:2379]
#include "exampleutil.h"

#include <EtcdQt/EtcdDoubleBarrier>
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
const QByteArray kPath = "/example/barriers/phases"_ba;
constexpr int kWorkers = 3;
constexpr auto kStep = 200ms;

// When one worker reached and passed each barrier, on the example's clock.
struct Times
{
    qint64 entering = 0, entered = 0, leaving = 0, left = 0;
};
} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    EtcdClient client({endpointArgument(argc, argv)});
    client.connectToEndpoints();
    std::vector<std::unique_ptr<EtcdDoubleBarrier>> members;
    for (int i = 0; i < kWorkers; ++i)
        members.push_back(std::make_unique<EtcdDoubleBarrier>(&client, kPath, kWorkers));
    QElapsedTimer clock;
    clock.start();
    const auto stamp = [&clock] { return u"+%1 ms"_s.arg(clock.elapsed(), 4); };
    std::vector<Times> times(kWorkers); // each worker writes its own; read once it posted
    int exitCode = 0;
    int finished = 0;
    quitWhenAllClosed(members, exitCode);
    // Once all are through: nobody worked before the last entered, nobody went on before the
    // last left. Then every barrier closes.
    const auto workerDone = [&](bool ok) {
        if (!ok)
            exitCode = 1;
        if (++finished < kWorkers)
            return;
        const auto latest
            = [&times](qint64 Times::*field) { return std::ranges::max(times, {}, field).*field; };
        const auto earliest
            = [&times](qint64 Times::*field) { return std::ranges::min(times, {}, field).*field; };
        const bool together = earliest(&Times::entered) >= latest(&Times::entering)
            && earliest(&Times::left) >= latest(&Times::leaving);
        if (!together)
            exitCode = 1;
        say(u"all %1 workers entered together and left together: %2"_s.arg(kWorkers).arg(
            together ? u"yes"_s : u"NO"_s));
        for (const auto &member : members)
            member->close();
    };

    say(u"%1 workers run one phase together at %2"_s.arg(kWorkers).arg(QString::fromUtf8(kPath)));
    // enter() and leave() block, so they belong on worker threads (the barriers' thread is
    // refused).
    std::vector<std::jthread> workers;
    for (int i = 0; i < kWorkers; ++i) {
        workers.emplace_back([&, member = members[i].get(), n = i + 1] {
            Times &t = times[n - 1];
            std::this_thread::sleep_for(kStep * (n - 1));
            t.entering = clock.elapsed();
            say(u"%1  worker %2 enters"_s.arg(stamp()).arg(n));
            bool ok = member->enter(10s);
            t.entered = clock.elapsed();
            const auto work = kStep * (kWorkers + 1 - n);
            if (ok) {
                say(u"%1  worker %2: all entered, works for %3 ms"_s.arg(stamp()).arg(n).arg(
                    work.count()));
                std::this_thread::sleep_for(work); // the phase's work
                t.leaving = clock.elapsed();
                say(u"%1  worker %2 is done and leaves"_s.arg(stamp()).arg(n));
                ok = member->leave(10s);
                t.left = clock.elapsed();
            }
            say(u"%1  worker %2 %3"_s.arg(stamp()).arg(n).arg(
                ok ? u"goes on: all left"_s : u"gave up waiting"_s));
            QMetaObject::invokeMethod(
                &app, [&workerDone, ok] { workerDone(ok); }, Qt::QueuedConnection);
        });
    }
    return QCoreApplication::exec();
}
