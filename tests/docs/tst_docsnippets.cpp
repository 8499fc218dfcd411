// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
// Runs the user guide's C++ snippets (docs/snippets/cpp) against a real etcd and checks that
// each does what its page says. Every test works under a key prefix of its own, with a
// second client (`other`) on the same prefix to read what the snippet wrote and to play the
// other processes. The TTLs are the snippets' own (2 s or 5 s); the waits are multiples.

#include "messagelog.h"
#include "snippets.h"
#include "testkitsnippets.h"

#include <EtcdQt/EtcdQt>

#include <etcdtestserver.h>

#include <EtcdQt/etcdprometheusexporter.h>

#include <QtCore/qthreadpool.h>
#include <QtCore/qtranslator.h>
#include <QtNetwork/qnetworkaccessmanager.h>
#include <QtNetwork/qnetworkreply.h>
#include <QtTest/qsignalspy.h>
#include <QtTest/qtest.h>

#include <memory>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

class tst_DocSnippets : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();

    void leasesGrantAndBind();
    void leasesScopedKeepAlive();
    void leasesKeepAliveAndRevoke();
    void leasesPutWithKeepAlive();
    void leasesSeveralKeysOneLease();
    void lossSelfHealingReclaimsOnlyAFreeKey();
    void lossTransientKeyIsWrittenAgain();
    void lossBudget();
    void electionSelector();
    void electionSignalsOnly();
    void electionLatchObserverParticipants();
    void electionGuardedWrite();
    void electionEtcdLayout();
    void locksMutexOnWorker();
    void locksAcquireInOwnerThread();
    void locksSemaphore();
    void locksReadWriteLock();
    void barriersGate();
    void barriersCounted();
    void barriersDouble();
    void barriersCountDownLatch();
    void counters();
    void cliCounterAdd();
    void cachesNodeCache();
    void cachesPathChildren();
    void cachesModel();
    void cachesTyped();
    void queuesFifo();
    void queuesPriority();
    void queuesWorkQueueAckWith();
    void observabilityMetrics();
    void observabilityTranslations();
    void queuesWorkQueueRequeue();
    void queuesDelayed();
    void queuesDeadLetters();
    void queuesWorkerThread();
    void testKitPartition();
    void testKitPause();
    void testKitCluster();

private:
    std::optional<EtcdKeyValue> read(const QByteArray &key);
    QList<EtcdKeyValue> readPrefix(const QByteArray &prefix);
    bool finished(EtcdReply *reply);
    qint64 grant(std::chrono::seconds ttl);
    qint64 sizeOf(EtcdValueReply *reply);

    EtcdTestServer m_etcd;
    std::unique_ptr<EtcdClient> m_client; // the snippet's
    std::unique_ptr<EtcdClient> m_other; // the test's, and the other processes'
    std::unique_ptr<QObject> m_owner; // parent of what the snippet creates
    std::unique_ptr<MessageLog> m_log;
    int m_test = 0;
};

void tst_DocSnippets::initTestCase()
{
    ETCDQT_START_OR_SKIP(m_etcd);
}

void tst_DocSnippets::init()
{
    const QByteArray prefix = "/docs/" + QByteArray::number(++m_test);
    for (auto *client : {&m_client, &m_other}) {
        *client = std::make_unique<EtcdClient>(QList<QUrl> {m_etcd.clientUrl()});
        (*client)->setKeyPrefix(prefix);
        (*client)->connectToEndpoints();
    }
    m_owner = std::make_unique<QObject>();
    m_log = std::make_unique<MessageLog>();
}

void tst_DocSnippets::cleanup()
{
    m_owner.reset(); // closes every recipe, ending the waits of the snippets' workers
    QVERIFY(QTest::qWaitFor(
        [] { return QThreadPool::globalInstance()->activeThreadCount() == 0; }, 30000));
    m_log.reset();
    m_client.reset();
    m_other.reset();
}

bool tst_DocSnippets::finished(EtcdReply *reply)
{
    reply->setAutoDelete(false);
    QSignalSpy done(reply, &EtcdReply::finished);
    const bool ok = done.wait(10000) && reply->status().isOk();
    reply->deleteLater();
    return ok;
}

std::optional<EtcdKeyValue> tst_DocSnippets::read(const QByteArray &key)
{
    EtcdRangeReply *reply = m_other->get(key);
    if (!finished(reply) || reply->keyValues().isEmpty())
        return std::nullopt;
    return reply->keyValues().first();
}

QList<EtcdKeyValue> tst_DocSnippets::readPrefix(const QByteArray &prefix)
{
    EtcdRangeOptions all;
    all.prefix = true;
    EtcdRangeReply *reply = m_other->get(prefix, all);
    return finished(reply) ? reply->keyValues() : QList<EtcdKeyValue> {};
}

qint64 tst_DocSnippets::grant(std::chrono::seconds ttl)
{
    EtcdLeaseGrantReply *reply = m_other->grantLease(ttl);
    return finished(reply) ? reply->leaseId() : 0;
}

void tst_DocSnippets::leasesGrantAndBind()
{
    snippets::grantAndBind(m_client.get());
    std::optional<EtcdKeyValue> kv;
    QTRY_VERIFY_WITH_TIMEOUT((kv = read("/services/worker-1"_ba)).has_value(), 10000);
    QCOMPARE(kv->value, "10.0.0.1:8080"_ba);
    QVERIFY(kv->lease != 0);
    // Nothing renews it: etcd deletes the key with the lease (granted for 5 s).
    QTRY_VERIFY_WITH_TIMEOUT(!read("/services/worker-1"_ba), 15000);
}

void tst_DocSnippets::leasesScopedKeepAlive()
{
    const qint64 leaseId = grant(5s);
    QVERIFY(leaseId);
    EtcdPutOptions onLease;
    onLease.lease = leaseId;
    QVERIFY(finished(m_other->put("/k"_ba, "v"_ba, onLease)));
    QElapsedTimer granted;
    granted.start();
    bool renewedPastTtl = false;
    snippets::renewWhileWorking(m_client.get(), leaseId, [&] {
        // The work outlasts the lease's TTL; the renewal keeps the key.
        renewedPastTtl = QTest::qWaitFor([&] { return granted.elapsed() > 6500; }, 10000)
            && read("/k"_ba).has_value();
    });
    QVERIFY(renewedPastTtl);
    // The scope ended: nothing renews any more, and the lease runs out.
    QTRY_VERIFY_WITH_TIMEOUT(!read("/k"_ba), 15000);
}

void tst_DocSnippets::leasesKeepAliveAndRevoke()
{
    const qint64 leaseId = grant(5s);
    QVERIFY(leaseId);
    EtcdKeepAlive *keepAlive = snippets::renewUntilStopped(m_client.get(), leaseId, m_owner.get());
    QTRY_COMPARE_WITH_TIMEOUT(keepAlive->state(), EtcdKeepAlive::State::Alive, 10000);
    snippets::revoke(m_client.get(), leaseId);
    QTRY_COMPARE_WITH_TIMEOUT(keepAlive->state(), EtcdKeepAlive::State::Expired, 15000);
    QTRY_COMPARE_WITH_TIMEOUT(m_log->count(u"the lease is gone"_s), 1, 5000);
}

void tst_DocSnippets::leasesPutWithKeepAlive()
{
    EtcdLeasedKeys *registration = snippets::registerWorker(m_client.get(), m_owner.get());
    QTRY_COMPARE_WITH_TIMEOUT(registration->state(), EtcdLeasedKeys::State::Alive, 10000);
    const std::optional<EtcdKeyValue> kv = read("/services/worker-1"_ba);
    QVERIFY(kv);
    QCOMPARE(kv->lease, registration->leaseId());
    registration->close(); // revokes the lease: the key goes at once
    QTRY_VERIFY_WITH_TIMEOUT(!read("/services/worker-1"_ba), 5000);
}

void tst_DocSnippets::leasesSeveralKeysOneLease()
{
    EtcdLeasedKeys *registration = snippets::registerHostAndPort(m_client.get(), m_owner.get());
    QTRY_COMPARE_WITH_TIMEOUT(registration->state(), EtcdLeasedKeys::State::Alive, 10000);
    const QList<EtcdKeyValue> keys = readPrefix("/services/worker-2/"_ba);
    QCOMPARE(keys.size(), 2);
    QCOMPARE(keys.at(0).lease, registration->leaseId());
    QCOMPARE(keys.at(1).lease, registration->leaseId());
    QCOMPARE(Etcd::decodeInt32(keys.at(1).value), 8080);
}

void tst_DocSnippets::lossSelfHealingReclaimsOnlyAFreeKey()
{
    EtcdSelfHealingKeepAlive *lease = snippets::ownKeyThatHeals(m_client.get(), m_owner.get());
    QTRY_COMPARE_WITH_TIMEOUT(lease->state(), EtcdSelfHealingKeepAlive::State::Alive, 10000);
    const qint64 first = lease->currentLeaseId();
    QCOMPARE(read("/workers/indexer"_ba)->lease, first);

    // Revoked out of band: the key goes with the lease, and the hook claims it again.
    QVERIFY(finished(m_other->revokeLease(first)));
    QTRY_VERIFY_WITH_TIMEOUT(lease->currentLeaseId() != first
            && lease->state() == EtcdSelfHealingKeepAlive::State::Alive,
        15000);
    QCOMPARE(read("/workers/indexer"_ba)->lease, lease->currentLeaseId());
    QVERIFY(m_log->count(u"lease: \"restored\""_s) >= 1);

    // Someone takes the key during the next outage: the hook declines, and healing stops
    // instead of overwriting them. (Their put detaches the key from our lease, so the
    // revoke that follows leaves their key in place.)
    const qint64 second = lease->currentLeaseId();
    QVERIFY(finished(m_other->put("/workers/indexer"_ba, "host-b"_ba)));
    QVERIFY(finished(m_other->revokeLease(second)));
    QTRY_COMPARE_WITH_TIMEOUT(lease->state(), EtcdSelfHealingKeepAlive::State::Failed, 15000);
    QCOMPARE(read("/workers/indexer"_ba)->value, "host-b"_ba);
}

void tst_DocSnippets::lossTransientKeyIsWrittenAgain()
{
    EtcdTransientKeyValue *presence = snippets::announcePresence(m_client.get(), m_owner.get());
    QTRY_VERIFY_WITH_TIMEOUT(presence->isHealthy(), 10000);
    QVERIFY(finished(m_other->remove("/presence/host-a"_ba)));
    QTRY_VERIFY_WITH_TIMEOUT(read("/presence/host-a"_ba).has_value(), 10000);
    QCOMPARE(read("/presence/host-a"_ba)->value, "online"_ba);
    // Written over by someone else: theirs, and the object fails instead of fighting.
    QVERIFY(finished(m_other->put("/presence/host-a"_ba, "taken"_ba)));
    QTRY_COMPARE_WITH_TIMEOUT(m_log->count(u"presence ended"_s), 1, 10000);
    QCOMPARE(read("/presence/host-a"_ba)->value, "taken"_ba);
}

void tst_DocSnippets::lossBudget()
{
    EtcdMutexOptions options;
    options.ttl = 2s;
    auto *mutex = new EtcdMutex(m_client.get(), "/locks/budget"_ba, options, m_owner.get());
    QVERIFY(!snippets::startIfLeaseLastsFor(mutex, 100ms)); // nothing held: no budget
    QVERIFY(mutex->acquire());
    QTRY_COMPARE_WITH_TIMEOUT(mutex->holdCount(), 1, 10000);
    QVERIFY(snippets::startIfLeaseLastsFor(mutex, 100ms));
    QVERIFY(!snippets::startIfLeaseLastsFor(mutex, 1h)); // longer than any 2 s lease lasts
}

void tst_DocSnippets::electionSelector()
{
    EtcdLeaderSelector *selector = snippets::runReportsWhileLeading(m_client.get(), m_owner.get());
    QTRY_VERIFY_WITH_TIMEOUT(selector->isLeader(), 10000);
    QSignalSpy finishedTerm(selector, &EtcdLeaderSelector::termFinished);
    selector->resign(); // the body's stop is requested; it returns and the term ends
    QTRY_COMPARE_WITH_TIMEOUT(finishedTerm.count(), 1, 10000);
    QVERIFY(!selector->isLeader());
    QCOMPARE(m_log->count(u"term lost"_s), 0);
}

void tst_DocSnippets::electionSignalsOnly()
{
    EtcdLeaderSelector *selector = snippets::leadUntilResigned(m_client.get(), m_owner.get());
    QTRY_COMPARE_WITH_TIMEOUT(m_log->count(u"leading"_s), 1, 10000);
    QTRY_COMPARE_WITH_TIMEOUT(m_log->count(u"led by \""_s + selector->clientId()), 1, 10000);
    QVERIFY(selector->isLeader());
}

void tst_DocSnippets::electionLatchObserverParticipants()
{
    EtcdLeaderLatch *latch = snippets::holdLeadership(m_client.get(), m_owner.get());
    QTRY_VERIFY_WITH_TIMEOUT(latch->hasLeadership(), 10000);
    QCOMPARE(m_log->count(u"scheduler role taken, term"_s), 1);
    EtcdLeaderObserver *observer = snippets::watchWhoLeads(m_other.get(), m_owner.get());
    QTRY_COMPARE_WITH_TIMEOUT(observer->currentLeader(), latch->clientId(), 10000);
    snippets::listCandidates(m_other.get(), m_owner.get());
    QTRY_COMPARE_WITH_TIMEOUT(m_log->count(u'"' + latch->clientId() + u"\" leads"_s), 1, 10000);
    latch->close();
    QTRY_COMPARE_WITH_TIMEOUT(m_log->count(u"leader now: \"nobody\""_s), 1, 10000);
}

void tst_DocSnippets::electionGuardedWrite()
{
    auto *latch = new EtcdLeaderLatch(m_client.get(), "/election/scheduler"_ba, {}, m_owner.get());
    QVERIFY(latch->start());
    QTRY_VERIFY_WITH_TIMEOUT(latch->hasLeadership(), 10000);
    snippets::writeAsLeader(latch);
    QTRY_VERIFY_WITH_TIMEOUT(read("/schedule/current"_ba).has_value(), 10000);
    QCOMPARE(read("/schedule/current"_ba)->value, "plan-42"_ba);
    // Once the term is over, the same write is refused: nothing overwrites a successor's.
    QSignalSpy closed(latch, &EtcdRecipe::closed);
    latch->close();
    QVERIFY(!latch->hasLeadership());
    // closed() follows the lease's revocation: until then the key, and so the term, lasts.
    QTRY_COMPARE_WITH_TIMEOUT(closed.size(), 1, 10000);
    QVERIFY(finished(m_other->put("/schedule/current"_ba, "successor's"_ba)));
    snippets::writeAsLeader(latch);
    QTRY_COMPARE_WITH_TIMEOUT(m_log->count(u"not written: this term is over"_s), 1, 10000);
    QCOMPARE(read("/schedule/current"_ba)->value, "successor's"_ba);
}

void tst_DocSnippets::electionEtcdLayout()
{
    EtcdElection *observer = snippets::followIngestLeader(m_other.get(), m_owner.get());
    QTRY_VERIFY_WITH_TIMEOUT(observer->isObserving(), 10000);
    EtcdElection *election = snippets::campaignWithGo(m_client.get(), m_owner.get());
    QTRY_COMPARE_WITH_TIMEOUT(m_log->count(u"the leader says \"host-a, draining\""_s), 1, 10000);
    QCOMPARE(m_log->count(u"leading under"_s), 1);
    // Go's layout: <prefix>/<lease id in hex>, holding the proclaimed value, on that lease.
    const QList<EtcdKeyValue> keys = readPrefix("/election/ingest/"_ba);
    QCOMPARE(keys.size(), 1);
    QCOMPARE(keys.first().value, "host-a, draining"_ba);
    QVERIFY(keys.first().key.endsWith(
        "/election/ingest/" + QByteArray::number(keys.first().lease, 16)));
    election->close();
    QTRY_COMPARE_WITH_TIMEOUT(m_log->count(u"nobody leads"_s), 1, 10000);
    QVERIFY(readPrefix("/election/ingest/"_ba).isEmpty());
}

void tst_DocSnippets::locksMutexOnWorker()
{
    snippets::appendUnderLock(m_client.get(), m_owner.get());
    QTRY_VERIFY_WITH_TIMEOUT(read("/ledger/next"_ba).has_value(), 10000);
    QCOMPARE(read("/ledger/next"_ba)->value, "entry-1"_ba);
    QTRY_VERIFY_WITH_TIMEOUT(readPrefix("/locks/ledger/"_ba).isEmpty(), 10000); // unlocked
    QCOMPARE(m_log->count(u"not written"_s), 0);
}

void tst_DocSnippets::locksAcquireInOwnerThread()
{
    EtcdMutex *mutex = snippets::lockFromTheGuiThread(m_client.get(), m_owner.get());
    QTRY_VERIFY_WITH_TIMEOUT(read("/ledger/next"_ba).has_value(), 10000);
    QCOMPARE(read("/ledger/next"_ba)->value, "entry-2"_ba);
    QTRY_COMPARE_WITH_TIMEOUT(mutex->holdCount(), 0, 10000);
    QTRY_VERIFY_WITH_TIMEOUT(readPrefix("/locks/ledger/"_ba).isEmpty(), 10000);
}

void tst_DocSnippets::locksSemaphore()
{
    // Two other holders take both permits; the snippet's worker waits for one.
    QList<EtcdSemaphore *> others;
    for (int i = 0; i < 2; ++i) {
        others << new EtcdSemaphore(m_other.get(), "/semaphores/uploads"_ba, 2, {}, m_owner.get());
        QVERIFY(others.last()->acquire());
        QTRY_COMPARE_WITH_TIMEOUT(others.last()->heldPermits(), 1, 10000);
    }
    snippets::twoAtATime(m_client.get(), m_owner.get());
    QVERIFY(
        !QTest::qWaitFor([this] { return m_log->count(u"uploading under permit"_s) > 0; }, 500));
    QVERIFY(others.first()->release());
    QTRY_COMPARE_WITH_TIMEOUT(m_log->count(u"uploading under permit"_s), 1, 10000);
}

void tst_DocSnippets::locksReadWriteLock()
{
    snippets::readersAndAWriter(m_client.get(), m_owner.get());
    QTRY_VERIFY_WITH_TIMEOUT(read("/config/version"_ba).has_value(), 10000);
    QCOMPARE(read("/config/version"_ba)->value, "7"_ba);
    QTRY_VERIFY_WITH_TIMEOUT(readPrefix("/locks/config/"_ba).isEmpty(), 10000);
}

void tst_DocSnippets::barriersGate()
{
    EtcdBarrier *gate = snippets::holdTheGate(m_client.get(), m_owner.get());
    QTRY_COMPARE_WITH_TIMEOUT(gate->state(), EtcdBarrier::State::Set, 10000);
    EtcdBarrier *waiter = snippets::waitAtTheGate(m_other.get(), m_owner.get());
    QTRY_COMPARE_WITH_TIMEOUT(waiter->waiterCount(), 1, 10000);
    QCOMPARE(m_log->count(u"migrated: go"_s), 0);
    QVERIFY(finished(gate->removeBarrier()));
    QTRY_COMPARE_WITH_TIMEOUT(m_log->count(u"migrated: go"_s), 1, 10000);
    // A second setter finds it set by the first.
    snippets::holdTheGate(m_client.get(), m_owner.get());
    snippets::holdTheGate(m_other.get(), m_owner.get());
    QTRY_COMPARE_WITH_TIMEOUT(m_log->count(u"someone else holds the gate already"_s), 1, 10000);
}

void tst_DocSnippets::barriersCounted()
{
    snippets::meetBeforeSwitching(m_client.get(), 2, m_owner.get());
    QVERIFY(!QTest::qWaitFor([this] { return m_log->count(u"switching"_s) > 0; }, 500));
    snippets::meetBeforeSwitching(m_other.get(), 2, m_owner.get());
    QTRY_COMPARE_WITH_TIMEOUT(m_log->count(u"switching to the new index"_s), 2, 10000);
}

void tst_DocSnippets::barriersDouble()
{
    snippets::runPhaseInStep(m_client.get(), 2, m_owner.get());
    QVERIFY(!QTest::qWaitFor([this] { return m_log->count(u"in the phase"_s) > 0; }, 500));
    snippets::runPhaseInStep(m_other.get(), 2, m_owner.get());
    QTRY_COMPARE_WITH_TIMEOUT(m_log->count(u"in the phase"_s), 2, 10000);
    QTRY_COMPARE_WITH_TIMEOUT(QThreadPool::globalInstance()->activeThreadCount(), 0, 10000);
}

void tst_DocSnippets::barriersCountDownLatch()
{
    EtcdCountDownLatch *ready = snippets::waitForWorkers(m_client.get(), 2, m_owner.get());
    QTRY_COMPARE_WITH_TIMEOUT(ready->count(), qint64(2), 10000);
    EtcdCountDownLatch worker(m_other.get(), "/latches/workers-ready"_ba);
    QVERIFY(finished(worker.countDown()));
    QTRY_COMPARE_WITH_TIMEOUT(ready->count(), qint64(1), 10000);
    QCOMPARE(m_log->count(u"all ready"_s), 0);
    QVERIFY(finished(worker.countDown()));
    QTRY_COMPARE_WITH_TIMEOUT(m_log->count(u"all ready"_s), 1, 10000);
}

void tst_DocSnippets::counters()
{
    EtcdAtomicCounter *requests = snippets::countRequests(m_client.get(), m_owner.get());
    QTRY_COMPARE_WITH_TIMEOUT(m_log->count(u"request number 1"_s), 1, 10000);
    snippets::takeTicketOnWorker(requests);
    QTRY_COMPARE_WITH_TIMEOUT(m_log->count(u"ticket 2"_s), 1, 10000);
    QCOMPARE(Etcd::decodeInt64(read("/counters/requests"_ba)->value), 2);
}

// The registry folds per-job paths into one label; the exporter serves it over HTTP.
void tst_DocSnippets::observabilityMetrics()
{
    EtcdPrometheusExporter *exporter = snippets::serveMetrics(m_client.get(), 0, m_owner.get());
    QVERIFY(exporter->isListening());
    EtcdMutex job(m_client.get(), "/jobs/4711/lock"_ba);
    QSignalSpy held(&job, &EtcdMutex::acquired);
    QVERIFY(job.acquire());
    QVERIFY(held.wait(10000));
    QNetworkAccessManager http;
    QNetworkReply *reply = http.get(QNetworkRequest(exporter->url()));
    QSignalSpy done(reply, &QNetworkReply::finished);
    QVERIFY(reply->isFinished() || done.wait(10000));
    const QByteArray text = reply->readAll();
    reply->deleteLater();
    QVERIFY2(text.contains("etcdqt_lock_wait_seconds_count{lock=\"mutex\",path=\"/jobs/*\","
                           "outcome=\"succeeded\"} 1\n"),
        text.constData());
    QVERIFY(!text.contains("4711"));
}

void tst_DocSnippets::observabilityTranslations()
{
    const QString english = QCoreApplication::translate("EtcdClient", "no endpoints given");
    QTranslator french;
    QVERIFY(snippets::loadFrench(french));
    QVERIFY(QCoreApplication::translate("EtcdClient", "no endpoints given") != english);
    QCoreApplication::removeTranslator(&french);
    // The system's language here is whatever the machine says: German and French install,
    // anything else reports false and leaves the messages English.
    const bool known
        = QLocale().language() == QLocale::German || QLocale().language() == QLocale::French;
    QCOMPARE(snippets::speakTheUsersLanguage(), known);
}

void tst_DocSnippets::cliCounterAdd()
{
#ifdef ETCDQT_CLI
    // The tool has no key prefix of its own: the test's prefix is spelled out.
    snippets::addWithTheCli(QStringLiteral(ETCDQT_CLI), m_etcd.clientUrl(), m_owner.get());
    QTRY_COMPARE_WITH_TIMEOUT(m_log->count(u"jobs counter now 5 exit 0"_s), 1, 20000);
    m_other->setKeyPrefix({});
    QCOMPARE(Etcd::decodeInt64(read("/counters/jobs"_ba)->value), 5);
    QVERIFY(finished(m_other->remove("/counters/jobs"_ba)));
#else
    QSKIP("built without the etcdqt tool (ETCDQT_BUILD_TOOLS=OFF)");
#endif
}

void tst_DocSnippets::cachesNodeCache()
{
    QVERIFY(finished(m_other->put("/config/maintenance"_ba, "off"_ba)));
    snippets::followMaintenanceFlag(m_client.get(), m_owner.get());
    QTRY_COMPARE_WITH_TIMEOUT(m_log->count(u"maintenance is off"_s), 1, 10000);
    EtcdPutReply *on = m_other->put("/config/maintenance"_ba, "on"_ba);
    on->setAutoDelete(false);
    QVERIFY(finished(on));
    const qint64 onAt = on->revision();
    delete on;
    QTRY_COMPARE_WITH_TIMEOUT(m_log->count(u"maintenance off -> on at %1"_s.arg(onAt)), 1, 10000);
    EtcdDeleteReply *unset = m_other->remove("/config/maintenance"_ba);
    unset->setAutoDelete(false);
    QVERIFY(finished(unset));
    const qint64 unsetAt = unset->revision();
    delete unset;
    QTRY_COMPARE_WITH_TIMEOUT(m_log->count(u"maintenance unset at %1"_s.arg(unsetAt)), 1, 10000);
}

void tst_DocSnippets::cachesPathChildren()
{
    QVERIFY(finished(m_other->put("/workers/eu/w1"_ba, "a"_ba)));
    EtcdPutReply *last = m_other->put("/workers/us/w2"_ba, "b"_ba);
    last->setAutoDelete(false);
    QVERIFY(finished(last));
    const qint64 snapshotAt = last->revision();
    delete last;
    EtcdPathChildrenCache *workers = snippets::followWorkers(m_client.get(), m_owner.get());
    QTRY_COMPARE_WITH_TIMEOUT(
        m_log->count(u"2 workers at revision %1"_s.arg(snapshotAt)), 1, 10000);
    QCOMPARE(workers->names(), (QStringList {u"eu/w1"_s, u"us/w2"_s}));
    QVERIFY(finished(m_other->put("/workers/eu/w3"_ba, "c"_ba)));
    QVERIFY(finished(m_other->remove("/workers/us/w2"_ba)));
    QTRY_COMPARE_WITH_TIMEOUT(m_log->count(u"left: us/w2 was b"_s), 1, 10000);
    QCOMPARE(m_log->count(u"joined: eu/w3 c"_s), 1);
    QCOMPARE(m_log->count(u"joined: "_s), 1); // the snapshot is not reported child by child
    QCOMPARE(workers->names(), (QStringList {u"eu/w1"_s, u"eu/w3"_s}));
}

void tst_DocSnippets::cachesModel()
{
    EtcdPathChildrenCache *workers = snippets::followWorkers(m_client.get(), m_owner.get());
    EtcdPathChildrenModel *model = snippets::workersModel(workers, m_owner.get());
    QTRY_COMPARE_WITH_TIMEOUT(m_log->count(u"0 workers at revision"_s), 1, 10000);
    QVERIFY(finished(m_other->put("/workers/b"_ba, "2"_ba)));
    QTRY_COMPARE_WITH_TIMEOUT(m_log->count(u"row 0 b 2"_s), 1, 10000);
    QVERIFY(finished(m_other->put("/workers/a"_ba, "1"_ba))); // sorted: before b
    QTRY_COMPARE_WITH_TIMEOUT(m_log->count(u"row 0 a 1"_s), 1, 10000);
    QVERIFY(finished(m_other->put("/workers/c"_ba, "3"_ba)));
    QTRY_COMPARE_WITH_TIMEOUT(m_log->count(u"row 2 c 3"_s), 1, 10000);
    QCOMPARE(model->rowCount(), 3);
}

void tst_DocSnippets::cachesTyped()
{
    QVERIFY(finished(m_other->put("/services/api"_ba, R"({"port":8080})"_ba)));
    QVERIFY(finished(m_other->put("/services/bad"_ba, "not json"_ba)));
    const auto services = snippets::followServices(m_client.get(), m_owner.get());
    QTRY_COMPARE_WITH_TIMEOUT(m_log->count(u"bad service entry:"_s), 1, 10000);
    QTRY_COMPARE_WITH_TIMEOUT(services->currentData().size(), 2, 10000);
    QVERIFY(services->currentData(u"api"_s).has_value());
    QVERIFY(!services->currentData(u"bad"_s).has_value()); // cached, but does not decode
    QVERIFY(finished(m_other->put("/services/web"_ba, R"({"port":80})"_ba)));
    QTRY_COMPARE_WITH_TIMEOUT(m_log->count(u"web on port 80"_s), 1, 10000);
    QCOMPARE(m_log->count(u"on port"_s), 1); // the initial build is not reported child by child
    QCOMPARE(services->currentData().size(), 3);
}

qint64 tst_DocSnippets::sizeOf(EtcdValueReply *reply)
{
    return finished(reply) ? reply->value() : -1;
}

void tst_DocSnippets::queuesFifo()
{
    EtcdQueue *mail = snippets::sendMail(m_client.get(), m_owner.get());
    QTRY_COMPARE_WITH_TIMEOUT(m_log->count(u"sending \"welcome ada\""_s), 1, 10000);
    QVERIFY(readPrefix("/queues/mail/"_ba).isEmpty()); // the take deleted it
    // The blocking take: another process's item, then nothing within its timeout.
    snippets::sendMailOnWorker(mail);
    EtcdQueue other(m_other.get(), "/queues/mail"_ba);
    QVERIFY(finished(other.enqueue("password reset for bob"_ba)));
    QTRY_COMPARE_WITH_TIMEOUT(m_log->count(u"sending \"password reset for bob\""_s), 1, 10000);
    snippets::sendMailOnWorker(mail);
    QVERIFY(!QTest::qWaitFor([this] { return m_log->count(u"no mail for 5 s"_s) > 0; }, 4000));
    QTRY_COMPARE_WITH_TIMEOUT(m_log->count(u"no mail for 5 s"_s), 1, 10000);
}

void tst_DocSnippets::queuesPriority()
{
    snippets::urgentFirst(m_client.get(), m_owner.get());
    EtcdPriorityQueue other(m_other.get(), "/queues/tasks"_ba);
    QTRY_COMPARE_WITH_TIMEOUT(sizeOf(other.size()), qint64(2), 10000);
    // Put second, taken first: its priority is 0.
    for (const QByteArray &expected : {"page the on-call"_ba, "rebuild the search index"_ba}) {
        EtcdQueueItemReply *taken = other.tryDequeue();
        QVERIFY(finished(taken));
        QVERIFY(taken->found());
        QCOMPARE(taken->value(), expected);
    }
}

void tst_DocSnippets::queuesWorkQueueAckWith()
{
    const QByteArray path = "/queues/thumbnails"_ba;
    snippets::makeThumbnails(m_client.get(), m_owner.get());
    EtcdWorkQueue producer(m_other.get(), path);
    QVERIFY(finished(producer.enqueue("cat.png"_ba)));
    std::optional<EtcdKeyValue> kv;
    QTRY_VERIFY_WITH_TIMEOUT((kv = read("/thumbnails/cat.png"_ba)).has_value(), 10000);
    QCOMPARE(kv->value, "thumbnail of cat.png"_ba);
    // Acknowledged by the same transaction: nothing of the item is left in the queue.
    for (const char *area : {"/items/", "/claimed/", "/claims/", "/attempts/"})
        QVERIFY2(readPrefix(path + area).isEmpty(), area);
    QCOMPARE(m_log->count(u"wrote nothing"_s), 0);
}

void tst_DocSnippets::queuesWorkQueueRequeue()
{
    const QByteArray path = "/queues/thumbnails"_ba;
    EtcdWorkQueue producer(m_other.get(), path);
    QVERIFY(finished(producer.enqueue(QByteArray()))); // no image: no thumbnail
    snippets::makeThumbnails(m_client.get(), m_owner.get());
    // Requeued: back in items/, its claim gone, its first delivery counted.
    const auto requeued = [this, &path] {
        const QList<EtcdKeyValue> count = readPrefix(path + "/attempts/");
        return count.size() == 1 && Etcd::decodeInt32(count.first().value) == 1
            && readPrefix(path + "/items/").size() == 1 && readPrefix(path + "/claims/").isEmpty()
            && readPrefix(path + "/claimed/").isEmpty();
    };
    if (!QTest::qWaitFor(requeued, 10000)) {
        for (const EtcdKeyValue &kv : readPrefix(path))
            qWarning() << kv.key << kv.value << kv.createRevision << kv.modRevision;
        QFAIL("not requeued");
    }
    EtcdWorkQueue consumer(m_other.get(), path);
    EtcdWorkItemReply *again = consumer.receive();
    QVERIFY(finished(again));
    QCOMPARE(again->item().attempt, 2);
    QVERIFY(finished(consumer.ack(again->item())));
}

void tst_DocSnippets::queuesDelayed()
{
    const QByteArray path = "/queues/reminders"_ba;
    auto *jobs = new EtcdWorkQueue(m_client.get(), path, m_owner.get());
    QElapsedTimer since;
    since.start();
    snippets::remindLater(jobs);
    QTRY_COMPARE_WITH_TIMEOUT(readPrefix(path + "/delayed/").size(), 1, 10000);
    EtcdWorkQueue consumer(m_other.get(), path);
    EtcdWorkItemReply *early = consumer.tryReceive();
    QVERIFY(finished(early));
    QVERIFY(since.elapsed() >= 2000 || !early->found()); // not due: not delivered
    EtcdWorkItemReply *due = consumer.receive();
    QVERIFY(finished(due));
    QCOMPARE(due->item().value, "send the reminder"_ba);
    // Due by the wall clock, measured here on the monotonic one: a few ms of slack.
    QVERIFY2(since.elapsed() >= 1990, QByteArray::number(since.elapsed()));
    QVERIFY(finished(consumer.ack(due->item())));
}

void tst_DocSnippets::queuesDeadLetters()
{
    const QByteArray path = "/queues/thumbnails"_ba;
    EtcdWorkQueue::Options once;
    once.maxDeliveries = 1;
    EtcdWorkQueue producer(m_other.get(), path, once); // its sweep() dead-letters too
    QVERIFY(finished(producer.enqueue("broken.png"_ba)));
    // A consumer that dies with the item in hand: its lease goes, its claim is an orphan.
    auto *crashing = new EtcdWorkQueue(m_other.get(), path, once, m_owner.get());
    EtcdWorkItemReply *delivered = crashing->receive();
    QVERIFY(finished(delivered));
    QCOMPARE(delivered->item().attempt, 1);
    QSignalSpy closed(crashing, &EtcdRecipe::closed);
    crashing->close();
    QVERIFY(closed.wait(10000));
    EtcdValueReply *swept = producer.sweep();
    QVERIFY(finished(swept));
    QCOMPARE(swept->value(), qint64(1));
    QCOMPARE(readPrefix(path + "/dlq/").size(), 1);

    auto *jobs = new EtcdWorkQueue(m_client.get(), path, m_owner.get());
    snippets::reviewDeadLetters(jobs);
    QTRY_COMPARE_WITH_TIMEOUT(m_log->count(u"after 1 deliveries"_s), 1, 10000);
    // Requeued: at the head of the queue again, its count reset.
    QTRY_COMPARE_WITH_TIMEOUT(readPrefix(path + "/items/").size(), 1, 10000);
    QVERIFY(readPrefix(path + "/dlq/").isEmpty());
    QVERIFY(readPrefix(path + "/attempts/").isEmpty());
}

void tst_DocSnippets::queuesWorkerThread()
{
    const QByteArray path = "/queues/thumbnails"_ba;
    auto *jobs = new EtcdWorkQueue(m_client.get(), path, m_owner.get());
    EtcdWorkQueue producer(m_other.get(), path);
    QVERIFY(finished(producer.enqueueAll({"a.png"_ba, "b.png"_ba})));
    snippets::drainOnWorker(jobs);
    QTRY_VERIFY_WITH_TIMEOUT(read("/thumbnails/a.png"_ba) && read("/thumbnails/b.png"_ba), 10000);
    // Nothing more came for 2 s: the loop ends.
    QTRY_COMPARE_WITH_TIMEOUT(m_log->count(u"worker stops:"_s), 1, 10000);
    QCOMPARE(m_log->count(u"not acknowledged"_s), 0);
    QVERIFY(readPrefix(path + "/claimed/").isEmpty());
}

void tst_DocSnippets::testKitPartition()
{
    snippets::lockHolderIsPartitioned();
}

void tst_DocSnippets::testKitPause()
{
    snippets::leaseSurvivesAPause();
}

void tst_DocSnippets::testKitCluster()
{
    snippets::leaderFailover();
}

QTEST_GUILESS_MAIN(tst_DocSnippets)
#include "tst_docsnippets.moc"
