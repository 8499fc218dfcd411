// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// What the lock tests share: calls from worker threads into a client's thread, a look at
// the queue of entries under a prefix, and a worker thread the test thread can await.
#pragma once

#include "electionutil.h"
#include "handover_p.h"

#include <QtCore/qelapsedtimer.h>
#include <QtCore/qeventloop.h>
#include <QtCore/qtimer.h>

#include <atomic>
#include <future>
#include <optional>
#include <semaphore>
#include <thread>

namespace {
constexpr int kLockWaitMs = 5 * 2000; // five 2 s TTLs: generous on a loaded 2-core machine

// From a worker thread: runs `call(done)` in `client`'s thread and waits for done(value).
template <typename T, typename Call>
std::optional<T> inClientThread(EtcdClient *client, Call call)
{
    auto promise = std::make_shared<std::promise<T>>();
    std::future<T> future = promise->get_future();
    Etcd::Internal::postQueued(
        client, [promise, call] { call([promise](T v) { promise->set_value(std::move(v)); }); });
    if (future.wait_for(std::chrono::milliseconds(kLockWaitMs)) != std::future_status::ready)
        return std::nullopt;
    return future.get();
}

// A worker's read of `key` (empty when absent); nullopt when etcd did not answer.
inline std::optional<QByteArray> remoteGet(EtcdClient *client, const QByteArray &key)
{
    auto v = inClientThread<std::optional<QByteArray>>(client, [client, key](auto done) {
        EtcdRangeReply *r = client->get(key);
        QObject::connect(r, &EtcdReply::finished, client, [r, done](const EtcdStatus &s) {
            if (!s.isOk())
                return done(std::nullopt);
            done(r->keyValues().isEmpty() ? QByteArray() : r->keyValues().first().value);
        });
    });
    return v ? *v : std::nullopt;
}

inline bool remotePut(EtcdClient *client, const QByteArray &key, const QByteArray &value)
{
    return inClientThread<bool>(client, [client, key, value](auto done) {
        EtcdPutReply *r = client->put(key, value);
        QObject::connect(
            r, &EtcdReply::finished, client, [done](const EtcdStatus &s) { done(s.isOk()); });
    }).value_or(false);
}

// The keys under "<path>/", by create revision.
inline QList<EtcdKeyValue> queueOf(EtcdClient &client, const QByteArray &path)
{
    EtcdRangeOptions o;
    o.prefix = true;
    o.sortTarget = Etcd::SortTarget::CreateRevision;
    o.sortOrder = Etcd::SortOrder::Ascending;
    const auto r = await(client.get(path + '/', o));
    return r.status.isOk() ? r->keyValues() : QList<EtcdKeyValue>(99); // no size a test expects
}

// A worker thread that the test thread awaits with its event loop running: the mutex lives
// in the test thread and answers the worker's calls there, so a bare join() would stall both.
class Worker
{
public:
    template <typename F>
    explicit Worker(F f)
        : m_thread([this, f = std::move(f)]() mutable {
              f();
              m_done = true;
          })
    { }
    ~Worker()
    {
        if (!finish() && m_thread.joinable())
            m_thread.join(); // a hang here is a failed test; ctest's timeout reports it
    }
    Worker(const Worker &) = delete;
    Worker &operator=(const Worker &) = delete;

    bool finish(int timeoutMs = 2 * kLockWaitMs)
    {
        // A real event loop (QTest::qWaitFor sleeps 10 ms between turns, which would put
        // that on every hop between the worker and the mutex's thread).
        QEventLoop loop;
        QTimer poll;
        QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
            if (m_done)
                loop.quit();
        });
        QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
        poll.start(1);
        if (!m_done)
            loop.exec();
        if (m_done && m_thread.joinable())
            m_thread.join();
        return m_done;
    }

private:
    std::atomic<bool> m_done {false};
    std::thread m_thread;
};
// What a worker's unlock() did while the lock's own thread was busy (unlockWhileOwnerBusy()).
struct BusyOwnerUnlock
{
    bool held = false; // the worker's lock took it
    bool finished = false; // the worker returned
    int unlocked = -1; // what its unlock returned
    qint64 unlockMs = -1; // how long that took; -1: it had not returned when the spell ended

    // Empty when the worker held, returned `expected` and did so within `limitMs`.
    [[nodiscard]] QString fault(int expected, qint64 limitMs) const
    {
        if (!held || !finished)
            return QStringLiteral("the worker did not hold, or did not return");
        if (unlocked != expected)
            return QStringLiteral("unlock returned %1, not %2").arg(unlocked).arg(expected);
        if (unlockMs < 0 || unlockMs >= limitMs)
            return QStringLiteral("unlock took %1 ms while the owner thread was busy")
                .arg(unlockMs);
        return {};
    }
};

// In a worker, `lock` takes the lock; once it holds, this (the lock's own) thread runs no
// event for `busy`, as a busy GUI thread, while the worker runs `unlock`.
template <typename Lock, typename Unlock>
BusyOwnerUnlock unlockWhileOwnerBusy(Lock lock, Unlock unlock, std::chrono::milliseconds busy)
{
    BusyOwnerUnlock r;
    std::binary_semaphore goOn(0);
    std::atomic<int> held = -1, unlocked = -1;
    std::atomic<qint64> unlockMs = -1;
    Worker holder([&] {
        held = lock() ? 1 : 0;
        goOn.acquire();
        QElapsedTimer t;
        t.start();
        unlocked = unlock();
        unlockMs = t.elapsed();
    });
    r.held = QTest::qWaitFor([&] { return held.load() != -1; }, kLockWaitMs) && held.load() == 1;
    goOn.release();
    std::this_thread::sleep_for(busy);
    r.unlockMs = unlockMs.load();
    r.finished = holder.finish();
    r.unlocked = unlocked.load();
    return r;
}

// What a worker's lock() did while the lock's own thread was busy (lockWhileOwnerBusy()).
struct BusyOwnerLock
{
    bool primed = false; // the worker's first lock() and unlock() went through
    int held = -1; // what its lock() returned within the spell; -1: it had not returned
    qint64 lockMs = -1; // how long that took
    bool finished = false; // the worker returned
    int unlocked = -1; // what its unlock(), after the spell, returned

    // Empty when the worker took the lock within `limitMs` and released it after.
    [[nodiscard]] QString fault(qint64 limitMs) const
    {
        if (!primed)
            return QStringLiteral("the worker's first lock and unlock failed");
        if (held != 1 || lockMs < 0 || lockMs >= limitMs)
            return QStringLiteral("lock() returned %1 after %2 ms while the owner thread was busy")
                .arg(held)
                .arg(lockMs);
        if (!finished || unlocked != 1)
            return QStringLiteral("the worker's unlock returned %1").arg(unlocked);
        return {};
    }
};

// In a worker, `cycle` takes and releases the lock once (the lock's thread has a spare lease
// ready once `settled` holds, which this thread awaits with its event loop running); then this
// (the lock's own) thread runs no event for `busy`, as a busy GUI thread, while the worker runs
// `lock`; after the spell the worker runs `unlock`.
template <typename Cycle, typename Settled, typename Lock, typename Unlock>
BusyOwnerLock lockWhileOwnerBusy(
    Cycle cycle, Settled settled, Lock lock, Unlock unlock, std::chrono::milliseconds busy)
{
    BusyOwnerLock r;
    std::binary_semaphore go(0), after(0);
    std::atomic<int> primed = -1, held = -1, unlocked = -1;
    std::atomic<qint64> lockMs = -1;
    Worker worker([&] {
        primed = cycle() ? 1 : 0;
        go.acquire();
        QElapsedTimer t;
        t.start();
        const bool took = lock();
        lockMs = t.elapsed();
        held = took ? 1 : 0;
        after.acquire();
        unlocked = unlock();
    });
    r.primed = QTest::qWaitFor([&] { return primed.load() != -1; }, kLockWaitMs)
        && primed.load() == 1 && QTest::qWaitFor(settled, kLockWaitMs);
    QElapsedTimer spell;
    spell.start();
    go.release();
    while (held.load() == -1 && spell.elapsed() < busy.count())
        std::this_thread::sleep_for(std::chrono::milliseconds(1)); // no event runs here
    r.held = held.load();
    r.lockMs = r.held == -1 ? -1 : lockMs.load();
    std::this_thread::sleep_for(
        std::max(busy - std::chrono::milliseconds(spell.elapsed()), std::chrono::milliseconds(0)));
    after.release();
    r.finished = worker.finish();
    r.unlocked = unlocked.load();
    return r;
}

// Closes every recipe and waits (the event loop running) until each said closed(): their
// revokes have reached etcd. False when one did not within the wait.
template <typename... Recipes>
bool closeAndWait(Recipes *...recipes)
{
    int closed = 0;
    QObject context;
    (QObject::connect(recipes, &EtcdRecipe::closed, &context, [&closed] { ++closed; }), ...);
    (recipes->close(), ...);
    return QTest::qWaitFor([&] { return closed == int(sizeof...(recipes)); }, kLockWaitMs);
}
} // namespace
