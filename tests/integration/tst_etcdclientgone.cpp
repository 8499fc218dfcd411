// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// Recipes used after their client was destroyed (issue 16, point 4): every call answers
// Etcd::ErrorCode::NotConnected (or false) through the recipe's usual error path, on a later
// event-loop turn, and nothing dereferences the missing client. Built under ASan as well.
#include "leaseledger.h"
#include "lockutil.h"

#include <EtcdQt/etcdbarrier.h>
#include <etcdtestserver.h>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace {
constexpr auto kTtl = 2s;
constexpr int kWaitMs = kLockWaitMs; // five TTLs
constexpr auto kWorkerWait = 2s; // a worker's wait: answered long before, when it answers

// A reply made after the client went: unfinished when returned, then NotConnected.
#define VERIFY_NOT_CONNECTED(call)                                                                 \
    do {                                                                                           \
        auto *reply_ = (call);                                                                     \
        QVERIFY(reply_);                                                                           \
        QVERIFY2(!reply_->isFinished(), "answered synchronously: " #call);                         \
        QCOMPARE(await(reply_).status.code(), Etcd::ErrorCode::NotConnected);                      \
    } while (false)

// A signal with an EtcdStatus, not emitted inside the call, then NotConnected.
#define VERIFY_SIGNAL_NOT_CONNECTED(spy, call)                                                     \
    do {                                                                                           \
        call;                                                                                      \
        QVERIFY2((spy).isEmpty(), "emitted synchronously: " #call);                                \
        QVERIFY((spy).wait(kWaitMs));                                                              \
        QCOMPARE((spy).first().last().value<EtcdStatus>().code(), Etcd::ErrorCode::NotConnected);  \
    } while (false)

// The last error a recipe recorded.
Etcd::ErrorCode lastErrorOf(const EtcdRecipe &recipe)
{
    return recipe.errors().isEmpty() ? Etcd::ErrorCode::Ok : recipe.errors().constLast().code();
}

// From a worker thread, as the blocking forms want.
template <typename F>
auto fromWorker(F f)
{
    decltype(f()) result {};
    Worker worker([&] { result = f(); });
    return worker.finish() ? result : decltype(f()) {};
}
} // namespace

class tst_EtcdClientGone : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void barrierNeverSet();
    void barrierSetBeforeTheClientWent();
    void countedBarrier();
    void doubleBarrier();
    void atomicCounter();
    void countDownLatch();
    void participants();
    void watch();
    void selfHealingKeepAlive();
    void guardedTransactions();
    void staticRemovesWithoutAClient();

private:
    void dropClient() { delete std::exchange(m_client, nullptr); }

    EtcdTestServer m_server;
    LeaseLedger m_leases; // issue 22 item 7: no test leaves a lease
    EtcdClient *m_client = nullptr; // the recipes' client, destroyed by each test
};

void tst_EtcdClientGone::initTestCase()
{
    ETCDQT_START_OR_SKIP(m_server);
}

void tst_EtcdClientGone::init()
{
    m_client = connectedClient(m_server.clientUrl()).release();
    QTRY_COMPARE_WITH_TIMEOUT(m_client->state(), EtcdClient::State::Connected, kWaitMs);
    m_leases.begin(m_server);
}

void tst_EtcdClientGone::cleanup()
{
    VERIFY_NO_LEASE_LEFT(m_leases);
    dropClient();
}

void tst_EtcdClientGone::barrierNeverSet()
{
    EtcdBarrierOptions o;
    o.ttl = kTtl;
    EtcdBarrier barrier(m_client, "/gone/barrier", o);
    dropClient();
    QCOMPARE(barrier.client(), nullptr);
    VERIFY_NOT_CONNECTED(barrier.setBarrier());
    QCOMPARE(barrier.state(), EtcdBarrier::State::Unset);
    VERIFY_NOT_CONNECTED(barrier.isBarrierSet());
    VERIFY_NOT_CONNECTED(barrier.ping());
    QSignalSpy waitFailed(&barrier, &EtcdBarrier::waitFailed);
    VERIFY_SIGNAL_NOT_CONNECTED(waitFailed, barrier.startWaiting());
    QCOMPARE(barrier.waiterCount(), 0);
    QVERIFY(!fromWorker([&] { return barrier.waitOnBarrier(kWorkerWait); }));
    VERIFY_NOT_CONNECTED(barrier.removeBarrier());
    QSignalSpy closed(&barrier, &EtcdRecipe::closed);
    barrier.close();
    QVERIFY(closed.wait(kWaitMs));
}

// The setter's lease cannot be renewed without the client: the barrier reports it, and what
// is called afterwards still answers NotConnected.
void tst_EtcdClientGone::barrierSetBeforeTheClientWent()
{
    EtcdBarrierOptions o;
    o.ttl = kTtl;
    EtcdBarrier barrier(m_client, "/gone/set", o);
    QCOMPARE(await(barrier.setBarrier())->result(), true);
    QSignalSpy failed(&barrier, &EtcdBarrier::failed);
    m_leases.excuse("the client is destroyed under a held barrier: its lease expires on its TTL");
    dropClient();
    QTRY_COMPARE_WITH_TIMEOUT(failed.size(), 1, kWaitMs);
    QCOMPARE(barrier.state(), EtcdBarrier::State::Failed);
    QCOMPARE(barrier.connectionState(), EtcdRecipe::ConnectionState::Lost);
    QCOMPARE(barrier.leaseId(), -1);
    VERIFY_NOT_CONNECTED(barrier.isBarrierSet());
    VERIFY_NOT_CONNECTED(barrier.removeBarrier());
    QSignalSpy closed(&barrier, &EtcdRecipe::closed);
    barrier.close();
    QVERIFY(closed.wait(kWaitMs));
}

void tst_EtcdClientGone::countedBarrier()
{
    EtcdCountedBarrierOptions o;
    o.ttl = kTtl;
    EtcdCountedBarrier barrier(m_client, "/gone/counted", 2, o);
    dropClient();
    QSignalSpy failed(&barrier, &EtcdCountedBarrier::failed);
    VERIFY_SIGNAL_NOT_CONNECTED(failed, barrier.arrive());
    QCOMPARE(lastErrorOf(barrier), Etcd::ErrorCode::NotConnected);
    QVERIFY(!fromWorker([&] { return barrier.waitOnBarrier(kWorkerWait); }));
    QCOMPARE(barrier.waiterCount(), 0);
    QSignalSpy closed(&barrier, &EtcdRecipe::closed);
    barrier.close();
    QVERIFY(closed.wait(kWaitMs));
}

void tst_EtcdClientGone::doubleBarrier()
{
    EtcdCountedBarrierOptions o;
    o.ttl = kTtl;
    EtcdDoubleBarrier barrier(m_client, "/gone/double", 2, o);
    dropClient();
    QSignalSpy failed(&barrier, &EtcdDoubleBarrier::failed);
    VERIFY_SIGNAL_NOT_CONNECTED(failed, barrier.startEnter());
    failed.clear();
    VERIFY_SIGNAL_NOT_CONNECTED(failed, barrier.startLeave());
    QVERIFY(!fromWorker([&] { return barrier.enter(kWorkerWait); }));
    QVERIFY(!fromWorker([&] { return barrier.leave(kWorkerWait); }));
    QSignalSpy closed(&barrier, &EtcdRecipe::closed);
    barrier.close();
    QVERIFY(closed.wait(kWaitMs));
}

void tst_EtcdClientGone::atomicCounter()
{
    EtcdAtomicCounter counter(m_client, "/gone/counter");
    QVERIFY_OK(await(counter.increment()).status); // it worked while the client was there
    dropClient();
    VERIFY_NOT_CONNECTED(counter.get());
    VERIFY_NOT_CONNECTED(counter.increment());
    VERIFY_NOT_CONNECTED(counter.decrement());
    VERIFY_NOT_CONNECTED(counter.add(5));
    VERIFY_NOT_CONNECTED(counter.subtract(5));
    EtcdStatus why;
    QCOMPARE(fromWorker([&] { return counter.addAndWait(1, kWorkerWait, &why); }), std::nullopt);
    QCOMPARE(why.code(), Etcd::ErrorCode::NotConnected);
    QCOMPARE(fromWorker([&] { return counter.waitForValue(kWorkerWait, &why); }), std::nullopt);
    QCOMPARE(why.code(), Etcd::ErrorCode::NotConnected);
    QSignalSpy closed(&counter, &EtcdRecipe::closed);
    counter.close();
    QVERIFY(closed.wait(kWaitMs));
}

void tst_EtcdClientGone::countDownLatch()
{
    EtcdCountDownLatch latch(m_client, "/gone/latch");
    dropClient();
    QSignalSpy errors(&latch, &EtcdRecipe::errorOccurred);
    VERIFY_SIGNAL_NOT_CONNECTED(errors, latch.start());
    QCOMPARE(latch.connectionState(), EtcdRecipe::ConnectionState::Lost);
    VERIFY_NOT_CONNECTED(latch.create(3));
    VERIFY_NOT_CONNECTED(latch.countDown());
    QVERIFY(!fromWorker([&] { return latch.await(kWorkerWait); }));
    EtcdStatus why;
    QCOMPARE(fromWorker([&] { return latch.countDownAndWait(kWorkerWait, &why); }), std::nullopt);
    QCOMPARE(why.code(), Etcd::ErrorCode::NotConnected);
    QSignalSpy closed(&latch, &EtcdRecipe::closed);
    latch.close();
    QVERIFY(closed.wait(kWaitMs));
}

void tst_EtcdClientGone::participants()
{
    EtcdParticipantsModel model(m_client, "/gone/election");
    dropClient();
    QSignalSpy failed(&model, &EtcdParticipantsModel::failed);
    VERIFY_SIGNAL_NOT_CONNECTED(failed, model.start());
    QCOMPARE(model.rowCount(), 0);
    VERIFY_NOT_CONNECTED(Etcd::electionParticipants(nullptr, "/gone/election"));
}

void tst_EtcdClientGone::watch()
{
    EtcdWatch watch(m_client, "/gone/watched");
    dropClient();
    QSignalSpy failed(&watch, &EtcdWatch::failed);
    VERIFY_SIGNAL_NOT_CONNECTED(failed, watch.start());
}

void tst_EtcdClientGone::selfHealingKeepAlive()
{
    EtcdSelfHealingKeepAlive lease(
        m_client, kTtl, [](qint64, EtcdSelfHealingKeepAlive::EstablishDone done) { done(true); });
    dropClient();
    QSignalSpy failed(&lease, &EtcdSelfHealingKeepAlive::failed);
    VERIFY_SIGNAL_NOT_CONNECTED(failed, lease.start());
    QCOMPARE(lease.state(), EtcdSelfHealingKeepAlive::State::Failed);
    QCOMPARE(lease.currentLeaseId(), -1);
}

// The guarded writes of the lock kinds hand back a reply whatever happens: with the client
// gone it fails NotConnected instead of being null.
void tst_EtcdClientGone::guardedTransactions()
{
    EtcdMutex mutex(m_client, "/gone/mutex");
    EtcdSemaphore semaphore(m_client, "/gone/sem", 1);
    EtcdReadWriteLock rw(m_client, "/gone/rw");
    dropClient();
    EtcdTxn txn;
    txn.success = {EtcdTxnOp::put("/gone/data", "x")};
    VERIFY_NOT_CONNECTED(mutex.guardedTxn(txn));
    VERIFY_NOT_CONNECTED(semaphore.guardedTxn(txn));
    VERIFY_NOT_CONNECTED(rw.guardedTxn(txn));
}

void tst_EtcdClientGone::staticRemovesWithoutAClient()
{
    VERIFY_NOT_CONNECTED(EtcdAtomicCounter::remove(nullptr, "/gone/counter"));
    VERIFY_NOT_CONNECTED(EtcdCountDownLatch::remove(nullptr, "/gone/latch"));
}

QTEST_GUILESS_MAIN(tst_EtcdClientGone)
#include "tst_etcdclientgone.moc"
