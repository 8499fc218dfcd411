// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// EtcdNodeCache against a real etcd: every change in order with its value and revision, a
// truthful resync after a compaction during a partition, an etcd restart, typed values.
#include "leaseledger.h"
#include "testutil.h"

#include <etcdtestserver.h>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using State = EtcdRecipe::ConnectionState;

namespace {

constexpr int kWaitMs = 5000;

// Everything a node cache reported, in order, as "kind value [previous] revision".
struct Changes
{
    explicit Changes(EtcdNodeCache *c)
    {
        QObject::connect(c, &EtcdNodeCache::created, c, [this](const QByteArray &v, qint64 r) {
            list.append(u"created %1 %2"_s.arg(QString::fromUtf8(v)).arg(r));
        });
        QObject::connect(c, &EtcdNodeCache::updated, c,
            [this](const QByteArray &v, const QByteArray &p, qint64 r) {
                list.append(
                    u"updated %1 %2 %3"_s.arg(QString::fromUtf8(v), QString::fromUtf8(p)).arg(r));
            });
        QObject::connect(c, &EtcdNodeCache::deleted, c, [this](const QByteArray &p, qint64 r) {
            list.append(u"deleted %1 %2"_s.arg(QString::fromUtf8(p)).arg(r));
        });
        QObject::connect(c, &EtcdNodeCache::resynced, c, [this] { list.append(u"resynced"_s); });
    }
    QStringList list;
};

} // namespace

class tst_EtcdNodeCache : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void seedsSilentlyThenReportsEveryChange();
    void absentKeyIsCreatedLater();
    void resyncReportsWhatChangedDuringAPartition();
    void survivesEtcdRestart();
    void typedValuesAndCodecFailures();
    void badInput();

private:
    qint64 put(const QByteArray &key, const QByteArray &value);
    qint64 remove(const QByteArray &key);
    EtcdTestServer m_server;
    LeaseLedger m_leases; // issue 22 item 7: no test leaves a lease
    std::unique_ptr<EtcdClient> m_client;
};

void tst_EtcdNodeCache::initTestCase()
{
    ETCDQT_START_OR_SKIP(m_server);
    m_client = connectedClient(m_server.clientUrl());
}

void tst_EtcdNodeCache::init()
{
    if (!m_server.isRunning())
        QVERIFY2(m_server.restart(), qPrintable(m_server.log()));
    m_leases.begin(m_server);
}

void tst_EtcdNodeCache::cleanup()
{
    VERIFY_NO_LEASE_LEFT(m_leases);
}

qint64 tst_EtcdNodeCache::put(const QByteArray &key, const QByteArray &value)
{
    const auto reply = await(m_client->put(key, value), 20s);
    return reply.status.isOk() ? reply->revision() : -1;
}

qint64 tst_EtcdNodeCache::remove(const QByteArray &key)
{
    const auto reply = await(m_client->remove(key), 20s);
    return reply.status.isOk() ? reply->revision() : -1;
}

void tst_EtcdNodeCache::seedsSilentlyThenReportsEveryChange()
{
    const qint64 seeded = put("/nc/order", "one");
    EtcdNodeCache cache(m_client.get(), "/nc/order");
    Changes changes(&cache);
    QSignalSpy valueChanged(&cache, &EtcdNodeCache::valueChanged);
    QSignalSpy started(&cache, &EtcdNodeCache::started);
    cache.start();
    QVERIFY(started.wait(kWaitMs));
    QVERIFY(cache.isStarted());
    QVERIFY(cache.exists());
    QCOMPARE(cache.value(), "one"_ba);
    QCOMPARE(cache.modRevision(), seeded);
    QVERIFY(changes.list.isEmpty()); // the snapshot is not a change
    const qint64 two = put("/nc/order", "two");
    const qint64 gone = remove("/nc/order");
    const qint64 three = put("/nc/order", "three");
    QTRY_COMPARE_WITH_TIMEOUT(changes.list.size(), 3, kWaitMs);
    QCOMPARE(changes.list,
        QStringList({u"updated two one %1"_s.arg(two), u"deleted two %1"_s.arg(gone),
            u"created three %1"_s.arg(three)}));
    QCOMPARE(valueChanged.size(), 3);
    QCOMPARE(cache.value(), "three"_ba);
    QCOMPARE(cache.modRevision(), three);
    QCOMPARE(cache.connectionState(), State::Connected);
    QVERIFY(cache.errors().isEmpty());
    remove("/nc/order");
}

void tst_EtcdNodeCache::absentKeyIsCreatedLater()
{
    remove("/nc/later");
    EtcdNodeCache cache(m_client.get(), "/nc/later");
    Changes changes(&cache);
    QSignalSpy started(&cache, &EtcdNodeCache::started);
    cache.start();
    QVERIFY(started.wait(kWaitMs));
    QVERIFY(!cache.exists());
    QCOMPARE(cache.value(), QByteArray());
    const qint64 created = put("/nc/later", "here");
    QTRY_COMPARE_WITH_TIMEOUT(
        changes.list, QStringList(u"created here %1"_s.arg(created)), kWaitMs);
    QVERIFY(cache.exists());
    remove("/nc/later");
}

// Two changes while the cache is cut off, then their history compacted away: the re-read
// reports the net change as one ordinary updated() (with the value the cache held before),
// then resynced(); the watch goes on afterwards.
void tst_EtcdNodeCache::resyncReportsWhatChangedDuringAPartition()
{
    put("/nc/resync", "before");
    PartitionedClient side(m_server.clientPort());
    QVERIFY(side.started);
    EtcdNodeCache cache(&side.client, "/nc/resync");
    Changes changes(&cache);
    QSignalSpy started(&cache, &EtcdNodeCache::started);
    cache.start();
    QVERIFY(started.wait(kWaitMs));
    side.proxy.setMode(FaultProxy::Mode::Blackhole);
    QTRY_COMPARE_WITH_TIMEOUT(cache.connectionState(), State::Suspended, kWaitMs);
    put("/nc/resync", "meanwhile");
    const qint64 last = put("/nc/resync", "after");
    QVERIFY_OK(await(m_client->compact(last)).status);
    side.proxy.setMode(FaultProxy::Mode::Pass);
    QTRY_COMPARE_WITH_TIMEOUT(changes.list.size(), 2, 4 * kWaitMs);
    QCOMPARE(changes.list, QStringList({u"updated after before %1"_s.arg(last), u"resynced"_s}));
    QCOMPARE(cache.connectionState(), State::Reconnected);
    QCOMPARE(cache.value(), "after"_ba);
    const qint64 gone = remove("/nc/resync");
    QTRY_COMPARE_WITH_TIMEOUT(changes.list.size(), 3, kWaitMs);
    QCOMPARE(changes.list.last(), u"deleted after %1"_s.arg(gone));
}

void tst_EtcdNodeCache::survivesEtcdRestart()
{
    put("/nc/restart", "before");
    EtcdClient client({m_server.clientUrl()});
    client.setStreamLivenessInterval(500ms);
    client.connectToEndpoints();
    EtcdNodeCache cache(&client, "/nc/restart");
    Changes changes(&cache);
    QList<State> states;
    connect(&cache, &EtcdRecipe::connectionStateChanged, this,
        [&states](State s) { states.append(s); });
    QSignalSpy started(&cache, &EtcdNodeCache::started);
    cache.start();
    QVERIFY(started.wait(kWaitMs));
    m_server.kill();
    QVERIFY2(m_server.restart(), qPrintable(m_server.log()));
    const qint64 after = put("/nc/restart", "after"); // retried until etcd answers
    QTRY_COMPARE_WITH_TIMEOUT(
        changes.list, QStringList(u"updated after before %1"_s.arg(after)), 4 * kWaitMs);
    QTRY_COMPARE_WITH_TIMEOUT(cache.connectionState(), State::Reconnected, 4 * kWaitMs);
    QCOMPARE(states, QList<State>({State::Suspended, State::Reconnected}));
    remove("/nc/restart");
}

// A value the codec cannot decode is still cached and signalled, and reported as an error.
void tst_EtcdNodeCache::typedValuesAndCodecFailures()
{
    put("/nc/typed", Etcd::encodeInt64(41));
    EtcdTypedNodeCache<EtcdInt64Codec> cache(m_client.get(), "/nc/typed");
    Changes changes(cache.untyped());
    QSignalSpy errors(cache.untyped(), &EtcdRecipe::errorOccurred);
    QSignalSpy started(cache.untyped(), &EtcdNodeCache::started);
    cache.start();
    QVERIFY(started.wait(kWaitMs));
    QCOMPARE(cache.value(), std::optional<qint64>(41));
    put("/nc/typed", Etcd::encodeInt64(42));
    QTRY_COMPARE_WITH_TIMEOUT(cache.value(), std::optional<qint64>(42), kWaitMs);
    QCOMPARE(errors.size(), 0);
    const qint64 bad = put("/nc/typed", "not eight");
    QTRY_COMPARE_WITH_TIMEOUT(errors.size(), 1, kWaitMs);
    const auto status = errors.first().at(1).value<EtcdStatus>();
    QCOMPARE(status.code(), Etcd::ErrorCode::FailedPrecondition);
    QVERIFY2(status.message().contains(QString::number(bad)), qPrintable(status.message()));
    QTRY_COMPARE_WITH_TIMEOUT(changes.list.size(), 2, kWaitMs); // not dropped
    QCOMPARE(cache.untyped()->value(), "not eight"_ba);
    QCOMPARE(cache.value(), std::nullopt);
    QCOMPARE(cache.untyped()->errors().size(), 1);
    remove("/nc/typed");
}

void tst_EtcdNodeCache::badInput()
{
    EtcdNodeCache empty(m_client.get(), {});
    QSignalSpy failed(&empty, &EtcdNodeCache::failed);
    empty.start();
    QVERIFY(failed.wait(kWaitMs));
    QCOMPARE(failed.first().first().value<EtcdStatus>().code(), Etcd::ErrorCode::InvalidArgument);
    QCOMPARE(empty.connectionState(), State::Lost);
    QVERIFY(!empty.isActive());

    EtcdNodeCache closing(m_client.get(), "/nc/close");
    QSignalSpy closed(&closing, &EtcdRecipe::closed);
    closing.start();
    closing.close();
    closing.close();
    QVERIFY(closed.wait(kWaitMs));
    QCOMPARE(closed.size(), 1);
    QVERIFY(!closing.isActive());
    EtcdNodeCache witness(m_client.get(), "/nc/close"); // on the same stream, still open
    QSignalSpy witnessStarted(&witness, &EtcdNodeCache::started);
    witness.start();
    QVERIFY(witnessStarted.wait(kWaitMs));
    QSignalSpy changed(&closing, &EtcdNodeCache::valueChanged);
    QSignalSpy witnessed(&witness, &EtcdNodeCache::valueChanged);
    put("/nc/close", "x");
    QTRY_COMPARE_WITH_TIMEOUT(witnessed.size(), 1, kWaitMs);
    QCOMPARE(changed.size(), 0); // closed: nothing more
    remove("/nc/close");
}

QTEST_GUILESS_MAIN(tst_EtcdNodeCache)
#include "tst_etcdnodecache.moc"
