// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// Election recipes against a real etcd. The LEADER key is written here exactly as an
// etcd-recipes candidate writes it ("<clientId>:<7 random>"), so these tests also pin interop.
#include "electionutil.h"
#include "leaseledger.h"

#include <etcdtestserver.h>

#include <QtCore/qmap.h>

#include <mutex>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace {
constexpr int kWaitMs = 5000; // nothing here depends on a lease TTL

struct Changes
{
    explicit Changes(EtcdLeaderObserver *o)
    {
        QObject::connect(o, &EtcdLeaderObserver::leaderChanged, o,
            [this](const QString &id) { seen.append(id); });
    }
    QStringList seen;
};
} // namespace

class tst_EtcdElection : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void observerSeedsWithoutSignal();
    void observerReportsEveryChange();
    void observerNeverMissesHandOffDuringStart();
    void observerSeesEveryTermOfBackToBackHandOffs_data();
    void observerSeesEveryTermOfBackToBackHandOffs();
    void observerReportsEveryTermOfACatchUp();
    void observerClosedFromItsSlotReportsNoMore();
    void observerSurvivesRestart();
    void observerResyncsAfterCompaction();
    void observerBadInput();

private:
    void setLeader(const QByteArray &path, const QByteArray &token);
    EtcdTestServer m_server;
    LeaseLedger m_leases; // issue 22 item 7: no test leaves a lease
    std::unique_ptr<EtcdClient> m_client;
};

void tst_EtcdElection::initTestCase()
{
    ETCDQT_START_OR_SKIP(m_server);
    m_client = connectedClient(m_server.clientUrl());
}

void tst_EtcdElection::init()
{
    m_leases.begin(m_server);
}

void tst_EtcdElection::cleanup()
{
    VERIFY_NO_LEASE_LEFT(m_leases);
}

void tst_EtcdElection::setLeader(const QByteArray &path, const QByteArray &token)
{
    if (token.isEmpty())
        QVERIFY_OK(await(m_client->remove(path + "/LEADER")).status);
    else
        QVERIFY_OK(await(m_client->put(path + "/LEADER", token)).status);
}

void tst_EtcdElection::observerSeedsWithoutSignal()
{
    setLeader("/el/seed", "LeaderSelector:Ab3dE9x:q1W2e3R");
    EtcdLeaderObserver observer(m_client.get(), "/el/seed");
    Changes changes(&observer);
    QSignalSpy started(&observer, &EtcdLeaderObserver::started);
    QCOMPARE(observer.currentLeader(), QString());
    observer.start();
    QVERIFY(started.wait(kWaitMs));
    QCOMPARE(observer.currentLeader(), u"LeaderSelector:Ab3dE9x"_s);
    QVERIFY(observer.isStarted());
    QVERIFY(changes.seen.isEmpty());
    setLeader("/el/seed", {});
}

void tst_EtcdElection::observerReportsEveryChange()
{
    EtcdLeaderObserver observer(m_client.get(), "/el/changes/"); // a trailing '/' is the same
    Changes changes(&observer);
    QSignalSpy started(&observer, &EtcdLeaderObserver::started);
    observer.start();
    QVERIFY(started.wait(kWaitMs));
    QCOMPARE(observer.currentLeader(), QString());
    setLeader("/el/changes", "node-a:AAAAAAA");
    QTRY_COMPARE_WITH_TIMEOUT(changes.seen, QStringList {u"node-a"_s}, kWaitMs);
    setLeader("/el/changes", {});
    setLeader("/el/changes", "node-b:BBBBBBB");
    // The vacancy between the two terms is reported too, however fast it passed.
    QTRY_COMPARE_WITH_TIMEOUT(changes.seen, (QStringList {u"node-a"_s, {}, u"node-b"_s}), kWaitMs);
    QCOMPARE(observer.currentLeader(), u"node-b"_s);
    setLeader("/el/changes", {});
    QTRY_COMPARE_WITH_TIMEOUT(
        changes.seen, (QStringList {u"node-a"_s, {}, u"node-b"_s, {}}), kWaitMs);
    QCOMPARE(observer.currentLeader(), QString());
    QCOMPARE(observer.connectionState(), EtcdRecipe::ConnectionState::Connected);
}

// Hand-offs keep coming while the observer reads and subscribes: whatever it saw last is
// what etcd holds, because the watch starts at the revision the read saw + 1.
void tst_EtcdElection::observerNeverMissesHandOffDuringStart()
{
    for (int round = 0; round < 5; ++round) {
        EtcdLeaderObserver observer(m_client.get(), "/el/race");
        QSignalSpy started(&observer, &EtcdLeaderObserver::started);
        observer.start();
        int done = 0;
        for (int i = 0; i < 20; ++i) {
            auto *put = m_client->put("/el/race/LEADER", u"n%1:0000000"_s.arg(i).toUtf8());
            connect(put, &EtcdReply::finished, this, [&done] { ++done; });
        }
        // Concurrent puts: etcd applies them in its own order; ask it which came last.
        QTRY_COMPARE_WITH_TIMEOUT(done, 20, kWaitMs);
        const auto held = await(m_client->get("/el/race/LEADER"));
        const QString last = QString::fromUtf8(held->keyValues().first().value.chopped(8));
        QVERIFY(started.wait(kWaitMs) || observer.isStarted());
        QTRY_COMPARE_WITH_TIMEOUT(observer.currentLeader(), last, kWaitMs);
        setLeader("/el/race", {});
    }
}

void tst_EtcdElection::observerSeesEveryTermOfBackToBackHandOffs_data()
{
    QTest::addColumn<bool>("cutOff");
    QTest::newRow("live") << false; // one watch response per term change, as they happen
    QTest::newRow("caught up") << true; // all of them in one catch-up after a cut-off
}

// Twenty candidates, each giving up as soon as it is elected: twenty hand-offs back to back.
// The observer reports every term in the order etcd elected them, each followed by its
// vacancy, whether it watched them live or caught up on them after a cut-off.
void tst_EtcdElection::observerSeesEveryTermOfBackToBackHandOffs()
{
    QFETCH(bool, cutOff);
    constexpr int candidates = 20;
    constexpr auto ttl = 2s;
    const QByteArray path = cutOff ? "/el/handoffs/caught-up" : "/el/handoffs/live";
    PartitionedClient side(m_server.clientPort());
    QVERIFY(side.started);
    EtcdLeaderObserver observer(&side.client, path);
    Changes changes(&observer);
    QSignalSpy started(&observer, &EtcdLeaderObserver::started);
    observer.start();
    QVERIFY(started.wait(kWaitMs));
    if (cutOff) {
        side.proxy.setMode(FaultProxy::Mode::Blackhole);
        QTRY_COMPARE_WITH_TIMEOUT(
            observer.connectionState(), EtcdRecipe::ConnectionState::Suspended, kWaitMs);
    }

    std::mutex mutex;
    QMap<qint64, QString> elected; // by each term's fencing revision: etcd's order
    int finished = 0;
    std::vector<std::unique_ptr<EtcdLeaderSelector>> selectors;
    for (int i = 0; i < candidates; ++i) {
        const QString id = u"term-%1"_s.arg(i, 2, 10, QChar(u'0'));
        auto s = std::make_unique<EtcdLeaderSelector>(m_client.get(), path, withId(id, ttl));
        s->setTakeLeadership([&mutex, &elected, id](EtcdLeaderSelector &self, std::stop_token) {
            std::scoped_lock lock(mutex);
            elected.insert(self.fencingToken().revision, id);
        }); // and returns at once: the term ends as soon as it began
        connect(s.get(), &EtcdLeaderSelector::termFinished, this, [&finished] { ++finished; });
        selectors.push_back(std::move(s));
    }
    for (auto &s : selectors)
        QVERIFY(s->start());
    // Each hand-off takes milliseconds; one that stalled would wait out a lease at worst.
    QTRY_COMPARE_WITH_TIMEOUT(finished, candidates, int(candidates * (ttl + 1s) / 1ms));
    side.proxy.setMode(FaultProxy::Mode::Pass);

    QStringList expected;
    {
        std::scoped_lock lock(mutex);
        QCOMPARE(elected.size(), candidates);
        for (const QString &id : std::as_const(elected))
            expected << id << QString();
    }
    QTRY_COMPARE_WITH_TIMEOUT(changes.seen, expected, 3 * kWaitMs);
    QCOMPARE(observer.currentLeader(), QString());
}

// Terms that began and ended while the observer was cut off reach it in one catch-up when
// it reconnects: each is still reported, vacancies included, and a second term of the same
// client id too.
void tst_EtcdElection::observerReportsEveryTermOfACatchUp()
{
    PartitionedClient side(m_server.clientPort());
    QVERIFY(side.started);
    EtcdLeaderObserver observer(&side.client, "/el/catchup");
    Changes changes(&observer);
    QSignalSpy started(&observer, &EtcdLeaderObserver::started);
    observer.start();
    QVERIFY(started.wait(kWaitMs));
    side.proxy.setMode(FaultProxy::Mode::Blackhole);
    QTRY_COMPARE_WITH_TIMEOUT(
        observer.connectionState(), EtcdRecipe::ConnectionState::Suspended, kWaitMs);
    for (const QByteArray &token : {"a:AAAAAAA"_ba, ""_ba, "b:BBBBBBB"_ba, ""_ba, "a:CCCCCCC"_ba}) {
        setLeader("/el/catchup", token);
    }
    side.proxy.setMode(FaultProxy::Mode::Pass);
    const QStringList terms {u"a"_s, {}, u"b"_s, {}, u"a"_s};
    QTRY_COMPARE_WITH_TIMEOUT(changes.seen, terms, 3 * kWaitMs);
    QCOMPARE(observer.currentLeader(), u"a"_s);
    setLeader("/el/catchup", {});
    QTRY_COMPARE_WITH_TIMEOUT(changes.seen, terms + QStringList {QString()}, kWaitMs);
}

// A slot that closes the observer on the first change of a catch-up hears no other.
void tst_EtcdElection::observerClosedFromItsSlotReportsNoMore()
{
    PartitionedClient side(m_server.clientPort());
    QVERIFY(side.started);
    EtcdLeaderObserver observer(&side.client, "/el/closing");
    Changes changes(&observer);
    connect(&observer, &EtcdLeaderObserver::leaderChanged, &observer, &EtcdLeaderObserver::close);
    QSignalSpy started(&observer, &EtcdLeaderObserver::started);
    QSignalSpy closed(&observer, &EtcdRecipe::closed);
    observer.start();
    QVERIFY(started.wait(kWaitMs));
    side.proxy.setMode(FaultProxy::Mode::Blackhole);
    QTRY_COMPARE_WITH_TIMEOUT(
        observer.connectionState(), EtcdRecipe::ConnectionState::Suspended, kWaitMs);
    for (const QByteArray &token : {"a:AAAAAAA"_ba, ""_ba, "b:BBBBBBB"_ba})
        setLeader("/el/closing", token);
    side.proxy.setMode(FaultProxy::Mode::Pass);
    QVERIFY(closed.wait(3 * kWaitMs));
    QCOMPARE(changes.seen, QStringList {u"a"_s});
    QCOMPARE(observer.currentLeader(), u"a"_s);
    setLeader("/el/closing", {});
}

void tst_EtcdElection::observerSurvivesRestart()
{
    EtcdClient client({m_server.clientUrl()});
    client.setStreamLivenessInterval(500ms);
    client.connectToEndpoints();
    EtcdLeaderObserver observer(&client, "/el/restart");
    QSignalSpy started(&observer, &EtcdLeaderObserver::started);
    observer.start();
    QVERIFY(started.wait(kWaitMs));
    // Suspended may last only a moment once etcd is back, so record every state rather
    // than poll for a transient one.
    QList<EtcdRecipe::ConnectionState> states;
    connect(&observer, &EtcdRecipe::connectionStateChanged, this,
        [&states](EtcdRecipe::ConnectionState state) { states.append(state); });
    QVERIFY(m_server.restart());
    QTRY_VERIFY_WITH_TIMEOUT(states.contains(EtcdRecipe::ConnectionState::Suspended), kWaitMs);
    setLeader("/el/restart", "after:RESTART");
    QTRY_COMPARE_WITH_TIMEOUT(observer.currentLeader(), u"after"_s, 3 * kWaitMs);
    QTRY_COMPARE_WITH_TIMEOUT(
        observer.connectionState(), EtcdRecipe::ConnectionState::Reconnected, kWaitMs);
    QCOMPARE(states.indexOf(EtcdRecipe::ConnectionState::Suspended) + 1,
        states.indexOf(EtcdRecipe::ConnectionState::Reconnected));
    setLeader("/el/restart", {});
}

void tst_EtcdElection::observerResyncsAfterCompaction()
{
    PartitionedClient side(m_server.clientPort());
    QVERIFY(side.started);
    EtcdLeaderObserver observer(&side.client, "/el/compact");
    QSignalSpy started(&observer, &EtcdLeaderObserver::started);
    observer.start();
    QVERIFY(started.wait(kWaitMs));
    side.proxy.setMode(FaultProxy::Mode::Blackhole);
    QTRY_COMPARE_WITH_TIMEOUT(
        observer.connectionState(), EtcdRecipe::ConnectionState::Suspended, kWaitMs);
    // Hand-offs while the observer is cut off, then their history compacted away.
    setLeader("/el/compact", "gone:0000000");
    setLeader("/el/compact", "final:0000000");
    const auto put = await(m_client->put("/el/other", "x"));
    QVERIFY_OK(await(m_client->compact(put->revision())).status);
    side.proxy.setMode(FaultProxy::Mode::Pass);
    QTRY_COMPARE_WITH_TIMEOUT(observer.currentLeader(), u"final"_s, 3 * kWaitMs);
    setLeader("/el/compact", {});
    QTRY_COMPARE_WITH_TIMEOUT(observer.currentLeader(), QString(), kWaitMs); // still watching
}

void tst_EtcdElection::observerBadInput()
{
    EtcdLeaderObserver empty(m_client.get(), {});
    QSignalSpy failed(&empty, &EtcdLeaderObserver::failed);
    empty.start();
    QVERIFY(failed.wait(kWaitMs));
    QCOMPARE(failed.first().first().value<EtcdStatus>().code(), Etcd::ErrorCode::InvalidArgument);
    EtcdLeaderObserver closing(m_client.get(), "/el/close");
    closing.start();
    closing.close();
    closing.close();
    QVERIFY(!closing.isActive());
}

QTEST_GUILESS_MAIN(tst_EtcdElection)
#include "tst_etcdelection.moc"
