// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// EtcdBarrier against a real etcd: etcd-recipes' DistributedBarrier scenarios (set twice,
// waiters time out then pass on removal, waiters that arrive before the barrier is set), its
// key layout, and the spurious-lift window of leases-and-loss.md reproduced by revoking the
// barrier's lease out of band.
#include "leaseledger.h"
#include "lockutil.h"

#include <EtcdQt/etcdbarrier.h>
#include <EtcdQt/etcdwatch.h>
#include <etcdtestserver.h>

#include <QtCore/qelapsedtimer.h>
#include <QtCore/qloggingcategory.h>
#include <QtCore/qregularexpression.h>
#include <QtCore/qscopeguard.h>

#include <mutex>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace {
constexpr auto kTtl = 2s;
constexpr int kWaitMs = kLockWaitMs; // five TTLs

EtcdBarrierOptions options(const QString &id = {}, std::chrono::seconds ttl = kTtl)
{
    EtcdBarrierOptions o;
    o.ttl = ttl;
    o.clientId = id;
    return o;
}

// The reply's answer, or nullopt when it failed (the failure is logged by QVERIFY_OK users).
std::optional<bool> answerOf(EtcdBoolReply *reply)
{
    const auto r = await(reply);
    if (!r.status.isOk())
        return std::nullopt;
    return r->result();
}
} // namespace

class tst_EtcdBarrier : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void keyLayoutIsEtcdRecipes();
    void setTwiceAndRemoveTwice();
    void waitersTimeOutThenPassOnRemoval();
    void waitersBeforeTheBarrierIsSet();
    void missingBarrierDoesNotBlockWhenAsked();
    void anyInstanceRemovesTheBarrier();
    void spuriousLiftRearmsForLaterWaiters();
    void healLosesToAnotherSetter();
    void setterSeesItsBarrierLifted();
    void setterSeesItsBarrierWrittenOver();
    void setterLearnsOfARemovalInCompactedHistory();
    void setterMovesItsOwnKeyOffItsOldLease();
    void waiterLiftsAfterItsHistoryWasCompacted();
    void cutOffWaiterReportsSuspendedThenReconnected();
    void badInputIsRefused();
    void closeReleasesWaitersAndLeavesNoLease();

private:
    EtcdTestServer m_server;
    LeaseLedger m_leases; // issue 22 item 7: no test leaves a lease
    std::unique_ptr<EtcdClient> m_client;
};

void tst_EtcdBarrier::initTestCase()
{
    ETCDQT_START_OR_SKIP(m_server);
    m_client = connectedClient(m_server.clientUrl());
}

void tst_EtcdBarrier::init()
{
    m_leases.begin(m_server);
}

void tst_EtcdBarrier::cleanup()
{
    VERIFY_NO_LEASE_LEFT(m_leases);
}

// "<path>" = "<clientId>:<7 [A-Za-z0-9]>", on a lease of the configured TTL.
void tst_EtcdBarrier::keyLayoutIsEtcdRecipes()
{
    EtcdBarrier barrier(m_client.get(), "/barrier/golden", options(u"app-1"_s));
    QCOMPARE(answerOf(barrier.setBarrier()), true);
    QCOMPARE(barrier.state(), EtcdBarrier::State::Set);
    const EtcdKeyValue kv = keyValueOf(*m_client, "/barrier/golden");
    QVERIFY(QRegularExpression(u"^app-1:[A-Za-z0-9]{7}$"_s)
                .match(QString::fromLatin1(kv.value))
                .hasMatch());
    QVERIFY(kv.lease > 0);
    const auto ttl = await(m_client->leaseTimeToLive(kv.lease));
    QCOMPARE(ttl->grantedTtl(), kTtl);
    QCOMPARE(answerOf(barrier.removeBarrier()), true);
    QCOMPARE(keyValueOf(*m_client, "/barrier/golden").key, QByteArray());

    EtcdBarrier unnamed(m_client.get(), "/barrier/golden");
    QVERIFY(QRegularExpression(u"^DistributedBarrier:[A-Za-z0-9]{7}$"_s)
                .match(unnamed.clientId())
                .hasMatch());
}

// The reference's barrierTest, first half: a second set is false, so is a second remove.
void tst_EtcdBarrier::setTwiceAndRemoveTwice()
{
    EtcdBarrier barrier(m_client.get(), "/barrier/twice", options());
    EtcdBarrier other(m_client.get(), "/barrier/twice", options());
    QCOMPARE(answerOf(barrier.isBarrierSet()), false);
    QCOMPARE(answerOf(barrier.setBarrier()), true);
    QCOMPARE(answerOf(barrier.setBarrier()), false);
    QCOMPARE(answerOf(other.setBarrier()), false); // someone else's is set
    QCOMPARE(other.state(), EtcdBarrier::State::Unset);
    QCOMPARE(answerOf(other.isBarrierSet()), true);
    QCOMPARE(answerOf(barrier.removeBarrier()), true);
    QCOMPARE(answerOf(barrier.removeBarrier()), false);
    QCOMPARE(answerOf(barrier.setBarrier()), false); // removed for good by this object
    QCOMPARE(answerOf(other.isBarrierSet()), false);
}

// The reference's barrierTest: 10 waiter threads each time out once, wait again, and all
// pass soon after removeBarrier().
void tst_EtcdBarrier::waitersTimeOutThenPassOnRemoval()
{
    constexpr int kWaiters = 10;
    EtcdBarrier setter(m_client.get(), "/barrier/ten", options());
    QCOMPARE(answerOf(setter.setBarrier()), true);
    auto other = connectedClient(m_server.clientUrl());
    EtcdBarrier waiters(other.get(), "/barrier/ten", options());
    std::atomic<int> timedOut {0};
    std::atomic<int> passed {0};
    std::mutex m;
    QList<qint64> passedAt;
    QElapsedTimer clock;
    clock.start();
    std::vector<std::unique_ptr<Worker>> threads;
    for (int i = 0; i < kWaiters; ++i) {
        threads.push_back(std::make_unique<Worker>([&] {
            if (!waiters.waitOnBarrier(1s))
                ++timedOut;
            if (waiters.waitOnBarrier(std::chrono::milliseconds(kWaitMs))) {
                std::lock_guard lock(m);
                passedAt.append(clock.elapsed());
                ++passed;
            }
        }));
    }
    QTRY_COMPARE_WITH_TIMEOUT(timedOut.load(), kWaiters, kWaitMs);
    QTRY_COMPARE_WITH_TIMEOUT(waiters.waiterCount(), kWaiters, kWaitMs);
    const qint64 removedAt = clock.elapsed();
    QCOMPARE(answerOf(setter.removeBarrier()), true);
    for (auto &t : threads)
        QVERIFY(t->finish());
    QCOMPARE(passed.load(), kWaiters);
    const qint64 slowest = *std::max_element(passedAt.begin(), passedAt.end()) - removedAt;
    qInfo("slowest waiter passed %lld ms after the removal was sent", slowest);
    QVERIFY2(slowest < 2000, "the reference allows 500 ms; 2 s on a loaded machine");
    QCOMPARE(waiters.waiterCount(), 0);
}

// The reference's earlySetBarrierTest: with waitOnMissingBarriers (the default), waiters
// that come before the barrier exists block until it is set and then removed.
void tst_EtcdBarrier::waitersBeforeTheBarrierIsSet()
{
    EtcdBarrier waiters(m_client.get(), "/barrier/early", options());
    QSignalSpy lifted(&waiters, &EtcdBarrier::lifted);
    waiters.startWaiting();
    std::atomic<int> passed {0};
    Worker worker([&] { passed += waiters.waitOnBarrier(std::chrono::milliseconds(kWaitMs)); });
    QTRY_COMPARE_WITH_TIMEOUT(waiters.waiterCount(), 2, kWaitMs);
    EtcdBarrier setter(m_client.get(), "/barrier/early", options());
    QCOMPARE(answerOf(setter.setBarrier()), true);
    QVERIFY(!lifted.wait(300)); // set, not removed: both still wait
    QCOMPARE(passed.load(), 0);
    QCOMPARE(answerOf(setter.removeBarrier()), true);
    QTRY_COMPARE_WITH_TIMEOUT(lifted.size(), 1, kWaitMs);
    QVERIFY(worker.finish());
    QCOMPARE(passed.load(), 1);
}

void tst_EtcdBarrier::missingBarrierDoesNotBlockWhenAsked()
{
    EtcdBarrierOptions o = options();
    o.waitOnMissingBarriers = false;
    EtcdBarrier barrier(m_client.get(), "/barrier/missing", o);
    QSignalSpy lifted(&barrier, &EtcdBarrier::lifted);
    barrier.startWaiting();
    QVERIFY(lifted.wait(kWaitMs));
    bool passed = false;
    Worker worker([&] { passed = barrier.waitOnBarrier(std::chrono::milliseconds(kWaitMs)); });
    QVERIFY(worker.finish());
    QVERIFY(passed);
}

// removeBarrier() on an object that never set the barrier deletes anyone's, as in the
// reference. The setter sees its barrier go while its lease lives: Lost, and says so.
void tst_EtcdBarrier::anyInstanceRemovesTheBarrier()
{
    EtcdBarrier setter(m_client.get(), "/barrier/anyone", options());
    QCOMPARE(answerOf(setter.setBarrier()), true);
    QSignalSpy lost(&setter, &EtcdBarrier::barrierLost);
    auto other = connectedClient(m_server.clientUrl());
    EtcdBarrier remover(other.get(), "/barrier/anyone", options());
    QSignalSpy lifted(&remover, &EtcdBarrier::lifted);
    remover.startWaiting();
    QTRY_COMPARE_WITH_TIMEOUT(remover.waiterCount(), 1, kWaitMs);
    QCOMPARE(answerOf(remover.removeBarrier()), true);
    QTRY_COMPARE_WITH_TIMEOUT(lifted.size(), 1, kWaitMs);
    QCOMPARE(answerOf(remover.isBarrierSet()), false);
    QTRY_COMPARE_WITH_TIMEOUT(lost.size(), 1, kWaitMs);
    QCOMPARE(lost.first().first().value<EtcdStatus>().code(), Etcd::ErrorCode::NotFound);
    QCOMPARE(setter.state(), EtcdBarrier::State::Lost);
}

// leases-and-loss.md, "The barrier's spurious-lift window": the setter's lease expires (here:
// revoked out of band), etcd deletes the key and the waiters pass; the owner sees Expired and
// Lost, and the heal re-arms the barrier, so a later waiter blocks again.
void tst_EtcdBarrier::spuriousLiftRearmsForLaterWaiters()
{
    EtcdBarrier setter(m_client.get(), "/barrier/spurious", options());
    QCOMPARE(answerOf(setter.setBarrier()), true);
    const qint64 firstLease = keyValueOf(*m_client, "/barrier/spurious").lease;
    QSignalSpy events(&setter, &EtcdBarrier::leaseEvent);
    QList<EtcdRecipe::ConnectionState> connection;
    connect(&setter, &EtcdRecipe::connectionStateChanged, this,
        [&](EtcdRecipe::ConnectionState s) { connection.append(s); });
    QList<EtcdBarrier::State> states;
    connect(
        &setter, &EtcdBarrier::stateChanged, this, [&](EtcdBarrier::State s) { states.append(s); });
    auto other = connectedClient(m_server.clientUrl());
    EtcdBarrier waiters(other.get(), "/barrier/spurious", options());
    QSignalSpy lifted(&waiters, &EtcdBarrier::lifted);
    waiters.startWaiting();
    waiters.startWaiting();
    QTRY_COMPARE_WITH_TIMEOUT(waiters.waiterCount(), 2, kWaitMs);

    QVERIFY_OK(await(other->revokeLease(firstLease)).status);
    QTRY_COMPARE_WITH_TIMEOUT(lifted.size(), 2, kWaitMs); // the spurious lift
    QTRY_VERIFY_WITH_TIMEOUT(
        setter.state() == EtcdBarrier::State::Set && events.size() >= 2, kWaitMs);
    QCOMPARE(events.at(0).at(0).value<EtcdLeaseEvent>().type, EtcdLeaseEvent::Type::Expired);
    QCOMPARE(events.at(1).at(0).value<EtcdLeaseEvent>().type, EtcdLeaseEvent::Type::Restored);
    QCOMPARE(
        states, (QList<EtcdBarrier::State> {EtcdBarrier::State::Lost, EtcdBarrier::State::Set}));
    QVERIFY(connection.contains(EtcdRecipe::ConnectionState::Lost));
    QCOMPARE(connection.last(), EtcdRecipe::ConnectionState::Reconnected);
    QVERIFY(!setter.errors().isEmpty()); // the expiry is recorded
    const EtcdKeyValue rearmed = keyValueOf(*m_client, "/barrier/spurious");
    QVERIFY(rearmed.lease > 0 && rearmed.lease != firstLease);

    bool laterPassed = true;
    Worker later([&] { laterPassed = waiters.waitOnBarrier(500ms); });
    QVERIFY(later.finish());
    QVERIFY(!laterPassed); // re-armed: a later waiter blocks
    QCOMPARE(answerOf(setter.removeBarrier()), true);
}

// The key is taken by another setter before the heal (etcd's answers reach the setter's
// client a second late): the heal's compare-and-set loses and this object stops maintaining
// the barrier (Failed), leaving the other's in place.
void tst_EtcdBarrier::healLosesToAnotherSetter()
{
    ProxiedClient side(m_server.clientPort());
    QVERIFY(side.started);
    EtcdBarrier setter(&side.client, "/barrier/taken", options({}, 6s)); // renewals 2 s apart
    QCOMPARE(answerOf(setter.setBarrier()), true);
    QSignalSpy failed(&setter, &EtcdBarrier::failed);
    const qint64 lease = keyValueOf(*m_client, "/barrier/taken").lease;
    auto other = connectedClient(m_server.clientUrl());
    side.proxy.setDelay(1s);
    QVERIFY_OK(await(other->revokeLease(lease)).status);
    QVERIFY_OK(await(other->put("/barrier/taken", "someone-else:AAAAAAA")).status);
    QTRY_COMPARE_WITH_TIMEOUT(failed.size(), 1, 3 * 6000);
    QCOMPARE(setter.state(), EtcdBarrier::State::Failed);
    QCOMPARE(keyValueOf(*m_client, "/barrier/taken").value, QByteArray("someone-else:AAAAAAA"));
    // The reference's removeBarrier() would delete the other's barrier here; a setter only
    // ever deletes its own, and says that this one is not.
    const auto removal = await(setter.removeBarrier());
    QCOMPARE(removal.status.code(), Etcd::ErrorCode::FailedPrecondition);
    QCOMPARE(removal->result(), false);
    QCOMPARE(keyValueOf(*m_client, "/barrier/taken").value, QByteArray("someone-else:AAAAAAA"));
    QVERIFY_OK(await(other->remove("/barrier/taken")).status);
}

// Lifted by someone else while its lease lives (here as the inspector does it: a delete
// guarded by the key's create revision): not an outage, so no heal. The setter goes Lost,
// says so, and lets go of its lease; the barrier stays lifted. Removing it afterwards finds
// it gone.
void tst_EtcdBarrier::setterSeesItsBarrierLifted()
{
    EtcdBarrier setter(m_client.get(), "/barrier/lifted", options());
    QCOMPARE(answerOf(setter.setBarrier()), true);
    const EtcdKeyValue kv = keyValueOf(*m_client, "/barrier/lifted");
    QSignalSpy lost(&setter, &EtcdBarrier::barrierLost);
    QSignalSpy errors(&setter, &EtcdRecipe::errorOccurred);
    auto other = connectedClient(m_server.clientUrl());
    EtcdTxn lift;
    lift.compares = {EtcdCompare::createRevision(
        "/barrier/lifted", Etcd::CompareResult::Equal, kv.createRevision)};
    lift.success = {EtcdTxnOp::remove("/barrier/lifted")};
    QVERIFY(await(other->txn(lift))->succeeded());
    QTRY_COMPARE_WITH_TIMEOUT(lost.size(), 1, kWaitMs);
    QCOMPARE(lost.first().first().value<EtcdStatus>().code(), Etcd::ErrorCode::NotFound);
    QCOMPARE(setter.state(), EtcdBarrier::State::Lost);
    QCOMPARE(setter.connectionState(), EtcdRecipe::ConnectionState::Lost);
    QCOMPARE(errors.size(), 1);
    QCOMPARE(setter.leaseId(), -1);
    QTRY_VERIFY_WITH_TIMEOUT(!liveLeases(*m_client).contains(kv.lease), kWaitMs); // revoked
    QCOMPARE(keyValueOf(*m_client, "/barrier/lifted").key, QByteArray()); // not set again
    QCOMPARE(answerOf(setter.setBarrier()), false);
    const auto removal = await(setter.removeBarrier());
    QVERIFY_OK(removal.status);
    QCOMPARE(removal->result(), true); // nothing of this object's is left
}

// Written over by someone else (a put without its lease): the setter goes Lost, lets go of
// its lease without taking the other's value along, and its removeBarrier() leaves it.
void tst_EtcdBarrier::setterSeesItsBarrierWrittenOver()
{
    EtcdBarrier setter(m_client.get(), "/barrier/over", options());
    QCOMPARE(answerOf(setter.setBarrier()), true);
    const qint64 lease = keyValueOf(*m_client, "/barrier/over").lease;
    QSignalSpy lost(&setter, &EtcdBarrier::barrierLost);
    auto other = connectedClient(m_server.clientUrl());
    QVERIFY_OK(await(other->put("/barrier/over", "someone-else:BBBBBBB")).status);
    QTRY_COMPARE_WITH_TIMEOUT(lost.size(), 1, kWaitMs);
    QCOMPARE(lost.first().first().value<EtcdStatus>().code(), Etcd::ErrorCode::AlreadyExists);
    QCOMPARE(setter.state(), EtcdBarrier::State::Lost);
    QCOMPARE(setter.connectionState(), EtcdRecipe::ConnectionState::Lost);
    QTRY_VERIFY_WITH_TIMEOUT(!liveLeases(*m_client).contains(lease), kWaitMs);
    const auto removal = await(setter.removeBarrier());
    QCOMPARE(removal.status.code(), Etcd::ErrorCode::FailedPrecondition);
    QCOMPARE(removal->result(), false);
    QCOMPARE(keyValueOf(*m_client, "/barrier/over").value, QByteArray("someone-else:BBBBBBB"));
    QVERIFY_OK(await(other->remove("/barrier/over")).status);
}

// The setter cut off while its barrier is removed and that history compacted: its watch of
// its own key cannot resume there, so it reads the key, finds it gone while its lease
// lives (the outage is shorter than the TTL), and goes Lost.
void tst_EtcdBarrier::setterLearnsOfARemovalInCompactedHistory()
{
    PartitionedClient side(m_server.clientPort());
    QVERIFY(side.started);
    EtcdBarrier setter(&side.client, "/barrier/compact-own", options({}, 10s));
    QCOMPARE(answerOf(setter.setBarrier()), true);
    QSignalSpy lost(&setter, &EtcdBarrier::barrierLost);
    side.proxy.setMode(FaultProxy::Mode::Reset);
    QVERIFY_OK(await(m_client->remove("/barrier/compact-own")).status);
    const auto put = await(m_client->put("/barrier/other-own", "x"));
    QVERIFY_OK(await(m_client->compact(put->revision())).status);
    // The read after the gap is only visible in the log: ask for it, and fail if it does not
    // come.
    QLoggingCategory::setFilterRules(u"etcdqt.barrier.debug=true"_s);
    const auto quiet = qScopeGuard([] { QLoggingCategory::setFilterRules({}); });
    QTest::ignoreMessage(
        QtDebugMsg, QRegularExpression(u"own key /barrier/compact-own: history compacted"_s));
    QCOMPARE(lost.size(), 0);
    side.proxy.setMode(FaultProxy::Mode::Pass);
    QTRY_COMPARE_WITH_TIMEOUT(lost.size(), 1, kWaitMs);
    QCOMPARE(lost.first().first().value<EtcdStatus>().code(), Etcd::ErrorCode::NotFound);
    QCOMPARE(setter.state(), EtcdBarrier::State::Lost);
    QCOMPARE(keyValueOf(*m_client, "/barrier/compact-own").key, QByteArray());
}

// A partition ends the setter's local deadline first: when its heal lands, its key is still on
// the old lease, which etcd still holds (a second client keeps renewing it, so etcd cannot
// expire it before the heal). That key is the setter's: moved to the new lease, the barrier
// stays set and the setter can still remove it.
void tst_EtcdBarrier::setterMovesItsOwnKeyOffItsOldLease()
{
    PartitionedClient side(m_server.clientPort());
    QVERIFY(side.started);
    EtcdBarrierOptions o = options();
    o.resilience.retryPolicy = EtcdRetryPolicy::exponentialBackoff(100ms, 1s);
    o.resilience.healOperationTimeout = 1s;
    EtcdBarrier setter(&side.client, "/barrier/own-lease", o);
    QSignalSpy lost(&setter, &EtcdBarrier::barrierLost);
    QSignalSpy failed(&setter, &EtcdBarrier::failed);
    QCOMPARE(answerOf(setter.setBarrier()), true);
    const qint64 old = setter.leaseId();
    EtcdKeepAlive keeper(m_client.get(), old, kTtl);
    keeper.start();
    side.proxy.setMode(FaultProxy::Mode::Blackhole);
    QTRY_COMPARE_WITH_TIMEOUT(setter.state(), EtcdBarrier::State::Lost, kWaitMs);
    side.proxy.setMode(FaultProxy::Mode::Pass);
    QTRY_COMPARE_WITH_TIMEOUT(setter.state(), EtcdBarrier::State::Set, kWaitMs);
    QVERIFY(setter.leaseId() != old);
    QCOMPARE(keyValueOf(*m_client, "/barrier/own-lease").lease, setter.leaseId());
    QVERIFY(setter.remainingValidity() > 0ms);
    QVERIFY(lost.isEmpty() && failed.isEmpty());
    keeper.stop();
    // It holds the key no more. The client that gave it up on its own clock may have revoked
    // it already (once etcd answers again, it revokes leases it abandoned): either is fine.
    const EtcdStatus revoked = await(m_client->revokeLease(old)).status;
    QVERIFY2(revoked.isOk() || revoked.code() == Etcd::ErrorCode::LeaseNotFound,
        qPrintable(revoked.toString()));
    QCOMPARE(keyValueOf(*m_client, "/barrier/own-lease").lease, setter.leaseId());
    QCOMPARE(answerOf(setter.removeBarrier()), true);
    QCOMPARE(keyValueOf(*m_client, "/barrier/own-lease").key, QByteArray());
}

// A waiter cut off while the barrier is removed and that history compacted: its watch
// cannot resume there, so it reads the barrier again, finds it gone, and lifts.
void tst_EtcdBarrier::waiterLiftsAfterItsHistoryWasCompacted()
{
    EtcdBarrier setter(m_client.get(), "/barrier/compact", options());
    QCOMPARE(answerOf(setter.setBarrier()), true);
    PartitionedClient side(m_server.clientPort());
    QVERIFY(side.started);
    EtcdBarrier waiter(&side.client, "/barrier/compact", options());
    QSignalSpy lifted(&waiter, &EtcdBarrier::lifted);
    waiter.startWaiting();
    QTRY_COMPARE_WITH_TIMEOUT(waiter.waiterCount(), 1, kWaitMs);
    // Reset, not Blackhole: no byte of the DELETE reaches the waiter before it reconnects.
    side.proxy.setMode(FaultProxy::Mode::Reset);
    QCOMPARE(answerOf(setter.removeBarrier()), true);
    const auto put = await(m_client->put("/barrier/other", "x"));
    QVERIFY_OK(await(m_client->compact(put->revision())).status);
    // The resync is only visible in the log: ask for it, and fail if it does not come.
    QLoggingCategory::setFilterRules(u"etcdqt.barrier.debug=true"_s);
    const auto quiet = qScopeGuard([] { QLoggingCategory::setFilterRules({}); });
    QTest::ignoreMessage(QtDebugMsg, QRegularExpression(u"/barrier/compact: history compacted"_s));
    QCOMPARE(lifted.size(), 0);
    side.proxy.setMode(FaultProxy::Mode::Pass);
    QTRY_COMPARE_WITH_TIMEOUT(lifted.size(), 1, kWaitMs);
}

// A waiter (no lease of its own: only its watch) cut off from etcd says Suspended, then
// Reconnected when its watch resumes, and still lifts when the barrier is removed.
void tst_EtcdBarrier::cutOffWaiterReportsSuspendedThenReconnected()
{
    using State = EtcdRecipe::ConnectionState;
    EtcdBarrier setter(m_client.get(), "/barrier/suspend", options());
    QCOMPARE(answerOf(setter.setBarrier()), true);
    PartitionedClient side(m_server.clientPort());
    QVERIFY(side.started);
    EtcdBarrier waiter(&side.client, "/barrier/suspend", options());
    QSignalSpy states(&waiter, &EtcdRecipe::connectionStateChanged);
    QSignalSpy lifted(&waiter, &EtcdBarrier::lifted);
    waiter.startWaiting();
    QTRY_COMPARE_WITH_TIMEOUT(waiter.waiterCount(), 1, kWaitMs);
    QVERIFY(watchesLive(side.client, kWaitMs)); // only a live watch is suspended
    side.proxy.setMode(FaultProxy::Mode::Reset);
    QTRY_COMPARE_WITH_TIMEOUT(waiter.connectionState(), State::Suspended, kWaitMs);
    side.proxy.setMode(FaultProxy::Mode::Pass);
    QTRY_COMPARE_WITH_TIMEOUT(waiter.connectionState(), State::Reconnected, kWaitMs);
    QList<State> seen;
    for (const QList<QVariant> &args : std::as_const(states))
        seen.append(args.at(0).value<State>());
    QCOMPARE(seen, QList<State>({State::Suspended, State::Reconnected}));
    QCOMPARE(lifted.size(), 0);
    QCOMPARE(answerOf(setter.removeBarrier()), true);
    QTRY_COMPARE_WITH_TIMEOUT(lifted.size(), 1, kWaitMs);
}

void tst_EtcdBarrier::badInputIsRefused()
{
    EtcdBarrier empty(m_client.get(), "", options());
    QCOMPARE(await(empty.setBarrier()).status.code(), Etcd::ErrorCode::InvalidArgument);
    QCOMPARE(await(empty.isBarrierSet()).status.code(), Etcd::ErrorCode::InvalidArgument);
    EtcdBarrier zeroTtl(m_client.get(), "/barrier/bad", options({}, 0s));
    QCOMPARE(await(zeroTtl.setBarrier()).status.code(), Etcd::ErrorCode::InvalidArgument);
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"own thread"_s));
    QVERIFY(!zeroTtl.waitOnBarrier(10ms));
}

// close() releases blocked waiters with false, and a barrier it set goes with its lease.
void tst_EtcdBarrier::closeReleasesWaitersAndLeavesNoLease()
{
    const QList<qint64> before = liveLeases(*m_client);
    auto barrier = std::make_unique<EtcdBarrier>(m_client.get(), "/barrier/close", options());
    QCOMPARE(answerOf(barrier->setBarrier()), true);
    std::atomic<int> released {0};
    std::atomic<int> passed {0};
    std::vector<std::unique_ptr<Worker>> threads;
    for (int i = 0; i < 3; ++i) {
        threads.push_back(std::make_unique<Worker>([&] {
            passed += barrier->waitOnBarrier();
            ++released;
        }));
    }
    QTRY_COMPARE_WITH_TIMEOUT(barrier->waiterCount(), 3, kWaitMs);
    QVERIFY(closeAndWait(barrier.get()));
    for (auto &t : threads)
        QVERIFY(t->finish());
    QCOMPARE(released.load(), 3);
    QCOMPARE(passed.load(), 0);
    QCOMPARE(keyValueOf(*m_client, "/barrier/close").key, QByteArray());
    QCOMPARE(leasesSince(*m_client, before), QList<qint64>());
}

QTEST_GUILESS_MAIN(tst_EtcdBarrier)
#include "tst_etcdbarrier.moc"
