// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
// A distributed counting semaphore, driven by signals: five workers, each with its own
// EtcdSemaphore on one path (as five processes would have), share 2 permits. Each asks with
// acquire(), works for 500 ms once acquired() says it has a permit, and gives it back with
// release(); nothing blocks the main thread. The number holding a permit at once is printed
// as it changes and never goes above 2. Then every semaphore closes, revoking its leases.
// The permit count itself stays in etcd, at <path>/permits, for every later user of the path.
// Usage: etcdqt-example-semaphore [http://127.0.0.1:2379]
#include "exampleutil.h"

#include <EtcdQt/EtcdQt>

#include <QtCore/qcoreapplication.h>
#include <QtCore/qelapsedtimer.h>
#include <QtCore/qtimer.h>

#include <memory>
#include <vector>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace {
const QByteArray kPath = "/example/locks/semaphore"_ba;
constexpr int kPermits = 2;
constexpr int kWorkers = 5;
} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    EtcdClient client({endpointArgument(argc, argv)});
    client.connectToEndpoints();
    std::vector<std::unique_ptr<EtcdSemaphore>> workers;
    for (int i = 1; i <= kWorkers; ++i) {
        workers.push_back(std::make_unique<EtcdSemaphore>(
            &client, kPath, kPermits, EtcdSemaphoreOptions {.clientId = u"worker-%1"_s.arg(i)}));
    }
    QElapsedTimer clock;
    int holding = 0; // workers holding a permit now
    int peak = 0;
    int served = 0;
    int exitCode = 0;

    const auto stamp = [&clock] { return u"+%1 ms"_s.arg(clock.elapsed(), 4); };
    const auto closeAll = [&workers] {
        for (const auto &worker : workers)
            worker->close();
    };
    quitWhenAllClosed(workers, exitCode);
    for (const auto &owned : workers) {
        EtcdSemaphore *worker = owned.get();
        QObject::connect(worker, &EtcdSemaphore::acquired, &app, [&, worker] {
            peak = std::max(peak, ++holding);
            out() << stamp() << "  " << worker->clientId() << " got a permit: " << holding << " of "
                  << kPermits << " in use" << Qt::endl;
            if (holding > kPermits)
                exitCode = 1;
            // The work: 500 ms on the event loop, then the permit goes back.
            QTimer::singleShot(500ms, worker, [&, worker] {
                --holding;
                out() << stamp() << "  " << worker->clientId() << " releases its permit"
                      << Qt::endl;
                if (!worker->release())
                    exitCode = 1;
                if (++served == kWorkers) {
                    out() << kWorkers << " workers served; at most " << peak << " of " << kPermits
                          << " permits in use at once" << Qt::endl;
                    closeAll();
                }
            });
        });
        QObject::connect(worker, &EtcdSemaphore::permitLost, &app, [&](const EtcdStatus &why) {
            out() << "permit lost: " << why.toString() << Qt::endl;
            exitCode = 1;
        });
        // An acquire() that cannot go on (say, the path has another permit count) says so here.
        QObject::connect(worker, &EtcdRecipe::errorOccurred, &app,
            [&](const QString &context, const EtcdStatus &why) {
                out() << context << ": " << why.toString() << Qt::endl;
                exitCode = 1;
                closeAll();
            });
    }

    out() << kWorkers << " workers ask for one of " << kPermits << " permits on " << kPath
          << Qt::endl;
    clock.start();
    for (const auto &worker : workers) {
        if (!worker->acquire()) {
            exitCode = 1;
            closeAll();
            break;
        }
    }
    return QCoreApplication::exec();
}
