// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// The take side every queue shares (QueueTaker), driven step by step: the test answers its
// head reads itself, so a change that comes while a read is on the wire is placed exactly.
// The wait's watch is real (a waiting take watches the queue in etcd).
#include "queuetaker_p.h"
#include "testutil.h"

#include <EtcdQt/etcdrecipe.h>
#include <etcdtestserver.h>

using namespace Qt::StringLiterals;
using Etcd::Internal::QueueTaker;

namespace {
// A recipe to own the taker: QueueTaker reads its client.
class OwnerRecipe : public EtcdRecipe
{
public:
    explicit OwnerRecipe(EtcdClient *client) : EtcdRecipe(client, u"test"_s, nullptr) { }
};

// A taker whose head reads the test answers (answer()), counting them.
struct SteppedTaker
{
    explicit SteppedTaker(EtcdRecipe *owner)
        : taker(owner, "/taker-test/", QueueTaker::Order::ModRevision, steppedReads())
    { }
    QueueTaker::Hooks steppedReads()
    {
        QueueTaker::Hooks hooks;
        hooks.readHead = [this](QueueTaker::HeadRead done) {
            ++reads;
            pending = std::move(done);
        };
        return hooks;
    }
    // The read on the wire finds the queue empty at `revision`.
    void answerEmpty(qint64 revision)
    {
        QVERIFY(pending);
        std::exchange(pending, {})(EtcdStatus(), {}, revision);
    }

    int reads = 0;
    QueueTaker::HeadRead pending;
    QueueTaker taker;
};
} // namespace

class tst_QueueTaker : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void changeAfterTheReadIsReadAgain();
    void changeTheReadSawIsWaitedOut();
    void recheckWakesAWaitingTake();

private:
    [[nodiscard]] qint64 revisionNow();

    EtcdTestServer m_server;
    std::unique_ptr<EtcdClient> m_client;
};

void tst_QueueTaker::initTestCase()
{
    ETCDQT_START_OR_SKIP(m_server);
    m_client = connectedClient(m_server.clientUrl());
}

qint64 tst_QueueTaker::revisionNow()
{
    const auto r = await(m_client->get("/taker-test/"));
    return r.status.isOk() ? r->revision() : 0; // 0: the test's QVERIFY(r > 0) fails
}

// A change the take cannot watch (a claim that ended, a delayed item) comes while its read is
// on the wire, after the revision that read is served at: the read may not show it, so the
// take reads again instead of waiting (waiting, nothing would wake it before the recheck
// timer: a work-queue consumer stalled so).
void tst_QueueTaker::changeAfterTheReadIsReadAgain()
{
    OwnerRecipe owner(m_client.get());
    SteppedTaker t(&owner);
    const qint64 r = revisionNow();
    QVERIFY(r > 0);
    bool answered = false;
    t.taker.take(true, [&](const EtcdStatus &, const EtcdKeyValue &, qint64) { answered = true; });
    QCOMPARE(t.reads, 1);
    t.taker.recheck(r + 1); // no take waits yet: kept for the read on the wire
    t.answerEmpty(r);
    QCOMPARE(t.reads, 2);
    QVERIFY(!t.taker.isWaiting());
    t.answerEmpty(r + 1); // the second read came after the change: now it waits
    QCOMPARE(t.reads, 2);
    QVERIFY(t.taker.isWaiting());
    t.taker.close({});
    QVERIFY(answered);
}

// The same change, at or before the read's revision: the read showed it, one read is enough.
void tst_QueueTaker::changeTheReadSawIsWaitedOut()
{
    OwnerRecipe owner(m_client.get());
    SteppedTaker t(&owner);
    const qint64 r = revisionNow();
    QVERIFY(r > 0);
    t.taker.take(true, [](const EtcdStatus &, const EtcdKeyValue &, qint64) {});
    t.taker.recheck(r);
    t.answerEmpty(r);
    QCOMPARE(t.reads, 1);
    QVERIFY(t.taker.isWaiting());
    t.taker.close({});
}

void tst_QueueTaker::recheckWakesAWaitingTake()
{
    OwnerRecipe owner(m_client.get());
    SteppedTaker t(&owner);
    const qint64 r = revisionNow();
    QVERIFY(r > 0);
    t.taker.take(true, [](const EtcdStatus &, const EtcdKeyValue &, qint64) {});
    t.answerEmpty(r);
    QVERIFY(t.taker.isWaiting());
    t.taker.recheck(); // a revision is not needed to wake a waiting take
    QCOMPARE(t.reads, 2);
    QVERIFY(!t.taker.isWaiting());
    t.taker.close({});
}

QTEST_GUILESS_MAIN(tst_QueueTaker)
#include "tst_queuetaker.moc"
