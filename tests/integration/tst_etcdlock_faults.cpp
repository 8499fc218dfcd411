// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// Locks under real faults: etcd-recipes' MutexFaultTests, ReadWriteLockFaultTests and
// SemaphoreFaultTests (a holder cut off by a TCP proxy loses its hold and a queued waiter
// gets in; its late guarded write is refused), the waiter-revoked-mid-wait rows of
// ReadWriteLockLostTests and SemaphorePermitLostTests, and a waiter whose watch history was
// compacted away while it was cut off.
#include "leaseledger.h"
#include "lockutil.h"

#include <EtcdQt/etcdmutex.h>
#include <EtcdQt/etcdreadwritelock.h>
#include <EtcdQt/etcdsemaphore.h>
#include <etcdclient_p.h>
#include <etcdtestserver.h>

#include <QtCore/qloggingcategory.h>
#include <QtCore/qregularexpression.h>
#include <QtCore/qscopeguard.h>
#include <QtCore/qsemaphore.h>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace {
constexpr auto kTtl = 2s;
constexpr int kTtlMs = 2000;
constexpr int kWaitMs = kLockWaitMs;

template <typename Options>
Options withTtl()
{
    Options o;
    o.ttl = kTtl;
    return o;
}

// After a cut: the first calls may still meet the broken connection.
void awaitReachable(EtcdClient &client)
{
    QTRY_VERIFY_WITH_TIMEOUT(await(client.get("/lf/probe")).status.isOk(), kWaitMs);
}

// Holds `client`'s engine thread in one long task until release() (or destruction): the engine
// decides nothing meanwhile, as when a pause (SIGSTOP past the TTL) wakes the owner thread
// before it.
class EngineStall
{
public:
    explicit EngineStall(EtcdClient &client) : m_parked(new QObject)
    {
        m_parked->moveToThread(&EtcdClientPrivate::get(&client)->engineThread);
        QMetaObject::invokeMethod(m_parked, [this] {
            m_stalled.release();
            m_go.acquire();
        });
        m_stalled.acquire(); // the engine is in it now
    }
    ~EngineStall() { release(); }
    void release()
    {
        if (!m_parked)
            return;
        m_go.release();
        m_parked->deleteLater(); // in the engine thread, once the task returned
        m_parked = nullptr;
    }

private:
    QObject *m_parked;
    QSemaphore m_stalled, m_go;
};

EtcdTxn writeOf(const QByteArray &value)
{
    EtcdTxn t;
    t.success = {EtcdTxnOp::put("/lf/data", value)};
    return t;
}
} // namespace

class tst_EtcdLockFaults : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void partitionedMutexHolderLosesAndWaiterAcquires();
    void reacquiringAnExpiredHoldQueuesAnew();
    void partitionedWriterLosesAndQueuedReadersAcquire();
    void partitionedPermitHolderLosesAndWaiterAcquires();
    void readerRevokedMidWaitQueuesAgainAndAcquires();
    void semaphoreWaiterRevokedMidWaitQueuesAgainAndAcquires();
    void waiterAcquiresAfterItsHistoryWasCompacted();

private:
    EtcdTestServer m_server;
    LeaseLedger m_leases; // issue 22 item 7: no test leaves a lease
    std::unique_ptr<EtcdClient> m_client;
};

void tst_EtcdLockFaults::initTestCase()
{
    ETCDQT_START_OR_SKIP(m_server);
    m_client = connectedClient(m_server.clientUrl());
}

void tst_EtcdLockFaults::init()
{
    m_leases.begin(m_server);
}

void tst_EtcdLockFaults::cleanup()
{
    VERIFY_NO_LEASE_LEFT(m_leases);
}

// The holder is cut off: it cannot renew, reports the loss within its TTL (plus the
// liveness check), etcd expires its lease and the waiter gets in. After the cut heals, the
// old holder's guarded write is refused and the new holder's commits.
void tst_EtcdLockFaults::partitionedMutexHolderLosesAndWaiterAcquires()
{
    PartitionedClient side(m_server.clientPort());
    QVERIFY(side.started);
    EtcdMutex old(&side.client, "/lf/mutex", withTtl<EtcdMutexOptions>());
    EtcdMutex next(m_client.get(), "/lf/mutex", withTtl<EtcdMutexOptions>());
    QSignalSpy oldGot(&old, &EtcdMutex::acquired), lost(&old, &EtcdMutex::lockLost),
        nextGot(&next, &EtcdMutex::acquired);
    QVERIFY(old.acquire());
    QVERIFY(oldGot.wait(kWaitMs));
    const EtcdFencingToken stale = old.fencingToken();
    QVERIFY(next.acquire());
    QTRY_COMPARE_WITH_TIMEOUT(queueOf(*m_client, "/lf/mutex").size(), 2, kWaitMs);

    QElapsedTimer cut;
    cut.start();
    side.proxy.setMode(FaultProxy::Mode::Blackhole);
    QTRY_COMPARE_WITH_TIMEOUT(lost.count(), 1, kWaitMs);
    const qint64 lostAfter = cut.elapsed();
    QTRY_COMPARE_WITH_TIMEOUT(nextGot.count(), 1, kWaitMs);
    const qint64 nextAfter = cut.elapsed();
    QVERIFY2(lostAfter <= kTtlMs + 1500, qPrintable(QString::number(lostAfter)));
    QVERIFY2(nextAfter <= 2 * kTtlMs + 1500, qPrintable(QString::number(nextAfter)));
    QVERIFY(nextAfter >= lostAfter - 200); // never two holders, as far as clocks can tell
    QCOMPARE(old.connectionState(), EtcdRecipe::ConnectionState::Lost);

    side.proxy.setMode(FaultProxy::Mode::Pass);
    awaitReachable(side.client);
    const auto late = await(side.client.txn(stale.guard(writeOf("stale"))));
    QVERIFY_OK(late.status);
    QVERIFY(!late->succeeded());
    const auto fresh = await(next.guardedTxn(writeOf("fresh")));
    QVERIFY_OK(fresh.status);
    QVERIFY(fresh->succeeded());
    QVERIFY(!old.release());
    QVERIFY(next.release());
    QVERIFY(closeAndWait(&old, &next));
    QCOMPARE(queueOf(*m_client, "/lf/mutex").size(), 0);
}

// The engine decides a loss, but after a pause every thread wakes at once and the owner
// thread may get there first: its hold already reads as not held (its lease's deadline
// passed), and an acquire() then must queue anew, not count the lost hold again. lockLost()
// comes once the engine runs, and the new hold is a new key on a new lease.
void tst_EtcdLockFaults::reacquiringAnExpiredHoldQueuesAnew()
{
    PartitionedClient side(m_server.clientPort());
    QVERIFY(side.started);
    EtcdMutex mutex(&side.client, "/lf/again", withTtl<EtcdMutexOptions>());
    QSignalSpy got(&mutex, &EtcdMutex::acquired), lost(&mutex, &EtcdMutex::lockLost);
    QVERIFY(mutex.acquire());
    QVERIFY(got.wait(kWaitMs));
    const EtcdFencingToken first = mutex.fencingToken();
    QVERIFY(first.isValid());

    EngineStall stall(side.client);
    side.proxy.setMode(FaultProxy::Mode::Blackhole); // no renewal reaches etcd
    QTRY_VERIFY_WITH_TIMEOUT(!mutex.isHeldByCurrentThread(), kTtlMs + 1500);
    QCOMPARE(lost.count(), 0); // not told yet: the engine is stalled
    QVERIFY(mutex.acquire());
    QCOMPARE(mutex.holdCount(), 0);
    stall.release();
    side.proxy.setMode(FaultProxy::Mode::Pass);

    QTRY_COMPARE_WITH_TIMEOUT(lost.count(), 1, kWaitMs);
    QTRY_COMPARE_WITH_TIMEOUT(got.count(), 2, 3 * kWaitMs);
    const EtcdFencingToken second = mutex.fencingToken();
    QVERIFY(second.isValid());
    QVERIFY(second.leaseId != first.leaseId);
    QVERIFY(second.revision > first.revision);
    QCOMPARE(mutex.holdCount(), 1);
    QVERIFY(mutex.release());
    QVERIFY(!mutex.release()); // the lost hold's own release: it was lost
    QCOMPARE(lost.count(), 1);
    QVERIFY(closeAndWait(&mutex));
    QCOMPARE(queueOf(*m_client, "/lf/again").size(), 0);
}

void tst_EtcdLockFaults::partitionedWriterLosesAndQueuedReadersAcquire()
{
    using Mode = EtcdReadWriteLock::Mode;
    PartitionedClient side(m_server.clientPort());
    QVERIFY(side.started);
    EtcdReadWriteLock writer(&side.client, "/lf/rw", withTtl<EtcdReadWriteLockOptions>());
    EtcdReadWriteLock r1(m_client.get(), "/lf/rw", withTtl<EtcdReadWriteLockOptions>());
    EtcdReadWriteLock r2(m_client.get(), "/lf/rw", withTtl<EtcdReadWriteLockOptions>());
    QSignalSpy wrote(&writer, &EtcdReadWriteLock::acquired),
        lost(&writer, &EtcdReadWriteLock::lockLost), read1(&r1, &EtcdReadWriteLock::acquired),
        read2(&r2, &EtcdReadWriteLock::acquired);
    QVERIFY(writer.acquire(Mode::Write));
    QVERIFY(wrote.wait(kWaitMs));
    QVERIFY(r1.acquire(Mode::Read));
    QVERIFY(r2.acquire(Mode::Read));
    QTRY_COMPARE_WITH_TIMEOUT(queueOf(*m_client, "/lf/rw").size(), 3, kWaitMs);
    side.proxy.setMode(FaultProxy::Mode::Blackhole);
    QTRY_COMPARE_WITH_TIMEOUT(lost.count(), 1, kWaitMs);
    QCOMPARE(lost.first().at(0).value<Mode>(), Mode::Write);
    QTRY_VERIFY_WITH_TIMEOUT(read1.count() == 1 && read2.count() == 1, kWaitMs);
    side.proxy.setMode(FaultProxy::Mode::Pass);
    awaitReachable(side.client);
    QVERIFY(!writer.release());
    QVERIFY(r1.release());
    QVERIFY(r2.release());
    QVERIFY(closeAndWait(&r1, &r2, &writer));
}

void tst_EtcdLockFaults::partitionedPermitHolderLosesAndWaiterAcquires()
{
    PartitionedClient side(m_server.clientPort());
    QVERIFY(side.started);
    EtcdSemaphore holder(&side.client, "/lf/sem", 1, withTtl<EtcdSemaphoreOptions>());
    EtcdSemaphore waiter(m_client.get(), "/lf/sem", 1, withTtl<EtcdSemaphoreOptions>());
    QSignalSpy got(&holder, &EtcdSemaphore::acquired), lost(&holder, &EtcdSemaphore::permitLost),
        next(&waiter, &EtcdSemaphore::acquired);
    QVERIFY(holder.acquire());
    QVERIFY(got.wait(kWaitMs));
    QVERIFY(waiter.acquire());
    QTRY_COMPARE_WITH_TIMEOUT(queueOf(*m_client, "/lf/sem/holders").size(), 2, kWaitMs);
    side.proxy.setMode(FaultProxy::Mode::Blackhole);
    QTRY_COMPARE_WITH_TIMEOUT(lost.count(), 1, kWaitMs);
    QTRY_COMPARE_WITH_TIMEOUT(next.count(), 1, kWaitMs);
    QCOMPARE(holder.heldPermits(), 0);
    side.proxy.setMode(FaultProxy::Mode::Pass);
    awaitReachable(side.client);
    QVERIFY(!holder.release());
    QVERIFY(waiter.release());
    QVERIFY(closeAndWait(&holder, &waiter));
    QVERIFY_OK(await(m_client->remove("/lf/sem/permits")).status);
}

// A reader waiting behind a writer has its lease revoked: it queues again with a fresh
// entry (at the tail) and still gets in once the writer is done.
void tst_EtcdLockFaults::readerRevokedMidWaitQueuesAgainAndAcquires()
{
    using Mode = EtcdReadWriteLock::Mode;
    EtcdReadWriteLock writer(m_client.get(), "/lf/rwwait", withTtl<EtcdReadWriteLockOptions>());
    EtcdReadWriteLock reader(m_client.get(), "/lf/rwwait", withTtl<EtcdReadWriteLockOptions>());
    QSignalSpy wrote(&writer, &EtcdReadWriteLock::acquired),
        read(&reader, &EtcdReadWriteLock::acquired), lost(&reader, &EtcdReadWriteLock::lockLost);
    QVERIFY(writer.acquire(Mode::Write));
    QVERIFY(wrote.wait(kWaitMs));
    QVERIFY(reader.acquire(Mode::Read));
    QTRY_COMPARE_WITH_TIMEOUT(queueOf(*m_client, "/lf/rwwait").size(), 2, kWaitMs);
    const EtcdKeyValue ticket = queueOf(*m_client, "/lf/rwwait").last();
    QVERIFY_OK(await(m_client->revokeLease(ticket.lease)).status);
    QTRY_VERIFY_WITH_TIMEOUT(queueOf(*m_client, "/lf/rwwait").size() == 2
            && queueOf(*m_client, "/lf/rwwait").last().key != ticket.key,
        kWaitMs);
    QCOMPARE(read.count(), 0);
    QVERIFY(writer.release());
    QTRY_COMPARE_WITH_TIMEOUT(read.count(), 1, kWaitMs);
    QCOMPARE(lost.count(), 0); // a waiter's ticket is not a hold
    QVERIFY(reader.release());
    QVERIFY(closeAndWait(&writer, &reader));
}

void tst_EtcdLockFaults::semaphoreWaiterRevokedMidWaitQueuesAgainAndAcquires()
{
    EtcdSemaphore holder(m_client.get(), "/lf/semwait", 1, withTtl<EtcdSemaphoreOptions>());
    EtcdSemaphore waiter(m_client.get(), "/lf/semwait", 1, withTtl<EtcdSemaphoreOptions>());
    QSignalSpy got(&holder, &EtcdSemaphore::acquired), next(&waiter, &EtcdSemaphore::acquired);
    QVERIFY(holder.acquire());
    QVERIFY(got.wait(kWaitMs));
    QVERIFY(waiter.acquire());
    QTRY_COMPARE_WITH_TIMEOUT(queueOf(*m_client, "/lf/semwait/holders").size(), 2, kWaitMs);
    const EtcdKeyValue ticket = queueOf(*m_client, "/lf/semwait/holders").last();
    QVERIFY_OK(await(m_client->revokeLease(ticket.lease)).status);
    QTRY_VERIFY_WITH_TIMEOUT(queueOf(*m_client, "/lf/semwait/holders").size() == 2
            && queueOf(*m_client, "/lf/semwait/holders").last().key != ticket.key,
        kWaitMs);
    QCOMPARE(next.count(), 0);
    QVERIFY(holder.release());
    QTRY_COMPARE_WITH_TIMEOUT(next.count(), 1, kWaitMs);
    QVERIFY(waiter.release());
    QVERIFY(closeAndWait(&holder, &waiter));
    QVERIFY_OK(await(m_client->remove("/lf/semwait/permits")).status);
}

// A waiter cut off for less than its TTL while the holder leaves and the history of that
// delete is compacted away: its watch cannot resume there, resyncs, reads again, and the
// waiter takes the lock.
void tst_EtcdLockFaults::waiterAcquiresAfterItsHistoryWasCompacted()
{
    PartitionedClient side(m_server.clientPort());
    QVERIFY(side.started);
    EtcdMutex holder(m_client.get(), "/lf/compact", withTtl<EtcdMutexOptions>());
    EtcdMutex waiter(&side.client, "/lf/compact", withTtl<EtcdMutexOptions>());
    QSignalSpy got(&holder, &EtcdMutex::acquired), next(&waiter, &EtcdMutex::acquired),
        lost(&waiter, &EtcdMutex::lockLost);
    QVERIFY(holder.acquire());
    QVERIFY(got.wait(kWaitMs));
    // The waiter must be parked behind the holder (its read answered) before the cut: a cut
    // during that read makes it start over after the heal, find nobody ahead and acquire
    // without ever resuming from compacted history (seen once in CI under ASan). Its debug
    // line "... behind QSet(<holder key>) watch from <revision>" says it is parked; with
    // "watch from 0" its watch is not live yet, and it reads again once it is (a cut before
    // that made the watch start after the compaction: seen once beside a CPU load).
    QLoggingCategory::setFilterRules(u"etcdqt.lock.debug=true"_s);
    const auto quiet = qScopeGuard([] { QLoggingCategory::setFilterRules({}); });
    static QAtomicInt parked;
    static QtMessageHandler passOn;
    parked.storeRelaxed(0);
    passOn = qInstallMessageHandler(
        [](QtMsgType type, const QMessageLogContext &context, const QString &text) {
            if (text.contains(u"/lf/compact/"_s) && text.contains(u"behind QSet(/lf/compact/"_s)
                && !text.endsWith(u"watch from 0"_s))
                parked.storeRelaxed(1);
            passOn(type, context, text);
        });
    const auto restore = qScopeGuard([] { qInstallMessageHandler(passOn); });
    QVERIFY(waiter.acquire());
    QTRY_COMPARE_WITH_TIMEOUT(queueOf(*m_client, "/lf/compact").size(), 2, kWaitMs);
    QTRY_COMPARE_WITH_TIMEOUT(parked.loadRelaxed(), 1, kWaitMs);
    // Reset, not Blackhole: no byte of the DELETE can reach the waiter before it reconnects,
    // so its watch must resume from before the delete, which compaction has removed.
    side.proxy.setMode(FaultProxy::Mode::Reset);
    QVERIFY(holder.release());
    QTRY_COMPARE_WITH_TIMEOUT(queueOf(*m_client, "/lf/compact").size(), 1, kWaitMs);
    const auto put = await(m_client->put("/lf/other", "x"));
    QVERIFY_OK(await(m_client->compact(put->revision())).status);
    // The resync is only visible in the log: ask for it, and fail if it does not come.
    QTest::ignoreMessage(QtDebugMsg, QRegularExpression(u"/lf/compact/ history compacted"_s));
    QTest::ignoreMessage(QtDebugMsg, QRegularExpression(u"/lf/compact/ held"_s));
    side.proxy.setMode(FaultProxy::Mode::Pass); // well within the waiter's TTL
    QTRY_COMPARE_WITH_TIMEOUT(next.count(), 1, kWaitMs);
    QCOMPARE(lost.count(), 0);
    QVERIFY(waiter.release());
    QVERIFY(closeAndWait(&holder, &waiter));
}

QTEST_GUILESS_MAIN(tst_EtcdLockFaults)
#include "tst_etcdlock_faults.moc"
