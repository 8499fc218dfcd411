// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
// A distributed read-write lock: many readers at once, or one writer. Three readers, each
// with its own EtcdReadWriteLock on one path (as three processes would have), hold the read
// lock together; a writer asks for the write lock, waits until they are done, and writes a
// new version of a document with commitGuarded(). Then it downgrades: it takes the read lock
// while still writing, and its next unlock() ends the writing but keeps the reading, as the
// hold counts and etcd's keys show. Finally every lock closes, revoking its leases.
// Usage: etcdqt-example-rwlock [http://127.0.0.1:2379]
#include "exampleutil.h"

#include <EtcdQt/EtcdQt>

#include <QtCore/qcoreapplication.h>
#include <QtCore/qelapsedtimer.h>

#include <atomic>
#include <future>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace {
const QByteArray kLockPath = "/example/locks/rwlock"_ba;
const QByteArray kDocumentKey = "/example/locks/document"_ba;
constexpr int kReaders = 3;

// Requests are made in the client's thread: a worker posts its read there and waits for it.
QByteArray readDocument(EtcdClient *client)
{
    auto answer = std::make_shared<std::promise<QByteArray>>();
    std::future<QByteArray> value = answer->get_future();
    QMetaObject::invokeMethod(client, [client, answer] {
        EtcdRangeReply *read = client->get(kDocumentKey);
        QObject::connect(read, &EtcdReply::finished, client, [read, answer](const EtcdStatus &s) {
            const QList<EtcdKeyValue> kvs = read->keyValues();
            answer->set_value(s.isOk() && !kvs.isEmpty() ? kvs.first().value : "(unreadable)"_ba);
        });
    });
    return value.get();
}

// Polls `condition` for at most `timeout`; the workers use it to meet at known points.
template <typename Condition>
bool waitUntil(Condition condition, std::chrono::milliseconds timeout)
{
    const auto giveUp = std::chrono::steady_clock::now() + timeout;
    while (!condition()) {
        if (std::chrono::steady_clock::now() > giveUp)
            return false;
        std::this_thread::sleep_for(5ms);
    }
    return true;
}

struct Shared
{
    std::atomic<int> reading {0}; // readers holding the read lock now
    std::atomic<bool> writerAsked {false};
};

bool read(int reader, EtcdReadWriteLock &lock, Shared &shared)
{
    if (!lock.lockForRead())
        return false;
    ++shared.reading;
    say(u"reader %1 holds the read lock and reads \"%2\""_s.arg(reader).arg(
        QString::fromUtf8(readDocument(lock.client()))));
    // Stay until the writer has asked, so that it has to wait for us.
    const bool met = waitUntil([&shared] { return shared.writerAsked.load(); }, 5s);
    std::this_thread::sleep_for(300ms);
    --shared.reading;
    say(u"reader %1 unlocks"_s.arg(reader));
    return lock.unlock() && met;
}

bool write(EtcdReadWriteLock &lock, Shared &shared)
{
    const auto holds = [&lock] {
        return u"write holds %1, read holds %2"_s.arg(lock.writeHoldCount())
            .arg(lock.readHoldCount());
    };
    if (!waitUntil([&shared] { return shared.reading == kReaders; }, 5s))
        return false;
    say(u"%1 readers hold the read lock at once; the writer asks for the write lock"_s.arg(
        kReaders));
    shared.writerAsked = true;
    QElapsedTimer waited;
    waited.start();
    if (!lock.lockForWrite())
        return false;
    say(u"writer holds the write lock after %1 ms; readers holding now: %2"_s.arg(waited.elapsed())
            .arg(shared.reading.load()));
    EtcdTxn txn;
    txn.success = {EtcdTxnOp::put(kDocumentKey, "version 2"_ba)};
    if (!lock.commitGuarded(txn, 5s))
        return false;
    say(u"writer wrote \"version 2\""_s);

    // A downgrade: the read lock is granted at once to the thread that writes.
    if (!lock.lockForRead())
        return false;
    say(u"writer took the read lock too (%1)"_s.arg(holds()));
    if (!lock.unlock()) // the write hold goes first
        return false;
    say(u"downgraded: unlock() ended the writing and kept the reading (%1)"_s.arg(holds()));
    say(u"in etcd: write locked %1, read locked %2; the writer still reads \"%3\""_s
            .arg(lock.isWriteLocked() ? u"yes"_s : u"no"_s)
            .arg(lock.isReadLocked() ? u"yes"_s : u"no"_s)
            .arg(QString::fromUtf8(readDocument(lock.client()))));
    const bool ok = lock.readHoldCount() == 1 && lock.writeHoldCount() == 0;
    return lock.unlock() && ok;
}
} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    EtcdClient client({endpointArgument(argc, argv)});
    client.connectToEndpoints();
    std::vector<std::unique_ptr<EtcdReadWriteLock>> locks;
    for (int i = 1; i <= kReaders; ++i) {
        locks.push_back(std::make_unique<EtcdReadWriteLock>(
            &client, kLockPath, EtcdReadWriteLockOptions {.clientId = u"reader-%1"_s.arg(i)}));
    }
    locks.push_back(std::make_unique<EtcdReadWriteLock>(
        &client, kLockPath, EtcdReadWriteLockOptions {.clientId = u"writer"_s}));
    Shared shared;
    int exitCode = 0;
    int workersDone = 0;
    int closedLocks = 0;

    const auto closeAll = [&locks] {
        for (const auto &lock : locks)
            lock->close();
    };
    const auto workerDone = [&](bool ok) {
        if (!ok)
            exitCode = 1;
        if (++workersDone == int(locks.size()))
            closeAll();
    };
    // Quit once etcd answered the revokes: nothing is left to run out a TTL.
    for (const auto &lock : locks) {
        QObject::connect(lock.get(), &EtcdRecipe::closed, &app, [&] {
            if (++closedLocks == int(locks.size())) {
                say(u"closed"_s);
                QCoreApplication::exit(exitCode);
            }
        });
        QObject::connect(lock.get(), &EtcdReadWriteLock::lockLost, &app,
            [](EtcdReadWriteLock::Mode, const EtcdStatus &why) {
                say(u"lock lost: "_s + why.toString());
            });
    }

    const auto report = [&app, &workerDone](bool ok) {
        QMetaObject::invokeMethod(
            &app, [&workerDone, ok] { workerDone(ok); }, Qt::QueuedConnection);
    };
    // The blocking calls belong on worker threads (the locks' own thread is refused).
    std::vector<std::jthread> workers;
    EtcdPutReply *reset = client.put(kDocumentKey, "version 1"_ba);
    QObject::connect(reset, &EtcdReply::finished, &app, [&](const EtcdStatus &s) {
        if (!s.isOk()) {
            say(u"cannot write the document: "_s + s.toString());
            exitCode = 1;
            return closeAll();
        }
        for (int i = 0; i < kReaders; ++i) {
            EtcdReadWriteLock *lock = locks[i].get();
            workers.emplace_back(
                [&shared, &report, lock, reader = i + 1] { report(read(reader, *lock, shared)); });
        }
        EtcdReadWriteLock *writerLock = locks.back().get();
        workers.emplace_back(
            [&shared, &report, writerLock] { report(write(*writerLock, shared)); });
    });
    return QCoreApplication::exec();
}
