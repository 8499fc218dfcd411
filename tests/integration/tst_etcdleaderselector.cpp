// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// EtcdLeaderSelector and election participants against a real etcd: the scenarios of
// etcd-recipes' SerialLeaderSelectorTests, ThreadedLeaderSelectorTests, ParticipantTests,
// LeaderSelectorReuseTests and LeaderSelectorCloseDeadlockTests, plus our own: golden bytes,
// the anchored leader watch, fencing, no lease left behind.
#include "electionutil.h"
#include "leaseledger.h"

#include <etcdtestserver.h>

#include <QtCore/qregularexpression.h>
#include <QtTest/qabstractitemmodeltester.h>

#include <condition_variable>
#include <thread>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace {
constexpr auto kTtl = 2s;
constexpr int kWaitMs = 5 * 2000; // five TTLs: generous on a loaded 2-core machine
} // namespace

class tst_EtcdLeaderSelector : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void badInput();
    void secondStartDuringTermFails();
    void serialElection();
    void tenCandidatesEachLeadOnceNeverTwoAtOnce();
    void participantsShrinkAsLeadersResign();
    void candidatesOfOneClientShareTheirQueue();
    void watchesLastFromTheFirstTermToClose();
    void leaderAndParticipantKeysAreGolden();
    void reusableForManyTerms();
    void nextTermLeadsOnALeaseGrantedAhead();
    void closeReleasesBodyParkedInWaitUntilFinished();
    void bodyThatThrowsStillRelinquishes();
    void anchoredWatchNeverMissesHandOff();
    void guardedTxnCommitsOnlyDuringTheTerm();
    void bodyCommitsGuardedWrites();
    void waitsRefuseTheOwnerThread();
    void closeLeavesNoLease();
    void closeRightAfterStartIsClean();
    void closeWhileGrantingLeavesNoLease();
    void waitForStartedFromAWorkerThread();
    void destroyingReleasesParkedWaits();

private:
    EtcdTestServer m_server;
    LeaseLedger m_leases; // issue 22 item 7: no test leaves a lease
    std::unique_ptr<EtcdClient> m_client;
};

void tst_EtcdLeaderSelector::initTestCase()
{
    ETCDQT_START_OR_SKIP(m_server);
    m_client = connectedClient(m_server.clientUrl());
}

void tst_EtcdLeaderSelector::init()
{
    m_leases.begin(m_server);
}

void tst_EtcdLeaderSelector::cleanup()
{
    VERIFY_NO_LEASE_LEFT(m_leases);
}

void tst_EtcdLeaderSelector::badInput()
{
    struct Case
    {
        EtcdClient *client;
        QByteArray path;
        std::chrono::seconds ttl;
        Etcd::ErrorCode code;
    };
    const Case cases[] = {
        {m_client.get(), {}, kTtl, Etcd::ErrorCode::InvalidArgument},
        {m_client.get(), "/", kTtl, Etcd::ErrorCode::InvalidArgument},
        {m_client.get(), "/el/bad", 0s, Etcd::ErrorCode::InvalidArgument},
        {m_client.get(), "/el/bad", -3s, Etcd::ErrorCode::InvalidArgument},
        {nullptr, "/el/bad", kTtl, Etcd::ErrorCode::NotConnected},
    };
    for (const Case &c : cases) {
        EtcdLeaderSelector selector(c.client, c.path, withId(u"bad"_s, c.ttl));
        TermLog log(&selector);
        QVERIFY(!selector.start());
        QTRY_COMPARE_WITH_TIMEOUT(log.count(u"failed"_s), 1, kWaitMs);
        QCOMPARE(log.failure.code(), c.code);
        QCOMPARE(selector.errors().size(), 1);
        QCOMPARE(selector.state(), EtcdLeaderSelector::State::Idle);
    }
    // Unreachable etcd: start() goes ahead, then fails with the reason instead of hanging.
    EtcdClient nowhere({QUrl(u"http://127.0.0.1:1"_s)});
    nowhere.setConnectTimeout(500ms);
    nowhere.connectToEndpoints();
    EtcdLeaderSelector selector(&nowhere, "/el/bad", withId(u"nowhere"_s));
    TermLog log(&selector);
    QVERIFY(selector.start());
    QTRY_COMPARE_WITH_TIMEOUT(log.count(u"finished"_s), 1, kWaitMs);
    QCOMPARE(log.events, QStringList({u"failed"_s, u"finished"_s}));
    QVERIFY(!selector.isActive());
}

void tst_EtcdLeaderSelector::secondStartDuringTermFails()
{
    EtcdLeaderSelector selector(m_client.get(), "/el/twice", withId(u"twice"_s));
    TermLog log(&selector);
    QVERIFY(selector.start());
    QVERIFY(!selector.start());
    QCOMPARE(selector.errors().constLast().code(), Etcd::ErrorCode::FailedPrecondition);
    QVERIFY(selector.errors().constLast().message().contains(
        u"previous call to start() not complete"_s));
    QTRY_COMPARE_WITH_TIMEOUT(log.count(u"elected"_s), 1, kWaitMs);
    QVERIFY(!selector.start());
    selector.resign();
    QTRY_COMPARE_WITH_TIMEOUT(log.count(u"finished"_s), 1, kWaitMs);
    QTRY_COMPARE_WITH_TIMEOUT(log.count(u"failed"_s), 2, kWaitMs); // the refusals, queued
}

// Five selectors one after another, each with a body; a caller thread waits for each term.
void tst_EtcdLeaderSelector::serialElection()
{
    int led = 0;
    for (int i = 0; i < 5; ++i) {
        EtcdLeaderSelector selector(m_client.get(), "/el/serial", withId(u"serial-%1"_s.arg(i)));
        std::atomic<int> relinquished = 0;
        std::atomic<bool> leaderInBody = false;
        selector.setTakeLeadership([&leaderInBody](EtcdLeaderSelector &s, std::stop_token) {
            leaderInBody = s.isLeader();
        });
        selector.setRelinquishLeadership([&relinquished](EtcdLeaderSelector &) { ++relinquished; });
        std::atomic<bool> complete = false;
        QVERIFY(selector.start());
        std::thread caller([&] { complete = selector.waitOnLeadershipComplete(10s); });
        QTRY_VERIFY_WITH_TIMEOUT(complete, kWaitMs);
        caller.join();
        QCOMPARE(relinquished.load(), 1);
        QVERIFY(leaderInBody.load());
        led += int(selector.counters().acquired);
        QCOMPARE(selector.counters().relinquished, 1u);
        QVERIFY(!selector.isLeader());
    }
    QCOMPARE(led, 5);
}

void tst_EtcdLeaderSelector::tenCandidatesEachLeadOnceNeverTwoAtOnce()
{
    Overlap overlap;
    std::vector<std::unique_ptr<EtcdClient>> clients;
    std::vector<std::unique_ptr<EtcdLeaderSelector>> selectors;
    std::vector<std::unique_ptr<TermLog>> logs;
    std::atomic<int> bodies = 0;
    for (int i = 0; i < 10; ++i) {
        clients.push_back(connectedClient(m_server.clientUrl())); // ten processes' worth
        auto s = std::make_unique<EtcdLeaderSelector>(
            clients.back().get(), "/el/ten", withId(u"ten-%1"_s.arg(i)));
        s->setTakeLeadership([&](EtcdLeaderSelector &self, std::stop_token stop) {
            overlap.enter();
            ++bodies;
            // Lead a little while, honouring stop.
            self.waitUntilFinished(20ms);
            overlap.leave();
            Q_UNUSED(stop);
        });
        logs.push_back(std::make_unique<TermLog>(s.get()));
        selectors.push_back(std::move(s));
    }
    for (auto &s : selectors)
        QVERIFY(s->start());
    for (auto &log : logs)
        QTRY_COMPARE_WITH_TIMEOUT(log->count(u"finished"_s), 1, 3 * kWaitMs);
    QCOMPARE(bodies.load(), 10);
    QCOMPARE(overlap.most.load(), 1);
    for (auto &log : logs)
        QCOMPARE(log->events,
            QStringList({u"started"_s, u"elected"_s, u"relinquished"_s, u"finished"_s}));
    for (auto &s : selectors)
        QCOMPARE(s->counters().acquired, 1u);
    QVERIFY(keyValueOf(*m_client, "/el/ten/LEADER").key.isEmpty());
}

// The candidates of one client in one thread share the election's queue: a rejoining
// candidate reads none of it again (no Range request; each term read it, 1,000 candidates in
// one process re-read 1,000 keys per rejoin), and the shared queue still knows who is next: a
// leader that resigned and rejoined is behind the one that waited.
void tst_EtcdLeaderSelector::candidatesOfOneClientShareTheirQueue()
{
    auto client = connectedClient(m_server.clientUrl());
    std::vector<std::unique_ptr<EtcdLeaderSelector>> s;
    std::vector<std::unique_ptr<TermLog>> logs;
    for (const QString &id : {u"share-a"_s, u"share-b"_s, u"share-c"_s}) {
        s.push_back(std::make_unique<EtcdLeaderSelector>(client.get(), "/el/share", withId(id)));
        logs.push_back(std::make_unique<TermLog>(s.back().get()));
    }
    QVERIFY(s[0]->start());
    QTRY_COMPARE_WITH_TIMEOUT(logs[0]->count(u"elected"_s), 1, kWaitMs);
    for (size_t i : {1, 2}) { // b registers before c: b is next
        QVERIFY(s[i]->start());
        QTRY_COMPARE_WITH_TIMEOUT(logs[i]->count(u"started"_s), 1, kWaitMs);
    }
    const auto ranges = [&] {
        return etcdMetric(
            m_server.clientUrl(), "grpc_server_handled_total", "grpc_method=\"Range\"");
    };
    const double before = ranges();
    // a, b, c, a, b, ...: whoever resigns rejoins behind the other two.
    for (int handoff = 0; handoff < 4; ++handoff) {
        const size_t leader = size_t(handoff % 3), next = size_t((handoff + 1) % 3);
        const int elected = logs[next]->count(u"elected"_s);
        const int finished = logs[leader]->count(u"finished"_s);
        s[leader]->resign();
        QTRY_COMPARE_WITH_TIMEOUT(logs[next]->count(u"elected"_s), elected + 1, kWaitMs);
        QTRY_COMPARE_WITH_TIMEOUT(logs[leader]->count(u"finished"_s), finished + 1, kWaitMs);
        const int started = logs[leader]->count(u"started"_s);
        QVERIFY(s[leader]->start());
        QTRY_COMPARE_WITH_TIMEOUT(logs[leader]->count(u"started"_s), started + 1, kWaitMs);
    }
    QCOMPARE(ranges() - before, 0.0);
    for (auto &selector : s)
        selector->close();
    for (auto &log : logs)
        QTRY_COMPARE_WITH_TIMEOUT(log->count(u"closed"_s), 1, kWaitMs);
    for (auto &log : logs)
        QVERIFY2(!log->events.contains(u"lost"_s), qPrintable(log->events.join(u' ')));
}

// Ten body-less candidates; each leader in turn sees the participants it should (10, 9, ...,
// 1), the live model agrees, then it resigns. The list is empty at the end.
void tst_EtcdLeaderSelector::participantsShrinkAsLeadersResign()
{
    EtcdParticipantsModel model(m_client.get(), "/el/participants");
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy modelStarted(&model, &EtcdParticipantsModel::started);
    model.start();
    QVERIFY(modelStarted.wait(kWaitMs));
    std::vector<std::unique_ptr<EtcdLeaderSelector>> selectors;
    for (int i = 0; i < 10; ++i) {
        selectors.push_back(std::make_unique<EtcdLeaderSelector>(
            m_client.get(), "/el/participants", withId(u"p-%1"_s.arg(i))));
        QVERIFY(selectors.back()->start());
    }
    QTRY_COMPARE_WITH_TIMEOUT(model.rowCount(), 10, kWaitMs);
    for (int k = 0; k < 10; ++k) {
        EtcdLeaderSelector *leader = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((leader = [&]() -> EtcdLeaderSelector * {
            for (auto &s : selectors)
                if (s->isLeader())
                    return s.get();
            return nullptr;
        }()),
            kWaitMs);
        int leaders = 0;
        for (auto &s : selectors)
            leaders += s->isLeader();
        QCOMPARE(leaders, 1);
        QTRY_COMPARE_WITH_TIMEOUT(model.rowCount(), 10 - k, kWaitMs);
        QTRY_COMPARE_WITH_TIMEOUT(model.leader(), leader->clientId(), kWaitMs);
        const auto read
            = await(EtcdLeaderSelector::participants(m_client.get(), "/el/participants"));
        QVERIFY_OK(read.status);
        QCOMPARE(read->participants().size(), 10 - k);
        QCOMPARE(read->leader(), leader->clientId());
        QCOMPARE(std::count_if(read->participants().cbegin(), read->participants().cend(),
                     [](const EtcdParticipant &p) { return p.isLeader; }),
            1);
        QSignalSpy finished(leader, &EtcdLeaderSelector::termFinished);
        leader->resign(); // without a body the term ends inside resign()
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kWaitMs);
    }
    QTRY_COMPARE_WITH_TIMEOUT(model.rowCount(), 0, kWaitMs);
    QCOMPARE(model.leader(), QString());
}

// The bytes etcd-recipes writes and reads: "<path>/LEADER" = "<clientId>:<7 of [A-Za-z0-9]>"
// on the leadership lease; "<path>/participants/<clientId>" = clientId on another lease.
// The election's two watches (LEADER and the participants) are the client's, shared by its
// candidates: kept between terms, so a hand-off neither cancels nor re-creates them, and gone
// once every candidate closed.
void tst_EtcdLeaderSelector::watchesLastFromTheFirstTermToClose()
{
    const auto watchers
        = [&] { return etcdMetric(m_server.clientUrl(), "etcd_debugging_mvcc_watcher_total"); };
    QTRY_COMPARE_WITH_TIMEOUT(watchers(), 0.0, kWaitMs); // earlier tests' selectors let go
    auto client = connectedClient(m_server.clientUrl());
    EtcdLeaderSelector a(client.get(), "/el/watches", withId(u"watch-a"_s));
    EtcdLeaderSelector b(client.get(), "/el/watches", withId(u"watch-b"_s));
    TermLog la(&a), lb(&b);
    QVERIFY(electThenQueue(a, la, b, lb, kWaitMs));
    QTRY_COMPARE_WITH_TIMEOUT(watchers(), 2.0, kWaitMs);
    a.resign();
    QTRY_COMPARE_WITH_TIMEOUT(lb.count(u"elected"_s), 1, kWaitMs);
    QTRY_COMPARE_WITH_TIMEOUT(la.count(u"finished"_s), 1, kWaitMs);
    QCOMPARE(watchers(), 2.0); // a is between terms and b leads: the same two watches
    b.resign();
    QTRY_COMPARE_WITH_TIMEOUT(lb.count(u"finished"_s), 1, kWaitMs);
    QCOMPARE(watchers(), 2.0); // both between terms
    a.close();
    b.close();
    QTRY_COMPARE_WITH_TIMEOUT(la.count(u"closed"_s) + lb.count(u"closed"_s), 2, kWaitMs);
    QTRY_COMPARE_WITH_TIMEOUT(watchers(), 0.0, kWaitMs);
}

void tst_EtcdLeaderSelector::leaderAndParticipantKeysAreGolden()
{
    EtcdLeaderSelector selector(m_client.get(), "/el/golden/", withId(u"reporter-1"_s));
    TermLog log(&selector);
    QVERIFY(selector.start());
    QTRY_COMPARE_WITH_TIMEOUT(log.count(u"elected"_s), 1, kWaitMs);
    const EtcdKeyValue leader = keyValueOf(*m_client, "/el/golden/LEADER");
    QVERIFY(QRegularExpression(u"^reporter-1:[A-Za-z0-9]{7}$"_s)
                .match(QString::fromLatin1(leader.value))
                .hasMatch());
    const EtcdFencingToken token = selector.fencingToken();
    QCOMPARE(token.key, "/el/golden/LEADER"_ba);
    QCOMPARE(leader.createRevision, token.revision);
    QCOMPARE(leader.lease, token.leaseId);
    QTRY_COMPARE_WITH_TIMEOUT(keyValueOf(*m_client, "/el/golden/participants/reporter-1").value,
        "reporter-1"_ba, kWaitMs);
    const EtcdKeyValue participant = keyValueOf(*m_client, "/el/golden/participants/reporter-1");
    QVERIFY(participant.lease != 0);
    QVERIFY(participant.lease != leader.lease); // healed separately, never the leadership
    // Nothing else under the path.
    EtcdRangeOptions all;
    all.prefix = true;
    all.keysOnly = true;
    QCOMPARE(await(m_client->get("/el/golden/", all))->keyValues().size(), 2);
    selector.close();
    QTRY_COMPARE_WITH_TIMEOUT(log.count(u"closed"_s), 1, kWaitMs);
    QCOMPARE(await(m_client->get("/el/golden/", all))->keyValues().size(), 0);
}

void tst_EtcdLeaderSelector::reusableForManyTerms()
{
    EtcdLeaderSelector selector(m_client.get(), "/el/reuse", withId(u"reuse"_s));
    TermLog log(&selector);
    qint64 lastToken = 0;
    for (int term = 1; term <= 3; ++term) {
        QVERIFY(selector.start());
        QTRY_COMPARE_WITH_TIMEOUT(log.count(u"elected"_s), term, kWaitMs);
        QVERIFY(selector.fencingToken().revision > lastToken); // every term a newer token
        lastToken = selector.fencingToken().revision;
        selector.resign();
        QTRY_COMPARE_WITH_TIMEOUT(log.count(u"finished"_s), term, kWaitMs);
    }
    QCOMPARE(selector.counters().acquired, 3u);
    QCOMPARE(selector.counters().relinquished, 3u);
    QCOMPARE(selector.counters().steppedDown, 0u);
}

void tst_EtcdLeaderSelector::closeReleasesBodyParkedInWaitUntilFinished()
{
    for (int round = 0; round < 2; ++round) { // across start()/close() reuse of the path
        EtcdLeaderSelector selector(m_client.get(), "/el/park", withId(u"park"_s));
        std::atomic<int> released = -1;
        std::atomic<bool> relinquished = false;
        selector.setTakeLeadership([&](EtcdLeaderSelector &s, std::stop_token) {
            released = s.waitUntilFinished(std::chrono::hours(1)) ? 1 : 0;
        });
        selector.setRelinquishLeadership([&](EtcdLeaderSelector &) { relinquished = true; });
        TermLog log(&selector);
        QVERIFY(selector.start());
        QTRY_COMPARE_WITH_TIMEOUT(log.count(u"elected"_s), 1, kWaitMs);
        std::atomic<bool> callerDone = false;
        std::thread caller(
            [&] { callerDone = selector.waitOnLeadershipComplete(std::chrono::hours(1)); });
        selector.close();
        QTRY_COMPARE_WITH_TIMEOUT(log.count(u"closed"_s), 1, kWaitMs);
        caller.join();
        QCOMPARE(released.load(), 1);
        QVERIFY(relinquished.load());
        QVERIFY(callerDone.load());
        QCOMPARE(log.events,
            QStringList(
                {u"started"_s, u"elected"_s, u"relinquished"_s, u"finished"_s, u"closed"_s}));
        QCOMPARE(selector.state(), EtcdLeaderSelector::State::Closed);
    }
}

void tst_EtcdLeaderSelector::bodyThatThrowsStillRelinquishes()
{
    EtcdLeaderSelector selector(m_client.get(), "/el/throw", withId(u"thrower"_s));
    std::atomic<bool> relinquished = false;
    selector.setTakeLeadership(
        [](EtcdLeaderSelector &, std::stop_token) { throw std::runtime_error("boom"); });
    selector.setRelinquishLeadership([&](EtcdLeaderSelector &) { relinquished = true; });
    TermLog log(&selector);
    QVERIFY(selector.start());
    QTRY_COMPARE_WITH_TIMEOUT(log.count(u"finished"_s), 1, kWaitMs);
    QVERIFY(relinquished.load());
    QVERIFY(selector.errors().constLast().message().contains(u"boom"_s));
    QVERIFY(keyValueOf(*m_client, "/el/throw/LEADER").key.isEmpty()); // handed off at once
}

// etcd-recipes' selector watches LEADER from "now", after its first compare-and-set: a
// DELETE between the two is missed and it never runs again. Ours watches from the
// compare-and-set's revision + 1. Here the incumbent leaves at every moment of that window.
void tst_EtcdLeaderSelector::anchoredWatchNeverMissesHandOff()
{
    for (int round = 0; round < 20; ++round) {
        QVERIFY_OK(await(m_client->put("/el/anchor/LEADER", "incumbent:0000000")).status);
        EtcdLeaderSelector selector(m_client.get(), "/el/anchor", withId(u"challenger"_s));
        TermLog log(&selector);
        QVERIFY(selector.start());
        for (int turn = 0; turn < round % 5; ++turn) // leave after 0..4 event-loop turns
            QCoreApplication::processEvents();
        m_client->remove("/el/anchor/LEADER");
        QTRY_COMPARE_WITH_TIMEOUT(log.count(u"elected"_s), 1, kWaitMs);
        QCOMPARE(log.events.first(), u"started"_s);
        selector.close();
        QTRY_COMPARE_WITH_TIMEOUT(log.count(u"closed"_s), 1, kWaitMs);
    }
}

// guardedTxn() commits while the term holds LEADER; once the term is over, the same guard
// (the old fencing token) fails, even if this node leads again under a newer token.
void tst_EtcdLeaderSelector::guardedTxnCommitsOnlyDuringTheTerm()
{
    EtcdLeaderSelector selector(m_client.get(), "/el/fence", withId(u"fenced"_s));
    TermLog log(&selector);
    EtcdTxn write;
    write.success = {EtcdTxnOp::put("/el/fence-data", "first")};
    QVERIFY(!await(selector.guardedTxn(write))->succeeded()); // no term yet
    QVERIFY(selector.start());
    QTRY_COMPARE_WITH_TIMEOUT(log.count(u"elected"_s), 1, kWaitMs);
    const EtcdFencingToken first = selector.fencingToken();
    QVERIFY(first.isValid());
    auto during = await(selector.guardedTxn(write));
    QVERIFY_OK(during.status);
    QVERIFY(during->succeeded());
    selector.resign();
    QTRY_COMPARE_WITH_TIMEOUT(log.count(u"finished"_s), 1, kWaitMs);
    QVERIFY(!await(selector.guardedTxn(write))->succeeded());
    QVERIFY(selector.start());
    QTRY_COMPARE_WITH_TIMEOUT(log.count(u"elected"_s), 2, kWaitMs);
    EtcdTxn stale = write;
    stale.success = {EtcdTxnOp::put("/el/fence-data", "stale")};
    QVERIFY(!await(m_client->txn(first.guard(stale)))->succeeded());
    QCOMPARE(keyValueOf(*m_client, "/el/fence-data").value, "first"_ba);
    selector.close();
    QTRY_COMPARE_WITH_TIMEOUT(log.count(u"closed"_s), 1, kWaitMs);
}

// The body runs on its own thread, where client calls are not allowed; commitGuarded()
// carries its write to the selector's thread, guarded by the term it runs in.
void tst_EtcdLeaderSelector::bodyCommitsGuardedWrites()
{
    EtcdLeaderSelector selector(m_client.get(), "/el/bodywrite", withId(u"writer"_s));
    std::atomic<int> committed = -1;
    EtcdStatus why;
    selector.setTakeLeadership([&](EtcdLeaderSelector &self, std::stop_token) {
        EtcdTxn txn;
        txn.success = {EtcdTxnOp::put("/el/bodywrite-data", "from the body")};
        committed = self.commitGuarded(txn, 10s, &why) ? 1 : 0;
    });
    TermLog log(&selector);
    QVERIFY(selector.start());
    QTRY_COMPARE_WITH_TIMEOUT(log.count(u"finished"_s), 1, kWaitMs);
    QCOMPARE(committed.load(), 1);
    QVERIFY_OK(why);
    QCOMPARE(keyValueOf(*m_client, "/el/bodywrite-data").value, "from the body"_ba);
    // After the term, the same call from another thread is refused by etcd: the term is over.
    std::thread late([&] {
        EtcdTxn txn;
        txn.success = {EtcdTxnOp::put("/el/bodywrite-data", "late")};
        committed = selector.commitGuarded(txn, 10s, &why) ? 1 : 0;
    });
    QTRY_COMPARE_WITH_TIMEOUT(committed.load(), 0, kWaitMs);
    late.join();
    QCOMPARE(why.code(), Etcd::ErrorCode::FailedPrecondition);
    QCOMPARE(keyValueOf(*m_client, "/el/bodywrite-data").value, "from the body"_ba);
}

void tst_EtcdLeaderSelector::waitsRefuseTheOwnerThread()
{
    EtcdLeaderSelector selector(m_client.get(), "/el/refuse", withId(u"refuse"_s));
    QElapsedTimer t;
    t.start();
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"own thread"_s));
    QVERIFY(!selector.waitUntilFinished(10s));
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"own thread"_s));
    QVERIFY(!selector.waitOnLeadershipComplete(10s));
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"own thread"_s));
    QVERIFY(!selector.waitForStarted(10s));
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"own thread"_s));
    EtcdStatus why;
    QVERIFY(!selector.commitGuarded({}, 10s, &why));
    QCOMPARE(why.code(), Etcd::ErrorCode::WrongThread);
    QVERIFY(t.elapsed() < 1000); // refused, not waited
}

// Issue 21 item 3: from the second term on, the leadership lease is granted ahead (the
// client's standby of the selector's TTL), so the term's first compare-and-set waits for no
// grant: its LEADER stands on a lease etcd held before start(). Between terms that standby is
// the one lease of ours etcd holds; close() revokes it.
void tst_EtcdLeaderSelector::nextTermLeadsOnALeaseGrantedAhead()
{
    const QList<qint64> preexisting = liveLeases(*m_client);
    QVERIFY(!preexisting.contains(-1));
    const auto ours = [&] { return leasesSince(*m_client, preexisting); };
    EtcdLeaderSelector selector(m_client.get(), "/el/ahead", withId(u"ahead"_s));
    TermLog log(&selector);
    QVERIFY(selector.start());
    QTRY_COMPARE_WITH_TIMEOUT(log.count(u"elected"_s), 1, kWaitMs);
    const qint64 firstLease = selector.fencingToken().leaseId;
    selector.resign();
    QTRY_COMPARE_WITH_TIMEOUT(log.count(u"finished"_s), 1, kWaitMs);
    QList<qint64> between;
    QTRY_COMPARE_WITH_TIMEOUT((between = ours()).size(), 1, kWaitMs); // participation revoked
    QVERIFY(between.first() != firstLease);
    QVERIFY(selector.start());
    QTRY_COMPARE_WITH_TIMEOUT(log.count(u"elected"_s), 2, kWaitMs);
    const qint64 secondLease = selector.fencingToken().leaseId;
    QCOMPARE(secondLease, between.first());
    QCOMPARE(keyValueOf(*m_client, "/el/ahead/LEADER").lease, secondLease);
    selector.close();
    QTRY_COMPARE_WITH_TIMEOUT(log.count(u"closed"_s), 1, kWaitMs);
    QCOMPARE(ours(), QList<qint64>()); // the standby granted behind it too
}

// After close(), etcd holds none of the selector's leases: neither the leadership lease nor
// the participation lease, for a leader and for a candidate that never led.
void tst_EtcdLeaderSelector::closeLeavesNoLease()
{
    const QList<qint64> before = liveLeases(*m_client);
    QVERIFY(!before.contains(-1));
    EtcdLeaderSelector leader(m_client.get(), "/el/leak", withId(u"leak-a"_s));
    EtcdLeaderSelector follower(m_client.get(), "/el/leak", withId(u"leak-b"_s));
    TermLog a(&leader), b(&follower);
    QVERIFY(electThenQueue(leader, a, follower, b, kWaitMs));
    // Two leases each (leadership, participation), and the client's standby lease for the
    // participations' heals; wait until both participants registered.
    QList<qint64> ours;
    QTRY_COMPARE_WITH_TIMEOUT((ours = leasesSince(*m_client, before)).size(), 5, kWaitMs);
    follower.close();
    leader.close();
    QTRY_COMPARE_WITH_TIMEOUT(a.count(u"closed"_s) + b.count(u"closed"_s), 2, kWaitMs);
    const auto stillThere = [&] {
        const QList<qint64> now = liveLeases(*m_client);
        return std::count_if(
            ours.cbegin(), ours.cend(), [&](qint64 id) { return now.contains(id); });
    };
    QCOMPARE(stillThere(), 0); // closed() comes after etcd answered every revoke
    QCOMPARE(b.count(u"elected"_s), 0); // closing a candidate hands nothing to it
}

// etcd-recipes' fix #2: close() right after start() ends cleanly, whatever was in flight
// (grant, watch, compare-and-set, participation): closed() follows and no lease is left.
void tst_EtcdLeaderSelector::closeRightAfterStartIsClean()
{
    const QList<qint64> before = liveLeases(*m_client);
    for (int turns = 0; turns < 6; ++turns) {
        EtcdLeaderSelector selector(m_client.get(), "/el/quick", withId(u"quick"_s));
        TermLog log(&selector);
        QVERIFY(selector.start());
        for (int i = 0; i < turns; ++i) // close at a different point of the start each time
            QCoreApplication::processEvents();
        selector.close();
        QTRY_COMPARE_WITH_TIMEOUT(log.count(u"closed"_s), 1, kWaitMs);
        QVERIFY(selector.errors().isEmpty());
        const QList<qint64> now = leasesSince(*m_client, before);
        QVERIFY2(now.isEmpty(),
            qPrintable(u"%1 lease(s) left after %2 turns"_s.arg(now.size()).arg(turns)));
    }
    QVERIFY(keyValueOf(*m_client, "/el/quick/LEADER").key.isEmpty());
}

// close() while the term's grants are in flight (etcd granted the leadership and the
// participation lease, its answers held back by a FaultProxy): closed() comes only after
// both were answered and revoked, and no lease of ours is left.
void tst_EtcdLeaderSelector::closeWhileGrantingLeavesNoLease()
{
    const QList<qint64> before = liveLeases(*m_client);
    QVERIFY(!before.contains(-1));
    const auto ours = [&] { return leasesSince(*m_client, before); };
    ProxiedClient side(m_server.clientPort());
    QVERIFY(side.started);
    EtcdClient &client = side.client;
    FaultProxy &proxy = side.proxy;
    QVERIFY_OK(await(client.get("/el/granting"_ba)).status); // connected before the delay
    EtcdLeaderSelector selector(&client, "/el/granting", withId(u"granting"_s, 30s));
    TermLog log(&selector);
    proxy.setDelay(1s); // well inside the TTL and the stream liveness interval
    QVERIFY(selector.start());
    QTRY_COMPARE_WITH_TIMEOUT(ours().size(), 2, kWaitMs);
    selector.close();
    QTRY_COMPARE_WITH_TIMEOUT(log.count(u"closed"_s), 1, kWaitMs);
    QCOMPARE(ours(), QList<qint64>());
    QCOMPARE(log.count(u"elected"_s), 0);
    QVERIFY(keyValueOf(*m_client, "/el/granting/LEADER").key.isEmpty());
}

void tst_EtcdLeaderSelector::waitForStartedFromAWorkerThread()
{
    EtcdLeaderSelector holder(m_client.get(), "/el/waitstart", withId(u"holder"_s));
    TermLog held(&holder);
    QVERIFY(holder.start());
    QTRY_COMPARE_WITH_TIMEOUT(held.count(u"elected"_s), 1, kWaitMs);
    EtcdLeaderSelector follower(m_client.get(), "/el/waitstart", withId(u"follower"_s));
    std::atomic<int> started = -1;
    // start() first: a wait on a selector not started answers false at once ("no term").
    QVERIFY(follower.start());
    std::thread waiter([&] { started = follower.waitForStarted(10s) ? 1 : 0; });
    QTRY_VERIFY_WITH_TIMEOUT(started.load() != -1, kWaitMs);
    waiter.join();
    QCOMPARE(started.load(), 1); // in the running, not leading
    QVERIFY(!follower.isLeader());
    follower.close();
    holder.close();
    QTRY_COMPARE_WITH_TIMEOUT(held.count(u"closed"_s), 1, kWaitMs);
}

// A leader destroyed while two workers are parked in its waits: both end at once (the term is
// over) and neither touches the selector after waking (ASan builds catch it if one does).
void tst_EtcdLeaderSelector::destroyingReleasesParkedWaits()
{
    auto *leader = new EtcdLeaderSelector(m_client.get(), "/el/gone", withId(u"leader"_s));
    TermLog log(leader);
    QVERIFY(leader->start());
    QTRY_COMPARE_WITH_TIMEOUT(log.count(u"elected"_s), 1, kWaitMs);
    const WaiterRunsLast runsLast; // see testutil.h: a late touch lands in freed memory
    const ParkedWaiter complete(
        [leader] { return leader->waitOnLeadershipComplete(std::chrono::hours(1)); });
    const ParkedWaiter finished(
        [leader] { return leader->waitUntilFinished(std::chrono::hours(1)); });
    QVERIFY(complete.parked(kWaitMs));
    QVERIFY(finished.parked(kWaitMs));
    QElapsedTimer t;
    t.start();
    delete leader;
    QCOMPARE(complete.result(kWaitMs), 1);
    QCOMPARE(finished.result(kWaitMs), 1);
    QVERIFY2(t.elapsed() < kWaitMs / 10, qPrintable(QString::number(t.elapsed())));
}

QTEST_MAIN(tst_EtcdLeaderSelector)
#include "tst_etcdleaderselector.moc"
