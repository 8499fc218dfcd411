// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// EtcdReadWriteLock against a real etcd: etcd-recipes' ReadWriteLock scenarios (shared
// readers, exclusive writer, fairness, downgrade, refused upgrade, loss), its key layout,
// and a writer entry as a Kotlin process would write it.
#include "leaseledger.h"
#include "lockutil.h"

#include <EtcdQt/etcdreadwritelock.h>
#include <etcdtestserver.h>

#include <QtCore/qregularexpression.h>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using Mode = EtcdReadWriteLock::Mode;

namespace {
constexpr auto kTtl = 2s;
constexpr int kWaitMs = kLockWaitMs;

EtcdReadWriteLockOptions options(const QString &id = {})
{
    EtcdReadWriteLockOptions o;
    o.ttl = kTtl;
    o.clientId = id;
    return o;
}

// Every acquired() of one lock, in order.
struct Grants
{
    explicit Grants(EtcdReadWriteLock *lock)
    {
        QObject::connect(lock, &EtcdReadWriteLock::acquired, lock, [this](Mode m) { modes << m; });
    }
    QList<Mode> modes;
};
} // namespace

class tst_EtcdReadWriteLock : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void keyLayoutIsEtcdRecipes();
    void readersShareWritersExclude();
    void writerIsNotStarvedByLaterReaders();
    void downgradeKeepsReading();
    void upgradeIsRefused();
    void tryLockForWriteTimesOutAndLeavesNoKey();
    void lostWriteHoldIsReported();
    void workerUnlockDoesNotWaitForABusyOwnerThread();
    void workerLockDoesNotWaitForABusyOwnerThread();
    void foreignWriterEntryBlocksReaders();
    void closeReleasesEveryHold();

private:
    EtcdTestServer m_server;
    LeaseLedger m_leases; // issue 22 item 7: no test leaves a lease
    std::unique_ptr<EtcdClient> m_client;
};

void tst_EtcdReadWriteLock::initTestCase()
{
    ETCDQT_START_OR_SKIP(m_server);
    m_client = connectedClient(m_server.clientUrl());
}

void tst_EtcdReadWriteLock::init()
{
    m_leases.begin(m_server);
}

void tst_EtcdReadWriteLock::cleanup()
{
    VERIFY_NO_LEASE_LEFT(m_leases);
}

// "<path>/read-<clientId>:<7>" and "<path>/write-<clientId>:<7>", the client id as value,
// each on its own lease of the configured TTL; the token names that key.
void tst_EtcdReadWriteLock::keyLayoutIsEtcdRecipes()
{
    EtcdReadWriteLock reader(m_client.get(), "/rw/golden", options(u"app-1"_s));
    EtcdReadWriteLock writer(m_client.get(), "/rw/golden", options(u"app-2"_s));
    Grants r(&reader), w(&writer);
    QVERIFY(reader.acquire(Mode::Read));
    QTRY_COMPARE_WITH_TIMEOUT(r.modes.size(), 1, kWaitMs);
    QVERIFY(writer.acquire(Mode::Write));
    QTRY_COMPARE_WITH_TIMEOUT(queueOf(*m_client, "/rw/golden").size(), 2, kWaitMs);
    const QList<EtcdKeyValue> queue = queueOf(*m_client, "/rw/golden");
    QVERIFY(QRegularExpression(u"^/rw/golden/read-app-1:[A-Za-z0-9]{7}$"_s)
                .match(QString::fromLatin1(queue[0].key))
                .hasMatch());
    QVERIFY(QRegularExpression(u"^/rw/golden/write-app-2:[A-Za-z0-9]{7}$"_s)
                .match(QString::fromLatin1(queue[1].key))
                .hasMatch());
    QCOMPARE(queue[0].value, "app-1"_ba);
    QCOMPARE(queue[1].value, "app-2"_ba);
    QVERIFY(queue[0].lease != 0 && queue[1].lease != 0 && queue[0].lease != queue[1].lease);
    QCOMPARE(reader.fencingToken().key, queue[0].key);
    QCOMPARE(reader.fencingToken().revision, queue[0].createRevision);
    QCOMPARE(await(m_client->leaseTimeToLive(queue[0].lease))->grantedTtl().count(), 2);
    QCOMPARE(w.modes.size(), 0); // the reader holds
    QVERIFY(reader.release());
    QTRY_COMPARE_WITH_TIMEOUT(w.modes, QList<Mode> {Mode::Write}, kWaitMs);
    QVERIFY(writer.release());
    QTRY_COMPARE_WITH_TIMEOUT(queueOf(*m_client, "/rw/golden").size(), 0, kWaitMs);
}

// Three readers hold together; a writer waits until the last of them is gone, and then
// holds alone: a reader arriving meanwhile waits for it.
void tst_EtcdReadWriteLock::readersShareWritersExclude()
{
    EtcdReadWriteLock r1(m_client.get(), "/rw/share", options()),
        r2(m_client.get(), "/rw/share", options()), r3(m_client.get(), "/rw/share", options()),
        w(m_client.get(), "/rw/share", options()), late(m_client.get(), "/rw/share", options());
    Grants g1(&r1), g2(&r2), g3(&r3), gw(&w), gl(&late);
    for (EtcdReadWriteLock *r : {&r1, &r2, &r3})
        QVERIFY(r->acquire(Mode::Read));
    QTRY_VERIFY_WITH_TIMEOUT(
        g1.modes.size() == 1 && g2.modes.size() == 1 && g3.modes.size() == 1, kWaitMs);
    QVERIFY(w.acquire(Mode::Write));
    QTRY_COMPARE_WITH_TIMEOUT(queueOf(*m_client, "/rw/share").size(), 4, kWaitMs);
    QVERIFY(r1.release());
    QVERIFY(r2.release());
    QTRY_COMPARE_WITH_TIMEOUT(queueOf(*m_client, "/rw/share").size(), 2, kWaitMs);
    QCOMPARE(gw.modes.size(), 0); // r3 still reads
    QVERIFY(r3.release());
    QTRY_COMPARE_WITH_TIMEOUT(gw.modes.size(), 1, kWaitMs);
    QVERIFY(late.acquire(Mode::Read));
    QTRY_COMPARE_WITH_TIMEOUT(queueOf(*m_client, "/rw/share").size(), 2, kWaitMs);
    QCOMPARE(gl.modes.size(), 0);
    QVERIFY(w.release());
    QTRY_COMPARE_WITH_TIMEOUT(gl.modes.size(), 1, kWaitMs);
    QVERIFY(late.release());
    QVERIFY(closeAndWait(&r1, &r2, &r3, &w, &late));
}

// A reader holds; a writer queues; readers that come after the writer wait behind it even
// though only a reader holds: the writer goes first.
void tst_EtcdReadWriteLock::writerIsNotStarvedByLaterReaders()
{
    EtcdReadWriteLock first(m_client.get(), "/rw/fair", options()),
        writer(m_client.get(), "/rw/fair", options()), later(m_client.get(), "/rw/fair", options());
    QStringList order;
    connect(&writer, &EtcdReadWriteLock::acquired, this, [&] { order << u"writer"_s; });
    connect(&later, &EtcdReadWriteLock::acquired, this, [&] { order << u"later reader"_s; });
    Grants g(&first);
    QVERIFY(first.acquire(Mode::Read));
    QTRY_COMPARE_WITH_TIMEOUT(g.modes.size(), 1, kWaitMs);
    QVERIFY(writer.acquire(Mode::Write));
    QTRY_COMPARE_WITH_TIMEOUT(queueOf(*m_client, "/rw/fair").size(), 2, kWaitMs);
    QVERIFY(later.acquire(Mode::Read));
    QTRY_COMPARE_WITH_TIMEOUT(queueOf(*m_client, "/rw/fair").size(), 3, kWaitMs);
    QVERIFY(order.isEmpty());
    QVERIFY(first.release());
    QTRY_COMPARE_WITH_TIMEOUT(order, QStringList {u"writer"_s}, kWaitMs);
    QVERIFY(writer.release());
    QTRY_COMPARE_WITH_TIMEOUT(order, (QStringList {u"writer"_s, u"later reader"_s}), kWaitMs);
    QVERIFY(later.release());
    QVERIFY(closeAndWait(&first, &writer, &later));
}

// From a worker: write, then read (admitted at once, past its own write entry), then
// unlock(): the writing ends, the reading stays; another reader now gets in, a writer not.
void tst_EtcdReadWriteLock::downgradeKeepsReading()
{
    EtcdReadWriteLock lock(m_client.get(), "/rw/down", options());
    EtcdReadWriteLock other(m_client.get(), "/rw/down", options());
    EtcdReadWriteLock writer(m_client.get(), "/rw/down", options());
    Grants go(&other), gw(&writer);
    std::atomic<int> step = 0;
    std::atomic<bool> ok = true, mayEnd = false;
    Worker worker([&] {
        ok = lock.lockForWrite() && lock.lockForRead() && lock.writeHoldCount() == 1
            && lock.readHoldCount() == 1;
        step = 1;
        ok = ok && lock.unlock() && lock.writeHoldCount() == 0 && lock.readHoldCount() == 1;
        step = 2;
        while (!mayEnd)
            std::this_thread::sleep_for(5ms); // holds the read lock until the test says
        ok = ok && lock.unlock();
    });
    QTRY_COMPARE_WITH_TIMEOUT(step.load(), 2, kWaitMs);
    QVERIFY(ok);
    QVERIFY(other.acquire(Mode::Read));
    QTRY_COMPARE_WITH_TIMEOUT(go.modes.size(), 1, kWaitMs);
    QVERIFY(writer.acquire(Mode::Write));
    QTRY_COMPARE_WITH_TIMEOUT(queueOf(*m_client, "/rw/down").size(), 3, kWaitMs);
    QVERIFY(other.release());
    QTRY_COMPARE_WITH_TIMEOUT(queueOf(*m_client, "/rw/down").size(), 2, kWaitMs);
    QCOMPARE(gw.modes.size(), 0); // the downgraded reader still reads
    mayEnd = true;
    QVERIFY(worker.finish());
    QVERIFY(ok);
    QTRY_COMPARE_WITH_TIMEOUT(gw.modes.size(), 1, kWaitMs);
    QVERIFY(writer.release());
    QVERIFY(closeAndWait(&lock, &other, &writer));
}

// A reader asking to write would wait for itself (and two such readers for each other):
// refused at once, with the reason in errors(), and the read hold kept.
void tst_EtcdReadWriteLock::upgradeIsRefused()
{
    EtcdReadWriteLock lock(m_client.get(), "/rw/up", options());
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"upgraded"_s));
    std::atomic<int> outcome = -1;
    QElapsedTimer timer;
    timer.start();
    Worker worker([&] {
        if (!lock.lockForRead())
            return;
        outcome = lock.lockForWrite() ? 1 : 0;
        if (lock.readHoldCount() != 1 || lock.writeHoldCount() != 0 || !lock.unlock())
            outcome = 2;
    });
    QVERIFY(worker.finish());
    QCOMPARE(outcome.load(), 0);
    QVERIFY(timer.elapsed() < 2 * kWaitMs);
    QTRY_VERIFY_WITH_TIMEOUT(!lock.errors().isEmpty(), kWaitMs); // recorded in its thread
    QCOMPARE(lock.errors().last().code(), Etcd::ErrorCode::FailedPrecondition);
    QVERIFY(closeAndWait(&lock));
    QCOMPARE(queueOf(*m_client, "/rw/up").size(), 0);
}

// A writer that cannot get in before its timeout returns false, and its entry is gone
// by then; no lease of it is left.
void tst_EtcdReadWriteLock::tryLockForWriteTimesOutAndLeavesNoKey()
{
    const QList<qint64> before = liveLeases(*m_client);
    EtcdReadWriteLock reader(m_client.get(), "/rw/try", options());
    EtcdReadWriteLock writer(m_client.get(), "/rw/try", options());
    Grants g(&reader);
    QVERIFY(reader.acquire(Mode::Read));
    QTRY_COMPARE_WITH_TIMEOUT(g.modes.size(), 1, kWaitMs);
    std::atomic<int> outcome = -1;
    Worker worker([&] { outcome = writer.tryLockForWrite(300ms) ? 1 : 0; });
    QVERIFY(worker.finish());
    QCOMPARE(outcome.load(), 0);
    QCOMPARE(queueOf(*m_client, "/rw/try").size(), 1); // the reader's only
    QVERIFY(reader.release());
    QVERIFY(closeAndWait(&reader, &writer));
    QCOMPARE(leasesSince(*m_client, before), QList<qint64>());
}

// The writer's lease revoked behind its back: lockLost(Write) once, state Lost, and the
// hold's release() answers false; a queued reader gets in.
void tst_EtcdReadWriteLock::lostWriteHoldIsReported()
{
    EtcdReadWriteLock writer(m_client.get(), "/rw/lost", options());
    EtcdReadWriteLock reader(m_client.get(), "/rw/lost", options());
    QSignalSpy lost(&writer, &EtcdReadWriteLock::lockLost);
    Grants gw(&writer), gr(&reader);
    QVERIFY(writer.acquire(Mode::Write));
    QTRY_COMPARE_WITH_TIMEOUT(gw.modes.size(), 1, kWaitMs);
    QVERIFY(reader.acquire(Mode::Read));
    QTRY_COMPARE_WITH_TIMEOUT(queueOf(*m_client, "/rw/lost").size(), 2, kWaitMs);
    QVERIFY_OK(await(m_client->revokeLease(writer.fencingToken().leaseId)).status);
    QTRY_COMPARE_WITH_TIMEOUT(lost.count(), 1, kWaitMs);
    QCOMPARE(lost.first().at(0).value<Mode>(), Mode::Write);
    QCOMPARE(writer.connectionState(), EtcdRecipe::ConnectionState::Lost);
    QTRY_COMPARE_WITH_TIMEOUT(gr.modes.size(), 1, kWaitMs);
    QVERIFY(!writer.release());
    QCOMPARE(lost.count(), 1);
    QVERIFY(reader.release());
    QVERIFY(closeAndWait(&writer, &reader));
}

// A worker's unlock()s delete their keys from the worker's own thread (issue 21 item 1): with
// the lock's thread busy for a TTL, a downgraded hold (write, then read) still ends in both
// unlock()s as soon as etcd answered, and the lock's thread then reads them as released.
void tst_EtcdReadWriteLock::workerUnlockDoesNotWaitForABusyOwnerThread()
{
    EtcdReadWriteLock lock(m_client.get(), "/rw/busyowner", options());
    QSignalSpy lost(&lock, &EtcdReadWriteLock::lockLost);
    const BusyOwnerUnlock run = unlockWhileOwnerBusy(
        [&] { return lock.lockForWrite() && lock.lockForRead(); },
        [&] { return int(lock.unlock()) + int(lock.unlock()); }, // the writing, then the reading
        kTtl);
    const QString fault = run.fault(2, kWaitMs / 10); // -1 ms: they waited for this thread
    QVERIFY2(fault.isEmpty(), qPrintable(fault));
    QTRY_COMPARE_WITH_TIMEOUT(queueOf(*m_client, "/rw/busyowner").size(), 0, kWaitMs);
    QCOMPARE(lost.count(), 0);
    QVERIFY(lock.errors().isEmpty());
    Grants again(&lock);
    QVERIFY(lock.acquire(Mode::Write));
    QTRY_COMPARE_WITH_TIMEOUT(again.modes.size(), 1, kWaitMs);
    QVERIFY(lock.release());
    QCOMPARE(lost.count(), 0);
    QVERIFY(closeAndWait(&lock));
}

// A worker's lockForWrite() and lockForRead() send their entry's transaction from the
// worker's own thread (issue 21 item 1): with the lock's thread busy for a TTL, each takes a
// free lock as soon as etcd answered.
void tst_EtcdReadWriteLock::workerLockDoesNotWaitForABusyOwnerThread()
{
    EtcdReadWriteLock lock(m_client.get(), "/rw/busylock", options());
    QSignalSpy lost(&lock, &EtcdReadWriteLock::lockLost);
    const auto cycle = [&] { return lock.lockForWrite() && lock.unlock(); };
    const auto settled = [&] { return queueOf(*m_client, "/rw/busylock").isEmpty(); };
    const auto unlock = [&] { return int(lock.unlock()); };
    const BusyOwnerLock writing = lockWhileOwnerBusy(
        cycle, settled, [&] { return lock.lockForWrite(); }, unlock, kTtl);
    QString fault = writing.fault(kWaitMs / 10);
    QVERIFY2(fault.isEmpty(), qPrintable(u"write: "_s + fault));
    const BusyOwnerLock reading = lockWhileOwnerBusy(
        cycle, settled, [&] { return lock.lockForRead(); }, unlock, kTtl);
    fault = reading.fault(kWaitMs / 10);
    QVERIFY2(fault.isEmpty(), qPrintable(u"read: "_s + fault));
    QTRY_COMPARE_WITH_TIMEOUT(queueOf(*m_client, "/rw/busylock").size(), 0, kWaitMs);
    QCOMPARE(lost.count(), 0);
    QVERIFY(lock.errors().isEmpty());
    QVERIFY(closeAndWait(&lock));
}

// A writer entry written the way a Kotlin etcd-recipes process writes it (on its own lease)
// keeps our reader waiting, and its deletion lets it in.
void tst_EtcdReadWriteLock::foreignWriterEntryBlocksReaders()
{
    const auto lease = await(m_client->grantLease(kTtl * 5));
    QVERIFY_OK(lease.status);
    EtcdPutOptions put;
    put.lease = lease->leaseId();
    const QByteArray foreign = "/rw/kotlin/write-DistributedReadWriteLock:kOtLiN1:abcdefg";
    QVERIFY_OK(await(m_client->put(foreign, "DistributedReadWriteLock:kOtLiN1", put)).status);
    EtcdReadWriteLock reader(m_client.get(), "/rw/kotlin", options());
    Grants g(&reader);
    QVERIFY(reader.acquire(Mode::Read));
    QTRY_COMPARE_WITH_TIMEOUT(queueOf(*m_client, "/rw/kotlin").size(), 2, kWaitMs);
    QVERIFY(g.modes.isEmpty());
    QVERIFY_OK(await(m_client->revokeLease(lease->leaseId())).status);
    QTRY_COMPARE_WITH_TIMEOUT(g.modes.size(), 1, kWaitMs);
    QVERIFY(reader.release());
    QVERIFY(closeAndWait(&reader));
}

// close() releases the holds of every thread and ends the waits: keys and leases gone,
// the blocked worker returns false, the holder's unlock() returns false.
void tst_EtcdReadWriteLock::closeReleasesEveryHold()
{
    const QList<qint64> before = liveLeases(*m_client);
    EtcdReadWriteLock lock(m_client.get(), "/rw/close", options());
    std::atomic<int> holder = -1, waiter = -1;
    std::atomic<bool> mayUnlock = false;
    Worker a([&] {
        holder = lock.lockForWrite() ? 1 : 0;
        while (!mayUnlock)
            std::this_thread::sleep_for(5ms);
        holder = lock.unlock() ? 3 : 2;
    });
    QTRY_COMPARE_WITH_TIMEOUT(holder.load(), 1, kWaitMs);
    Worker b([&] { waiter = lock.lockForRead() ? 1 : 0; });
    QTRY_COMPARE_WITH_TIMEOUT(queueOf(*m_client, "/rw/close").size(), 2, kWaitMs);
    QVERIFY(closeAndWait(&lock));
    QVERIFY(b.finish());
    QCOMPARE(waiter.load(), 0);
    mayUnlock = true;
    QVERIFY(a.finish());
    QCOMPARE(holder.load(), 2);
    QCOMPARE(queueOf(*m_client, "/rw/close").size(), 0);
    QCOMPARE(leasesSince(*m_client, before), QList<qint64>());
}

QTEST_GUILESS_MAIN(tst_EtcdReadWriteLock)
#include "tst_etcdreadwritelock.moc"
