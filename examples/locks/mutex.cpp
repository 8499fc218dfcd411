// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
// A distributed mutex guarding a read-modify-write. Two workers, each with its own EtcdMutex
// on one path (as two processes would have), take turns with the blocking lock()/unlock(),
// in the order they queue in etcd (the very first lock() of each also grants its lease, so
// the first turns may go to whichever is quicker). Under the lock each reads a counter key,
// adds one, and writes it back with commitGuarded(), which commits only while the hold lasts.
// Six increments end as 6: none was lost. Then both mutexes close, revoking their leases.
// Usage: etcdqt-example-mutex [http://127.0.0.1:2379]
#include "exampleutil.h"

#include <EtcdQt/EtcdQt>

#include <QtCore/qcoreapplication.h>
#include <QtCore/qelapsedtimer.h>

#include <future>
#include <mutex>
#include <thread>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace {
const QByteArray kLockPath = "/example/locks/mutex"_ba;
const QByteArray kCounterKey = "/example/locks/counter"_ba;
constexpr int kRounds = 3;

// Requests are made in the client's thread: a worker posts its read there and waits for it.
std::optional<int> readCounter(EtcdClient *client)
{
    auto answer = std::make_shared<std::promise<std::optional<int>>>();
    std::future<std::optional<int>> value = answer->get_future();
    QMetaObject::invokeMethod(client, [client, answer] {
        EtcdRangeReply *read = client->get(kCounterKey);
        QObject::connect(read, &EtcdReply::finished, client, [read, answer](const EtcdStatus &s) {
            const QList<EtcdKeyValue> kvs = read->keyValues();
            answer->set_value(s.isOk() && !kvs.isEmpty()
                    ? std::optional<int>(kvs.first().value.toInt())
                    : std::nullopt);
        });
    });
    return value.get();
}

// One worker's turns. Returns false when a step failed.
bool takeTurns(int worker, EtcdMutex &mutex, const QElapsedTimer &clock)
{
    const auto stamp = [&clock] { return u"+%1 ms"_s.arg(clock.elapsed(), 4); };
    for (int round = 1; round <= kRounds; ++round) {
        if (!mutex.lock())
            return false;
        const qint64 token = mutex.fencingToken().revision;
        const std::optional<int> value = readCounter(mutex.client());
        if (!value)
            return false;
        EtcdTxn txn;
        txn.success = {EtcdTxnOp::put(kCounterKey, QByteArray::number(*value + 1))};
        EtcdStatus why;
        if (!mutex.commitGuarded(txn, 5s, &why)) {
            say(u"worker %1: write refused: %2"_s.arg(worker).arg(why.toString()));
            return false;
        }
        say(u"%1  worker %2 holds the lock (fencing token %3): counter %4 -> %5"_s.arg(stamp())
                .arg(worker)
                .arg(token)
                .arg(*value)
                .arg(*value + 1));
        std::this_thread::sleep_for(100ms); // the other worker waits in etcd meanwhile
        say(u"%1  worker %2 unlocks"_s.arg(stamp()).arg(worker));
        if (!mutex.unlock())
            return false;
    }
    return true;
}
} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    EtcdClient client({endpointArgument(argc, argv)});
    client.connectToEndpoints();
    EtcdMutex first(&client, kLockPath);
    EtcdMutex second(&client, kLockPath);
    QElapsedTimer clock;
    int exitCode = 0;
    int workersDone = 0;
    int closedMutexes = 0;

    // Once both workers are done: read the counter back, then close both mutexes.
    const auto workerDone = [&](bool ok) {
        if (!ok)
            exitCode = 1;
        if (++workersDone < 2)
            return;
        EtcdRangeReply *read = client.get(kCounterKey);
        QObject::connect(read, &EtcdReply::finished, &app, [&, read] {
            const auto kvs = read->keyValues();
            const int counter = kvs.isEmpty() ? -1 : kvs.first().value.toInt();
            say(u"counter = %1 after %2 increments"_s.arg(counter).arg(2 * kRounds));
            if (counter != 2 * kRounds)
                exitCode = 1;
            first.close();
            second.close();
        });
    };
    // Quit once etcd answered the revokes: nothing is left to run out a TTL.
    for (EtcdMutex *mutex : {&first, &second}) {
        QObject::connect(mutex, &EtcdRecipe::closed, &app, [&] {
            if (++closedMutexes == 2) {
                say(u"closed"_s);
                QCoreApplication::exit(exitCode);
            }
        });
        QObject::connect(mutex, &EtcdMutex::lockLost, &app,
            [](const EtcdStatus &why) { say(u"lock lost: "_s + why.toString()); });
    }

    // lock() blocks, so it belongs on worker threads (the mutexes' own thread is refused).
    std::jthread workers[2];
    EtcdPutReply *reset = client.put(kCounterKey, "0"_ba);
    QObject::connect(reset, &EtcdReply::finished, &app, [&](const EtcdStatus &s) {
        if (!s.isOk()) {
            say(u"cannot reset the counter: "_s + s.toString());
            exitCode = 1;
            first.close();
            return second.close();
        }
        say(u"counter reset to 0; two workers take turns on %1"_s.arg(
            QString::fromUtf8(kLockPath)));
        clock.start();
        EtcdMutex *mutexes[] = {&first, &second};
        for (int i = 0; i < 2; ++i) {
            workers[i] = std::jthread([&app, &clock, &workerDone, mutex = mutexes[i], n = i + 1] {
                const bool ok = takeTurns(n, *mutex, clock);
                QMetaObject::invokeMethod(
                    &app, [&workerDone, ok] { workerDone(ok); }, Qt::QueuedConnection);
            });
        }
    });
    return QCoreApplication::exec();
}
