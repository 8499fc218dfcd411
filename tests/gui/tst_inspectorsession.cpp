// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// InspectorSession against a real etcd: hand-offs reach the view and the timeline within a
// second, a lock's queue is shown in create-revision order, past hand-offs are rebuilt from
// history, a compaction during a partition is read again rather than skipped, bad input is
// refused. TTLs are the etcd minimum (2 s); waits are multiples of it.
#include "../integration/testutil.h"

#include <etcdtestserver.h>

#include <inspectorsession.h>
#include <recipemodel.h>
#include <timelinemodel.h>

#include <QtCore/qrandom.h>

using namespace Inspector;
using namespace std::chrono_literals;
using Etcd::Decode::Kind;
using Etcd::Decode::Recipe;
using Etcd::Decode::Role;

namespace {
constexpr int kTtlMs = 2000;
constexpr int kWaitMs = 5 * kTtlMs;

QByteArray freshPrefix()
{
    return "/inspect-" + QByteArray::number(QRandomGenerator::global()->generate(), 16) + '/';
}

const Recipe *findRecipe(const InspectorSession &s, const QByteArray &path)
{
    for (const Recipe &r : s.view().recipes) {
        if (r.path == path)
            return &r;
    }
    return nullptr;
}

QString leaderOf(const InspectorSession &s, const QByteArray &path)
{
    const Recipe *r = findRecipe(s, path);
    const auto *leader = r ? r->first(Role::Leader) : nullptr;
    return leader ? leader->owner : QString();
}

EtcdLeaderSelectorOptions latchOptions(const QString &id)
{
    EtcdLeaderSelectorOptions o;
    o.clientId = id;
    o.ttl = std::chrono::seconds(kTtlMs / 1000);
    return o;
}
} // namespace

class tst_InspectorSession : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { ETCDQT_START_OR_SKIP(m_server); }
    void handOffReachesViewAndTimelineWithinASecond();
    void lockQueueFollowsCreateRevisions();
    void pastHandOffsAreRebuiltFromHistory();
    void compactionDuringAPartitionIsReadAgain();
    void badInputIsRefused_data();
    void badInputIsRefused();
    void unreachableEndpointKeepsRetrying();

private:
    std::unique_ptr<InspectorSession> liveSession(const QUrl &url, const QByteArray &prefix)
    {
        auto s = std::make_unique<InspectorSession>();
        InspectorSession::Options o;
        o.endpoints = {url};
        o.prefix = prefix;
        if (!s->start(o))
            return nullptr;
        if (!QTest::qWaitFor([&] { return s->phase() == InspectorSession::Phase::Live; }, kWaitMs))
            return nullptr;
        return s;
    }

    EtcdTestServer m_server;
};

void tst_InspectorSession::handOffReachesViewAndTimelineWithinASecond()
{
    const QByteArray prefix = freshPrefix();
    const QByteArray election = prefix + "election";
    auto session = liveSession(m_server.clientUrl(), prefix);
    QVERIFY(session);
    TimelineModel timeline;
    connect(session.get(), &InspectorSession::handOffsDerived, &timeline, &TimelineModel::append);

    auto clientA = connectedClient(m_server.clientUrl());
    auto clientB = connectedClient(m_server.clientUrl());
    EtcdLeaderLatch a(clientA.get(), election, latchOptions(QStringLiteral("node-a")));
    QVERIFY(a.start());
    QTRY_VERIFY_WITH_TIMEOUT(a.hasLeadership(), kWaitMs);
    EtcdLeaderLatch b(clientB.get(), election, latchOptions(QStringLiteral("node-b")));
    QVERIFY(b.start());
    QTRY_COMPARE_WITH_TIMEOUT(leaderOf(*session, election), QStringLiteral("node-a"), kWaitMs);

    // From the moment node-b knows it leads to the moment the inspector shows it.
    QElapsedTimer sinceElected;
    connect(&b, &EtcdLeaderLatch::elected, this, [&] { sinceElected.start(); });
    a.close();
    QTRY_VERIFY_WITH_TIMEOUT(sinceElected.isValid(), kWaitMs);
    QVERIFY(QTest::qWaitFor(
        [&] {
            return leaderOf(*session, election) == QLatin1String("node-b")
                && timeline.rowCount() > 0
                && timeline.index(timeline.rowCount() - 1, TimelineModel::ToColumn).data()
                == QStringLiteral("node-b");
        },
        kWaitMs));
    const qint64 ms = sinceElected.elapsed();
    qInfo("hand-off shown %lld ms after node-b was elected", ms);
    QVERIFY2(ms < 1000, qPrintable(QStringLiteral("took %1 ms").arg(ms)));
    b.close();
}

void tst_InspectorSession::lockQueueFollowsCreateRevisions()
{
    const QByteArray prefix = freshPrefix();
    const QByteArray path = prefix + "locks/db";
    auto session = liveSession(m_server.clientUrl(), prefix);
    QVERIFY(session);
    RecipeModel model;
    model.setLeaseClock(&session->leaseClock());
    connect(session.get(), &InspectorSession::viewUpdated, &model,
        [&] { model.setView(session->view()); });
    QList<RecipeEvent> events;
    connect(session.get(), &InspectorSession::eventsDerived, this,
        [&](const QList<RecipeEvent> &e) { events += e; });

    std::vector<std::unique_ptr<EtcdClient>> clients;
    std::vector<std::unique_ptr<EtcdMutex>> mutexes;
    EtcdMutexOptions options;
    options.ttl = std::chrono::seconds(kTtlMs / 1000);
    for (int i = 0; i < 3; ++i) {
        clients.push_back(connectedClient(m_server.clientUrl()));
        mutexes.push_back(std::make_unique<EtcdMutex>(clients.back().get(), path, options));
        QSignalSpy acquired(mutexes.back().get(), &EtcdMutex::acquired);
        QVERIFY(mutexes.back()->acquire());
        if (i == 0)
            QVERIFY(acquired.wait(kWaitMs));
    }
    const auto entriesShown = [&] {
        const Recipe *r = findRecipe(*session, path);
        return r ? r->entries.size() : 0;
    };
    QTRY_COMPARE_WITH_TIMEOUT(entriesShown(), 3, kWaitMs);

    // etcd's own order: the lock's keys by create revision.
    auto reader = connectedClient(m_server.clientUrl());
    EtcdRangeOptions ro;
    ro.prefix = true;
    ro.sortTarget = Etcd::SortTarget::CreateRevision;
    ro.sortOrder = Etcd::SortOrder::Ascending;
    auto keys = await(reader->get(path + '/', ro));
    QVERIFY(keys.status.isOk());
    QCOMPARE(keys->keyValues().size(), 3);
    // The session grouped the view's leases beside it (what the Leases page shows): each
    // lock key on its client's lease, as the lock's recipe key.
    for (const EtcdKeyValue &kv : keys->keyValues()) {
        const QList<LeaseGroup> &groups = session->leaseGroups();
        const auto group = std::find_if(groups.cbegin(), groups.cend(),
            [&](const LeaseGroup &g) { return g.lease == kv.lease; });
        QVERIFY(group != groups.cend());
        QCOMPARE(group->keys.size(), 1);
        QCOMPARE(group->keys.front().key, kv.key);
        QCOMPARE(group->keys.front().path, path);
        QVERIFY(!group->keys.front().raw);
    }
    const QModelIndex lock = model.indexOfPath(path);
    QVERIFY(lock.isValid());
    QCOMPARE(model.rowCount(lock), 3);
    for (int row = 0; row < 3; ++row) {
        const QModelIndex entry = model.index(row, 0, lock);
        QCOMPARE(entry.data(KeyRole).toByteArray(), keys->keyValues().at(row).key);
        QCOMPARE(
            entry.data(CreateRevisionRole).toLongLong(), keys->keyValues().at(row).createRevision);
        QCOMPARE(entry.data(EntryRoleRole).toInt(), int(row == 0 ? Role::Holder : Role::Waiter));
    }

    // The holder lets go: the next in line is shown holding, with its own token, and logged.
    const qint64 nextToken = keys->keyValues().at(1).createRevision;
    QVERIFY(mutexes.front()->release());
    QTRY_VERIFY_WITH_TIMEOUT(std::any_of(events.cbegin(), events.cend(),
                                 [&](const RecipeEvent &e) {
                                     return e.type == RecipeEvent::Type::Acquired && e.path == path
                                         && e.token == nextToken;
                                 }),
        kWaitMs);
    QVERIFY(std::any_of(events.cbegin(), events.cend(), [&](const RecipeEvent &e) {
        return e.type == RecipeEvent::Type::Released && e.path == path;
    }));
    QTRY_COMPARE_WITH_TIMEOUT(entriesShown(), 2, kWaitMs);
    QCOMPARE(model.index(0, 0, model.indexOfPath(path)).data(CreateRevisionRole).toLongLong(),
        nextToken);
    for (auto &m : mutexes)
        m->close();
}

void tst_InspectorSession::pastHandOffsAreRebuiltFromHistory()
{
    const QByteArray prefix = freshPrefix();
    const QByteArray election = prefix + "history";
    auto client = connectedClient(m_server.clientUrl());
    QStringList leaders;
    for (const QString &id :
        {QStringLiteral("first"), QStringLiteral("second"), QStringLiteral("third")}) {
        EtcdLeaderLatch latch(client.get(), election, latchOptions(id));
        QVERIFY(latch.start());
        QTRY_VERIFY_WITH_TIMEOUT(latch.hasLeadership(), kWaitMs);
        leaders.append(id);
        if (id != QLatin1String("third"))
            latch.close();
        QTRY_VERIFY_WITH_TIMEOUT(!latch.hasLeadership() || id == QLatin1String("third"), kWaitMs);
        if (id == QLatin1String("third")) {
            // The inspector starts while "third" leads: the earlier terms are history.
            QList<HandOff> handOffs;
            InspectorSession session;
            connect(&session, &InspectorSession::handOffsDerived, this,
                [&](const QList<HandOff> &h) { handOffs += h; });
            InspectorSession::Options o;
            o.endpoints = {m_server.clientUrl()};
            o.prefix = prefix;
            QVERIFY(session.start(o));
            const auto elected = [&] {
                QStringList to;
                for (const HandOff &h : handOffs) {
                    if (h.backfilled && !h.to.isEmpty() && h.election == election)
                        to.append(h.to);
                }
                return to;
            };
            QTRY_COMPARE_WITH_TIMEOUT(elected(), leaders, kWaitMs);
            for (qsizetype i = 1; i < handOffs.size(); ++i)
                QVERIFY(handOffs.at(i - 1).revision < handOffs.at(i).revision);
            QCOMPARE(leaderOf(session, election), QStringLiteral("third"));
            latch.close();
        }
    }
}

// The session's watch is cut off while keys change and history is compacted; when it
// comes back it cannot resume, so it reads again and derives what changed meanwhile.
void tst_InspectorSession::compactionDuringAPartitionIsReadAgain()
{
    FaultProxy proxy(QStringLiteral("127.0.0.1"), m_server.clientPort());
    QVERIFY(proxy.start());
    const QByteArray prefix = freshPrefix();
    auto writer = connectedClient(m_server.clientUrl());
    QVERIFY(await(writer->put(prefix + "before", "1")).status.isOk());
    auto session = liveSession(proxy.url(), prefix);
    QVERIFY(session);
    QList<RecipeEvent> events;
    connect(session.get(), &InspectorSession::eventsDerived, this,
        [&](const QList<RecipeEvent> &e) { events += e; });

    QSignalSpy phases(session.get(), &InspectorSession::phaseChanged);
    proxy.setMode(FaultProxy::Mode::Blackhole);
    auto lease = await(writer->grantLease(30s));
    QVERIFY(lease.status.isOk());
    EtcdPutOptions leased;
    leased.lease = lease->leaseId();
    QVERIFY(await(writer->put(prefix + "during", "2", leased)).status.isOk());
    QVERIFY(await(writer->remove(prefix + "before")).status.isOk());
    auto last = await(writer->put(prefix + "filler", "3"));
    QVERIFY(last.status.isOk());
    QVERIFY(await(writer->compact(last->revision())).status.isOk());
    proxy.setMode(FaultProxy::Mode::Reset); // on return the stalled connections are gone
    proxy.setMode(FaultProxy::Mode::Pass);

    const auto has = [&](const QByteArray &path) { return findRecipe(*session, path) != nullptr; };
    QTRY_VERIFY_WITH_TIMEOUT(has(prefix + "during"), 3 * kWaitMs);
    QVERIFY(!has(prefix + "before"));
    QTRY_VERIFY_WITH_TIMEOUT(std::any_of(events.cbegin(), events.cend(),
                                 [&](const RecipeEvent &e) {
                                     return e.type == RecipeEvent::Type::KeyAppeared
                                         && e.path == prefix + "during";
                                 }),
        kWaitMs);
    QVERIFY(session->revision() >= last->revision());
    const auto resynced = [&] {
        for (const QList<QVariant> &args : phases) {
            if (args.at(0).value<InspectorSession::Phase>() == InspectorSession::Phase::Resyncing)
                return true;
        }
        return false;
    };
    QVERIFY2(resynced(), "the session resumed without reading again: nothing was compacted?");
    QVERIFY(await(writer->revokeLease(lease->leaseId())).status.isOk());
}

void tst_InspectorSession::badInputIsRefused_data()
{
    QTest::addColumn<QString>("endpoint");
    QTest::addColumn<QByteArray>("prefix");
    QTest::addColumn<QString>("caFile");
    QTest::addColumn<QString>("certFile");
    QTest::addColumn<QString>("expected");
    const QString ok = QStringLiteral("http://127.0.0.1:2379");
    const QString missing = QStringLiteral("/nonexistent/ca.pem");
    QTest::newRow("no endpoint") << QString() << QByteArray("/") << QString() << QString()
                                 << QStringLiteral("No endpoint");
    QTest::newRow("wrong scheme") << QStringLiteral("ftp://127.0.0.1:2379") << QByteArray("/")
                                  << QString() << QString() << QStringLiteral("not of the form");
    QTest::newRow("no port") << QStringLiteral("http://127.0.0.1") << QByteArray("/") << QString()
                             << QString() << QStringLiteral("not of the form");
    QTest::newRow("empty prefix") << ok << QByteArray() << QString() << QString()
                                  << QStringLiteral("prefix must not be empty");
    QTest::newRow("unreadable CA")
        << ok << QByteArray("/") << missing << QString() << QStringLiteral("cannot be read");
    QTest::newRow("cert without key")
        << ok << QByteArray("/") << QString() << QCoreApplication::applicationFilePath()
        << QStringLiteral("needs its key");
}

void tst_InspectorSession::badInputIsRefused()
{
    QFETCH(QString, endpoint);
    QFETCH(QByteArray, prefix);
    QFETCH(QString, caFile);
    QFETCH(QString, certFile);
    QFETCH(QString, expected);
    InspectorSession session;
    QSignalSpy errors(&session, &InspectorSession::errorOccurred);
    InspectorSession::Options o;
    if (!endpoint.isEmpty())
        o.endpoints = {QUrl(endpoint)};
    o.prefix = prefix;
    o.tls.caCertificate = caFile;
    o.tls.clientCertificate = certFile;
    QVERIFY(!session.start(o));
    QCOMPARE(errors.size(), 1);
    QVERIFY2(errors.at(0).at(0).toString().contains(expected),
        qPrintable(errors.at(0).at(0).toString()));
    QCOMPARE(session.phase(), InspectorSession::Phase::Idle);
    QVERIFY(!session.client());
}

// Nothing answers at first (every connection is reset): the session says so and keeps
// trying; once etcd is reachable it goes live without being told to.
void tst_InspectorSession::unreachableEndpointKeepsRetrying()
{
    FaultProxy proxy(QStringLiteral("127.0.0.1"), m_server.clientPort());
    QVERIFY(proxy.start());
    proxy.setMode(FaultProxy::Mode::Reset);
    InspectorSession session;
    QSignalSpy errors(&session, &InspectorSession::errorOccurred);
    InspectorSession::Options o;
    o.endpoints = {proxy.url()};
    o.prefix = freshPrefix();
    QVERIFY(session.start(o));
    QTRY_VERIFY_WITH_TIMEOUT(!errors.isEmpty(), 3 * kWaitMs);
    QVERIFY(session.phase() != InspectorSession::Phase::Live);
    proxy.setMode(FaultProxy::Mode::Pass);
    QTRY_COMPARE_WITH_TIMEOUT(session.phase(), InspectorSession::Phase::Live, 3 * kWaitMs);
    session.stop();
    QCOMPARE(session.phase(), InspectorSession::Phase::Idle);
}

QTEST_MAIN(tst_InspectorSession)
#include "tst_inspectorsession.moc"
