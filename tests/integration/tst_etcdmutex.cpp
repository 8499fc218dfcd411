// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// EtcdMutex against a real etcd: etcd-recipes' DistributedMutexTests, ThreadedMutexTests,
// MutexTryLockTests and MutexLockLostTests, plus our own: etcd's golden key layout, live
// contention with `etcdctl lock`, fencing from a worker, no lease left behind.
#include "leaseledger.h"
#include "lockutil.h"

#include <etcdtestserver.h>

#include <QtCore/qprocess.h>
#include <QtCore/qregularexpression.h>
#include <QtCore/qscopeguard.h>
#include <QtCore/qstandardpaths.h>
#include <QtCore/qtemporarydir.h>
#include <QtCore/qthread.h>
#include <QtCore/qtimer.h>

#include <algorithm>
#include <csignal>
#include <future>
#include <latch>
#include <mutex>
#include <optional>
#include <random>
#include <semaphore>
#include <thread>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace {
constexpr auto kTtl = 2s;
constexpr int kWaitMs = 5 * 2000; // five TTLs: generous on a loaded 2-core machine
constexpr auto kWait = std::chrono::milliseconds(kWaitMs);

EtcdMutexOptions withTtl(std::chrono::seconds ttl = kTtl)
{
    EtcdMutexOptions o;
    o.ttl = ttl;
    return o;
}

// `perMutex` worker threads on each of `mutexes`, each running body(mutex) once.
template <typename Body>
std::vector<std::unique_ptr<Worker>> workersOn(
    std::initializer_list<EtcdMutex *> mutexes, int perMutex, Body body)
{
    std::vector<std::unique_ptr<Worker>> threads;
    for (EtcdMutex *m : mutexes) {
        for (int t = 0; t < perMutex; ++t)
            threads.push_back(std::make_unique<Worker>([body, m] { body(m); }));
    }
    return threads;
}
} // namespace

class tst_EtcdMutex : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void keyLayoutIsEtcdsOwn();
    void mutualExclusionAcrossThreadsAndInstances();
    void revokedWorkerHoldsAreFenced();
    void waitersAcquireInFifoOrder();
    void reentrantPerThread();
    void tryLockTimesOutAndLeavesNoKey();
    void tryLockTakesALockFreedInTime();
    void unlockAfterLossReturnsFalse();
    void workerUnlockDoesNotWaitForABusyOwnerThread();
    void workerLockDoesNotWaitForABusyOwnerThread();
    void workerHoldLostBeforeTheOwnerThreadHeardOfIt();
    void workerHoldDeletedWhileOwnerBusyEndsAtOnce();
    void destroyedWhileAWorkerWaitsReturnsFalse();
    void destroyedWhileAWorkersLockIsInFlightReturnsFalse();
    void interruptOnLockLoss();
    void waiterWhoseLeaseDiesQueuesAgain();
    void closeReleasesEveryHold();
    void closeLeavesNoLease();
    void closeWhileGrantingLeavesNoLease();
    void commitGuardedFromTheHolder();
    void unansweredCommitEndsAtItsTimeoutAndTheNextIsAnswered();
    void blockingFormsRefuseTheOwnerThread();
    void contendsWithEtcdctlLock();
    void handOffNeedsNoCatchUpLoop();

private:
    EtcdTestServer m_server;
    LeaseLedger m_leases; // issue 22 item 7: no test leaves a lease
    std::unique_ptr<EtcdClient> m_client;
};

void tst_EtcdMutex::initTestCase()
{
    ETCDQT_START_OR_SKIP(m_server);
    m_client = connectedClient(m_server.clientUrl());
}

void tst_EtcdMutex::init()
{
    QTest::failOnWarning(QRegularExpression(u"unlock\\(\\) by a thread"_s));
    m_leases.begin(m_server);
}

void tst_EtcdMutex::cleanup()
{
    VERIFY_NO_LEASE_LEFT(m_leases);
}

// etcd's concurrency.Mutex layout, byte for byte: "<path>/<lease id in lowercase hex>",
// empty value, on the hold's own lease of the configured TTL; the token names that key.
void tst_EtcdMutex::keyLayoutIsEtcdsOwn()
{
    EtcdMutex mutex(m_client.get(), "/mx/golden", withTtl(7s));
    QSignalSpy acquired(&mutex, &EtcdMutex::acquired);
    QVERIFY(mutex.acquire());
    QVERIFY(acquired.wait(kWaitMs));
    const EtcdFencingToken token = mutex.fencingToken();
    QVERIFY(token.isValid());
    const QList<EtcdKeyValue> queue = queueOf(*m_client, "/mx/golden");
    QCOMPARE(queue.size(), 1);
    QCOMPARE(queue.first().key, "/mx/golden/"_ba + QByteArray::number(token.leaseId, 16));
    QVERIFY(QRegularExpression(u"^/mx/golden/[0-9a-f]+$"_s)
                .match(QString::fromLatin1(queue.first().key))
                .hasMatch());
    QCOMPARE(queue.first().value, QByteArray());
    QCOMPARE(queue.first().lease, token.leaseId);
    QCOMPARE(queue.first().createRevision, token.revision);
    QCOMPARE(token.key, queue.first().key);
    const auto ttl = await(m_client->leaseTimeToLive(token.leaseId));
    QVERIFY_OK(ttl.status);
    QCOMPARE(ttl->grantedTtl().count(), 7);
    std::atomic<int> locked = -1;
    Worker probe([&] { locked = mutex.isLocked() ? 1 : 0; });
    QTRY_COMPARE_WITH_TIMEOUT(locked.load(), 1, kWaitMs);
    QCOMPARE(mutex.holdCount(), 1);
    QVERIFY(mutex.release());
    QTRY_COMPARE_WITH_TIMEOUT(queueOf(*m_client, "/mx/golden").size(), 0, kWaitMs);
    QCOMPARE(mutex.holdCount(), 0);
    QVERIFY(!mutex.fencingToken().isValid());
}

// Two instances (two clients: two processes' worth), two threads each; every thread adds
// one to an etcd counter M times by read, then write, inside the lock. Nothing is lost and
// no two bodies ever overlap.
void tst_EtcdMutex::mutualExclusionAcrossThreadsAndInstances()
{
    constexpr int kThreadsPerMutex = 2;
    constexpr int kIncrements = 15;
    const QByteArray counter = "/mx/counter-value";
    QVERIFY_OK(await(m_client->put(counter, "0")).status);
    std::unique_ptr<EtcdClient> clients[]
        = {connectedClient(m_server.clientUrl()), connectedClient(m_server.clientUrl())};
    EtcdMutex a(clients[0].get(), "/mx/counter", withTtl());
    EtcdMutex b(clients[1].get(), "/mx/counter", withTtl());
    Overlap overlap;
    std::atomic<int> done = 0, failures = 0;
    auto threads = workersOn({&a, &b}, kThreadsPerMutex, [&](EtcdMutex *m) {
        for (int i = 0; i < kIncrements; ++i) {
            if (!m->lock()) {
                ++failures;
                break;
            }
            overlap.enter();
            const auto value = remoteGet(m->client(), counter);
            if (!value || !remotePut(m->client(), counter, QByteArray::number(value->toInt() + 1)))
                ++failures;
            overlap.leave();
            if (!m->unlock())
                ++failures;
        }
        ++done;
    });
    QTRY_COMPARE_WITH_TIMEOUT(done.load(), 2 * kThreadsPerMutex, 6 * kWaitMs);
    threads.clear();
    QCOMPARE(failures.load(), 0);
    QCOMPARE(overlap.most.load(), 1);
    QCOMPARE(keyValueOf(*m_client, counter).value,
        QByteArray::number(2 * kThreadsPerMutex * kIncrements));
    QCOMPARE(queueOf(*m_client, "/mx/counter").size(), 0);
    QSignalSpy closedA(&a, &EtcdRecipe::closed), closedB(&b, &EtcdRecipe::closed);
    a.close();
    b.close(); // before the clients go: their revokes must reach etcd
    QTRY_COMPARE_WITH_TIMEOUT(closedA.count() + closedB.count(), 2, kWaitMs);
}

// The same contention, with holds taken from the workers' own threads (the lock's spare lease),
// while this thread revokes the lease of whoever holds, out of band, every 100-200 ms: a lost
// hold's guarded write is refused, so the counter equals the writes etcd accepted, and every
// worker goes on locking after its losses.
void tst_EtcdMutex::revokedWorkerHoldsAreFenced()
{
    constexpr int kThreadsPerMutex = 2;
    constexpr int kIncrements = 15;
    const QByteArray counter = "/mx/fenced-value";
    QVERIFY_OK(await(m_client->put(counter, "0")).status);
    std::unique_ptr<EtcdClient> clients[]
        = {connectedClient(m_server.clientUrl()), connectedClient(m_server.clientUrl())};
    EtcdMutex a(clients[0].get(), "/mx/fenced", withTtl());
    EtcdMutex b(clients[1].get(), "/mx/fenced", withTtl());
    std::atomic<int> done = 0, committed = 0, refused = 0, failures = 0;
    auto threads = workersOn({&a, &b}, kThreadsPerMutex, [&](EtcdMutex *m) {
        for (int i = 0; i < kIncrements;) {
            if (!m->lock()) {
                ++failures;
                break;
            }
            const auto value = remoteGet(m->client(), counter);
            EtcdTxn write;
            write.success
                = {EtcdTxnOp::put(counter, QByteArray::number(value.value_or("0").toInt() + 1))};
            EtcdStatus why;
            if (value && m->commitGuarded(write, kWait, &why)) {
                ++committed;
                ++i;
            } else {
                ++refused; // lost meanwhile (or etcd did not answer): try again
            }
            m->unlock(); // false after a loss
        }
        ++done;
    });
    std::mt19937 rng(7);
    int revoked = 0;
    while (done.load() < 2 * kThreadsPerMutex && revoked < 200) {
        QTest::qWait(100 + int(rng() % 100)); // the mutexes answer in this thread meanwhile
        const QList<EtcdKeyValue> queue = queueOf(*m_client, "/mx/fenced");
        if (!queue.isEmpty() && queue.size() != 99
            && await(m_client->revokeLease(queue.first().lease)).status.isOk())
            ++revoked;
    }
    QTRY_COMPARE_WITH_TIMEOUT(done.load(), 2 * kThreadsPerMutex, 6 * kWaitMs);
    threads.clear();
    QCOMPARE(failures.load(), 0);
    QVERIFY(revoked > 0);
    QCOMPARE(committed.load(), 2 * kThreadsPerMutex * kIncrements);
    QCOMPARE(keyValueOf(*m_client, counter).value, QByteArray::number(committed.load()));
    QTRY_COMPARE_WITH_TIMEOUT(queueOf(*m_client, "/mx/fenced").size(), 0, kWaitMs);
    qInfo("%d holds revoked, %d writes refused", revoked, refused.load());
    QVERIFY(closeAndWait(&a, &b));
}

// A holder, then four waiters queued one after another (each visible in etcd before the
// next one starts): they get the lock in that order.
void tst_EtcdMutex::waitersAcquireInFifoOrder()
{
    constexpr int kWaiters = 4;
    auto other = connectedClient(m_server.clientUrl());
    EtcdMutex first(m_client.get(), "/mx/fifo", withTtl());
    EtcdMutex second(other.get(), "/mx/fifo", withTtl());
    std::binary_semaphore letGo(0);
    std::atomic<bool> holding = false;
    Worker holder([&] {
        holding = first.lock();
        letGo.acquire();
        first.unlock();
    });
    QTRY_VERIFY_WITH_TIMEOUT(holding.load(), kWaitMs);
    std::mutex orderMutex;
    QList<int> order;
    std::vector<std::unique_ptr<Worker>> waiters;
    for (int i = 0; i < kWaiters; ++i) {
        EtcdMutex *m = i % 2 ? &first : &second; // both instances, interleaved
        waiters.push_back(std::make_unique<Worker>([&, m, i] {
            if (!m->lock())
                return;
            {
                std::lock_guard lock(orderMutex);
                order.append(i);
            }
            m->unlock();
        }));
        QTRY_COMPARE_WITH_TIMEOUT(queueOf(*m_client, "/mx/fifo").size(), i + 2, kWaitMs);
    }
    letGo.release();
    for (auto &w : waiters)
        QVERIFY(w->finish());
    QVERIFY(holder.finish());
    QCOMPARE(order, QList<int>({0, 1, 2, 3}));
    QCOMPARE(queueOf(*m_client, "/mx/fifo").size(), 0);
}

// Nested holds by one thread are counted, cost no key and no RPC, and the lock goes only
// with the last unlock(); the owner thread's acquire()/release() nest the same way.
void tst_EtcdMutex::reentrantPerThread()
{
    EtcdMutex mutex(m_client.get(), "/mx/reentrant", withTtl());
    std::binary_semaphore step(0), checked(0);
    std::atomic<int> counts[5] = {-1, -1, -1, -1, -1};
    std::atomic<int> unlocked = 0;
    Worker worker([&] {
        mutex.lock();
        counts[0] = mutex.holdCount();
        mutex.lock();
        counts[1] = mutex.holdCount();
        counts[2] = mutex.tryLock(0ms) ? mutex.holdCount() : -2;
        step.release();
        checked.acquire();
        unlocked += mutex.unlock();
        unlocked += mutex.unlock();
        counts[3] = mutex.holdCount();
        step.release();
        checked.acquire();
        unlocked += mutex.unlock();
        counts[4] = mutex.holdCount();
    });
    QVERIFY(QTest::qWaitFor([&] { return step.try_acquire(); }, kWaitMs)); // once: it consumes
    QCOMPARE(counts[0].load(), 1);
    QCOMPARE(counts[1].load(), 2);
    QCOMPARE(counts[2].load(), 3);
    QCOMPARE(queueOf(*m_client, "/mx/reentrant").size(), 1); // one key for all three
    QCOMPARE(mutex.holdCount(), 0); // per thread: this one holds nothing
    checked.release();
    QVERIFY(QTest::qWaitFor([&] { return step.try_acquire(); }, kWaitMs)); // once: it consumes
    QCOMPARE(counts[3].load(), 1);
    QCOMPARE(queueOf(*m_client, "/mx/reentrant").size(), 1); // still held
    checked.release();
    QVERIFY(worker.finish());
    QCOMPARE(unlocked.load(), 3);
    QCOMPARE(counts[4].load(), 0);
    QCOMPARE(queueOf(*m_client, "/mx/reentrant").size(), 0);

    QSignalSpy acquired(&mutex, &EtcdMutex::acquired);
    QVERIFY(mutex.acquire());
    QVERIFY(acquired.wait(kWaitMs));
    QVERIFY(mutex.acquire());
    QTRY_COMPARE_WITH_TIMEOUT(acquired.count(), 2, kWaitMs);
    QCOMPARE(mutex.holdCount(), 2);
    QVERIFY(mutex.release());
    QCOMPARE(queueOf(*m_client, "/mx/reentrant").size(), 1);
    QVERIFY(mutex.release());
    QTRY_COMPARE_WITH_TIMEOUT(queueOf(*m_client, "/mx/reentrant").size(), 0, kWaitMs);
    QVERIFY(!mutex.release()); // nothing held
}

// While another instance holds, tryLock() gives up after its timeout (not much later) and
// etcd holds no key of it when it returns.
void tst_EtcdMutex::tryLockTimesOutAndLeavesNoKey()
{
    EtcdMutex holder(m_client.get(), "/mx/try", withTtl());
    QSignalSpy acquired(&holder, &EtcdMutex::acquired);
    QVERIFY(holder.acquire());
    QVERIFY(acquired.wait(kWaitMs));
    auto other = connectedClient(m_server.clientUrl());
    EtcdMutex contender(other.get(), "/mx/try", withTtl());
    for (const auto timeout : {0ms, 300ms}) {
        std::atomic<int> got = -1;
        std::atomic<qint64> tookMs = 0;
        Worker worker([&] {
            QElapsedTimer t;
            t.start();
            got = contender.tryLock(timeout) ? 1 : 0;
            tookMs = t.elapsed();
        });
        QTRY_VERIFY_WITH_TIMEOUT(got.load() != -1, kWaitMs);
        QCOMPARE(got.load(), 0);
        QVERIFY2(tookMs >= timeout.count(), qPrintable(QString::number(tookMs)));
        QVERIFY2(tookMs < timeout.count() + 1000, qPrintable(QString::number(tookMs)));
        const QList<EtcdKeyValue> queue = queueOf(*m_client, "/mx/try");
        QCOMPARE(queue.size(), 1); // the holder's only
        QCOMPARE(queue.first().key, holder.fencingToken().key);
    }
    QVERIFY(holder.release());
}

void tst_EtcdMutex::tryLockTakesALockFreedInTime()
{
    EtcdMutex mutex(m_client.get(), "/mx/tryfree", withTtl());
    std::atomic<int> free = -1;
    Worker first([&] {
        free = mutex.tryLock(0ms) ? 1 : 0; // a free lock: one attempt is enough
        mutex.unlock();
    });
    QTRY_VERIFY_WITH_TIMEOUT(free.load() != -1, kWaitMs);
    QCOMPARE(free.load(), 1);
    QVERIFY(first.finish());

    QSignalSpy acquired(&mutex, &EtcdMutex::acquired);
    QVERIFY(mutex.acquire());
    QVERIFY(acquired.wait(kWaitMs));
    std::atomic<int> got = -1;
    Worker waiter([&] {
        got = mutex.tryLock(kWait) ? 1 : 0;
        if (got)
            mutex.unlock();
    });
    QTRY_COMPARE_WITH_TIMEOUT(queueOf(*m_client, "/mx/tryfree").size(), 2, kWaitMs);
    QVERIFY(mutex.release());
    QTRY_COMPARE_WITH_TIMEOUT(got.load(), 1, kWaitMs);
}

// A worker's unlock() deletes its key from the worker's own thread (issue 21 item 1): while
// the mutex's own thread is busy for a TTL, it still returns as soon as etcd answered, and
// once that thread runs again the lock reads released, not lost.
void tst_EtcdMutex::workerUnlockDoesNotWaitForABusyOwnerThread()
{
    EtcdMutex mutex(m_client.get(), "/mx/busyowner", withTtl());
    QSignalSpy lost(&mutex, &EtcdMutex::lockLost);
    const BusyOwnerUnlock run = unlockWhileOwnerBusy(
        [&] { return mutex.lock(); }, [&] { return int(mutex.unlock()); }, kTtl);
    const QString fault = run.fault(1, kWaitMs / 10); // -1 ms: it waited for this thread
    QVERIFY2(fault.isEmpty(), qPrintable(fault));
    QTRY_COMPARE_WITH_TIMEOUT(queueOf(*m_client, "/mx/busyowner").size(), 0, kWaitMs);
    QCOMPARE(lost.count(), 0);
    QVERIFY(mutex.errors().isEmpty());
    // Released, not lost: the same mutex takes it again at once.
    QSignalSpy acquired(&mutex, &EtcdMutex::acquired);
    QVERIFY(mutex.acquire());
    QVERIFY(acquired.wait(kWaitMs));
    QVERIFY(mutex.release());
    QCOMPARE(lost.count(), 0);
}

// A worker's hold whose key goes while the lock's own thread is busy, before that thread heard
// of the hold at all (it learns of a worker's lock() only afterwards, in one message): the
// engine has noted the loss, so once that thread runs it reports lockLost() once, and the
// worker's unlock() says false.
void tst_EtcdMutex::workerHoldLostBeforeTheOwnerThreadHeardOfIt()
{
    EtcdMutex mutex(m_client.get(), "/mx/lostunheard", withTtl());
    QSignalSpy lost(&mutex, &EtcdMutex::lockLost);
    std::atomic<int> stage = 0; // 1 primed, 2 busy, 3 lost in the worker's eyes, 4 unlock
    std::atomic<bool> primed = false, held = false, deleted = false, seenLost = false;
    std::atomic<int> unlocked = -1;
    const auto awaitStage = [&stage](int s) {
        QDeadlineTimer deadline(2 * kWaitMs);
        while (stage.load() < s && !deadline.hasExpired())
            std::this_thread::sleep_for(1ms);
        return stage.load() >= s;
    };
    Worker worker([&] {
        primed = mutex.lock() && mutex.unlock(); // its lease is on the shelf now
        stage = 1;
        if (!awaitStage(2))
            return;
        held = mutex.lock(); // from the shelf: the busy thread is not asked
        const EtcdFencingToken token = mutex.fencingToken();
        EtcdTxn remove;
        remove.success = {EtcdTxnOp::remove(token.key)};
        deleted = mutex.commitGuarded(remove, std::chrono::milliseconds(kWaitMs));
        QDeadlineTimer deadline(kWaitMs);
        while (mutex.isLocked() && !deadline.hasExpired())
            std::this_thread::sleep_for(1ms);
        seenLost = !mutex.isLocked(); // the engine's verdict, in the worker's eyes
        stage = 3;
        if (awaitStage(4))
            unlocked = int(mutex.unlock());
    });
    QTRY_COMPARE_WITH_TIMEOUT(stage.load(), 1, kWaitMs);
    QVERIFY(primed);
    QTRY_VERIFY_WITH_TIMEOUT(queueOf(*m_client, "/mx/lostunheard").isEmpty(), kWaitMs);
    stage = 2;
    // Busy: no event of this thread runs until the worker saw its hold lost.
    QDeadlineTimer busy(3 * kWaitMs);
    while (stage.load() < 3 && !busy.hasExpired())
        std::this_thread::sleep_for(1ms);
    QVERIFY2(stage.load() == 3, "the worker did not get through while this thread was busy");
    QVERIFY(held);
    QVERIFY(deleted);
    QVERIFY(seenLost);
    QCOMPARE(lost.count(), 0); // this thread has not run yet
    QTRY_COMPARE_WITH_TIMEOUT(lost.count(), 1, kWaitMs);
    stage = 4;
    QVERIFY(worker.finish());
    QCOMPARE(unlocked.load(), 0);
    QCOMPARE(lost.count(), 1);
    QCOMPARE(mutex.connectionState(), EtcdRecipe::ConnectionState::Lost);
}

// The holder's lease is revoked behind its back: lockLost() once, state Lost, the reason
// kept, the holder's thread runs on (not interrupted by default), its unlock() says false,
// and another instance gets the lock.
// A worker's lock() sends its entry's transaction from its own thread, on the spare lease the
// lock's thread keeps ready (issue 21 item 1): with the lock's thread busy for a TTL, a free
// lock is taken as soon as etcd answered (on the old path it waited out the whole spell), and
// the lock's thread adopts the hold afterwards as its own. isLocked() reads from the worker too.
void tst_EtcdMutex::workerLockDoesNotWaitForABusyOwnerThread()
{
    EtcdMutex mutex(m_client.get(), "/mx/busylock", withTtl());
    QSignalSpy lost(&mutex, &EtcdMutex::lockLost);
    EtcdFencingToken token;
    const BusyOwnerLock run = lockWhileOwnerBusy([&] { return mutex.lock() && mutex.unlock(); },
        [&] { return queueOf(*m_client, "/mx/busylock").isEmpty(); },
        [&] {
            const bool ok = mutex.lock();
            token = mutex.fencingToken();
            return ok && mutex.isLocked(); // a read from this thread too
        },
        [&] { return int(mutex.unlock()); }, kTtl);
    const QString fault = run.fault(kWaitMs / 10);
    QVERIFY2(fault.isEmpty(), qPrintable(fault));
    QVERIFY(token.isValid());
    QTRY_COMPARE_WITH_TIMEOUT(queueOf(*m_client, "/mx/busylock").size(), 0, kWaitMs);
    QCOMPARE(lost.count(), 0);
    QVERIFY(mutex.errors().isEmpty());
    // Adopted, then released: the lock's thread takes it again at once.
    QSignalSpy acquired(&mutex, &EtcdMutex::acquired);
    QVERIFY(mutex.acquire());
    QVERIFY(acquired.wait(kWaitMs));
    QVERIFY(mutex.fencingToken().revision > token.revision);
    QVERIFY(mutex.release());
    QCOMPARE(lost.count(), 0);
}

// A hold a worker took on its own (the lock's thread busy, not yet told of it) is still watched
// from the start: its key deleted out of band ends it in the engine while the lock's thread is
// still busy, and lockLost() follows once that thread runs again.
void tst_EtcdMutex::workerHoldDeletedWhileOwnerBusyEndsAtOnce()
{
    if (QStandardPaths::findExecutable(u"etcdctl"_s).isEmpty())
        QSKIP("etcdctl not installed");
    EtcdMutex mutex(m_client.get(), "/mx/busylost", withTtl());
    QSignalSpy lost(&mutex, &EtcdMutex::lockLost);
    std::counting_semaphore<4> go(0), deleted(0);
    std::atomic<int> primed = -1, held = -1, countAfter = -1, unlocked = -1;
    std::atomic<qint64> endedMs = -1;
    QByteArray key;
    Worker holder([&] {
        primed = mutex.lock() && mutex.unlock() ? 1 : 0;
        go.acquire();
        const bool ok = mutex.lock();
        key = mutex.fencingToken().key; // before `held`, which publishes it
        held = ok ? 1 : 0;
        deleted.acquire();
        QElapsedTimer t;
        t.start();
        while (mutex.holdCount() > 0 && t.elapsed() < kWaitMs)
            std::this_thread::sleep_for(1ms);
        countAfter = mutex.holdCount();
        endedMs = t.elapsed();
        deleted.acquire(); // the spell is over
        unlocked = mutex.unlock() ? 1 : 0;
    });
    auto unblock = qScopeGuard([&] { // a failed check must not leave the worker waiting
        go.release();
        deleted.release(2);
    });
    QTRY_COMPARE_WITH_TIMEOUT(primed.load(), 1, kWaitMs);
    // The spell: this (the lock's) thread runs no event from here on.
    go.release();
    QElapsedTimer spell;
    spell.start();
    while (held.load() == -1 && spell.elapsed() < kWaitMs / 10)
        std::this_thread::sleep_for(1ms);
    QCOMPARE(held.load(), 1);
    QVERIFY(etcdctl(m_server.clientUrl(), {u"del"_s, QString::fromUtf8(key)}));
    deleted.release();
    while (endedMs.load() == -1 && spell.elapsed() < kWaitMs)
        std::this_thread::sleep_for(1ms);
    QCOMPARE(countAfter.load(), 0);
    QVERIFY2(endedMs.load() < kWaitMs / 10, qPrintable(QString::number(endedMs.load())));
    QCOMPARE(lost.count(), 0); // not yet: this thread has run no event
    deleted.release();
    QTRY_COMPARE_WITH_TIMEOUT(lost.count(), 1, kWaitMs);
    QVERIFY(holder.finish());
    unblock.dismiss();
    QCOMPARE(unlocked.load(), 0);
    QCOMPARE(mutex.connectionState(), EtcdRecipe::ConnectionState::Lost);
}

// lock() returns false when the mutex is destroyed meanwhile: a worker queued behind another
// holder returns at once, and the mutex's destructor waits until it has left the mutex's code.
void tst_EtcdMutex::destroyedWhileAWorkerWaitsReturnsFalse()
{
    auto other = connectedClient(m_server.clientUrl());
    EtcdMutex holder(other.get(), "/mx/destroyed", withTtl());
    QSignalSpy acquired(&holder, &EtcdMutex::acquired);
    QVERIFY(holder.acquire());
    QVERIFY(acquired.wait(kWaitMs));
    auto *mutex = new EtcdMutex(m_client.get(), "/mx/destroyed", withTtl());
    std::atomic<int> locked = -1;
    std::atomic<qint64> returnedAt = -1;
    QElapsedTimer clock;
    clock.start();
    Worker waiter([&] {
        locked = mutex->lock() ? 1 : 0;
        returnedAt = clock.elapsed();
    });
    QTRY_COMPARE_WITH_TIMEOUT(queueOf(*m_client, "/mx/destroyed").size(), 2, kWaitMs);
    const qint64 destroyedAt = clock.elapsed();
    delete mutex;
    QVERIFY(waiter.finish());
    QCOMPARE(locked.load(), 0);
    QVERIFY2(returnedAt.load() - destroyedAt < kWaitMs / 10,
        qPrintable(QString::number(returnedAt.load() - destroyedAt)));
    QTRY_COMPARE_WITH_TIMEOUT(queueOf(*m_client, "/mx/destroyed").size(), 1, kWaitMs);
    QVERIFY(holder.release());
    QVERIFY(closeAndWait(&holder));
}

// The same while the worker's own transaction waits for a paused etcd (the spare lease taken
// from the shelf): the destructor ends that wait too instead of leaving the worker to wake
// after a TTL inside a mutex that is gone.
void tst_EtcdMutex::destroyedWhileAWorkersLockIsInFlightReturnsFalse()
{
    auto *mutex = new EtcdMutex(m_client.get(), "/mx/inflight", withTtl());
    std::counting_semaphore<2> go(0);
    std::atomic<int> primed = -1, locked = -1;
    std::atomic<qint64> returnedAt = -1;
    QElapsedTimer clock;
    clock.start();
    Worker worker([&] {
        primed = mutex->lock() && mutex->unlock() ? 1 : 0;
        go.acquire();
        locked = mutex->lock() ? 1 : 0;
        returnedAt = clock.elapsed();
    });
    auto resume = qScopeGuard([&] {
        go.release();
        m_server.resume();
    });
    QTRY_COMPARE_WITH_TIMEOUT(primed.load(), 1, kWaitMs);
    QTRY_VERIFY_WITH_TIMEOUT(queueOf(*m_client, "/mx/inflight").isEmpty(), kWaitMs);
    QVERIFY(m_server.pause());
    go.release();
    // Blocked: etcd answers nothing now.
    QVERIFY(!QTest::qWaitFor([&] { return locked.load() != -1; }, 200));
    const qint64 destroyedAt = clock.elapsed();
    delete mutex;
    QVERIFY(worker.finish());
    QCOMPARE(locked.load(), 0);
    QVERIFY2(returnedAt.load() - destroyedAt < kWaitMs / 10,
        qPrintable(QString::number(returnedAt.load() - destroyedAt)));
    QVERIFY(m_server.resume());
    resume.dismiss();
    // The destructor's revokes reach etcd once it answers again (the ledger checks).
}

void tst_EtcdMutex::unlockAfterLossReturnsFalse()
{
    EtcdMutex mutex(m_client.get(), "/mx/lost", withTtl());
    QSignalSpy lost(&mutex, &EtcdMutex::lockLost);
    std::binary_semaphore goOn(0);
    std::atomic<int> held = -1, unlocked = -1, countAfter = -1;
    std::atomic<bool> interrupted = false;
    EtcdFencingToken token;
    Worker holder([&] {
        const bool ok = mutex.lock();
        token = mutex.fencingToken(); // before `held`, which publishes it
        held = ok ? 1 : 0;
        goOn.acquire();
        interrupted = QThread::currentThread()->isInterruptionRequested();
        countAfter = mutex.holdCount();
        unlocked = mutex.unlock() ? 1 : 0;
    });
    QTRY_COMPARE_WITH_TIMEOUT(held.load(), 1, kWaitMs);
    QVERIFY_OK(await(m_client->revokeLease(token.leaseId)).status);
    QTRY_COMPARE_WITH_TIMEOUT(lost.count(), 1, kWaitMs);
    QCOMPARE(mutex.connectionState(), EtcdRecipe::ConnectionState::Lost);
    QCOMPARE(lost.first().first().value<EtcdStatus>().code(), Etcd::ErrorCode::LeaseExpired);
    QCOMPARE(mutex.errors().size(), 1);
    goOn.release();
    QVERIFY(holder.finish());
    QCOMPARE(unlocked.load(), 0);
    QCOMPARE(countAfter.load(), 0);
    QVERIFY(!interrupted.load());
    QCOMPARE(lost.count(), 1);

    auto other = connectedClient(m_server.clientUrl());
    EtcdMutex next(other.get(), "/mx/lost", withTtl());
    QSignalSpy acquired(&next, &EtcdMutex::acquired);
    QVERIFY(next.acquire());
    QVERIFY(acquired.wait(kWaitMs));
    QVERIFY(next.fencingToken().revision > token.revision);
    QVERIFY(next.release());
    // The same mutex acquires again after a loss, and its state says so.
    QSignalSpy again(&mutex, &EtcdMutex::acquired);
    QVERIFY(mutex.acquire());
    QVERIFY(again.wait(kWaitMs));
    QCOMPARE(mutex.connectionState(), EtcdRecipe::ConnectionState::Reconnected);
    QVERIFY(mutex.release());
}

void tst_EtcdMutex::interruptOnLockLoss()
{
    EtcdMutexOptions o = withTtl();
    o.interruptOnLockLoss = true;
    EtcdMutex mutex(m_client.get(), "/mx/interrupt", o);
    QVERIFY(mutex.interruptOnLockLoss());
    QSignalSpy lost(&mutex, &EtcdMutex::lockLost);
    std::atomic<int> held = -1, unlocked = -1;
    std::atomic<bool> interrupted = false;
    EtcdFencingToken token;
    QThread *holder = QThread::create([&] {
        const bool ok = mutex.lock();
        token = mutex.fencingToken(); // before `held`, which publishes it
        held = ok ? 1 : 0;
        QElapsedTimer t;
        t.start();
        // A body parked until it is interrupted (bounded, so a failure cannot hang).
        while (!QThread::currentThread()->isInterruptionRequested() && t.elapsed() < kWaitMs)
            QThread::msleep(5);
        interrupted = QThread::currentThread()->isInterruptionRequested();
        unlocked = mutex.unlock() ? 1 : 0;
    });
    holder->start();
    QTRY_COMPARE_WITH_TIMEOUT(held.load(), 1, kWaitMs);
    QVERIFY_OK(await(m_client->revokeLease(token.leaseId)).status);
    QTRY_COMPARE_WITH_TIMEOUT(lost.count(), 1, kWaitMs);
    QTRY_VERIFY_WITH_TIMEOUT(holder->isFinished(), kWaitMs);
    delete holder;
    QVERIFY(interrupted.load());
    QCOMPARE(unlocked.load(), 0);
}

// A waiter's lease revoked mid-wait: it queues again with a fresh lease (a new key, at the
// tail) and still gets the lock once the holder lets go.
void tst_EtcdMutex::waiterWhoseLeaseDiesQueuesAgain()
{
    EtcdMutex holder(m_client.get(), "/mx/requeue", withTtl());
    QSignalSpy acquired(&holder, &EtcdMutex::acquired);
    QVERIFY(holder.acquire());
    QVERIFY(acquired.wait(kWaitMs));
    auto other = connectedClient(m_server.clientUrl());
    EtcdMutex waiter(other.get(), "/mx/requeue", withTtl());
    std::atomic<int> got = -1;
    Worker worker([&] {
        got = waiter.lock() ? 1 : 0;
        if (got)
            waiter.unlock();
    });
    QList<EtcdKeyValue> queue;
    QTRY_COMPARE_WITH_TIMEOUT((queue = queueOf(*m_client, "/mx/requeue")).size(), 2, kWaitMs);
    const EtcdKeyValue ticket = queue.at(1);
    QVERIFY_OK(await(m_client->revokeLease(ticket.lease)).status);
    QTRY_VERIFY_WITH_TIMEOUT(
        (queue = queueOf(*m_client, "/mx/requeue")).size() == 2 && queue.at(1).key != ticket.key,
        kWaitMs);
    QCOMPARE(got.load(), -1); // still waiting
    QVERIFY(holder.release());
    QTRY_COMPARE_WITH_TIMEOUT(got.load(), 1, kWaitMs);
    QVERIFY(waiter.errors().isEmpty()); // a waiter's ticket is not a hold: nothing was lost
}

// close() with a nested hold in one worker, a waiter in another and an acquire() of the
// owner thread in flight: the waiter's lock() returns false, the holder's unlock()s return
// false, every key goes, closed() follows, and the mutex refuses further locks.
void tst_EtcdMutex::closeReleasesEveryHold()
{
    auto other = connectedClient(m_server.clientUrl());
    EtcdMutex blocker(other.get(), "/mx/close", withTtl());
    EtcdMutex mutex(m_client.get(), "/mx/close", withTtl());
    QSignalSpy closed(&mutex, &EtcdRecipe::closed);
    std::binary_semaphore afterClose(0);
    std::atomic<int> held = -1, waited = -1, unlocks = 0, relock = -1;
    Worker holder([&] {
        held = mutex.lock() && mutex.lock() ? 1 : 0;
        afterClose.acquire();
        unlocks += mutex.unlock() ? 1 : 0;
        unlocks += mutex.unlock() ? 1 : 0;
        relock = mutex.lock() ? 1 : 0;
    });
    QTRY_COMPARE_WITH_TIMEOUT(held.load(), 1, kWaitMs);
    Worker waiter([&] { waited = mutex.lock() ? 1 : 0; });
    QTRY_COMPARE_WITH_TIMEOUT(queueOf(*m_client, "/mx/close").size(), 2, kWaitMs);
    QVERIFY(mutex.acquire()); // the owner thread queues too
    QTRY_COMPARE_WITH_TIMEOUT(queueOf(*m_client, "/mx/close").size(), 3, kWaitMs);
    mutex.close();
    QTRY_COMPARE_WITH_TIMEOUT(waited.load(), 0, kWaitMs);
    QTRY_COMPARE_WITH_TIMEOUT(closed.count(), 1, kWaitMs);
    QCOMPARE(queueOf(*m_client, "/mx/close").size(), 0); // closed() came after every revoke
    afterClose.release();
    QVERIFY(holder.finish());
    QCOMPARE(unlocks.load(), 0);
    QCOMPARE(relock.load(), 0);
    QVERIFY(!mutex.isActive());
    QVERIFY(!mutex.acquire());
    QVERIFY(mutex.errors().isEmpty());
    // Another instance takes the lock at once.
    QSignalSpy acquired(&blocker, &EtcdMutex::acquired);
    QVERIFY(blocker.acquire());
    QVERIFY(acquired.wait(kWaitMs));
    QVERIFY(blocker.release());
}

// After close(), etcd holds none of the mutex's leases: not the hold's, not a waiter's, not
// the spare granted ahead of time.
void tst_EtcdMutex::closeLeavesNoLease()
{
    const QList<qint64> before = liveLeases(*m_client);
    QVERIFY(!before.contains(-1));
    EtcdMutex mutex(m_client.get(), "/mx/leak", withTtl());
    auto other = connectedClient(m_server.clientUrl());
    EtcdMutex second(other.get(), "/mx/leak", withTtl());
    QSignalSpy acquired(&mutex, &EtcdMutex::acquired);
    QSignalSpy closed(&mutex, &EtcdRecipe::closed), closed2(&second, &EtcdRecipe::closed);
    QVERIFY(mutex.acquire());
    QVERIFY(acquired.wait(kWaitMs));
    std::atomic<int> waited = -1;
    Worker waiter([&] { waited = second.lock() ? 1 : 0; });
    QTRY_COMPARE_WITH_TIMEOUT(queueOf(*m_client, "/mx/leak").size(), 2, kWaitMs);
    QTRY_VERIFY_WITH_TIMEOUT(leasesSince(*m_client, before).size() >= 3, kWaitMs); // + spares
    second.close();
    mutex.close();
    QTRY_COMPARE_WITH_TIMEOUT(closed.count() + closed2.count(), 2, kWaitMs);
    QTRY_COMPARE_WITH_TIMEOUT(waited.load(), 0, kWaitMs);
    QCOMPARE(leasesSince(*m_client, before), QList<qint64>());
    QCOMPARE(queueOf(*m_client, "/mx/leak").size(), 0);
}

// close() right after acquire(), while the grants of its leases are in flight (etcd granted,
// its answers held back by a FaultProxy): closed() waits until those grants were answered
// and their leases revoked, so once closed() arrived no lease of ours is left.
void tst_EtcdMutex::closeWhileGrantingLeavesNoLease()
{
    constexpr auto answerDelay = 1s; // well inside the lease's TTL and the stream liveness
    const QList<qint64> before = liveLeases(*m_client);
    QVERIFY(!before.contains(-1));
    ProxiedClient side(m_server.clientPort());
    QVERIFY(side.started);
    EtcdClient &client = side.client;
    FaultProxy &proxy = side.proxy;
    QVERIFY_OK(await(client.get("/mx/granting"_ba)).status); // connected before the delay
    EtcdMutex mutex(&client, "/mx/granting", withTtl(30s));
    QSignalSpy closed(&mutex, &EtcdRecipe::closed);
    proxy.setDelay(answerDelay);
    QVERIFY(mutex.acquire());
    // etcd granted (the acquisition's lease and the spare); the answers are held back.
    QTRY_VERIFY_WITH_TIMEOUT(!leasesSince(*m_client, before).isEmpty(), kWaitMs);
    mutex.close();
    QVERIFY(closed.wait(kWaitMs));
    QCOMPARE(leasesSince(*m_client, before), QList<qint64>());
    QCOMPARE(queueOf(*m_client, "/mx/granting").size(), 0);
    QCOMPARE(closed.count(), 1);
    proxy.setMode(FaultProxy::Mode::Pass);
}

// A worker writes through its hold with commitGuarded(); once the hold is released, the
// same write is refused by etcd.
void tst_EtcdMutex::commitGuardedFromTheHolder()
{
    EtcdMutex mutex(m_client.get(), "/mx/fence", withTtl());
    std::atomic<int> during = -1, after = -1;
    EtcdStatus duringWhy, afterWhy;
    EtcdFencingToken token;
    Worker worker([&] {
        EtcdTxn txn;
        txn.success = {EtcdTxnOp::put("/mx/fence-data", "while held")};
        if (!mutex.lock())
            return;
        token = mutex.fencingToken();
        during = mutex.commitGuarded(txn, kWait, &duringWhy) ? 1 : 0;
        mutex.unlock();
        txn.success = {EtcdTxnOp::put("/mx/fence-data", "after")};
        after = mutex.commitGuarded(txn, kWait, &afterWhy) ? 1 : 0;
    });
    QTRY_VERIFY_WITH_TIMEOUT(after.load() != -1, kWaitMs);
    QVERIFY(worker.finish());
    QCOMPARE(during.load(), 1);
    QVERIFY_OK(duringWhy);
    QCOMPARE(after.load(), 0);
    QCOMPARE(afterWhy.code(), Etcd::ErrorCode::FailedPrecondition);
    QCOMPARE(keyValueOf(*m_client, "/mx/fence-data").value, "while held"_ba);
    // The old token's guard fails for good, even while the lock is held again.
    QSignalSpy acquired(&mutex, &EtcdMutex::acquired);
    QVERIFY(mutex.acquire());
    QVERIFY(acquired.wait(kWaitMs));
    EtcdTxn stale;
    stale.success = {EtcdTxnOp::put("/mx/fence-data", "stale")};
    QVERIFY(!await(m_client->txn(token.guard(stale)))->succeeded());
    QVERIFY(await(mutex.guardedTxn(stale))->succeeded());
    QVERIFY(mutex.release());
}

// A worker's call that etcd does not answer (paused) returns at its timeout with
// DeadlineExceeded, not later; the same thread's next call, once etcd answers again, gets its
// own answer.
void tst_EtcdMutex::unansweredCommitEndsAtItsTimeoutAndTheNextIsAnswered()
{
    EtcdMutex mutex(m_client.get(), "/mx/unanswered", withTtl());
    const auto timeout = std::chrono::duration_cast<std::chrono::milliseconds>(kTtl) / 4;
    std::binary_semaphore paused(0), resumed(0);
    std::atomic<int> held = -1, late = -1, next = -1;
    std::atomic<qint64> lateMs = -1;
    EtcdStatus lateWhy, nextWhy;
    Worker worker([&] {
        held = mutex.lock() ? 1 : 0;
        paused.acquire();
        EtcdTxn txn;
        txn.success = {EtcdTxnOp::put("/mx/unanswered-data", "late")};
        QElapsedTimer t;
        t.start();
        late = mutex.commitGuarded(txn, timeout, &lateWhy) ? 1 : 0;
        lateMs = t.elapsed();
        resumed.acquire();
        txn.compares = {EtcdCompare::missing("/mx/unanswered-next")};
        txn.success = {EtcdTxnOp::put("/mx/unanswered-next", "next")};
        next = mutex.commitGuarded(txn, kWait, &nextWhy) ? 1 : 0;
        mutex.unlock();
    });
    auto resume = qScopeGuard([&] {
        paused.release();
        resumed.release();
        m_server.resume();
    });
    QTRY_COMPARE_WITH_TIMEOUT(held.load(), 1, kWaitMs);
    QVERIFY(m_server.pause());
    paused.release();
    QTRY_VERIFY_WITH_TIMEOUT(late.load() != -1, kWaitMs);
    QVERIFY(m_server.resume());
    QCOMPARE(late.load(), 0);
    QCOMPARE(lateWhy.code(), Etcd::ErrorCode::DeadlineExceeded);
    QVERIFY2(lateMs.load() >= timeout.count() && lateMs.load() < timeout.count() + kWaitMs / 10,
        qPrintable(QString::number(lateMs.load())));
    resumed.release();
    resume.dismiss();
    QVERIFY(worker.finish());
    QVERIFY_OK(nextWhy);
    QCOMPARE(next.load(), 1);
    QCOMPARE(keyValueOf(*m_client, "/mx/unanswered-next").value, "next"_ba);
}

void tst_EtcdMutex::blockingFormsRefuseTheOwnerThread()
{
    EtcdMutex mutex(m_client.get(), "/mx/refuse", withTtl());
    QElapsedTimer t;
    t.start();
    const QRegularExpression ownThread(u"own thread"_s);
    QTest::ignoreMessage(QtWarningMsg, ownThread);
    QVERIFY(!mutex.lock());
    QTest::ignoreMessage(QtWarningMsg, ownThread);
    QVERIFY(!mutex.tryLock(10s));
    QTest::ignoreMessage(QtWarningMsg, ownThread);
    QVERIFY(!mutex.unlock());
    QTest::ignoreMessage(QtWarningMsg, ownThread);
    QVERIFY(!mutex.isLocked());
    QTest::ignoreMessage(QtWarningMsg, ownThread);
    EtcdStatus why;
    QVERIFY(!mutex.commitGuarded({}, 10s, &why));
    QCOMPARE(why.code(), Etcd::ErrorCode::WrongThread);
    QVERIFY(t.elapsed() < 1000); // refused, not waited
    // And the owner-thread forms refuse worker threads.
    std::atomic<int> acquiredElsewhere = -1;
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"outside the mutex's thread"_s));
    QVERIFY(Worker([&] { acquiredElsewhere = mutex.acquire() ? 1 : 0; }).finish());
    QCOMPARE(acquiredElsewhere.load(), 0);
}

// etcdctl lock (Go's concurrency.Mutex) and EtcdMutex on one path contend on one lock, both
// ways: while etcdctl holds, tryLock() times out; once it let go, we acquire; while we hold,
// etcdctl queues behind us and runs its command only after release().
void tst_EtcdMutex::contendsWithEtcdctlLock()
{
    const QString etcdctl = QStandardPaths::findExecutable(u"etcdctl"_s);
    if (etcdctl.isEmpty())
        QSKIP("etcdctl not installed");
    const QString endpoints = u"--endpoints="_s + m_server.endpoint();
    EtcdMutex mutex(m_client.get(), "/mx/ctl", withTtl());
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const auto output = [&dir](const QString &name) {
        QFile f(dir.filePath(name));
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    };

    // TestProcess: spawned without a fork, which would end TSan's view (testutil.h's etcdctl()).
    TestProcess holder;
    holder.setEnvironment({u"ETCDCTL_API=3"_s});
    holder.start(etcdctl, {endpoints, u"lock"_s, u"/mx/ctl"_s}, dir.filePath(u"holder"_s));
    QVERIFY(holder.waitForStarted());
    // It prints its key once it holds (its errors would go to the same file).
    const auto heldKey = [&output] {
        for (const QByteArray &line : output(u"holder"_s).split('\n')) {
            if (line.trimmed().startsWith("/mx/ctl/"))
                return line.trimmed();
        }
        return QByteArray();
    };
    QTRY_VERIFY2_WITH_TIMEOUT(!heldKey().isEmpty(), output(u"holder"_s).constData(), kWaitMs);
    const QByteArray ctlKey = heldKey();
    m_leases.ignoreKeyLease(ctlKey); // etcdctl leaves its session's lease to expire
    std::atomic<int> got = -1;
    Worker contender([&] { got = mutex.tryLock(500ms) ? 1 : 0; });
    QTRY_VERIFY_WITH_TIMEOUT(got.load() != -1, kWaitMs);
    QVERIFY(contender.finish());
    QCOMPARE(got.load(), 0);
    QList<EtcdKeyValue> queue = queueOf(*m_client, "/mx/ctl");
    QCOMPARE(queue.size(), 1);
    QCOMPARE(queue.first().key, ctlKey);
    ::kill(pid_t(holder.processId()), SIGINT); // etcdctl unlocks on SIGINT
    QVERIFY(holder.waitForFinished(kWaitMs));
    Worker taker([&] {
        got = mutex.tryLock(kWait) ? 1 : 0;
        if (got)
            mutex.unlock();
    });
    QTRY_COMPARE_WITH_TIMEOUT(got.load(), 1, kWaitMs);
    QVERIFY(taker.finish());

    QSignalSpy acquired(&mutex, &EtcdMutex::acquired);
    QVERIFY(mutex.acquire());
    QVERIFY(acquired.wait(kWaitMs));
    TestProcess waiter;
    waiter.setEnvironment({u"ETCDCTL_API=3"_s});
    waiter.start(etcdctl, {endpoints, u"lock"_s, u"/mx/ctl"_s, u"echo"_s, u"ran"_s},
        dir.filePath(u"waiter"_s));
    QVERIFY(waiter.waitForStarted());
    QTRY_COMPARE_WITH_TIMEOUT(queueOf(*m_client, "/mx/ctl").size(), 2, kWaitMs);
    queue = queueOf(*m_client, "/mx/ctl");
    QCOMPARE(queue.first().key, mutex.fencingToken().key); // we are first
    m_leases.ignoreKeyLease(queue.last().key);
    QVERIFY(waiter.isRunning()); // etcdctl waits behind us
    QVERIFY(mutex.release());
    QVERIFY(waiter.waitForFinished(kWaitMs));
    QCOMPARE(waiter.exitCode(), 0);
    QVERIFY2(output(u"waiter"_s).contains("ran"), output(u"waiter"_s).constData());
    QTRY_COMPARE_WITH_TIMEOUT(queueOf(*m_client, "/mx/ctl").size(), 0, kWaitMs);
}

// Four clients contend for one lock: every hand-off is a DELETE event on a watch that was
// live before, so none waits for etcd's 100 ms catch-up loop (Go's Mutex reaches 40/s here).
// Prints the uncontended lock+unlock median and the contended rate and shares; asserts only
// what no loaded machine can excuse.
void tst_EtcdMutex::handOffNeedsNoCatchUpLoop()
{
    {
        EtcdMutex mutex(m_client.get(), "/mx/solo", withTtl());
        std::vector<qint64> micros;
        Worker solo([&] {
            QElapsedTimer t;
            for (int i = 0; i < 101; ++i) {
                t.start();
                if (!mutex.lock() || !mutex.unlock())
                    return;
                if (i > 0) // the first one grants the first lease and starts the watch
                    micros.push_back(t.nsecsElapsed() / 1000);
            }
        });
        QVERIFY(solo.finish());
        QCOMPARE(micros.size(), size_t(100));
        std::sort(micros.begin(), micros.end());
        qInfo("uncontended lock+unlock from a worker: median %lld us, p90 %lld us",
            qlonglong(micros[50]), qlonglong(micros[90]));
    }
    constexpr int kClients = 4;
    std::vector<std::unique_ptr<EtcdClient>> clients;
    std::vector<std::unique_ptr<EtcdMutex>> mutexes;
    std::atomic<int> counts[kClients] = {};
    std::atomic<bool> stop = false;
    std::vector<std::unique_ptr<Worker>> workers;
    for (int i = 0; i < kClients; ++i) {
        clients.push_back(connectedClient(m_server.clientUrl()));
        mutexes.push_back(std::make_unique<EtcdMutex>(clients.back().get(), "/mx/hot", withTtl()));
    }
    QElapsedTimer elapsed;
    elapsed.start();
    for (int i = 0; i < kClients; ++i) {
        workers.push_back(std::make_unique<Worker>([&, i] {
            while (!stop && mutexes[i]->lock()) {
                ++counts[i];
                mutexes[i]->unlock();
            }
        }));
    }
    QEventLoop loop; // not QTest::qWait(), which sleeps 10 ms between turns
    QTimer::singleShot(1500, &loop, &QEventLoop::quit);
    loop.exec();
    stop = true;
    for (auto &w : workers)
        QVERIFY(w->finish());
    const double seconds = elapsed.elapsed() / 1000.0;
    int total = 0;
    QStringList shares;
    for (const auto &c : counts) {
        total += c;
        shares.append(QString::number(c.load()));
    }
    qInfo("4 clients, one lock: %.0f acquisitions/s, shares %s", total / seconds,
        qPrintable(shares.join(u' ')));
    QVERIFY2(total / seconds > 40, qPrintable(QString::number(total / seconds)));
    for (const auto &c : counts)
        QVERIFY(c > 0);
}

QTEST_MAIN(tst_EtcdMutex)
#include "tst_etcdmutex.moc"
