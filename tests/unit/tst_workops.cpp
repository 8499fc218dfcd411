// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// The work queue's transactions, byte for byte as etcd-recipes' DistributedWorkQueue writes
// them (reference §2.4): the attempt count's 4 big-endian bytes, the claim (guarded on the
// item's mod revision, the new head read on failure), the promotion of a due delayed item,
// the reclaim of an orphan (to items/ under its id, or to dlq/ from maxDeliveries on), the
// ack and requeue guarded by the claim's create revision, ackWith's effects joined to the
// ack, and the dead-letter operations. Each transaction is written out as text (compares,
// success and failure operations) and compared whole.
#include "queuekeys_p.h"
#include "workops_p.h"

#include <QtTest/qtest.h>

#include <algorithm>

using namespace Etcd::Internal;
using namespace Qt::StringLiterals;

namespace {
const QByteArray kPath = "/jobs";
const QByteArray kId = "0000001760000000000-aB3"; // any name: the transactions never parse it

QByteArray resultName(Etcd::CompareResult r)
{
    switch (r) {
    case Etcd::CompareResult::Equal:
        return "==";
    case Etcd::CompareResult::Greater:
        return ">";
    case Etcd::CompareResult::Less:
        return "<";
    case Etcd::CompareResult::NotEqual:
        return "!=";
    }
    return "?";
}

QByteArray targetName(Etcd::CompareTarget t)
{
    switch (t) {
    case Etcd::CompareTarget::Version:
        return "version";
    case Etcd::CompareTarget::CreateRevision:
        return "create";
    case Etcd::CompareTarget::ModRevision:
        return "mod";
    case Etcd::CompareTarget::Value:
        return "value";
    case Etcd::CompareTarget::Lease:
        return "lease";
    }
    return "?";
}

// "mod(<key>) == 42", "value(<key>) == <bytes>".
QByteArray text(const EtcdCompare &c)
{
    const QByteArray operand
        = c.target == Etcd::CompareTarget::Value ? c.bytes : QByteArray::number(c.number);
    return targetName(c.target) + '(' + c.key + ") " + resultName(c.result) + ' ' + operand;
}

// "put <key> = <value bytes> [lease N]", "delete <key>", "get <key> prefix limit N": every
// option the work queue sets, and a marker for any it should not.
QByteArray text(const EtcdTxnOp &op)
{
    switch (op.type) {
    case EtcdTxnOp::Type::Put: {
        QByteArray s = "put " + op.key + " = " + op.value;
        if (op.putOptions.lease != 0)
            s += " lease " + QByteArray::number(op.putOptions.lease);
        if (op.putOptions.prevKv)
            s += " prevKv";
        return s;
    }
    case EtcdTxnOp::Type::Delete: {
        QByteArray s = "delete " + op.key;
        if (op.deleteOptions.prefix || !op.deleteOptions.rangeEnd.isEmpty())
            s += " RANGE";
        return s;
    }
    case EtcdTxnOp::Type::Range: {
        const EtcdRangeOptions &o = op.rangeOptions;
        QByteArray s = "get " + op.key;
        if (o.prefix)
            s += " prefix";
        if (o.limit != 0)
            s += " limit " + QByteArray::number(o.limit);
        if (o.sortOrder != Etcd::SortOrder::None || o.sortTarget != Etcd::SortTarget::Key)
            s += " SORTED";
        if (o.keysOnly || o.countOnly || o.revision != 0)
            s += " RESTRICTED";
        return s;
    }
    }
    return "?";
}

template <typename T>
QList<QByteArray> texts(const QList<T> &list)
{
    QList<QByteArray> out;
    for (const T &x : list)
        out.append(text(x));
    return out;
}

QList<QByteArray> sorted(QList<QByteArray> list)
{
    std::sort(list.begin(), list.end());
    return list;
}

QByteArray key(const char *area, const QByteArray &id = kId)
{
    return kPath + '/' + area + '/' + id;
}

QByteArray be(const char *hex)
{
    return QByteArray::fromHex(hex);
}

// Delivery 3 of kId, claimed at revision 77 on lease 0x1234.
EtcdWorkItem deliveredItem()
{
    EtcdWorkItem item;
    item.id = kId;
    item.value = "payload";
    item.attempt = 3;
    item.claim.key = key("claims");
    item.claim.leaseId = 0x1234;
    item.claim.revision = 77;
    return item;
}
} // namespace

class tst_WorkOps : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void attemptBytesAreFourBigEndian_data();
    void attemptBytesAreFourBigEndian();
    void attemptOfOtherBytesIsZero_data();
    void attemptOfOtherBytesIsZero();
    void headIsTheFirstKey();
    void claimMovesTheHeadUnderItsGuard();
    void claimJoinsTheRawPath();
    void promoteKeepsTheDelayedName();
    void reclaimGoesBackToItsPlace();
    void reclaimDeadLettersFromMaxDeliveries_data();
    void reclaimDeadLettersFromMaxDeliveries();
    void ackIsGuardedByTheClaimsCreateRevision();
    void requeueKeepsTheAttemptCount();
    void ackWithJoinsEffectsAndAck();
    void ackWithoutEffectsIsTheAck();
    void requeueDeadLetterResetsTheCount();
    void purgeDeadLetterNeedsOne();
};

void tst_WorkOps::attemptBytesAreFourBigEndian_data()
{
    QTest::addColumn<int>("attempt");
    QTest::addColumn<QByteArray>("bytes");
    QTest::newRow("1") << 1 << be("00000001");
    QTest::newRow("2") << 2 << be("00000002");
    QTest::newRow("255") << 255 << be("000000ff");
    QTest::newRow("256") << 256 << be("00000100");
    QTest::newRow("0x01020304") << 0x01020304 << be("01020304");
    QTest::newRow("max") << std::numeric_limits<int>::max() << be("7fffffff");
}

void tst_WorkOps::attemptBytesAreFourBigEndian()
{
    QFETCH(int, attempt);
    QFETCH(QByteArray, bytes);
    QCOMPARE(WorkOps::attemptBytes(attempt), bytes);
    QCOMPARE(WorkOps::attemptOf(bytes), attempt);
}

void tst_WorkOps::attemptOfOtherBytesIsZero_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::newRow("absent") << QByteArray();
    QTest::newRow("3 bytes") << be("000001");
    QTest::newRow("5 bytes") << be("0000000001");
    QTest::newRow("8 bytes (a Long)") << be("0000000000000001");
    QTest::newRow("text") << QByteArray("1");
}

// A count written by something else reads as no deliveries yet, never as a wrong number.
void tst_WorkOps::attemptOfOtherBytesIsZero()
{
    QFETCH(QByteArray, bytes);
    QCOMPARE(WorkOps::attemptOf(bytes), 0);
}

void tst_WorkOps::headIsTheFirstKey()
{
    EtcdTxnOp op = EtcdTxnOp::get(kPath + "/items/", WorkOps::headOf());
    QCOMPARE(text(op), "get /jobs/items/ prefix limit 1"_ba);
}

// etcd-recipes' claimHead(): If(modRevision(item) == seen) Then(delete item, put claimed/<id>
// = payload, put claims/<id> = clientId on the consumer lease, put attempts/<id> = attempt).
// The failure branch reads the new head, so a lost race costs no extra read.
void tst_WorkOps::claimMovesTheHeadUnderItsGuard()
{
    EtcdKeyValue head;
    head.key = key("items");
    head.value = "payload";
    head.createRevision = 40;
    head.modRevision = 42;
    const EtcdTxn txn
        = WorkOps::claim(kPath, head, 3, QStringLiteral("DistributedWorkQueue:abc1234"), 0x1234);
    QCOMPARE(texts(txn.compares), QList<QByteArray> {"mod(" + key("items") + ") == 42"});
    QCOMPARE(texts(txn.success),
        (QList<QByteArray> {"delete " + key("items"), "put " + key("claimed") + " = payload",
            "put " + key("claims") + " = DistributedWorkQueue:abc1234 lease 4660",
            "put " + key("attempts") + " = " + be("00000003")}));
    QCOMPARE(texts(txn.failure), QList<QByteArray> {"get /jobs/items/ prefix limit 1"});
}

// Queues join with a raw "<path>/": a path ending in '/' gives "//", as in etcd-recipes. A
// clientId is written as its UTF-8 bytes.
void tst_WorkOps::claimJoinsTheRawPath()
{
    EtcdKeyValue head;
    head.key = "/jobs//items/" + kId;
    head.value = "v";
    head.modRevision = 5;
    const EtcdTxn txn = WorkOps::claim("/jobs/", head, 1, QStringLiteral("wörker"), 9);
    QCOMPARE(texts(txn.success),
        (QList<QByteArray> {"delete /jobs//items/" + kId, "put /jobs//claimed/" + kId + " = v",
            "put /jobs//claims/" + kId + " = w\xc3\xb6rker lease 9",
            "put /jobs//attempts/" + kId + " = " + be("00000001")}));
    QCOMPARE(texts(txn.failure), QList<QByteArray> {"get /jobs//items/ prefix limit 1"});
}

// promoteMatured(): If(modRevision(delayed) == seen) Then(delete it, put items/<same name>).
void tst_WorkOps::promoteKeepsTheDelayedName()
{
    EtcdKeyValue delayed;
    delayed.key = key("delayed", "0000001760000001500-xYz");
    delayed.value = "later";
    delayed.modRevision = 7;
    const EtcdTxn txn = WorkOps::promote(kPath, delayed);
    QCOMPARE(texts(txn.compares), QList<QByteArray> {"mod(" + delayed.key + ") == 7"});
    QCOMPARE(texts(txn.success),
        (QList<QByteArray> {"delete " + delayed.key,
            "put " + key("items", "0000001760000001500-xYz") + " = later"}));
    QVERIFY(txn.failure.isEmpty());
}

// reclaimOrphans(): If(version(claims/<id>) == 0, modRevision(claimed/<id>) == seen)
// Then(delete claimed/<id>, put items/<id>): the same key, so the item's first place.
void tst_WorkOps::reclaimGoesBackToItsPlace()
{
    EtcdKeyValue claimed;
    claimed.key = key("claimed");
    claimed.value = "payload";
    claimed.modRevision = 90;
    const EtcdTxn txn = WorkOps::reclaim(kPath, claimed, 1, 5);
    QCOMPARE(texts(txn.compares),
        (QList<QByteArray> {
            "version(" + key("claims") + ") == 0", "mod(" + key("claimed") + ") == 90"}));
    QCOMPARE(texts(txn.success),
        (QList<QByteArray> {"delete " + key("claimed"), "put " + key("items") + " = payload"}));
    QVERIFY(txn.failure.isEmpty());
}

void tst_WorkOps::reclaimDeadLettersFromMaxDeliveries_data()
{
    QTest::addColumn<int>("attempts");
    QTest::addColumn<int>("maxDeliveries");
    QTest::addColumn<QByteArray>("area");
    QTest::newRow("0 of 2 (no count)") << 0 << 2 << "items"_ba;
    QTest::newRow("1 of 2") << 1 << 2 << "items"_ba;
    QTest::newRow("2 of 2") << 2 << 2 << "dlq"_ba;
    QTest::newRow("5 of 2") << 5 << 2 << "dlq"_ba;
    QTest::newRow("4 of 5") << 4 << 5 << "items"_ba;
    QTest::newRow("5 of 5") << 5 << 5 << "dlq"_ba;
    QTest::newRow("1 of 1") << 1 << 1 << "dlq"_ba;
}

// attempts >= maxDeliveries: to dlq/<id>; the count stays for deadLetters() to show.
void tst_WorkOps::reclaimDeadLettersFromMaxDeliveries()
{
    QFETCH(int, attempts);
    QFETCH(int, maxDeliveries);
    QFETCH(QByteArray, area);
    EtcdKeyValue claimed;
    claimed.key = key("claimed");
    claimed.value = "payload";
    claimed.modRevision = 90;
    const EtcdTxn txn = WorkOps::reclaim(kPath, claimed, attempts, maxDeliveries);
    QCOMPARE(texts(txn.success),
        (QList<QByteArray> {
            "delete " + key("claimed"), "put " + key(area.constData()) + " = payload"}));
    QCOMPARE(txn.compares.size(), 2);
}

// etcd-recipes guards ack() on value(claims/<id>) == clientId; here on the claim's create
// revision, which a later delivery of the item (even to the same clientId) never shares.
void tst_WorkOps::ackIsGuardedByTheClaimsCreateRevision()
{
    const EtcdTxn txn = WorkOps::ack(kPath, deliveredItem());
    QCOMPARE(texts(txn.compares), QList<QByteArray> {"create(" + key("claims") + ") == 77"});
    QCOMPARE(texts(txn.success),
        (QList<QByteArray> {
            "delete " + key("claims"), "delete " + key("claimed"), "delete " + key("attempts")}));
    QVERIFY(txn.failure.isEmpty());
}

// requeue(): the same guard; items/<id> again (its first place), the count kept.
void tst_WorkOps::requeueKeepsTheAttemptCount()
{
    const EtcdTxn txn = WorkOps::requeue(kPath, deliveredItem());
    QCOMPARE(texts(txn.compares), QList<QByteArray> {"create(" + key("claims") + ") == 77"});
    QCOMPARE(texts(txn.success),
        (QList<QByteArray> {"put " + key("items") + " = payload", "delete " + key("claims"),
            "delete " + key("claimed")}));
    for (const EtcdTxnOp &op : txn.success)
        QVERIFY2(op.key != key("attempts"), text(op).constData());
    QVERIFY(txn.failure.isEmpty());
}

// The effects' compares join the claim's guard (all must hold), their writes join the ack's
// deletes, and their failure operations are the transaction's: one commit, or none.
void tst_WorkOps::ackWithJoinsEffectsAndAck()
{
    EtcdTxn effects;
    effects.compares = {EtcdCompare::version("/ledger/balance", Etcd::CompareResult::Greater, 0)};
    effects.success = {EtcdTxnOp::put("/ledger/" + kId, "done"), EtcdTxnOp::remove("/ledger/x")};
    effects.failure = {EtcdTxnOp::get("/ledger/balance")};
    const EtcdTxn txn = WorkOps::ackWith(kPath, deliveredItem(), effects);
    QCOMPARE(sorted(texts(txn.compares)),
        sorted({"create(" + key("claims") + ") == 77", "version(/ledger/balance) > 0"}));
    QCOMPARE(sorted(texts(txn.success)),
        sorted({"put /ledger/" + kId + " = done", "delete /ledger/x", "delete " + key("claims"),
            "delete " + key("claimed"), "delete " + key("attempts")}));
    QCOMPARE(texts(txn.failure), QList<QByteArray> {"get /ledger/balance"});
}

void tst_WorkOps::ackWithoutEffectsIsTheAck()
{
    const EtcdTxn with = WorkOps::ackWith(kPath, deliveredItem(), EtcdTxn {});
    const EtcdTxn ack = WorkOps::ack(kPath, deliveredItem());
    QCOMPARE(texts(with.compares), texts(ack.compares));
    QCOMPARE(sorted(texts(with.success)), sorted(texts(ack.success)));
    QVERIFY(with.failure.isEmpty());
}

// requeueDeadLetter(): If(modRevision(dlq/<id>) == seen) Then(put items/<id>, delete dlq/<id>,
// delete attempts/<id>): the next delivery is attempt 1.
void tst_WorkOps::requeueDeadLetterResetsTheCount()
{
    EtcdKeyValue dead;
    dead.key = key("dlq");
    dead.value = "payload";
    dead.modRevision = 123;
    const EtcdTxn txn = WorkOps::requeueDeadLetter(kPath, dead);
    QCOMPARE(texts(txn.compares), QList<QByteArray> {"mod(" + key("dlq") + ") == 123"});
    QCOMPARE(sorted(texts(txn.success)),
        sorted({"put " + key("items") + " = payload", "delete " + key("dlq"),
            "delete " + key("attempts")}));
    QVERIFY(txn.failure.isEmpty());
}

// purgeDeadLetter(): the dead letter and its count go; the transaction fails (result false)
// when there is no such dead letter.
void tst_WorkOps::purgeDeadLetterNeedsOne()
{
    const EtcdTxn txn = WorkOps::purgeDeadLetter(kPath, kId);
    QCOMPARE(texts(txn.compares), QList<QByteArray> {"version(" + key("dlq") + ") > 0"});
    QCOMPARE(
        sorted(texts(txn.success)), sorted({"delete " + key("dlq"), "delete " + key("attempts")}));
    QVERIFY(txn.failure.isEmpty());
}

QTEST_APPLESS_MAIN(tst_WorkOps)
#include "tst_workops.moc"
