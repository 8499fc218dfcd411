// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// Leases as the spec describes them (spec/leases.md, spec/leases-and-loss.md): scoped and
// unscoped keep-alive, keys on one lease, self-healing, transient keys, connection state.
// Real etcd, real faults; every wait is derived from the TTL the test sets.
#include "leaseledger.h"
#include "testutil.h"

#include <etcdtestserver.h>
#include <faultproxy.h>

#include <EtcdQt/etcdwatch.h>

#include <QtCore/qelapsedtimer.h>
#include <QtCore/qthread.h>

#include <thread>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using Etcd::ErrorCode;
using LeaseType = EtcdLeaseEvent::Type;
using Conn = EtcdRecipe::ConnectionState;

namespace {
constexpr auto kTtl = 2s; // etcd's minimum at default raft timings
constexpr int kTtlMs = 2000;

// Everything a recipe reports, in order, and the thread it arrived in.
struct Events
{
    template <class R>
    explicit Events(R *recipe)
    {
        QObject::connect(recipe, &R::leaseEvent, recipe, [this](const EtcdLeaseEvent &e) {
            types.append(e.type);
            events.append(e);
            sameThread = sameThread && QThread::currentThread() == owner;
        });
        QObject::connect(recipe, &EtcdRecipe::connectionStateChanged, recipe,
            [this](Conn s) { states.append(s); });
        QObject::connect(
            recipe, &R::failed, recipe, [this](const EtcdStatus &s) { failures.append(s); });
    }
    QThread *owner = QThread::currentThread();
    QList<LeaseType> types;
    QList<EtcdLeaseEvent> events;
    QList<Conn> states;
    QList<EtcdStatus> failures;
    bool sameThread = true;
};

// Starts a transient key and waits (a TTL at most) until it is written.
bool startedInTime(EtcdTransientKeyValue &kv)
{
    QSignalSpy started(&kv, &EtcdTransientKeyValue::started);
    kv.start();
    return started.wait(kTtlMs);
}

EtcdLeaseResilience fastHealing(std::chrono::milliseconds timeout = 1s)
{
    EtcdLeaseResilience r;
    r.retryPolicy = EtcdRetryPolicy::exponentialBackoff(100ms, 1s);
    r.healOperationTimeout = timeout;
    return r;
}

// Creates `key` = `value` under the lease only if nobody holds the key: a hook that restores
// ownership where it is free and never reclaims it.
EtcdSelfHealingKeepAlive::EstablishHook createIfAbsent(
    EtcdClient *c, const QByteArray &key, const QByteArray &value)
{
    return [c, key, value](qint64 leaseId, std::function<void(bool)> done) {
        EtcdTxn txn;
        txn.compares = {EtcdCompare::version(key, Etcd::CompareResult::Equal, 0)};
        EtcdPutOptions put;
        put.lease = leaseId;
        txn.success = {EtcdTxnOp::put(key, value, put)};
        auto *reply = c->txn(txn);
        QObject::connect(reply, &EtcdReply::finished, c,
            [reply, done](const EtcdStatus &s) { done(s.isOk() && reply->succeeded()); });
    };
}
} // namespace

class tst_EtcdLeases : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void scopedKeepAliveRenewsOnlyWhileAlive();
    void leasedKeysShareOneLeaseAndGoOnClose();
    void putFailureRevokesTheLease();
    void valueEncodingsAreGolden();
    void blackholedRenewalReportsKeepAliveFailed();
    void revokedOutOfBandHealsUnderNewLease();
    void revokeHealsOnEtcdsAnswerNotAtTheNextRenewal();
    void deletedTransientKeyLeavesNoLeaseGrantedAhead();
    void revokeHealsAsTheDeletionIsSeen();
    void oneStandbyPerTtlRenewedAndRevokedWithTheLast();
    void takenKeyDuringOutageFailsWithoutTouchingIt();
    void transientKeyTakenDuringOutageStaysTheirs_data();
    void transientKeyTakenDuringOutageStaysTheirs();
    void transientKeyHeldAtStartIsNotTaken();
    void transientKeyMovesOwnKeyOffItsOldLease();
    void healMovesTheKeyBeforeTheAbandonedLeaseGoes();
    void leasedKeysNeverWriteBackAfterLoss();
    void pausedEtcdSuspendsExpiresThenRestores();
    void closeRevokesAtOnce();
    void neverPolicyStopsAtExpired();
    void healAttemptsGiveUpAtHealTimeout();
    void blockedOwnerThreadKeepsLeaseAlive();
    void pingAndHealth();
    void badInput();
    void destroyedFromOwnSignal();
    void closeWhileEstablishingLeavesNoLease();
    void closeWhileGrantingLeavesNoLease();
    void clientGoneEndsHealing();

private:
    qint64 grant(EtcdClient &c, std::chrono::seconds ttl = kTtl);
    QList<qint64> leaseIds();
    QByteArray value(const QByteArray &key);
    EtcdTestServer m_server;
    LeaseLedger m_leases; // issue 22 item 7: no test leaves a lease
    std::unique_ptr<EtcdClient> m_client; // the test's own view, never faulted
};

void tst_EtcdLeases::initTestCase()
{
    ETCDQT_START_OR_SKIP(m_server);
    m_client = connectedClient(m_server.clientUrl());
}

void tst_EtcdLeases::init()
{
    if (m_server.isPaused())
        m_server.resume();
    m_leases.begin(m_server);
}

// No test leaves a lease behind: whatever it closed is gone from the cluster.
void tst_EtcdLeases::cleanup()
{
    VERIFY_NO_LEASE_LEFT(m_leases);
    if (m_server.isPaused())
        m_server.resume();
    QTRY_VERIFY_WITH_TIMEOUT(leaseIds().isEmpty(), 2 * kTtlMs);
}

qint64 tst_EtcdLeases::grant(EtcdClient &c, std::chrono::seconds ttl)
{
    const auto g = await(c.grantLease(ttl));
    return g.status.isOk() ? g->leaseId() : 0;
}

QList<qint64> tst_EtcdLeases::leaseIds()
{
    const auto r = await(m_client->leases());
    return r.status.isOk() ? r->leaseIds() : QList<qint64> {-1};
}

QByteArray tst_EtcdLeases::value(const QByteArray &key)
{
    const auto r = await(m_client->get(key));
    return r.status.isOk() && !r->keyValues().isEmpty() ? r->keyValues().first().value
                                                        : QByteArray();
}

void tst_EtcdLeases::scopedKeepAliveRenewsOnlyWhileAlive()
{
    const qint64 id = grant(*m_client);
    int failures = 0;
    {
        EtcdScopedKeepAlive scope(
            m_client.get(), id, kTtl, [&](const EtcdStatus &) { ++failures; });
        QTest::qWait(2 * kTtlMs); // two TTLs: only renewals keep it alive
        QVERIFY(await(m_client->leaseTimeToLive(id))->ttl() > 0s);
    }
    // Out of scope: renewal stopped, silently, and etcd lets the lease run out.
    QTRY_VERIFY_WITH_TIMEOUT(await(m_client->leaseTimeToLive(id))->ttl() <= 0s, 2 * kTtlMs);
    QCOMPARE(failures, 0);
}

void tst_EtcdLeases::leasedKeysShareOneLeaseAndGoOnClose()
{
    EtcdLeasedKeys *keys = Etcd::putValuesWithKeepAlive(m_client.get(),
        {{"/svc/w1/host"_ba, "10.0.0.1"_ba}, {"/svc/w1/port"_ba, Etcd::encodeInt32(8080)}}, kTtl,
        this);
    QSignalSpy established(keys, &EtcdLeasedKeys::established);
    QVERIFY(established.wait(kTtlMs));
    const qint64 id = keys->leaseId();
    QTest::qWait(2 * kTtlMs); // renewed past two TTLs
    const auto both = await(m_client->get("/svc/w1/"_ba, {.prefix = true}));
    QCOMPARE(both->keyValues().size(), 2);
    for (const EtcdKeyValue &kv : both->keyValues())
        QCOMPARE(kv.lease, id);
    QVERIFY(keys->remainingValidity() > 0ms);
    QSignalSpy failed(keys, &EtcdLeasedKeys::keepAliveFailed);
    QSignalSpy closed(keys, &EtcdRecipe::closed);
    keys->close();
    keys->close(); // twice is harmless
    QVERIFY(closed.wait(kTtlMs)); // etcd answered the revoke
    QCOMPARE(await(m_client->get("/svc/w1/"_ba, {.prefix = true}))->keyValues().size(), 0);
    QVERIFY(!leaseIds().contains(id));
    QCOMPARE(failed.size(), 0); // our own close is never a failure
    delete keys;
}

void tst_EtcdLeases::putFailureRevokesTheLease()
{
    const QByteArray tooLarge(2 * 1024 * 1024, 'x'); // over etcd's 1.5 MiB request limit
    std::unique_ptr<EtcdLeasedKeys> keys(Etcd::putValuesWithKeepAlive(
        m_client.get(), {{"/half/a"_ba, "ok"_ba}, {"/half/b"_ba, tooLarge}}, kTtl));
    QSignalSpy failed(keys.get(), &EtcdLeasedKeys::failed);
    QVERIFY(failed.wait(kTtlMs));
    QCOMPARE(keys->state(), EtcdLeasedKeys::State::Failed);
    QCOMPARE(keys->errors().size(), 1);
    // The lease is revoked at once, so the key that did make it is gone too.
    QTRY_VERIFY_WITH_TIMEOUT(leaseIds().isEmpty(), kTtlMs / 2);
    QCOMPARE(value("/half/a"_ba), QByteArray());
}

void tst_EtcdLeases::valueEncodingsAreGolden()
{
    std::vector<std::unique_ptr<EtcdLeasedKeys>> keys;
    keys.emplace_back(Etcd::putWithKeepAlive(m_client.get(), "/enc/i32"_ba, qint32(8080), kTtl));
    keys.emplace_back(
        Etcd::putWithKeepAlive(m_client.get(), "/enc/i64"_ba, qint64(0x0102030405060708), kTtl));
    keys.emplace_back(Etcd::putWithKeepAlive(m_client.get(), "/enc/text"_ba, u"é✓"_s, kTtl));
    keys.emplace_back(Etcd::putWithKeepAlive(m_client.get(), "/enc/ascii"_ba, "10.0.0.1", kTtl));
    for (auto &k : keys)
        QTRY_COMPARE_WITH_TIMEOUT(k->state(), EtcdLeasedKeys::State::Alive, kTtlMs);
    QCOMPARE(value("/enc/i32"_ba), QByteArray::fromHex("00001f90"));
    QCOMPARE(value("/enc/i64"_ba), QByteArray::fromHex("0102030405060708"));
    QCOMPARE(value("/enc/text"_ba), QByteArray::fromHex("c3a9e29c93"));
    QCOMPARE(value("/enc/ascii"_ba), "10.0.0.1"_ba);
    QCOMPARE(EtcdJsonCodec::encode(QJsonDocument::fromJson(R"({"x": 1})")), R"({"x":1})"_ba);
    QCOMPARE(EtcdInt32Codec::decode(QByteArray::fromHex("fffffffe")), std::optional<qint32>(-2));
}

void tst_EtcdLeases::blackholedRenewalReportsKeepAliveFailed()
{
    PartitionedClient side(m_server.clientPort());
    QVERIFY(side.started);
    FaultProxy &proxy = side.proxy;
    EtcdClient &client = side.client;
    std::unique_ptr<EtcdLeasedKeys> keys(
        Etcd::putWithKeepAlive(&client, "/bh/key"_ba, "v"_ba, kTtl));
    QTRY_COMPARE_WITH_TIMEOUT(keys->state(), EtcdLeasedKeys::State::Alive, kTtlMs);
    QSignalSpy failed(keys.get(), &EtcdLeasedKeys::keepAliveFailed);
    proxy.setMode(FaultProxy::Mode::Blackhole);
    QTRY_COMPARE_WITH_TIMEOUT(keys->connectionState(), Conn::Suspended, kTtlMs);
    QVERIFY(failed.wait(2 * kTtlMs)); // no renewal for a whole TTL
    QCOMPARE(failed.size(), 1);
    QCOMPARE(keys->connectionState(), Conn::Lost);
    // The local deadline runs from the last acknowledgement, so it never trails etcd's.
    QTRY_COMPARE_WITH_TIMEOUT(value("/bh/key"_ba), QByteArray(), kTtlMs);
}

void tst_EtcdLeases::revokedOutOfBandHealsUnderNewLease()
{
    EtcdTransientKeyValue kv(m_client.get(), "/tkv/a"_ba, "alive"_ba, kTtl, fastHealing());
    Events ev(&kv);
    QVERIFY(startedInTime(kv));
    const qint64 first = kv.leaseId();
    QCOMPARE(value("/tkv/a"_ba), "alive"_ba);
    QVERIFY_OK(await(m_client->revokeLease(first)).status);
    QTRY_COMPARE_WITH_TIMEOUT(
        ev.types, (QList {LeaseType::Expired, LeaseType::Restored}), 2 * kTtlMs);
    QCOMPARE(ev.events.last().leaseId, first);
    QCOMPARE(ev.events.last().newLeaseId, kv.leaseId());
    QVERIFY(kv.leaseId() != first);
    QCOMPARE(ev.states, (QList {Conn::Lost, Conn::Reconnected})); // Lost before healing
    QCOMPARE(value("/tkv/a"_ba), "alive"_ba);
    QCOMPARE(await(m_client->get("/tkv/a"_ba))->keyValues().first().lease, kv.leaseId());
    QVERIFY(kv.isHealthy());
    QCOMPARE(kv.errors().size(), 1); // the expiry, kept
    QVERIFY(ev.sameThread);
}

// A revoke deletes the key first: the transient key asks etcd about its lease at once, with a
// new lease granted meanwhile, and heals on the answer instead of at its next renewal, a
// third of the TTL away (here 10 s, and a policy-paced attempt a whole TTL). Only that path
// heals within a tenth of the TTL, whatever the renewals' phase.
void tst_EtcdLeases::revokeHealsOnEtcdsAnswerNotAtTheNextRenewal()
{
    constexpr auto ttl = 30s;
    EtcdLeaseResilience slowPolicy = fastHealing();
    slowPolicy.retryPolicy = EtcdRetryPolicy::bounded(3, ttl);
    EtcdTransientKeyValue kv(m_client.get(), "/tkv/fast"_ba, "v"_ba, ttl, slowPolicy);
    Events ev(&kv);
    QVERIFY(startedInTime(kv));
    const qint64 first = kv.leaseId();
    QVERIFY_OK(await(m_client->revokeLease(first)).status);
    QTRY_COMPARE_WITH_TIMEOUT(ev.types, (QList {LeaseType::Expired, LeaseType::Restored}),
        int(std::chrono::milliseconds(ttl).count() / 10));
    QVERIFY(kv.leaseId() != first);
    // The standby granted ahead is the new lease; another standby takes its place.
    QTRY_COMPARE_WITH_TIMEOUT(leaseIds().size(), 2, kTtlMs);
    QVERIFY(leaseIds().contains(kv.leaseId()));
    QCOMPARE(keylessLeases(*m_client).size(), 1);
    QCOMPARE(value("/tkv/fast"_ba), "v"_ba);
}

// Deleted by someone else while its lease lives: written again under that lease, and the
// lease granted ahead of a heal that did not come is revoked, not left to its TTL (10 s here,
// five times what the check waits).
void tst_EtcdLeases::deletedTransientKeyLeavesNoLeaseGrantedAhead()
{
    EtcdTransientKeyValue kv(m_client.get(), "/tkv/deleted"_ba, "v"_ba, 10s, fastHealing());
    QVERIFY(startedInTime(kv));
    const qint64 lease = kv.leaseId();
    Events ev(&kv);
    QVERIFY_OK(await(m_client->remove("/tkv/deleted"_ba)).status);
    // Written on the spare at once, then moved back to the lease that lives.
    const auto onItsLease = [&] {
        const auto now = await(m_client->get("/tkv/deleted"_ba));
        return now.status.isOk() && now->keyValues().size() == 1
            && now->keyValues().first().lease == lease;
    };
    QTRY_VERIFY_WITH_TIMEOUT(onItsLease(), kTtlMs);
    QCOMPARE(value("/tkv/deleted"_ba), "v"_ba);
    QCOMPARE(kv.leaseId(), lease);
    // The standby it was written on is revoked; another takes its place.
    QTRY_COMPARE_WITH_TIMEOUT(leaseIds().size(), 2, kTtlMs);
    QVERIFY(leaseIds().contains(lease));
    QCOMPARE(keylessLeases(*m_client).size(), 1);
    QVERIFY(kv.isHealthy());
    QVERIFY(ev.types.isEmpty()); // the lease was never lost
}

// The heal's write leaves when the key's deletion is seen, on the client's standby lease,
// not after etcd's answer about the lease: with etcd's answers held back D on their way to
// the transient key's client, its key is back about D after the revoke (the deletion's
// delay) instead of 2 D (that and the lease question's). The standby is granted ahead, so
// no write can reach etcd before its lease does (a spare granted at the deletion could:
// etcd does not apply two requests of one connection in the order they came, and such a
// write went again a round trip later). Three revokes: each heals early, its events in
// order, on its new lease, with a new standby behind it.
void tst_EtcdLeases::revokeHealsAsTheDeletionIsSeen()
{
    constexpr auto delay = std::chrono::milliseconds(kTtlMs / 4);
    // A standby is taken while its last acknowledged renewal is under half a TTL old, and a
    // delay holds the acknowledgements back too: the TTL is long beside it, as it is in use.
    constexpr auto ttl = 5 * kTtl;
    ProxiedClient side(m_server.clientPort());
    QVERIFY(side.started);
    EtcdTransientKeyValue kv(&side.client, "/tkv/early"_ba, "v"_ba, ttl, fastHealing());
    Events ev(&kv);
    QVERIFY(startedInTime(kv));
    EtcdWatch watch(m_client.get(), "/tkv/early"_ba);
    QElapsedTimer sinceRevoke;
    qint64 backAfterMs = -1;
    QObject::connect(
        &watch, &EtcdWatch::eventsReceived, &watch, [&](const QList<EtcdWatchEvent> &events) {
            for (const EtcdWatchEvent &e : events) {
                if (e.type == EtcdWatchEvent::Type::Put && backAfterMs < 0)
                    backAfterMs = sinceRevoke.elapsed();
            }
        });
    watch.start();
    QTRY_COMPARE_WITH_TIMEOUT(watch.state(), EtcdWatch::State::Active, kTtlMs);
    QTRY_COMPARE_WITH_TIMEOUT(keylessLeases(side.client).size(), 1, kTtlMs); // the standby
    QList<qint64> backAfter;
    for (int i = 0; i < 3; ++i) {
        const qint64 old = kv.leaseId();
        side.proxy.setDelay(delay);
        backAfterMs = -1;
        sinceRevoke.start();
        QVERIFY_OK(await(m_client->revokeLease(old)).status);
        QTRY_VERIFY_WITH_TIMEOUT(backAfterMs >= 0, 2 * kTtlMs);
        backAfter.append(backAfterMs);
        QTRY_COMPARE_WITH_TIMEOUT(ev.types.size(), 2 * (i + 1), 2 * kTtlMs);
        QCOMPARE(ev.types.mid(2 * i), (QList {LeaseType::Expired, LeaseType::Restored}));
        QCOMPARE(ev.events.last().leaseId, old);
        QCOMPARE(ev.events.last().newLeaseId, kv.leaseId());
        const auto now = await(m_client->get("/tkv/early"_ba));
        QCOMPARE(now->keyValues().first().lease, kv.leaseId());
        QCOMPARE(now->keyValues().first().value, "v"_ba);
        side.proxy.setDelay(std::chrono::milliseconds(0));
        QTRY_COMPARE_WITH_TIMEOUT(leaseIds().size(), 2, kTtlMs); // and the next standby
        QVERIFY(leaseIds().contains(kv.leaseId()));
        QTRY_COMPARE_WITH_TIMEOUT(keylessLeases(side.client).size(), 1, kTtlMs);
    }
    qInfo() << "back after the revokes (ms), delay" << delay.count() << "ms:" << backAfter;
    const bool allEarly = std::all_of(backAfter.cbegin(), backAfter.cend(),
        [&](qint64 ms) { return ms < delay.count() * 3 / 2; });
    QVERIFY2(allEarly, qPrintable(QDebug::toString(backAfter)));
}

// The standby lease is the client's, not each key's: one per TTL in use, kept alive on the
// keep-alive stream for as long as a lease of that TTL is (three TTLs here, past which an
// unrenewed lease would be gone), and revoked with the last of them.
void tst_EtcdLeases::oneStandbyPerTtlRenewedAndRevokedWithTheLast()
{
    auto a = std::make_unique<EtcdTransientKeyValue>(m_client.get(), "/tkv/sa"_ba, "a"_ba, kTtl);
    auto b = std::make_unique<EtcdTransientKeyValue>(m_client.get(), "/tkv/sb"_ba, "b"_ba, kTtl);
    EtcdTransientKeyValue longer(m_client.get(), "/tkv/sc"_ba, "c"_ba, 2 * kTtl);
    for (EtcdTransientKeyValue *kv : {a.get(), b.get(), &longer})
        QVERIFY(startedInTime(*kv));
    QList<qint64> standbys;
    QTRY_COMPARE_WITH_TIMEOUT((standbys = keylessLeases(*m_client)).size(), 2, kTtlMs);
    QCOMPARE(leaseIds().size(), 5); // three keys' leases and a standby per TTL
    QTest::qWait(3 * kTtlMs); // what is tested: that they outlive their TTL
    QCOMPARE(keylessLeases(*m_client), standbys); // the same two, renewed
    a.reset();
    QCOMPARE(keylessLeases(*m_client), standbys); // b still wants its TTL's standby
    QSignalSpy closed(b.get(), &EtcdRecipe::closed);
    b->close();
    QVERIFY(closed.wait(kTtlMs));
    // closed() came after the revoke of b's lease and of the standby it was the last user of.
    const QList<qint64> left = keylessLeases(*m_client);
    QCOMPARE(left.size(), 1);
    QVERIFY(standbys.contains(left.first()));
    QList<qint64> now = leaseIds();
    std::sort(now.begin(), now.end());
    QList<qint64> expected {longer.leaseId(), left.first()};
    std::sort(expected.begin(), expected.end());
    QCOMPARE(now, expected);
}

void tst_EtcdLeases::takenKeyDuringOutageFailsWithoutTouchingIt()
{
    auto other = connectedClient(m_server.clientUrl());
    ProxiedClient side(m_server.clientPort());
    QVERIFY(side.started);
    EtcdSelfHealingKeepAlive lease(
        &side.client, kTtl, createIfAbsent(&side.client, "/owned"_ba, "mine"_ba), fastHealing());
    Events ev(&lease);
    QSignalSpy established(&lease, &EtcdSelfHealingKeepAlive::established);
    lease.start();
    QVERIFY(established.wait(kTtlMs));
    // Another client takes the key the moment the lease is gone, while etcd's answers reach
    // the lease's client a quarter TTL late: the key is theirs before it hears of the loss.
    side.proxy.setDelay(std::chrono::milliseconds(kTtlMs / 4));
    QVERIFY_OK(await(other->revokeLease(lease.currentLeaseId())).status);
    QVERIFY_OK(await(other->put("/owned"_ba, "theirs"_ba)).status);
    QTRY_COMPARE_WITH_TIMEOUT(
        ev.types, (QList {LeaseType::Expired, LeaseType::Failed}), 2 * kTtlMs);
    QCOMPARE(lease.state(), EtcdSelfHealingKeepAlive::State::Failed);
    QCOMPARE(ev.failures.size(), 1);
    QCOMPARE(lease.connectionState(), Conn::Lost);
    QVERIFY(!lease.isHealthy());
    QCOMPARE(value("/owned"_ba), "theirs"_ba);
    QCOMPARE(await(m_client->get("/owned"_ba))->keyValues().first().lease, 0);
    QVERIFY_OK(await(m_client->remove("/owned"_ba)).status);
}

// Every heal is a CAS (spec: leases-and-loss): the lease is revoked out of band and another
// client writes the key before the heal lands (etcd's answers reach the transient key's
// client a quarter TTL late; the write takes a millisecond). The transient key fails and
// leaves their value alone.
void tst_EtcdLeases::transientKeyTakenDuringOutageStaysTheirs_data()
{
    QTest::addColumn<bool>("theirLease");
    QTest::newRow("without a lease") << false;
    QTest::newRow("on their own lease") << true;
}

void tst_EtcdLeases::transientKeyTakenDuringOutageStaysTheirs()
{
    QFETCH(bool, theirLease);
    auto other = connectedClient(m_server.clientUrl());
    ProxiedClient side(m_server.clientPort());
    QVERIFY(side.started);
    EtcdTransientKeyValue kv(&side.client, "/tkv/taken"_ba, "mine"_ba, kTtl, fastHealing());
    Events ev(&kv);
    QVERIFY(startedInTime(kv));
    const qint64 theirs = theirLease ? grant(*other, 30s) : 0;
    QVERIFY(!theirLease || theirs > 0);
    side.proxy.setDelay(std::chrono::milliseconds(kTtlMs / 4));
    QVERIFY_OK(await(other->revokeLease(kv.leaseId())).status);
    QVERIFY_OK(await(other->put("/tkv/taken"_ba, "theirs"_ba, {.lease = theirs})).status);
    QTRY_COMPARE_WITH_TIMEOUT(
        ev.types, (QList {LeaseType::Expired, LeaseType::Failed}), 3 * kTtlMs);
    QCOMPARE(ev.failures.size(), 1);
    const EtcdStatus why = ev.failures.first();
    QCOMPARE(why.code(), ErrorCode::FailedPrecondition);
    QVERIFY2(why.message().contains(theirLease ? QString::number(theirs) : u"without a lease"_s),
        qPrintable(why.toString()));
    QCOMPARE(ev.events.last().cause, why); // the lease event names the holder too
    QCOMPARE(kv.connectionState(), Conn::Lost);
    QVERIFY(!kv.isHealthy());
    QVERIFY(!kv.isActive());
    const auto now = await(m_client->get("/tkv/taken"_ba));
    QCOMPARE(now->keyValues().size(), 1);
    QCOMPARE(now->keyValues().first().value, "theirs"_ba);
    QCOMPARE(now->keyValues().first().lease, theirs);
    QCOMPARE(now->keyValues().first().version, 1); // written once, by them
    if (theirLease)
        QVERIFY_OK(await(other->revokeLease(theirs)).status);
    else
        QVERIFY_OK(await(m_client->remove("/tkv/taken"_ba)).status);
}

// start() creates, never overwrites: a key someone holds fails it, and stays theirs.
void tst_EtcdLeases::transientKeyHeldAtStartIsNotTaken()
{
    QVERIFY_OK(await(m_client->put("/tkv/held"_ba, "theirs"_ba)).status);
    EtcdTransientKeyValue kv(m_client.get(), "/tkv/held"_ba, "mine"_ba, kTtl);
    Events ev(&kv);
    QSignalSpy started(&kv, &EtcdTransientKeyValue::started);
    kv.start();
    QTRY_COMPARE_WITH_TIMEOUT(ev.failures.size(), 1, kTtlMs);
    QCOMPARE(ev.failures.first().code(), ErrorCode::FailedPrecondition);
    QVERIFY(started.isEmpty());
    QVERIFY(ev.types.isEmpty()); // it never held a lease that could expire
    QCOMPARE(value("/tkv/held"_ba), "theirs"_ba);
    QVERIFY_OK(await(m_client->remove("/tkv/held"_ba)).status);
    // The lease it was granted for the key is revoked (cleanup() checks that none is left).
}

// A partition ends the local deadline first: when the heal lands, the key is still on the
// old lease, which etcd still holds (here a second client keeps renewing it, so that etcd
// cannot expire it before the heal). That key is ours: moved to the new lease, Restored.
void tst_EtcdLeases::transientKeyMovesOwnKeyOffItsOldLease()
{
    PartitionedClient side(m_server.clientPort());
    QVERIFY(side.started);
    EtcdTransientKeyValue kv(&side.client, "/tkv/own"_ba, "v"_ba, kTtl, fastHealing());
    Events ev(&kv);
    QVERIFY(startedInTime(kv));
    const qint64 old = kv.leaseId();
    const qint64 created = await(m_client->get("/tkv/own"_ba))->keyValues().first().createRevision;
    EtcdKeepAlive keeper(m_client.get(), old, kTtl);
    keeper.start();
    side.proxy.setMode(FaultProxy::Mode::Blackhole);
    QTRY_VERIFY_WITH_TIMEOUT(ev.types.contains(LeaseType::Expired), 2 * kTtlMs);
    side.proxy.setMode(FaultProxy::Mode::Pass);
    QTRY_VERIFY_WITH_TIMEOUT(
        !ev.types.isEmpty() && ev.types.last() == LeaseType::Restored, 4 * kTtlMs);
    // The silent stream may say Suspended first; never Failed.
    QVERIFY2(ev.types == (QList {LeaseType::Expired, LeaseType::Restored})
            || ev.types == (QList {LeaseType::Suspended, LeaseType::Expired, LeaseType::Restored}),
        qPrintable(QDebug::toString(ev.types)));
    const auto now = await(m_client->get("/tkv/own"_ba));
    QCOMPARE(now->keyValues().first().value, "v"_ba);
    QCOMPARE(now->keyValues().first().lease, kv.leaseId());
    // Moved, never deleted: a watcher (discovery) saw no gap. The client revokes the lease it
    // gave up on its own clock only after the heal took the key off it (the keeper here kept
    // it alive in etcd, so nothing else ends it within the test).
    QCOMPARE(now->keyValues().first().createRevision, created);
    QVERIFY(kv.leaseId() != old);
    QTRY_COMPARE_WITH_TIMEOUT(await(m_client->leaseTimeToLive(old))->ttl(), -1s, 2 * kTtlMs);
    keeper.stop();
    QCOMPARE(value("/tkv/own"_ba), "v"_ba);
}

// A lease given up on the client's clock while etcd kept it (a keeper renews it here, as a
// new leader or a restarted etcd would have restored it) is revoked by the client only after
// the heal moved the key onto its new lease: watchers never see the key go (CI: discovery saw
// all 50 instances removed and added again after a leader failover). The heal waits 3 s; the
// abandoned lease's revoke, retried from 250 ms on, would come first if it did not wait.
void tst_EtcdLeases::healMovesTheKeyBeforeTheAbandonedLeaseGoes()
{
    PartitionedClient side(m_server.clientPort());
    QVERIFY(side.started);
    EtcdLeaseResilience slowHeal;
    slowHeal.retryPolicy = EtcdRetryPolicy::bounded(10, 3s);
    slowHeal.healOperationTimeout = 1s;
    EtcdTransientKeyValue kv(&side.client, "/tkv/gapless"_ba, "v"_ba, kTtl, slowHeal);
    Events ev(&kv);
    QVERIFY(startedInTime(kv));
    const qint64 old = kv.leaseId();
    EtcdKeepAlive keeper(m_client.get(), old, kTtl);
    keeper.start();
    EtcdWatch watch(m_client.get(), "/tkv/gapless"_ba);
    QList<EtcdWatchEvent> seen;
    QObject::connect(&watch, &EtcdWatch::eventsReceived, &watch,
        [&](const QList<EtcdWatchEvent> &events) { seen.append(events); });
    watch.start();
    QTRY_COMPARE_WITH_TIMEOUT(watch.state(), EtcdWatch::State::Active, kTtlMs);
    side.proxy.setMode(FaultProxy::Mode::Reset); // calls fail at once: the revoke retries
    QTRY_VERIFY_WITH_TIMEOUT(ev.types.contains(LeaseType::Expired), 3 * kTtlMs);
    side.proxy.setMode(FaultProxy::Mode::Pass);
    QTRY_VERIFY_WITH_TIMEOUT(
        !ev.types.isEmpty() && ev.types.last() == LeaseType::Restored, 5 * kTtlMs);
    QVERIFY(kv.leaseId() != old);
    QTRY_COMPARE_WITH_TIMEOUT(await(m_client->leaseTimeToLive(old))->ttl(), -1s, 2 * kTtlMs);
    keeper.stop();
    QVERIFY(!seen.isEmpty()); // the move
    for (const EtcdWatchEvent &e : std::as_const(seen)) {
        QCOMPARE(e.type, EtcdWatchEvent::Type::Put);
        QCOMPARE(e.keyValue.lease, kv.leaseId());
    }
    QCOMPARE(value("/tkv/gapless"_ba), "v"_ba);
}

// Keys on one lease do not heal: lost is lost, so what another client wrote stays.
void tst_EtcdLeases::leasedKeysNeverWriteBackAfterLoss()
{
    auto other = connectedClient(m_server.clientUrl());
    std::unique_ptr<EtcdLeasedKeys> keys(
        Etcd::putWithKeepAlive(m_client.get(), "/lk/lost"_ba, "mine"_ba, kTtl));
    QTRY_COMPARE_WITH_TIMEOUT(keys->state(), EtcdLeasedKeys::State::Alive, kTtlMs);
    QSignalSpy failed(keys.get(), &EtcdLeasedKeys::keepAliveFailed);
    QVERIFY_OK(await(other->revokeLease(keys->leaseId())).status);
    QVERIFY_OK(await(other->put("/lk/lost"_ba, "theirs"_ba)).status);
    // Not failed.wait(): the failure may already have come inside the put's await, and wait()
    // only sees a new one (CI rehearsal ci12: the failure was logged, the wait timed out).
    QTRY_COMPARE_WITH_TIMEOUT(failed.size(), 1, 2 * kTtlMs);
    QTest::qWait(kTtlMs); // and nothing more
    QCOMPARE(failed.size(), 1);
    QCOMPARE(keys->state(), EtcdLeasedKeys::State::Failed);
    const auto now = await(m_client->get("/lk/lost"_ba));
    QCOMPARE(now->keyValues().first().value, "theirs"_ba);
    QCOMPARE(now->keyValues().first().lease, 0);
    QCOMPARE(now->keyValues().first().version, 1); // created once since the revoke: by them
    QVERIFY_OK(await(m_client->remove("/lk/lost"_ba)).status);
}

void tst_EtcdLeases::pausedEtcdSuspendsExpiresThenRestores()
{
    EtcdClient client({m_server.clientUrl()});
    client.setStreamLivenessInterval(500ms);
    client.connectToEndpoints();
    EtcdTransientKeyValue kv(&client, "/tkv/p"_ba, "v"_ba, kTtl, fastHealing());
    Events ev(&kv);
    QVERIFY(startedInTime(kv));
    QVERIFY(m_server.pause());
    QTRY_COMPARE_WITH_TIMEOUT(
        ev.types, (QList {LeaseType::Suspended, LeaseType::Expired}), 3 * kTtlMs);
    QVERIFY(!kv.isHealthy());
    QTest::qWait(kTtlMs); // heal attempts fail at healOperationTimeout while paused
    QVERIFY(m_server.resume());
    QTRY_COMPARE_WITH_TIMEOUT(ev.types.size(), 3, 5 * kTtlMs);
    QCOMPARE(ev.types.last(), LeaseType::Restored);
    QCOMPARE(ev.states, (QList {Conn::Suspended, Conn::Lost, Conn::Reconnected}));
    QCOMPARE(value("/tkv/p"_ba), "v"_ba);
    QSignalSpy closed(&kv, &EtcdRecipe::closed); // as in healAttemptsGiveUpAtHealTimeout
    kv.close();
    QVERIFY(closed.wait(3 * kTtlMs));
}

void tst_EtcdLeases::closeRevokesAtOnce()
{
    EtcdTransientKeyValue kv(m_client.get(), "/tkv/c"_ba, "v"_ba, 30s);
    QVERIFY(startedInTime(kv));
    const qint64 id = kv.leaseId();
    QVERIFY(leaseIds().contains(id));
    QSignalSpy closed(&kv, &EtcdRecipe::closed);
    kv.close();
    kv.close();
    QVERIFY(closed.wait(kTtlMs));
    QCOMPARE(closed.size(), 1);
    // Answered well inside the 30 s TTL: revoked, not expired.
    QVERIFY(!leaseIds().contains(id));
    QCOMPARE(value("/tkv/c"_ba), QByteArray());
    QVERIFY(!kv.isHealthy());
    QVERIFY(!kv.isActive());
}

void tst_EtcdLeases::neverPolicyStopsAtExpired()
{
    EtcdTransientKeyValue kv(
        m_client.get(), "/tkv/n"_ba, "v"_ba, kTtl, EtcdLeaseResilience::disabled());
    Events ev(&kv);
    QVERIFY(startedInTime(kv));
    QVERIFY_OK(await(m_client->revokeLease(kv.leaseId())).status);
    QTRY_COMPARE_WITH_TIMEOUT(ev.types, QList {LeaseType::Expired}, 2 * kTtlMs);
    QTest::qWait(2 * kTtlMs); // and nothing more
    QCOMPARE(ev.types, QList {LeaseType::Expired});
    QVERIFY(ev.failures.isEmpty());
    QCOMPARE(value("/tkv/n"_ba), QByteArray());
}

void tst_EtcdLeases::healAttemptsGiveUpAtHealTimeout()
{
    PartitionedClient side(m_server.clientPort());
    QVERIFY(side.started);
    FaultProxy &proxy = side.proxy;
    EtcdClient &client = side.client;
    const auto healTimeout = 400ms;
    EtcdTransientKeyValue kv(&client, "/tkv/u"_ba, "v"_ba, kTtl, fastHealing(healTimeout));
    Events ev(&kv);
    QVERIFY(startedInTime(kv));
    proxy.setMode(FaultProxy::Mode::Blackhole);
    QTRY_VERIFY_WITH_TIMEOUT(ev.types.contains(LeaseType::Expired), 2 * kTtlMs);
    // Each attempt ends at the heal timeout instead of hanging: several fail meanwhile.
    const auto timedOut = [&] {
        return std::count_if(kv.errors().cbegin(), kv.errors().cend(),
            [](const EtcdStatus &s) { return s.code() == ErrorCode::DeadlineExceeded; });
    };
    QTRY_VERIFY_WITH_TIMEOUT(timedOut() >= 2, 4 * kTtlMs);
    proxy.setMode(FaultProxy::Mode::Pass);
    QTRY_COMPARE_WITH_TIMEOUT(ev.types.last(), LeaseType::Restored, 3 * kTtlMs);
    QCOMPARE(value("/tkv/u"_ba), "v"_ba);
    // A grant may still be in flight (the client's standby): close() waits for its answer
    // and revokes that lease too, where a client destroyed at once would leave it to its TTL.
    QSignalSpy closed(&kv, &EtcdRecipe::closed);
    kv.close();
    QVERIFY(closed.wait(3 * kTtlMs));
}

void tst_EtcdLeases::blockedOwnerThreadKeepsLeaseAlive()
{
    EtcdTransientKeyValue kv(m_client.get(), "/tkv/b"_ba, "v"_ba, kTtl);
    Events ev(&kv);
    QVERIFY(startedInTime(kv));
    EtcdKeepAlive watcher(m_client.get(), kv.leaseId(), kTtl); // a listener for renewals
    QThread *renewedIn = nullptr;
    connect(&watcher, &EtcdKeepAlive::renewed, this, [&] { renewedIn = QThread::currentThread(); });
    watcher.start();
    std::this_thread::sleep_for(3 * kTtl); // the owner thread does nothing for 3 TTLs
    QVERIFY(await(m_client->leaseTimeToLive(kv.leaseId()))->ttl() > 0s);
    QTRY_COMPARE_WITH_TIMEOUT(renewedIn, QThread::currentThread(), kTtlMs);
    QVERIFY(ev.types.isEmpty());
    QVERIFY(kv.isHealthy());
}

void tst_EtcdLeases::pingAndHealth()
{
    EtcdTransientKeyValue kv(m_client.get(), "/tkv/h"_ba, "v"_ba, kTtl);
    QVERIFY(!kv.isHealthy()); // not started
    QCOMPARE(kv.leaseId(), -1);
    QVERIFY_OK(await(kv.ping()).status);
    EtcdClient nowhere({QUrl(u"http://127.0.0.1:%1"_s.arg(EtcdTestServer::freePorts(1).first()))});
    nowhere.setCallDeadline(500ms);
    nowhere.connectToEndpoints();
    EtcdTransientKeyValue lonely(&nowhere, "/tkv/h"_ba, "v"_ba, kTtl);
    QVERIFY(!await(lonely.ping(), 5s).status.isOk());
}

void tst_EtcdLeases::badInput()
{
    const int before = int(leaseIds().size());
    EtcdTransientKeyValue zeroTtl(m_client.get(), "/bad"_ba, "v"_ba, 0s);
    QSignalSpy f1(&zeroTtl, &EtcdTransientKeyValue::failed);
    zeroTtl.start();
    QVERIFY(f1.wait(kTtlMs));
    QCOMPARE(f1.first().first().value<EtcdStatus>().code(), ErrorCode::InvalidArgument);

    // etcd's MaxLeaseTTL is 9,000,000,000 s: one more is refused before any grant.
    const std::chrono::seconds tooLong(9'000'000'001);
    EtcdTransientKeyValue longTtl(m_client.get(), "/bad"_ba, "v"_ba, tooLong);
    QSignalSpy f0(&longTtl, &EtcdTransientKeyValue::failed);
    longTtl.start();
    QVERIFY(f0.wait(kTtlMs));
    QCOMPARE(f0.first().first().value<EtcdStatus>().code(), ErrorCode::InvalidArgument);
    std::unique_ptr<EtcdLeasedKeys> longKeys(
        Etcd::putWithKeepAlive(m_client.get(), "/bad"_ba, "v"_ba, tooLong));
    QSignalSpy f00(longKeys.get(), &EtcdLeasedKeys::failed);
    QVERIFY(f00.wait(kTtlMs));
    QCOMPARE(f00.first().first().value<EtcdStatus>().code(), ErrorCode::InvalidArgument);

    EtcdTransientKeyValue emptyKey(m_client.get(), {}, "v"_ba, kTtl);
    QSignalSpy f2(&emptyKey, &EtcdTransientKeyValue::failed);
    emptyKey.start();
    QVERIFY(f2.wait(kTtlMs));

    std::unique_ptr<EtcdLeasedKeys> negative(
        Etcd::putWithKeepAlive(m_client.get(), "/bad"_ba, "v"_ba, -1s));
    QSignalSpy f3(negative.get(), &EtcdLeasedKeys::failed);
    QVERIFY(f3.wait(kTtlMs));

    EtcdSelfHealingKeepAlive throwing(m_client.get(), kTtl,
        [](qint64, std::function<void(bool)>) { throw std::runtime_error("hook broke"); });
    QSignalSpy f4(&throwing, &EtcdSelfHealingKeepAlive::failed);
    throwing.start();
    QVERIFY(f4.wait(kTtlMs));
    QVERIFY(f4.first().first().value<EtcdStatus>().message().contains(u"hook broke"_s));
    QCOMPARE(throwing.state(), EtcdSelfHealingKeepAlive::State::Failed);
    throwing.close();
    throwing.close();
    QTRY_COMPARE_WITH_TIMEOUT(int(leaseIds().size()), before, kTtlMs); // its lease revoked

    EtcdSelfHealingKeepAlive declining(
        m_client.get(), kTtl, [](qint64, std::function<void(bool)> done) { done(false); });
    QSignalSpy f5(&declining, &EtcdSelfHealingKeepAlive::failed);
    declining.start();
    QVERIFY(f5.wait(kTtlMs));
    QCOMPARE(f5.first().first().value<EtcdStatus>().code(), ErrorCode::FailedPrecondition);
}

void tst_EtcdLeases::destroyedFromOwnSignal()
{
    auto *kv = new EtcdTransientKeyValue(m_client.get(), "/tkv/d"_ba, "v"_ba, kTtl);
    QPointer<EtcdTransientKeyValue> guard(kv);
    connect(kv, &EtcdTransientKeyValue::started, kv, [kv] { delete kv; });
    kv->start();
    QTRY_VERIFY_WITH_TIMEOUT(guard.isNull(), kTtlMs);
    QTRY_COMPARE_WITH_TIMEOUT(value("/tkv/d"_ba), QByteArray(), kTtlMs); // revoked on the way

    auto *lease = new EtcdSelfHealingKeepAlive(
        m_client.get(), kTtl, createIfAbsent(m_client.get(), "/tkv/d2"_ba, "v"_ba), fastHealing());
    QPointer<EtcdSelfHealingKeepAlive> guard2(lease);
    connect(lease, &EtcdSelfHealingKeepAlive::leaseEvent, lease, [lease] { delete lease; });
    QSignalSpy established(lease, &EtcdSelfHealingKeepAlive::established);
    lease->start();
    QVERIFY(established.wait(kTtlMs));
    QVERIFY_OK(await(m_client->revokeLease(lease->currentLeaseId())).status);
    QTRY_VERIFY_WITH_TIMEOUT(guard2.isNull(), 2 * kTtlMs);
    QCOMPARE(value("/tkv/d2"_ba), QByteArray());
}

// close() before the grant or the hook answered: closed() waits for that lease's revoke.
void tst_EtcdLeases::closeWhileEstablishingLeavesNoLease()
{
    for (int delayMs : {0, 1, 3}) {
        EtcdTransientKeyValue kv(m_client.get(), "/tkv/early"_ba, "v"_ba, 30s);
        QSignalSpy closed(&kv, &EtcdRecipe::closed);
        kv.start();
        QTest::qWait(delayMs);
        kv.close();
        QVERIFY(closed.wait(kTtlMs));
        QVERIFY(leaseIds().isEmpty()); // checked right away, well inside the 30 s TTL
        QCOMPARE(value("/tkv/early"_ba), QByteArray());
    }
}

// close() while the first grant is in flight (etcd granted, its answer held back by a
// FaultProxy): the hook never runs, and closed() comes only after that lease was revoked.
void tst_EtcdLeases::closeWhileGrantingLeavesNoLease()
{
    ProxiedClient side(m_server.clientPort());
    QVERIFY(side.started);
    EtcdClient &client = side.client;
    FaultProxy &proxy = side.proxy;
    QVERIFY_OK(await(client.get("/shk/granting"_ba)).status); // connected before the delay
    bool hookRan = false;
    EtcdSelfHealingKeepAlive lease(&client, 30s, [&](qint64, std::function<void(bool)> done) {
        hookRan = true;
        done(true);
    });
    QSignalSpy closed(&lease, &EtcdRecipe::closed);
    proxy.setDelay(1s); // well inside the TTL and the stream liveness interval
    lease.start();
    QTRY_COMPARE_WITH_TIMEOUT(leaseIds().size(), 1, kTtlMs); // cleanup() left none
    lease.close();
    QVERIFY(closed.wait(5 * kTtlMs));
    QCOMPARE(leaseIds(), QList<qint64>());
    QVERIFY(!hookRan);
    QCOMPARE(closed.count(), 1);
}

// The client disconnects under a healing lease: it fails, once, instead of healing forever.
void tst_EtcdLeases::clientGoneEndsHealing()
{
    auto client = connectedClient(m_server.clientUrl());
    EtcdTransientKeyValue kv(client.get(), "/tkv/gone"_ba, "v"_ba, kTtl, fastHealing());
    Events ev(&kv);
    QVERIFY(startedInTime(kv));
    const qint64 id = kv.leaseId();
    client->disconnectFromEndpoints();
    // The cancelled stream may say Suspended first; then Failed, and nothing after it.
    QTRY_VERIFY_WITH_TIMEOUT(!ev.types.isEmpty() && ev.types.last() == LeaseType::Failed, kTtlMs);
    const auto seen = ev.types;
    QVERIFY(seen == QList {LeaseType::Failed}
        || seen == (QList {LeaseType::Suspended, LeaseType::Failed}));
    QTest::qWait(kTtlMs);
    QCOMPARE(ev.types, seen);
    QCOMPARE(kv.connectionState(), Conn::Lost);
    // The test cleans up what it left; unrenewed for a TTL, the lease may have expired already.
    const EtcdStatus cleanup = await(m_client->revokeLease(id)).status;
    QVERIFY2(cleanup.isOk() || cleanup == Etcd::ErrorCode::LeaseNotFound,
        qPrintable(cleanup.toString()));
}

QTEST_GUILESS_MAIN(tst_EtcdLeases)
#include "tst_etcdleases.moc"
