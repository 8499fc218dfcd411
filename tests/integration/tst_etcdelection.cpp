// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// Election recipes against a real etcd. The LEADER key is written here exactly as an
// etcd-recipes candidate writes it ("<clientId>:<7 random>"), so these tests also pin interop.
#include "testutil.h"

#include <etcdtestserver.h>

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
    void observerSeedsWithoutSignal();
    void observerReportsEveryChange();
    void observerNeverMissesHandOffDuringStart();
    void observerSurvivesRestart();
    void observerResyncsAfterCompaction();
    void observerBadInput();

private:
    void setLeader(const QByteArray &path, const QByteArray &token);
    EtcdTestServer m_server;
    std::unique_ptr<EtcdClient> m_client;
};

void tst_EtcdElection::initTestCase()
{
    ETCDQT_START_OR_SKIP(m_server);
    m_client = connectedClient(m_server.clientUrl());
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
    QTRY_COMPARE_WITH_TIMEOUT(changes.seen.last(), u"node-b"_s, kWaitMs);
    QCOMPARE(observer.currentLeader(), u"node-b"_s);
    QVERIFY(
        changes.seen.size() == 2 || changes.seen == QStringList({u"node-a"_s, {}, u"node-b"_s}));
    setLeader("/el/changes", {});
    QTRY_COMPARE_WITH_TIMEOUT(observer.currentLeader(), QString(), kWaitMs);
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
