// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
// Leadership as a role: a leader latch holds leadership from the moment it wins until
// close(). A worker thread waits for it the blocking way, await() with a timeout, while the
// main thread hears the same news as signals. The latch leads for a second, then closes: it
// hands off and revokes its leases.
// Usage: etcdqt-example-latch [http://127.0.0.1:2379]
#include "exampleutil.h"

#include <EtcdQt/EtcdQt>

#include <QtCore/qcoreapplication.h>
#include <QtCore/qelapsedtimer.h>
#include <QtCore/qtimer.h>

#include <thread>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    EtcdClient client({endpointArgument(argc, argv)});
    client.connectToEndpoints();
    EtcdLeaderLatch latch(
        &client, "/example/election/latch"_ba, {.ttl = 5s, .clientId = u"example-latch"_s});
    int exitCode = 0;

    QObject::connect(&latch, &EtcdLeaderLatch::elected, &app, [&latch] {
        out() << "elected (signal): fencing token " << latch.fencingToken().revision << Qt::endl;
    });
    QObject::connect(&latch, &EtcdLeaderLatch::leadershipLost, &app,
        [](const EtcdStatus &why) { out() << "leadership lost: " << why.toString() << Qt::endl; });
    QObject::connect(&latch, &EtcdLeaderLatch::relinquished, &app, [&latch] {
        out() << "relinquished (signal): hasLeadership is "
              << (latch.hasLeadership() ? "true" : "false") << Qt::endl;
    });
    // Quit once etcd answered the revoke: nothing is left to run out a TTL.
    QObject::connect(&latch, &EtcdRecipe::closed, &app, [&exitCode] {
        out() << "closed" << Qt::endl;
        QCoreApplication::exit(exitCode);
    });

    // await() blocks, so it belongs on a worker thread (the latch's own thread is refused).
    // It returns true once this node leads, false on timeout or when the latch is closed.
    std::jthread worker([&app, &latch, &exitCode] {
        QElapsedTimer waited;
        waited.start();
        const bool leading = latch.await(5s);
        const qint64 ms = waited.elapsed();
        QMetaObject::invokeMethod(
            &app,
            [&latch, &exitCode, leading, ms] {
                if (!leading) {
                    out() << "await() gave up after " << ms << " ms" << Qt::endl;
                    exitCode = 1;
                    return latch.close();
                }
                out() << "await() on a worker thread: leading after " << ms
                      << " ms; holding for 1 s" << Qt::endl;
                QTimer::singleShot(1s, &latch, &EtcdLeaderLatch::close);
            },
            Qt::QueuedConnection);
    });
    out() << "joining the election as " << latch.clientId() << Qt::endl;
    latch.start();
    return QCoreApplication::exec();
}
