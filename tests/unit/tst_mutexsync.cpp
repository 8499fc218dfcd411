// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// A lock's per-thread hold book (MutexSync): reentrancy, what a hold whose lease deadline
// passed is worth before the engine has told anyone, and releases the lock's thread has not
// heard of yet. Pure logic: the leases are LeaseShared deadlines set by the test.
#include "mutexsync_p.h"

#include <QtTest/qtest.h>

#include <thread>

using namespace Etcd::Internal;
using namespace std::chrono_literals;

namespace {
std::shared_ptr<LeaseShared> leaseLasting(std::chrono::steady_clock::duration left)
{
    auto lease = std::make_shared<LeaseShared>();
    lease->setDeadline(std::chrono::steady_clock::now() + left);
    return lease;
}

EtcdFencingToken tokenOn(qint64 lease, qint64 revision)
{
    EtcdFencingToken token;
    token.key = "/lock/" + QByteArray::number(lease, 16);
    token.leaseId = lease;
    token.revision = revision;
    return token;
}
} // namespace

class tst_MutexSync : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void liveHoldIsReentered();
    void expiredHoldIsNotReentered();
    void newHoldAfterExpiredOneReleasesFirst();
    void engineLossAfterRefusalCountsOnce();
    void lastReleaseIsNotedUntilHeard();
    void lossIsNoRelease();
};

void tst_MutexSync::liveHoldIsReentered()
{
    MutexSync sync;
    const auto t = std::this_thread::get_id();
    sync.hold(t, tokenOn(0x10, 5), 1, leaseLasting(1h));
    QVERIFY(sync.reenter(t));
    QCOMPARE(sync.holdCount(t), 2);
    quint64 id = 0;
    QCOMPARE(sync.release(t, &id), HoldBook::Release::Nested);
    QCOMPARE(sync.release(t, &id), HoldBook::Release::Last);
    QCOMPARE(id, quint64(1));
    QCOMPARE(sync.release(t, &id), HoldBook::Release::NotHeld);
}

// The owner thread may run before the engine after a pause (SIGSTOP past the TTL): the hold
// reads as not held, and lock()/acquire() must queue anew rather than count it again.
void tst_MutexSync::expiredHoldIsNotReentered()
{
    MutexSync sync;
    const auto t = std::this_thread::get_id();
    const EtcdFencingToken token = tokenOn(0x10, 5);
    sync.hold(t, token, 1, leaseLasting(-1ms));
    QCOMPARE(sync.holdCount(t), 0);
    QVERIFY(!sync.token(t).isValid());
    QVERIFY(!sync.reenter(t));
    QCOMPARE(sync.holdCount(t), 0);
    QCOMPARE(sync.remainingValidity(token), 0ms);
    // Its unlock() says it was lost, once; then nothing is held.
    quint64 id = 0;
    QCOMPARE(sync.release(t, &id), HoldBook::Release::Dispossessed);
    QCOMPARE(sync.release(t, &id), HoldBook::Release::NotHeld);
}

// The new hold is the thread's live one: its release comes first, then the lost one's.
void tst_MutexSync::newHoldAfterExpiredOneReleasesFirst()
{
    MutexSync sync;
    const auto t = std::this_thread::get_id();
    sync.hold(t, tokenOn(0x10, 5), 1, leaseLasting(-1ms));
    QVERIFY(!sync.reenter(t));
    const EtcdFencingToken fresh = tokenOn(0x20, 9);
    sync.hold(t, fresh, 2, leaseLasting(1h));
    QCOMPARE(sync.token(t).revision, fresh.revision);
    QVERIFY(sync.reenter(t));
    quint64 id = 0;
    QCOMPARE(sync.release(t, &id), HoldBook::Release::Nested);
    QCOMPARE(sync.release(t, &id), HoldBook::Release::Last);
    QCOMPARE(id, quint64(2));
    QCOMPARE(sync.release(t, &id), HoldBook::Release::Dispossessed);
    QCOMPARE(sync.release(t, &id), HoldBook::Release::NotHeld);
}

// The engine's own verdict, arriving after the refusal, finds nothing left to dispossess.
void tst_MutexSync::engineLossAfterRefusalCountsOnce()
{
    MutexSync sync;
    const auto t = std::this_thread::get_id();
    sync.hold(t, tokenOn(0x10, 5), 1, leaseLasting(-1ms));
    QVERIFY(!sync.reenter(t));
    sync.loseLease(0x10);
    QVERIFY(!sync.dispossess(1));
    quint64 id = 0;
    QCOMPARE(sync.release(t, &id), HoldBook::Release::Dispossessed);
    QCOMPARE(sync.release(t, &id), HoldBook::Release::NotHeld);
}

// A worker's release reaches the lock's thread after its delete: until then the book says
// the hold was released (not lost), once, and only for the last release.
void tst_MutexSync::lastReleaseIsNotedUntilHeard()
{
    MutexSync sync;
    const auto t = std::this_thread::get_id();
    sync.hold(t, tokenOn(0x10, 5), 1, leaseLasting(1h));
    QVERIFY(sync.isRecorded(1));
    QVERIFY(sync.reenter(t));
    quint64 id = 0;
    QCOMPARE(sync.release(t, &id), HoldBook::Release::Nested);
    QVERIFY(!sync.released(1));
    QCOMPARE(sync.release(t, &id), HoldBook::Release::Last);
    QVERIFY(!sync.isRecorded(1));
    QVERIFY(sync.released(1));
    QVERIFY(sync.released(1, true));
    QVERIFY(!sync.released(1));
    sync.hold(t, tokenOn(0x20, 9), 2, leaseLasting(1h));
    QCOMPARE(sync.release(t, &id), HoldBook::Release::Last);
    sync.close();
    QVERIFY(!sync.released(2)); // the lock's end settles every release
}

// The engine's loss is not a release: the lock's thread reports it.
void tst_MutexSync::lossIsNoRelease()
{
    MutexSync sync;
    const auto t = std::this_thread::get_id();
    sync.hold(t, tokenOn(0x10, 5), 1, leaseLasting(1h));
    sync.loseLease(0x10);
    QVERIFY(!sync.isRecorded(1));
    QVERIFY(!sync.released(1));
    quint64 id = 0;
    QCOMPARE(sync.release(t, &id), HoldBook::Release::Dispossessed);
    QVERIFY(!sync.released(1));
}

QTEST_GUILESS_MAIN(tst_MutexSync)
#include "tst_mutexsync.moc"
