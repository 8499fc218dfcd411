// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
// A gate: a coordinator sets an EtcdBarrier, three workers wait at it, and all pass when the
// coordinator removes it. Each worker has its own EtcdBarrier on the same path (as separate
// processes would) and blocks in waitOnBarrier() on its own thread. Once all three wait, the
// coordinator lets them through with removeBarrier(): one deletion in etcd releases every
// waiter at once. The workers use waitOnMissingBarriers = false: a worker that reaches the
// gate after it was opened passes at once instead of waiting for the next barrier.
// Usage: etcdqt-example-barrier-gate [http://127.0.0.1:2379]
#include "exampleutil.h"

#include <EtcdQt/EtcdQt>
#include <EtcdQt/etcdbarrier.h>

#include <QtCore/qcoreapplication.h>
#include <QtCore/qelapsedtimer.h>
#include <QtCore/qtimer.h>

#include <memory>
#include <mutex>
#include <thread>
#include <vector>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace {
const QByteArray kPath = "/example/barriers/gate"_ba;
constexpr int kWorkers = 3;

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    EtcdClient client({endpointArgument(argc, argv)});
    client.connectToEndpoints();
    EtcdBarrier coordinator(&client, kPath);
    std::vector<std::unique_ptr<EtcdBarrier>> gates;
    for (int i = 0; i < kWorkers; ++i) {
        gates.push_back(std::make_unique<EtcdBarrier>(
            &client, kPath, EtcdBarrierOptions {.waitOnMissingBarriers = false}));
    }
    QElapsedTimer clock;
    const auto stamp = [&clock] { return u"+%1 ms"_s.arg(clock.elapsed(), 4); };
    int exitCode = 0;
    int waiting = 0;
    int passed = 0;

    const auto closeAll = [&] {
        coordinator.close();
        for (const auto &gate : gates)
            gate->close();
    };
    // Quit once every barrier closed: the coordinator's lease is revoked by then.
    std::vector<EtcdRecipe *> recipes {&coordinator};
    for (const auto &gate : gates)
        recipes.push_back(gate.get());
    quitWhenAllClosed(recipes, exitCode);

    // The coordinator opens the gate a moment after the last worker arrived at it.
    const auto open = [&] {
        say(u"%1  the coordinator removes the barrier"_s.arg(stamp()));
        EtcdBoolReply *removal = coordinator.removeBarrier();
        QObject::connect(removal, &EtcdReply::finished, &app, [&, removal](const EtcdStatus &s) {
            if (!s.isOk() || !removal->result()) {
                say(u"cannot remove the barrier: "_s + s.toString());
                exitCode = 1;
                closeAll();
            }
        });
    };
    for (const auto &gate : gates) {
        // waiterCount says a wait of that object has begun (in this, its thread).
        QObject::connect(gate.get(), &EtcdBarrier::waiterCountChanged, &app, [&](int count) {
            if (count == 1 && ++waiting == kWorkers) {
                say(u"%1  %2 workers wait at the gate"_s.arg(stamp()).arg(kWorkers));
                QTimer::singleShot(300ms, &app, open);
            }
        });
    }
    const auto workerDone = [&](bool ok) {
        if (!ok)
            exitCode = 1;
        if (++passed < kWorkers)
            return;
        say(u"all %1 workers passed the gate"_s.arg(kWorkers));
        closeAll();
    };

    // waitOnBarrier() blocks, so it belongs on worker threads (the barrier's thread is refused).
    std::vector<std::jthread> workers;
    EtcdBoolReply *setting = coordinator.setBarrier();
    QObject::connect(setting, &EtcdReply::finished, &app, [&, setting](const EtcdStatus &s) {
        if (!s.isOk() || !setting->result()) {
            say(u"the coordinator cannot set the barrier (set already?): "_s + s.toString());
            exitCode = 1;
            return closeAll();
        }
        say(u"the coordinator set the barrier %1"_s.arg(QString::fromUtf8(kPath)));
        clock.start();
        for (int i = 0; i < kWorkers; ++i) {
            workers.emplace_back([&, gate = gates[i].get(), n = i + 1] {
                say(u"%1  worker %2 waits at the gate"_s.arg(stamp()).arg(n));
                const bool lifted = gate->waitOnBarrier(10s);
                say(u"%1  worker %2 %3"_s.arg(stamp()).arg(n).arg(
                    lifted ? u"passed the gate"_s : u"gave up waiting"_s));
                QMetaObject::invokeMethod(
                    &app, [&workerDone, lifted] { workerDone(lifted); }, Qt::QueuedConnection);
            });
        }
    });
    return QCoreApplication::exec();
}
