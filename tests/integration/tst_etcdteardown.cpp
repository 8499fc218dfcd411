// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// Quitting strands nothing (issue 16, point 9): every recipe that owns a lease, destroyed
// together with its client in one event-loop turn, still revokes that lease. A second client
// sees none of those leases left within TTL/2 (a stranded lease outlives the last renewal by
// the TTL, so at least 2/3 of it), and a successor parked behind a lock or a leader takes
// over within 500 ms. With etcd paused the client's destructor still returns promptly.
#include "leaseledger.h"
#include "lockutil.h"

#include <EtcdQt/etcdbarrier.h>
#include <etcdtestserver.h>

#include <QtCore/qelapsedtimer.h>
#include <QtCore/qloggingcategory.h>
#include <QtCore/qscopeguard.h>

#include <condition_variable>
#include <mutex>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace {
constexpr auto kTtl = 3s;
constexpr int kTtlMs = 3000;
constexpr int kWaitMs = 5 * kTtlMs;
constexpr qint64 kHandOffMs = 500; // the bound for a successor taking over

// Runs until the term is over: the selector's destructor requests the stop and joins it.
void leadUntilStopped(EtcdLeaderSelector &, std::stop_token stop)
{
    std::mutex m;
    std::condition_variable_any cv;
    std::unique_lock lock(m);
    cv.wait(lock, stop, [] { return false; });
}

EtcdLeaderSelectorOptions candidate(const QString &id)
{
    return withId(id, kTtl);
}

// The lines the library logs for a revoke that did not get through ("revoking lease <id>
// failed: ..."). Whether etcd still saw a cancelled revoke is a race; this line is not, so
// a teardown that cut its revokes off fails here every time.
QStringList g_revokeFailures;
QtMessageHandler g_previousHandler = nullptr;

void recordRevokeFailures(QtMsgType type, const QMessageLogContext &context, const QString &text)
{
    if (text.startsWith(u"revoking lease"_s))
        g_revokeFailures.append(text);
    g_previousHandler(type, context, text);
}
} // namespace

class tst_EtcdTeardown : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void transientKeyValue();
    void leasedKeys();
    void selfHealingKeepAlive();
    void leaderSelector();
    void leaderLatch();
    void mutexHeld();
    void readWriteLockHeld();
    void semaphoreHeld();
    void barrierSet();
    void countedBarrierWaiting();
    void doubleBarrierWaiting();
    void recipesParentedToTheClient();
    void destructorIsBoundedWhileEtcdIsPaused();
    void callsMadeWhileTheClientGoesAreRefused();
    void grantsInFlightAsTheClientGoesAreRevoked();

private:
    // The leases created since init(), once `count` of them exist: the recipe's own.
    QList<qint64> ownLeases(int count);
    // Deletes `recipe`, then its client, in this one event-loop turn; the time both took.
    qint64 deleteBoth(QObject *recipe);
    // Whether none of `leases` is alive any more, as the second client sees it.
    bool allGone(const QList<qint64> &leases);
    // Whether every revoke of the test was answered by etcd (none was cut off).
    bool revokesAnswered();

    EtcdTestServer m_server;
    LeaseLedger m_leases; // issue 22 item 7: no test leaves a lease
    std::unique_ptr<EtcdClient> m_observer; // the second client
    EtcdClient *m_client = nullptr; // the recipe's own, deleted by each test
    QList<qint64> m_before;
};

void tst_EtcdTeardown::initTestCase()
{
    ETCDQT_START_OR_SKIP(m_server);
    m_observer = connectedClient(m_server.clientUrl());
    // The revoke failures are info lines: shown only when asked for.
    QLoggingCategory::setFilterRules(u"etcdqt.lease.info=true"_s);
    g_previousHandler = qInstallMessageHandler(recordRevokeFailures);
}

void tst_EtcdTeardown::init()
{
    g_revokeFailures.clear();
    m_client = connectedClient(m_server.clientUrl()).release();
    QTRY_COMPARE_WITH_TIMEOUT(m_client->state(), EtcdClient::State::Connected, kWaitMs);
    m_before = liveLeases(*m_observer);
    QVERIFY(!m_before.contains(-1));
    m_leases.begin(m_server);
}

// A test that failed before its teardown leaves its client: delete it here.
void tst_EtcdTeardown::cleanup()
{
    VERIFY_NO_LEASE_LEFT(m_leases);
    delete std::exchange(m_client, nullptr);
}

QList<qint64> tst_EtcdTeardown::ownLeases(int count)
{
    QList<qint64> now;
    const bool settled = QTest::qWaitFor(
        [&] {
            now = leasesSince(*m_observer, m_before);
            return now.size() == count;
        },
        kWaitMs);
    if (!settled)
        qWarning("expected %d leases of the recipe, etcd holds %lld new ones", count, now.size());
    return settled ? now : QList<qint64>();
}

qint64 tst_EtcdTeardown::deleteBoth(QObject *recipe)
{
    QElapsedTimer clock;
    clock.start();
    delete recipe;
    delete std::exchange(m_client, nullptr);
    return clock.elapsed();
}

bool tst_EtcdTeardown::revokesAnswered()
{
    if (g_revokeFailures.isEmpty())
        return true;
    qWarning() << "revokes that did not get through:" << g_revokeFailures;
    return false;
}

bool tst_EtcdTeardown::allGone(const QList<qint64> &leases)
{
    const QList<qint64> now = liveLeases(*m_observer);
    if (now.contains(-1))
        return false; // etcd did not answer
    return std::none_of(
        leases.cbegin(), leases.cend(), [&](qint64 id) { return now.contains(id); });
}

// The macro form keeps the failing line in the test function.
#define VERIFY_ALL_GONE_WITHIN_HALF_TTL(leases)                                                    \
    do {                                                                                           \
        QVERIFY(!(leases).isEmpty());                                                              \
        QVERIFY(revokesAnswered());                                                                \
        QTRY_VERIFY_WITH_TIMEOUT(allGone(leases), kTtlMs / 2);                                     \
    } while (false)

void tst_EtcdTeardown::transientKeyValue()
{
    auto *key = new EtcdTransientKeyValue(m_client, "/down/transient", "v", kTtl);
    QSignalSpy started(key, &EtcdTransientKeyValue::started);
    key->start();
    QVERIFY(started.wait(kWaitMs));
    const QList<qint64> ours = ownLeases(2); // and the client's standby lease
    qInfo("teardown took %lld ms", deleteBoth(key));
    VERIFY_ALL_GONE_WITHIN_HALF_TTL(ours);
    QCOMPARE(keyValueOf(*m_observer, "/down/transient").key, QByteArray());
}

void tst_EtcdTeardown::leasedKeys()
{
    auto *keys = Etcd::putWithKeepAlive(m_client, "/down/leased", "v", kTtl);
    QSignalSpy established(keys, &EtcdLeasedKeys::established);
    keys->start();
    QVERIFY(established.wait(kWaitMs));
    const QList<qint64> ours = ownLeases(1);
    qInfo("teardown took %lld ms", deleteBoth(keys));
    VERIFY_ALL_GONE_WITHIN_HALF_TTL(ours);
    QCOMPARE(keyValueOf(*m_observer, "/down/leased").key, QByteArray());
}

void tst_EtcdTeardown::selfHealingKeepAlive()
{
    auto *lease = new EtcdSelfHealingKeepAlive(
        m_client, kTtl, [](qint64, EtcdSelfHealingKeepAlive::EstablishDone done) { done(true); });
    QSignalSpy established(lease, &EtcdSelfHealingKeepAlive::established);
    lease->start();
    QVERIFY(established.wait(kWaitMs));
    const QList<qint64> ours = ownLeases(2); // and the client's standby lease
    qInfo("teardown took %lld ms", deleteBoth(lease));
    VERIFY_ALL_GONE_WITHIN_HALF_TTL(ours);
}

// The leader's two leases (leadership, participation) go, and the candidate parked on the
// second client is elected at once.
void tst_EtcdTeardown::leaderSelector()
{
    auto *leader = new EtcdLeaderSelector(m_client, "/down/elect", candidate(u"leader"_s));
    leader->setTakeLeadership(leadUntilStopped);
    TermLog log(leader);
    QVERIFY(leader->start());
    QTRY_COMPARE_WITH_TIMEOUT(log.count(u"elected"_s), 1, kWaitMs);
    const QList<qint64> ours = ownLeases(3); // and the client's standby lease
    EtcdLeaderSelector successor(m_observer.get(), "/down/elect", candidate(u"successor"_s));
    successor.setTakeLeadership(leadUntilStopped);
    TermLog next(&successor);
    QVERIFY(successor.start());
    QTRY_COMPARE_WITH_TIMEOUT(next.count(u"started"_s), 1, kWaitMs);
    QElapsedTimer handOff;
    handOff.start();
    qInfo("teardown took %lld ms", deleteBoth(leader));
    QTRY_COMPARE_WITH_TIMEOUT(next.count(u"elected"_s), 1, kWaitMs);
    qInfo("successor elected %lld ms after the teardown began", handOff.elapsed());
    QVERIFY(handOff.elapsed() < kHandOffMs);
    VERIFY_ALL_GONE_WITHIN_HALF_TTL(ours);
}

void tst_EtcdTeardown::leaderLatch()
{
    auto *leader = new EtcdLeaderLatch(m_client, "/down/latch", candidate(u"leader"_s));
    QSignalSpy elected(leader, &EtcdLeaderLatch::elected);
    QVERIFY(leader->start());
    QVERIFY(elected.wait(kWaitMs));
    const QList<qint64> ours = ownLeases(3); // and the client's standby lease
    EtcdLeaderLatch successor(m_observer.get(), "/down/latch", candidate(u"successor"_s));
    QSignalSpy next(&successor, &EtcdLeaderLatch::elected);
    QVERIFY(successor.start());
    QTRY_COMPARE_WITH_TIMEOUT(
        await(EtcdLeaderSelector::participants(m_observer.get(), "/down/latch"))
            ->participants()
            .size(),
        2, kWaitMs);
    QElapsedTimer handOff;
    handOff.start();
    qInfo("teardown took %lld ms", deleteBoth(leader));
    QTRY_COMPARE_WITH_TIMEOUT(next.size(), 1, kWaitMs);
    qInfo("successor elected %lld ms after the teardown began", handOff.elapsed());
    QVERIFY(handOff.elapsed() < kHandOffMs);
    VERIFY_ALL_GONE_WITHIN_HALF_TTL(ours);
}

// The hold's lease and the spare granted beside it both go; the waiter behind acquires.
void tst_EtcdTeardown::mutexHeld()
{
    EtcdMutexOptions o;
    o.ttl = kTtl;
    auto *holder = new EtcdMutex(m_client, "/down/mutex", o);
    QSignalSpy acquired(holder, &EtcdMutex::acquired);
    QVERIFY(holder->acquire());
    QVERIFY(acquired.wait(kWaitMs));
    const QList<qint64> ours = ownLeases(2);
    EtcdMutex successor(m_observer.get(), "/down/mutex", o);
    QSignalSpy next(&successor, &EtcdMutex::acquired);
    QVERIFY(successor.acquire());
    QTRY_COMPARE_WITH_TIMEOUT(queueOf(*m_observer, "/down/mutex").size(), 2, kWaitMs);
    QElapsedTimer handOff;
    handOff.start();
    qInfo("teardown took %lld ms", deleteBoth(holder));
    QTRY_COMPARE_WITH_TIMEOUT(next.size(), 1, kWaitMs);
    qInfo("successor acquired %lld ms after the teardown began", handOff.elapsed());
    QVERIFY(handOff.elapsed() < kHandOffMs);
    VERIFY_ALL_GONE_WITHIN_HALF_TTL(ours);
    QVERIFY(successor.release());
}

void tst_EtcdTeardown::readWriteLockHeld()
{
    EtcdReadWriteLockOptions o;
    o.ttl = kTtl;
    auto *holder = new EtcdReadWriteLock(m_client, "/down/rw", o);
    QSignalSpy acquired(holder, &EtcdReadWriteLock::acquired);
    QVERIFY(holder->acquire(EtcdReadWriteLock::Mode::Write));
    QVERIFY(acquired.wait(kWaitMs));
    const QList<qint64> ours = ownLeases(2);
    EtcdReadWriteLock successor(m_observer.get(), "/down/rw", o);
    QSignalSpy next(&successor, &EtcdReadWriteLock::acquired);
    QVERIFY(successor.acquire(EtcdReadWriteLock::Mode::Write));
    QTRY_COMPARE_WITH_TIMEOUT(queueOf(*m_observer, "/down/rw").size(), 2, kWaitMs);
    QElapsedTimer handOff;
    handOff.start();
    qInfo("teardown took %lld ms", deleteBoth(holder));
    QTRY_COMPARE_WITH_TIMEOUT(next.size(), 1, kWaitMs);
    qInfo("successor acquired %lld ms after the teardown began", handOff.elapsed());
    QVERIFY(handOff.elapsed() < kHandOffMs);
    VERIFY_ALL_GONE_WITHIN_HALF_TTL(ours);
    QVERIFY(successor.release());
}

void tst_EtcdTeardown::semaphoreHeld()
{
    EtcdSemaphoreOptions o;
    o.ttl = kTtl;
    auto *holder = new EtcdSemaphore(m_client, "/down/sem", 1, o);
    QSignalSpy acquired(holder, &EtcdSemaphore::acquired);
    QVERIFY(holder->acquire());
    QVERIFY(acquired.wait(kWaitMs));
    const QList<qint64> ours = ownLeases(2);
    EtcdSemaphore successor(m_observer.get(), "/down/sem", 1, o);
    QSignalSpy next(&successor, &EtcdSemaphore::acquired);
    QVERIFY(successor.acquire());
    QTRY_COMPARE_WITH_TIMEOUT(queueOf(*m_observer, "/down/sem/holders").size(), 2, kWaitMs);
    QElapsedTimer handOff;
    handOff.start();
    qInfo("teardown took %lld ms", deleteBoth(holder));
    QTRY_COMPARE_WITH_TIMEOUT(next.size(), 1, kWaitMs);
    qInfo("successor acquired %lld ms after the teardown began", handOff.elapsed());
    QVERIFY(handOff.elapsed() < kHandOffMs);
    VERIFY_ALL_GONE_WITHIN_HALF_TTL(ours);
    QVERIFY(successor.release());
}

// The barrier goes with its lease, so a waiter on the second client passes at once.
void tst_EtcdTeardown::barrierSet()
{
    EtcdBarrierOptions o;
    o.ttl = kTtl;
    auto *setter = new EtcdBarrier(m_client, "/down/barrier", o);
    QCOMPARE(await(setter->setBarrier())->result(), true);
    const QList<qint64> ours = ownLeases(2); // and the client's standby lease
    EtcdBarrier waiter(m_observer.get(), "/down/barrier", o);
    QSignalSpy lifted(&waiter, &EtcdBarrier::lifted);
    waiter.startWaiting();
    QTRY_COMPARE_WITH_TIMEOUT(waiter.waiterCount(), 1, kWaitMs);
    QElapsedTimer handOff;
    handOff.start();
    qInfo("teardown took %lld ms", deleteBoth(setter));
    QTRY_COMPARE_WITH_TIMEOUT(lifted.size(), 1, kWaitMs);
    qInfo("waiter passed %lld ms after the teardown began", handOff.elapsed());
    QVERIFY(handOff.elapsed() < kHandOffMs);
    VERIFY_ALL_GONE_WITHIN_HALF_TTL(ours);
    QCOMPARE(keyValueOf(*m_observer, "/down/barrier").key, QByteArray());
}

// A member parked at a counted barrier leaves it: its waiting key goes with its lease.
void tst_EtcdTeardown::countedBarrierWaiting()
{
    EtcdCountedBarrierOptions o;
    o.ttl = kTtl;
    auto *member = new EtcdCountedBarrier(m_client, "/down/counted", 2, o);
    member->arrive();
    QTRY_COMPARE_WITH_TIMEOUT(member->waiterCount(), 1, kWaitMs);
    const QList<qint64> ours = ownLeases(2); // and the client's standby lease
    qInfo("teardown took %lld ms", deleteBoth(member));
    VERIFY_ALL_GONE_WITHIN_HALF_TTL(ours);
    QCOMPARE(queueOf(*m_observer, "/down/counted/waiting").size(), 0);
}

void tst_EtcdTeardown::doubleBarrierWaiting()
{
    EtcdCountedBarrierOptions o;
    o.ttl = kTtl;
    auto *member = new EtcdDoubleBarrier(m_client, "/down/double", 2, o);
    member->startEnter();
    QTRY_COMPARE_WITH_TIMEOUT(member->enterWaiterCount(), 1, kWaitMs);
    const QList<qint64> ours = ownLeases(2); // and the client's standby lease
    qInfo("teardown took %lld ms", deleteBoth(member));
    VERIFY_ALL_GONE_WITHIN_HALF_TTL(ours);
    QCOMPARE(queueOf(*m_observer, "/down/double/enter/waiting").size(), 0);
}

// Recipes made with the client as their parent: the client destroys them first, while it
// still works, so deleting the client alone releases what they hold.
void tst_EtcdTeardown::recipesParentedToTheClient()
{
    EtcdMutexOptions o;
    o.ttl = kTtl;
    auto *holder = new EtcdMutex(m_client, "/down/child-mutex", o, m_client);
    auto *key = new EtcdTransientKeyValue(m_client, "/down/child-key", "v", kTtl, {}, m_client);
    QSignalSpy acquired(holder, &EtcdMutex::acquired);
    QSignalSpy started(key, &EtcdTransientKeyValue::started);
    QVERIFY(holder->acquire());
    key->start();
    QTRY_VERIFY_WITH_TIMEOUT(acquired.size() == 1 && started.size() == 1, kWaitMs);
    const QList<qint64> ours = ownLeases(4); // hold, spare, key, standby
    EtcdMutex successor(m_observer.get(), "/down/child-mutex", o);
    QSignalSpy next(&successor, &EtcdMutex::acquired);
    QVERIFY(successor.acquire());
    QTRY_COMPARE_WITH_TIMEOUT(queueOf(*m_observer, "/down/child-mutex").size(), 2, kWaitMs);
    QElapsedTimer handOff;
    handOff.start();
    delete std::exchange(m_client, nullptr);
    QTRY_COMPARE_WITH_TIMEOUT(next.size(), 1, kWaitMs);
    qInfo("successor acquired %lld ms after the client's deletion began", handOff.elapsed());
    QVERIFY(handOff.elapsed() < kHandOffMs);
    VERIFY_ALL_GONE_WITHIN_HALF_TTL(ours);
    QCOMPARE(keyValueOf(*m_observer, "/down/child-key").key, QByteArray());
    QVERIFY(successor.release());
}

// A paused etcd keeps its connections open and answers nothing: the revoke can only be
// given up. The destructor waits for it no longer than its 500 ms bound.
void tst_EtcdTeardown::destructorIsBoundedWhileEtcdIsPaused()
{
    auto *key = new EtcdTransientKeyValue(m_client, "/down/paused", "v", kTtl);
    QSignalSpy started(key, &EtcdTransientKeyValue::started);
    key->start();
    QVERIFY(started.wait(kWaitMs));
    QVERIFY(m_server.pause());
    const auto resume = qScopeGuard([this] { m_server.resume(); });
    m_leases.excuse("the revokes cannot reach a paused etcd: the leases expire on their TTL");
    const qint64 took = deleteBoth(key);
    qInfo("teardown with etcd paused took %lld ms", took);
    QVERIFY2(took >= 450, "the revoke cannot have been answered: the bound was waited out");
    QVERIFY2(took < 750, "500 ms for the revoke, the rest to cancel and stop the engine");
    // Given up, and said so: the key's lease and the client's standby lease (granted, or its
    // grant in flight: its id is the client's, so it is revoked either way).
    QCOMPARE(g_revokeFailures.size(), 2);
}

// A reply's handler that runs while the client is destroyed (the destructor finishes every
// outstanding reply) and calls the client again, as a recipe revoking the lease of a grant
// whose answer it lost does: the call is refused (Cancelled), not sent to a transport that
// is shutting down, and its reply goes with the client. Such replies outlived the client's
// bookkeeping and were deleted after it (heap-use-after-free: the ASan pass fails here
// without the fix; found by the lease-accounting work in tst_docsnippets).
void tst_EtcdTeardown::callsMadeWhileTheClientGoesAreRefused()
{
    EtcdClient *client = std::exchange(m_client, nullptr);
    EtcdRangeReply *outstanding = client->get("/down/outstanding");
    std::optional<EtcdStatus> answered;
    QPointer<EtcdReply> nested;
    connect(outstanding, &EtcdReply::finished, this, [&](const EtcdStatus &status) {
        answered = status;
        nested = client->revokeLease(12345);
        QVERIFY(nested);
        QCOMPARE(nested->parent(), client);
    });
    delete client; // in this turn: the get is still outstanding
    QVERIFY(answered.has_value());
    QVERIFY2(answered->code() == Etcd::ErrorCode::Cancelled || answered->isOk(),
        qPrintable(answered->toString()));
    QVERIFY(nested.isNull()); // went with its client
}

// A grant in flight as the client is destroyed is nobody's (its caller gets Cancelled, without
// the id): answered within the destructor's grace, its lease is revoked there, not left to its
// TTL (a minute here). Found by the lease accounting: a heal's grant in flight as a client
// was deleted left a keyless lease behind.
void tst_EtcdTeardown::grantsInFlightAsTheClientGoesAreRevoked()
{
    EtcdClient *client = std::exchange(m_client, nullptr);
    for (int i = 0; i < 5; ++i)
        client->grantLease(60s);
    client->grantLease(60s, 0x7e57000000000001);
    QElapsedTimer clock;
    clock.start();
    delete client; // in this turn: every grant is still in flight
    const qint64 took = clock.elapsed();
    QVERIFY2(took < 750, qPrintable(u"the destructor took %1 ms"_s.arg(took)));
    QCOMPARE(g_revokeFailures, QStringList());
    // At once: the revokes were answered inside the destructor.
    QCOMPARE(leasesSince(*m_observer, m_before), QList<qint64>());
}

QTEST_GUILESS_MAIN(tst_EtcdTeardown)
#include "tst_etcdteardown.moc"
