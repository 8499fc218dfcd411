// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// Every reply type of EtcdClient against a real etcd.
#include "leaseledger.h"
#include "testutil.h"

#include <etcdtestserver.h>

#include <QtCore/qpointer.h>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using Etcd::CompareResult;
using Etcd::ErrorCode;

class tst_EtcdClient : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void putAndGet();
    void rangeOptions();
    void deleteOptions();
    void txnCompares_data();
    void txnCompares();
    void txnBranchResults();
    void compaction();
    void leases();
    void leaseTtlLimit();
    void txnOperationLimit();
    void clusterInfo();
    void lockAndUnlock();
    void keyPrefix();
    void replyContract();

private:
    // A key unique to the running test function.
    QByteArray key(const char *leaf) const
    {
        return "/tst/"_ba + QTest::currentTestFunction() + '/' + leaf;
    }
    EtcdClient &client() { return *m_client; }

    EtcdTestServer m_server;
    LeaseLedger m_leases; // issue 22 item 7: no test leaves a lease
    std::unique_ptr<EtcdClient> m_client;
};

void tst_EtcdClient::initTestCase()
{
    ETCDQT_START_OR_SKIP(m_server);
    m_client = connectedClient(m_server.clientUrl());
    QTRY_COMPARE_WITH_TIMEOUT(client().state(), EtcdClient::State::Connected, 10000);
}

void tst_EtcdClient::init()
{
    m_leases.begin(m_server);
}

void tst_EtcdClient::cleanup()
{
    VERIFY_NO_LEASE_LEFT(m_leases);
}

void tst_EtcdClient::putAndGet()
{
    const auto put = await(client().put(key("k"), "v1"_ba));
    QVERIFY_OK(put.status);
    QVERIFY(put->revision() > 0);
    QVERIFY(!put->hasPrevKeyValue());

    const auto get = await(client().get(key("k")));
    QVERIFY_OK(get.status);
    QCOMPARE(get->keyValues().size(), 1);
    const EtcdKeyValue kv = get->keyValues().first();
    QCOMPARE(kv.key, key("k"));
    QCOMPARE(kv.value, "v1"_ba);
    QCOMPARE(kv.version, 1);
    QCOMPARE(kv.createRevision, put->revision());
    QCOMPARE(kv.modRevision, put->revision());
    QCOMPARE(get->revision(), put->revision());

    const auto again = await(client().put(key("k"), "v2"_ba, {.prevKv = true}));
    QVERIFY_OK(again.status);
    QVERIFY(again->hasPrevKeyValue());
    QCOMPARE(again->prevKeyValue().value, "v1"_ba);
    const auto after = await(client().get(key("k")));
    QCOMPARE(after->keyValues().first().version, 2);
    QCOMPARE(after->keyValues().first().createRevision, put->revision());

    const auto missing = await(client().get(key("nothing")));
    QVERIFY_OK(missing.status);
    QVERIFY(missing->keyValues().isEmpty());
    QCOMPARE(missing->count(), 0);
}

void tst_EtcdClient::rangeOptions()
{
    const auto first = await(client().put(key("a"), "1"_ba));
    QVERIFY_OK(first.status);
    QVERIFY_OK(await(client().put(key("b"), "22"_ba)).status);
    QVERIFY_OK(await(client().put(key("c"), "333"_ba)).status);
    const QByteArray dir = key("");

    const auto all = await(client().get(dir, {.prefix = true}));
    QCOMPARE(all->keyValues().size(), 3);
    QCOMPARE(all->keyValues().at(0).key, key("a"));
    QCOMPARE(all->keyValues().at(2).value, "333"_ba);

    const auto limited = await(client().get(dir, {.prefix = true, .limit = 2}));
    QCOMPARE(limited->keyValues().size(), 2);
    QVERIFY(limited->hasMore());
    QCOMPARE(limited->count(), 3);

    const auto sorted = await(client().get(dir,
        {.prefix = true,
            .sortOrder = Etcd::SortOrder::Descending,
            .sortTarget = Etcd::SortTarget::Value}));
    QCOMPARE(sorted->keyValues().first().key, key("c"));

    const auto keysOnly = await(client().get(dir, {.prefix = true, .keysOnly = true}));
    QCOMPARE(keysOnly->keyValues().size(), 3);
    QVERIFY(keysOnly->keyValues().first().value.isEmpty());

    const auto counted = await(client().get(dir, {.prefix = true, .countOnly = true}));
    QCOMPARE(counted->count(), 3);
    QVERIFY(counted->keyValues().isEmpty());

    const auto past = await(client().get(dir, {.prefix = true, .revision = first->revision()}));
    QCOMPARE(past->keyValues().size(), 1); // only "a" existed then

    const auto span = await(client().get(key("a"), {.rangeEnd = key("c")}));
    QCOMPARE(span->keyValues().size(), 2);
}

void tst_EtcdClient::deleteOptions()
{
    QVERIFY_OK(await(client().put(key("x/1"), "one"_ba)).status);
    QVERIFY_OK(await(client().put(key("x/2"), "two"_ba)).status);
    QVERIFY_OK(await(client().put(key("single"), "s"_ba)).status);

    const auto one = await(client().remove(key("single")));
    QVERIFY_OK(one.status);
    QCOMPARE(one->deleted(), 1);
    QVERIFY(one->prevKeyValues().isEmpty());

    const auto many = await(client().remove(key("x/"), {.prefix = true, .prevKv = true}));
    QCOMPARE(many->deleted(), 2);
    QCOMPARE(many->prevKeyValues().size(), 2);
    QCOMPARE(many->prevKeyValues().at(1).value, "two"_ba);

    const auto none = await(client().remove(key("single")));
    QVERIFY_OK(none.status);
    QCOMPARE(none->deleted(), 0);
}

void tst_EtcdClient::txnCompares_data()
{
    QTest::addColumn<int>("target");
    QTest::addColumn<bool>("holds");
    for (auto target : {Etcd::CompareTarget::Version, Etcd::CompareTarget::CreateRevision,
             Etcd::CompareTarget::ModRevision, Etcd::CompareTarget::Value,
             Etcd::CompareTarget::Lease}) {
        const char *name = QMetaEnum::fromType<Etcd::CompareTarget>().valueToKey(int(target));
        QTest::addRow("%s holds", name) << int(target) << true;
        QTest::addRow("%s fails", name) << int(target) << false;
    }
}

void tst_EtcdClient::txnCompares()
{
    QFETCH(int, target);
    QFETCH(bool, holds);
    const QByteArray k = key(QTest::currentDataTag());
    const auto lease = await(client().grantLease(60s));
    QVERIFY_OK(lease.status);
    const auto put = await(client().put(k, "value"_ba, {.lease = lease->leaseId()}));
    QVERIFY_OK(put.status);

    const qint64 off = holds ? 0 : 1;
    EtcdCompare cmp;
    switch (Etcd::CompareTarget(target)) {
    case Etcd::CompareTarget::Version:
        cmp = EtcdCompare::version(k, CompareResult::Equal, 1 + off);
        break;
    case Etcd::CompareTarget::CreateRevision:
        cmp = EtcdCompare::createRevision(k, CompareResult::Equal, put->revision() + off);
        break;
    case Etcd::CompareTarget::ModRevision:
        cmp = EtcdCompare::modRevision(k, CompareResult::Equal, put->revision() + off);
        break;
    case Etcd::CompareTarget::Value:
        cmp = EtcdCompare::value(k, CompareResult::Equal, holds ? "value"_ba : "other"_ba);
        break;
    case Etcd::CompareTarget::Lease:
        cmp = EtcdCompare::lease(k, CompareResult::Equal, lease->leaseId() + off);
        break;
    }
    const auto txn = await(client().txn({.compares = {cmp},
        .success = {EtcdTxnOp::put(k, "then"_ba)},
        .failure = {EtcdTxnOp::put(k, "else"_ba)}}));
    QVERIFY_OK(txn.status);
    QCOMPARE(txn->succeeded(), holds);
    const auto get = await(client().get(k));
    QCOMPARE(get->keyValues().first().value, holds ? "then"_ba : "else"_ba);
    QVERIFY_OK(await(client().revokeLease(lease->leaseId())).status);
}

void tst_EtcdClient::txnBranchResults()
{
    const QByteArray k = key("k");
    // Create-if-absent: the first transaction creates, the second sees the key and reads it.
    auto createOrRead = [&] {
        return client().txn({.compares = {EtcdCompare::missing(k)},
            .success = {EtcdTxnOp::put(k, "mine"_ba), EtcdTxnOp::get(k)},
            .failure = {EtcdTxnOp::get(k), EtcdTxnOp::remove(k, {.prevKv = true})}});
    };
    const auto first = await(createOrRead());
    QVERIFY_OK(first.status);
    QVERIFY(first->succeeded());
    QCOMPARE(first->results().size(), 2);
    QCOMPARE(first->results().at(0).type, EtcdTxnOp::Type::Put);
    QCOMPARE(first->results().at(1).keyValues.first().value, "mine"_ba);

    const auto second = await(createOrRead());
    QVERIFY(!second->succeeded());
    QCOMPARE(second->results().at(0).type, EtcdTxnOp::Type::Range);
    QCOMPARE(second->results().at(0).keyValues.first().key, k);
    QCOMPARE(second->results().at(1).type, EtcdTxnOp::Type::Delete);
    QCOMPARE(second->results().at(1).count, 1);
    QCOMPARE(second->results().at(1).keyValues.first().value, "mine"_ba);
}

void tst_EtcdClient::compaction()
{
    const auto a = await(client().put(key("k"), "1"_ba));
    const auto b = await(client().put(key("k"), "2"_ba));
    QVERIFY_OK(b.status);
    QVERIFY_OK(await(client().compact(b->revision(), Etcd::CompactionMode::Physical)).status);
    const auto old = await(client().get(key("k"), {.revision = a->revision()}));
    QCOMPARE(old.status.code(), ErrorCode::Compacted);
    const auto now = await(client().get(key("k"), {.revision = b->revision()}));
    QVERIFY_OK(now.status);
    QCOMPARE(now->keyValues().first().value, "2"_ba);
}

void tst_EtcdClient::leases()
{
    const auto grant = await(client().grantLease(30s));
    QVERIFY_OK(grant.status);
    const qint64 id = grant->leaseId();
    QVERIFY(id > 0);
    QCOMPARE(grant->ttl(), 30s);
    QVERIFY_OK(await(client().put(key("held"), "x"_ba, {.lease = id})).status);

    const auto ttl = await(client().leaseTimeToLive(id, Etcd::LeaseKeys::Include));
    QVERIFY_OK(ttl.status);
    QCOMPARE(ttl->grantedTtl(), 30s);
    QVERIFY(ttl->ttl() > 0s && ttl->ttl() <= 30s);
    QCOMPARE(ttl->keys(), QList<QByteArray> {key("held")});

    const auto list = await(client().leases());
    QVERIFY(list->leaseIds().contains(id));

    QVERIFY_OK(await(client().revokeLease(id)).status);
    QVERIFY(await(client().get(key("held")))->keyValues().isEmpty());
    QCOMPARE(await(client().leaseTimeToLive(id))->ttl(), -1s);
    QCOMPARE(await(client().revokeLease(id)).status.code(), ErrorCode::LeaseNotFound);

    const auto chosen = await(client().grantLease(10s, 0x7e57));
    QCOMPARE(chosen->leaseId(), 0x7e57);
    QVERIFY_OK(await(client().revokeLease(0x7e57)).status);
}

// etcd's MaxLeaseTTL (9,000,000,000 s) is granted; one second more is refused before it is
// sent: a client with no etcd to talk to answers InvalidArgument, not Unavailable.
void tst_EtcdClient::leaseTtlLimit()
{
    const std::chrono::seconds max(9'000'000'000);
    const auto longest = await(client().grantLease(max));
    QVERIFY_OK(longest.status);
    QCOMPARE(longest->ttl(), max);
    QVERIFY_OK(await(client().revokeLease(longest->leaseId())).status);

    QCOMPARE(await(client().grantLease(max + 1s)).status.code(), ErrorCode::InvalidArgument);
    EtcdClient nowhere({QUrl(u"http://127.0.0.1:%1"_s.arg(EtcdTestServer::freePorts(1).first()))});
    nowhere.connectToEndpoints();
    const auto refused = await(nowhere.grantLease(max + 1s));
    QCOMPARE(refused.status.code(), ErrorCode::InvalidArgument);
    QVERIFY2(
        refused.status.message().contains(u"9000000000"_s), qPrintable(refused.status.toString()));
    QCOMPARE(await(nowhere.grantLease(std::chrono::seconds::max())).status.code(),
        ErrorCode::InvalidArgument);
}

// etcd's --max-txn-ops (128) bounds the compares, the success and the failure operations
// each on its own (v3rpc checkTxnRequest takes the largest of the three), not their sum: 128
// of each is accepted; 129 in any one list is refused before it is sent.
void tst_EtcdClient::txnOperationLimit()
{
    const auto ops = [this](const char *branch, int n) {
        QList<EtcdTxnOp> list;
        for (int i = 0; i < n; ++i)
            list.append(EtcdTxnOp::put(key(branch) + '/' + QByteArray::number(i), "v"_ba));
        return list;
    };
    const auto compares = [this](int n) {
        QList<EtcdCompare> list;
        for (int i = 0; i < n; ++i)
            list.append(EtcdCompare::missing(key("absent") + '/' + QByteArray::number(i)));
        return list;
    };
    const auto full = await(client().txn(
        {.compares = compares(128), .success = ops("then", 128), .failure = ops("else", 128)}));
    QVERIFY_OK(full.status);
    QVERIFY(full->succeeded());
    QCOMPARE(
        await(client().get(key("then") + '/', {.prefix = true, .countOnly = true}))->count(), 128);

    EtcdClient nowhere({QUrl(u"http://127.0.0.1:%1"_s.arg(EtcdTestServer::freePorts(1).first()))});
    nowhere.connectToEndpoints();
    for (EtcdClient *c : {&client(), &nowhere}) {
        QCOMPARE(
            await(c->txn({.compares = compares(129)})).status.code(), ErrorCode::InvalidArgument);
        QCOMPARE(
            await(c->txn({.success = ops("more", 129)})).status.code(), ErrorCode::InvalidArgument);
        QCOMPARE(
            await(c->txn({.failure = ops("more", 129)})).status.code(), ErrorCode::InvalidArgument);
    }
    QCOMPARE(
        await(client().get(key("more") + '/', {.prefix = true, .countOnly = true}))->count(), 0);
    QVERIFY_OK(await(client().remove(key("then") + '/', {.prefix = true})).status);
}

void tst_EtcdClient::clusterInfo()
{
    const auto members = await(client().memberList());
    QVERIFY_OK(members.status);
    QCOMPARE(members->members().size(), 1);
    QVERIFY(members->members().first().clientUrls.contains(m_server.clientUrl().toString()));

    const auto status = await(client().serverStatus());
    QVERIFY_OK(status.status);
    QVERIFY(status->serverStatus().version.startsWith(u"3."_s));
    QVERIFY(status->serverStatus().isLeader());
    QVERIFY(status->serverStatus().dbSize > 0);
    QCOMPARE(status->serverStatus().memberId, members->members().first().id);
}

void tst_EtcdClient::lockAndUnlock()
{
    const auto leaseA = await(client().grantLease(30s));
    const auto leaseB = await(client().grantLease(30s));
    const auto a = await(client().lock(key("mutex"), leaseA->leaseId()));
    QVERIFY_OK(a.status);
    QVERIFY(a->key().startsWith(key("mutex") + '/'));

    auto *b = client().lock(key("mutex"), leaseB->leaseId());
    b->setAutoDelete(false);
    std::unique_ptr<EtcdLockReply> holdB(b);
    QSignalSpy bDone(b, &EtcdReply::finished);
    // Held by A: B must still be waiting after a good while (a bounded negative check).
    QVERIFY(!bDone.wait(500));

    QVERIFY_OK(await(client().unlock(a->key())).status);
    QTRY_COMPARE_WITH_TIMEOUT(bDone.size(), 1, 5000);
    QVERIFY_OK(b->status());
    QVERIFY(b->key() != a->key());
    QVERIFY_OK(await(client().unlock(b->key())).status);
    QVERIFY_OK(await(client().revokeLease(leaseA->leaseId())).status);
    QVERIFY_OK(await(client().revokeLease(leaseB->leaseId())).status);
}

void tst_EtcdClient::keyPrefix()
{
    auto tenant = connectedClient(m_server.clientUrl(), "/tenant/"_ba);
    QVERIFY_OK(await(tenant->put("k"_ba, "v"_ba)).status);

    const auto raw = await(client().get("/tenant/k"_ba)); // stored under the prefix
    QCOMPARE(raw->keyValues().size(), 1);

    const auto all = await(tenant->get({}, {.prefix = true}));
    QCOMPARE(all->keyValues().size(), 1);
    QCOMPARE(all->keyValues().first().key, "k"_ba); // and invisible to the tenant

    const auto txn
        = await(tenant->txn({.compares = {EtcdCompare::value("k"_ba, CompareResult::Equal, "v"_ba)},
            .success = {EtcdTxnOp::get("k"_ba)}}));
    QVERIFY(txn->succeeded());
    QCOMPARE(txn->results().first().keyValues.first().key, "k"_ba);

    // A compare over a range: every key in ["a", "l") must be older than the revision after
    // "k"'s put. "/tenant/z" outside the tenant's range does not count; a new "b" fails it.
    const qint64 written = raw->revision();
    QVERIFY_OK(await(client().put("/tenant/z"_ba, "x"_ba)).status);
    EtcdCompare older = EtcdCompare::createRevision("a"_ba, CompareResult::Less, written + 1);
    older.rangeEnd = "l"_ba;
    QVERIFY(await(tenant->txn({.compares = {older}}))->succeeded());
    QVERIFY_OK(await(tenant->put("b"_ba, "new"_ba)).status);
    QVERIFY(!await(tenant->txn({.compares = {older}}))->succeeded());
    QVERIFY_OK(await(client().remove("/tenant/z"_ba)).status);

    const auto lease = await(tenant->grantLease(30s));
    QVERIFY_OK(await(tenant->put("leased"_ba, "x"_ba, {.lease = lease->leaseId()})).status);
    const auto ttl = await(tenant->leaseTimeToLive(lease->leaseId(), Etcd::LeaseKeys::Include));
    QCOMPARE(ttl->keys(), QList<QByteArray> {"leased"_ba});
    QVERIFY_OK(await(tenant->revokeLease(lease->leaseId())).status);
    QCOMPARE(await(tenant->remove({}, {.prefix = true}))->deleted(), 2);
}

void tst_EtcdClient::replyContract()
{
    auto *reply = client().put(key("k"), "v"_ba);
    QPointer<EtcdPutReply> guard(reply);
    QSignalSpy spy(reply, &EtcdReply::finished);
    QCOMPARE(spy.size(), 0); // never synchronous
    QVERIFY(!reply->isFinished());
    QTRY_COMPARE(spy.size(), 1);
    QTRY_VERIFY(guard.isNull()); // auto-deleted after finished
    QCOMPARE(spy.size(), 1); // exactly once

    auto *kept = client().get(key("k"));
    kept->setAutoDelete(false);
    QSignalSpy keptSpy(kept, &EtcdReply::finished);
    QTRY_COMPARE(keptSpy.size(), 1);
    QCoreApplication::processEvents();
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    QCOMPARE(kept->keyValues().first().value, "v"_ba); // still alive
    kept->abort(); // no second emission after finishing
    QCOMPARE(keptSpy.size(), 1);
    delete kept;

    auto *aborted = client().put(key("k"), "w"_ba);
    QSignalSpy abortSpy(aborted, &EtcdReply::finished);
    aborted->abort();
    QCOMPARE(abortSpy.size(), 1);
    QCOMPARE(abortSpy.first().first().value<EtcdStatus>().code(), ErrorCode::Cancelled);
}

QTEST_GUILESS_MAIN(tst_EtcdClient)
#include "tst_etcdclient.moc"
