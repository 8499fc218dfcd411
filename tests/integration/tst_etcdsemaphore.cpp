// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// EtcdSemaphore against a real etcd: etcd-recipes' Semaphore scenarios (capacity never
// exceeded, FIFO grants, permit count fixed by the first writer, permit loss) and its key
// layout, plus no key or lease left behind by timeouts and close().
#include "leaseledger.h"
#include "lockutil.h"

#include <EtcdQt/etcdcodec.h>
#include <EtcdQt/etcdsemaphore.h>
#include <etcdtestserver.h>

#include <QtCore/qregularexpression.h>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace {
constexpr auto kTtl = 2s;
constexpr int kWaitMs = kLockWaitMs;

EtcdSemaphoreOptions options(const QString &id = {})
{
    EtcdSemaphoreOptions o;
    o.ttl = kTtl;
    o.clientId = id;
    return o;
}

QList<EtcdKeyValue> holdersOf(EtcdClient &client, const QByteArray &path)
{
    return queueOf(client, path + "/holders");
}
} // namespace

class tst_EtcdSemaphore : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void keyLayoutIsEtcdRecipes();
    void capacityIsNeverExceeded();
    void permitsAreGrantedInArrivalOrder();
    void permitCountMismatchIsRefused();
    void badInputIsRefused();
    void availablePermitsCountsHoldersAndWaiters();
    void lostPermitIsReported();
    void releaseIsLastInFirstOut();
    void tryAcquireTimesOutAndCloseLeavesNothing();
    void workerPermitDoesNotWaitForABusyOwnerThread();

private:
    EtcdTestServer m_server;
    LeaseLedger m_leases; // issue 22 item 7: no test leaves a lease
    std::unique_ptr<EtcdClient> m_client;
};

void tst_EtcdSemaphore::initTestCase()
{
    ETCDQT_START_OR_SKIP(m_server);
    m_client = connectedClient(m_server.clientUrl());
}

void tst_EtcdSemaphore::init()
{
    m_leases.begin(m_server);
}

void tst_EtcdSemaphore::cleanup()
{
    VERIFY_NO_LEASE_LEFT(m_leases);
}

// "<path>/permits" = the count as 4 bytes big-endian, no lease; each holder
// "<path>/holders/<clientId>:<7>" = clientId, on its own lease of the configured TTL.
void tst_EtcdSemaphore::keyLayoutIsEtcdRecipes()
{
    EtcdSemaphore sem(m_client.get(), "/sem/golden", 3, options(u"app-1"_s));
    QSignalSpy acquired(&sem, &EtcdSemaphore::acquired);
    QVERIFY(sem.acquire());
    QVERIFY(acquired.wait(kWaitMs));
    const EtcdKeyValue permits = keyValueOf(*m_client, "/sem/golden/permits");
    QCOMPARE(permits.value, QByteArray::fromHex("00000003"));
    QCOMPARE(permits.lease, 0);
    const QList<EtcdKeyValue> holders = holdersOf(*m_client, "/sem/golden");
    QCOMPARE(holders.size(), 1);
    QVERIFY(QRegularExpression(u"^/sem/golden/holders/app-1:[A-Za-z0-9]{7}$"_s)
                .match(QString::fromLatin1(holders[0].key))
                .hasMatch());
    QCOMPARE(holders[0].value, "app-1"_ba);
    QCOMPARE(sem.fencingToken().key, holders[0].key);
    QCOMPARE(sem.fencingToken().leaseId, holders[0].lease);
    QCOMPARE(await(m_client->leaseTimeToLive(holders[0].lease))->grantedTtl().count(), 2);
    QCOMPARE(sem.heldPermits(), 1);
    QVERIFY(sem.release());
    QTRY_COMPARE_WITH_TIMEOUT(holdersOf(*m_client, "/sem/golden").size(), 0, kWaitMs);
    QVERIFY(closeAndWait(&sem));
    QVERIFY_OK(await(m_client->remove("/sem/golden/permits")).status);
}

// Three instances on two clients, two worker threads each, 2 permits: never more than two
// bodies at once, and two at once at some point.
void tst_EtcdSemaphore::capacityIsNeverExceeded()
{
    constexpr int kRounds = 6;
    std::unique_ptr<EtcdClient> other = connectedClient(m_server.clientUrl());
    EtcdSemaphore a(m_client.get(), "/sem/cap", 2, options()),
        b(other.get(), "/sem/cap", 2, options()), c(other.get(), "/sem/cap", 2, options());
    Overlap overlap;
    std::atomic<int> failures = 0;
    std::vector<std::unique_ptr<Worker>> workers;
    for (EtcdSemaphore *s : {&a, &b, &c}) {
        for (int t = 0; t < 2; ++t) {
            workers.push_back(std::make_unique<Worker>([&, s] {
                for (int i = 0; i < kRounds; ++i) {
                    if (!s->waitForPermit()) {
                        ++failures;
                        return;
                    }
                    overlap.enter();
                    std::this_thread::sleep_for(20ms); // a body long enough to overlap
                    overlap.leave();
                    if (!s->release())
                        ++failures;
                }
            }));
        }
    }
    for (auto &w : workers)
        QVERIFY(w->finish(6 * kWaitMs));
    QCOMPARE(failures.load(), 0);
    QCOMPARE(overlap.most.load(), 2);
    QTRY_COMPARE_WITH_TIMEOUT(holdersOf(*m_client, "/sem/cap").size(), 0, kWaitMs);
    QVERIFY(closeAndWait(&a, &b, &c));
}

// One permit, four queued instances: each release admits the next one in arrival order.
void tst_EtcdSemaphore::permitsAreGrantedInArrivalOrder()
{
    std::vector<std::unique_ptr<EtcdSemaphore>> sems;
    QList<int> order;
    for (int i = 0; i < 4; ++i) {
        sems.push_back(std::make_unique<EtcdSemaphore>(m_client.get(), "/sem/fifo", 1, options()));
        connect(sems.back().get(), &EtcdSemaphore::acquired, this, [&order, i] { order << i; });
        QVERIFY(sems.back()->acquire());
        QTRY_COMPARE_WITH_TIMEOUT(holdersOf(*m_client, "/sem/fifo").size(), i + 1, kWaitMs);
    }
    QTRY_COMPARE_WITH_TIMEOUT(order, QList<int> {0}, kWaitMs);
    for (int i = 0; i < 4; ++i) {
        QTRY_COMPARE_WITH_TIMEOUT(order.size(), i + 1, kWaitMs);
        QCOMPARE(order.last(), i);
        QVERIFY(sems[i]->release());
    }
    QTRY_COMPARE_WITH_TIMEOUT(holdersOf(*m_client, "/sem/fifo").size(), 0, kWaitMs);
    for (auto &s : sems)
        QVERIFY(closeAndWait(s.get()));
}

// The first instance fixes the count; one made with another count fails its acquisitions
// with FailedPrecondition naming both counts, and writes nothing.
void tst_EtcdSemaphore::permitCountMismatchIsRefused()
{
    EtcdSemaphore first(m_client.get(), "/sem/count", 2, options());
    EtcdSemaphore second(m_client.get(), "/sem/count", 3, options());
    QSignalSpy acquired(&first, &EtcdSemaphore::acquired);
    QVERIFY(first.acquire());
    QVERIFY(acquired.wait(kWaitMs));
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"has 2 permits in etcd, not 3"_s));
    std::atomic<int> outcome = -1;
    QElapsedTimer answered;
    answered.start();
    // Refused at the check's answer, not at the end of the wait.
    const auto wait = std::chrono::milliseconds(4 * kWaitMs);
    Worker worker([&] { outcome = second.tryAcquire(wait) ? 1 : 0; });
    QVERIFY(worker.finish());
    QCOMPARE(outcome.load(), 0);
    QVERIFY2(answered.elapsed() < kWaitMs, qPrintable(QString::number(answered.elapsed())));
    QTRY_VERIFY_WITH_TIMEOUT(!second.errors().isEmpty(), kWaitMs);
    QCOMPARE(second.errors().last().code(), Etcd::ErrorCode::FailedPrecondition);
    // Checked once: a check repeated in a loop would have failed again within these trips.
    for (int trip = 0; trip < 5; ++trip)
        QVERIFY_OK(await(m_client->get("/sem/count/permits")).status);
    QCOMPARE(second.errors().size(), 1);
    QCOMPARE(holdersOf(*m_client, "/sem/count").size(), 1);
    QCOMPARE(keyValueOf(*m_client, "/sem/count/permits").value, QByteArray::fromHex("00000002"));
    QVERIFY(first.release());
    QVERIFY(closeAndWait(&first, &second));
    QVERIFY_OK(await(m_client->remove("/sem/count/permits")).status);
}

void tst_EtcdSemaphore::badInputIsRefused()
{
    EtcdSemaphore none(m_client.get(), "/sem/none", 0, options());
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"at least one permit"_s));
    QVERIFY(!none.acquire());
    QCOMPARE(none.errors().last().code(), Etcd::ErrorCode::InvalidArgument);
    QCOMPARE(keyValueOf(*m_client, "/sem/none/permits").key, QByteArray());
    EtcdSemaphore empty(m_client.get(), "", 1, options());
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"empty semaphore path"_s));
    QVERIFY(!empty.acquire());
    QCOMPARE(empty.errors().last().code(), Etcd::ErrorCode::InvalidArgument);
}

// permits - entries under holders/ (holders and waiters of every process), floored at 0.
void tst_EtcdSemaphore::availablePermitsCountsHoldersAndWaiters()
{
    EtcdSemaphore a(m_client.get(), "/sem/avail", 2, options()),
        b(m_client.get(), "/sem/avail", 2, options()),
        c(m_client.get(), "/sem/avail", 2, options());
    std::atomic<int> seen = -2;
    const auto probe = [&] {
        seen = -2;
        Worker w([&] { seen = a.availablePermits(); });
        return w.finish() ? seen.load() : -3;
    };
    QCOMPARE(probe(), 2);
    QVERIFY(a.acquire());
    QTRY_COMPARE_WITH_TIMEOUT(probe(), 1, kWaitMs);
    QVERIFY(b.acquire());
    QVERIFY(c.acquire()); // waits
    QTRY_COMPARE_WITH_TIMEOUT(holdersOf(*m_client, "/sem/avail").size(), 3, kWaitMs);
    QCOMPARE(probe(), 0);
    QVERIFY(closeAndWait(&a, &b, &c));
    QVERIFY_OK(await(m_client->remove("/sem/avail/permits")).status);
}

// A holder's lease revoked behind its back: permitLost() once, state Lost, release() false;
// the waiter behind it gets the permit.
void tst_EtcdSemaphore::lostPermitIsReported()
{
    EtcdSemaphore holder(m_client.get(), "/sem/lost", 1, options());
    EtcdSemaphore waiter(m_client.get(), "/sem/lost", 1, options());
    QSignalSpy lost(&holder, &EtcdSemaphore::permitLost);
    QSignalSpy got(&holder, &EtcdSemaphore::acquired), next(&waiter, &EtcdSemaphore::acquired);
    QVERIFY(holder.acquire());
    QVERIFY(got.wait(kWaitMs));
    QVERIFY(waiter.acquire());
    QTRY_COMPARE_WITH_TIMEOUT(holdersOf(*m_client, "/sem/lost").size(), 2, kWaitMs);
    QVERIFY_OK(await(m_client->revokeLease(holder.fencingToken().leaseId)).status);
    QTRY_COMPARE_WITH_TIMEOUT(lost.count(), 1, kWaitMs);
    QCOMPARE(holder.connectionState(), EtcdRecipe::ConnectionState::Lost);
    QCOMPARE(holder.heldPermits(), 0);
    QTRY_COMPARE_WITH_TIMEOUT(next.count(), 1, kWaitMs);
    QVERIFY(!holder.release());
    QVERIFY(waiter.release());
    QVERIFY(closeAndWait(&holder, &waiter));
}

// Permits are the instance's, not a thread's: release() gives back the most recent one,
// and answers false for a lost one in its turn.
void tst_EtcdSemaphore::releaseIsLastInFirstOut()
{
    EtcdSemaphore sem(m_client.get(), "/sem/lifo", 3, options());
    QSignalSpy acquired(&sem, &EtcdSemaphore::acquired);
    QList<EtcdFencingToken> tokens;
    for (int i = 0; i < 3; ++i) {
        QVERIFY(sem.acquire());
        QVERIFY(acquired.wait(kWaitMs));
        tokens << sem.fencingToken();
    }
    QCOMPARE(sem.heldPermits(), 3);
    QVERIFY_OK(await(m_client->revokeLease(tokens[1].leaseId)).status); // the middle one
    QTRY_COMPARE_WITH_TIMEOUT(sem.heldPermits(), 2, kWaitMs);
    QCOMPARE(sem.fencingToken().key, tokens[2].key);
    QVERIFY(sem.release()); // the third
    QCOMPARE(sem.fencingToken().key, tokens[0].key);
    QVERIFY(!sem.release()); // the lost second
    QVERIFY(sem.release()); // the first
    QVERIFY(!sem.release()); // none left
    QTRY_COMPARE_WITH_TIMEOUT(holdersOf(*m_client, "/sem/lifo").size(), 0, kWaitMs);
    QVERIFY(closeAndWait(&sem));
}

// A tryAcquire that times out leaves no entry; close() releases the permits and ends the
// waits; no lease of ours is left.
void tst_EtcdSemaphore::tryAcquireTimesOutAndCloseLeavesNothing()
{
    const QList<qint64> before = liveLeases(*m_client);
    EtcdSemaphore holder(m_client.get(), "/sem/try", 1, options());
    EtcdSemaphore other(m_client.get(), "/sem/try", 1, options());
    QSignalSpy got(&holder, &EtcdSemaphore::acquired);
    QVERIFY(holder.acquire());
    QVERIFY(got.wait(kWaitMs));
    std::atomic<int> timedOut = -1, blocked = -1;
    Worker w1([&] { timedOut = other.tryAcquire(300ms) ? 1 : 0; });
    QVERIFY(w1.finish());
    QCOMPARE(timedOut.load(), 0);
    QCOMPARE(holdersOf(*m_client, "/sem/try").size(), 1);
    Worker w2([&] { blocked = other.waitForPermit() ? 1 : 0; });
    QTRY_COMPARE_WITH_TIMEOUT(holdersOf(*m_client, "/sem/try").size(), 2, kWaitMs);
    QVERIFY(closeAndWait(&holder, &other));
    QVERIFY(w2.finish());
    QCOMPARE(blocked.load(), 0);
    QVERIFY(!holder.release());
    QCOMPARE(holdersOf(*m_client, "/sem/try").size(), 0);
    QCOMPARE(leasesSince(*m_client, before), QList<qint64>());
}

// A worker's waitForPermit() sends its entry's transaction from the worker's own thread, on
// the spare lease the semaphore keeps ready (issue 21 item 1): with the semaphore's thread busy
// for a TTL, a free permit is taken as soon as etcd answered, and availablePermits() reads from
// the worker's thread too.
void tst_EtcdSemaphore::workerPermitDoesNotWaitForABusyOwnerThread()
{
    EtcdSemaphore sem(m_client.get(), "/sem/busyowner", 1, options());
    QSignalSpy lost(&sem, &EtcdSemaphore::permitLost);
    const BusyOwnerLock run
        = lockWhileOwnerBusy([&] { return sem.waitForPermit() && sem.release(); },
            [&] { return holdersOf(*m_client, "/sem/busyowner").isEmpty(); },
            [&] { return sem.waitForPermit() && sem.availablePermits() == 0; },
            [&] { return int(sem.release()); }, kTtl);
    const QString fault = run.fault(kWaitMs / 10);
    QVERIFY2(fault.isEmpty(), qPrintable(fault));
    QTRY_COMPARE_WITH_TIMEOUT(holdersOf(*m_client, "/sem/busyowner").size(), 0, kWaitMs);
    QCOMPARE(lost.count(), 0);
    QVERIFY(sem.errors().isEmpty());
    QVERIFY(closeAndWait(&sem));
}

QTEST_MAIN(tst_EtcdSemaphore)
#include "tst_etcdsemaphore.moc"
