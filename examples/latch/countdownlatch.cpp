// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
// A count-down latch shared through etcd: created with a count of 3, counted down by three
// workers, each with its own EtcdCountDownLatch on the path (as three processes would have),
// 200 ms apart. A waiter follows the count live and hears opened() once it reaches zero; a
// worker thread waits for the same moment the blocking way, with await(). The latch outlives
// every object (it has no lease), so the example removes it at the end.
// Usage: etcdqt-example-countdownlatch [http://127.0.0.1:2379]
#include "exampleutil.h"

#include <EtcdQt/EtcdQt>
#include <EtcdQt/etcdcountdownlatch.h>

#include <QtCore/qcoreapplication.h>
#include <QtCore/qelapsedtimer.h>
#include <QtCore/qtimer.h>

#include <memory>
#include <thread>
#include <vector>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace {
const QByteArray kPath = "/example/latch"_ba;
constexpr int kWorkers = 3;
} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    EtcdClient client({endpointArgument(argc, argv)});
    client.connectToEndpoints();
    EtcdCountDownLatch waiter(&client, kPath);
    std::vector<std::unique_ptr<EtcdCountDownLatch>> workers;
    for (int i = 0; i < kWorkers; ++i)
        workers.push_back(std::make_unique<EtcdCountDownLatch>(&client, kPath));
    int exitCode = 0;
    int pending = 2; // opened() here, await() there

    // Both waits are over: the latch goes, then the waiter closes and the example ends.
    const auto oneDone = [&] {
        if (--pending > 0)
            return;
        QObject::connect(EtcdCountDownLatch::remove(&client, kPath), &EtcdReply::finished, &app,
            [&waiter, &exitCode](const EtcdStatus &s) {
                out() << (s.isOk() ? "removed " : "could not remove ") << kPath << Qt::endl;
                if (!s.isOk())
                    exitCode = 1;
                waiter.close();
            });
    };
    QObject::connect(&waiter, &EtcdRecipe::closed, &app, [&exitCode] {
        out() << "closed" << Qt::endl;
        QCoreApplication::exit(exitCode);
    });
    QObject::connect(&waiter, &EtcdCountDownLatch::countChanged, &app, [](qint64 count) {
        if (count >= 0)
            out() << "waiter sees count " << count << Qt::endl;
    });
    QObject::connect(&waiter, &EtcdCountDownLatch::opened, &app, [&] {
        out() << "opened (signal) at count " << waiter.count() << Qt::endl;
        oneDone();
    });

    // await() blocks, so it belongs on a worker thread (the latch's own thread is refused).
    // It starts following the latch by itself; true once open, false on timeout or close().
    std::jthread blocked([&] {
        QElapsedTimer waited;
        waited.start();
        const bool open = waiter.await(10s);
        const qint64 ms = waited.elapsed();
        QMetaObject::invokeMethod(
            &app,
            [&, open, ms] {
                out() << "await() on a worker thread returned " << (open ? "true" : "false")
                      << " after " << ms << " ms" << Qt::endl;
                if (!open)
                    exitCode = 1;
                oneDone();
            },
            Qt::QueuedConnection);
    });

    const auto countDownLater = [&](int i) {
        QTimer::singleShot((i + 1) * 200ms, workers[i].get(), [&, i] {
            EtcdValueReply *r = workers[i]->countDown();
            QObject::connect(r, &EtcdReply::finished, &app, [&, r, i](const EtcdStatus &status) {
                if (!status.isOk()) {
                    out() << "worker " << i + 1 << ": " << status.toString() << Qt::endl;
                    exitCode = 1;
                    return waiter.close();
                }
                out() << "worker " << i + 1 << " counted down: " << r->value() << " left"
                      << Qt::endl;
            });
        });
    };
    EtcdValueReply *created = waiter.create(kWorkers);
    QObject::connect(created, &EtcdReply::finished, &app, [&, created](const EtcdStatus &status) {
        if (!status.isOk()) {
            out() << "cannot create " << kPath << ": " << status.toString() << Qt::endl;
            exitCode = 1;
            return waiter.close();
        }
        out() << (created->written() ? "created " : "found ") << kPath << " with count "
              << created->value() << Qt::endl;
        for (int i = 0; i < kWorkers; ++i)
            countDownLater(i);
    });
    return QCoreApplication::exec();
}
