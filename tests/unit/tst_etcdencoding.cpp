// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// Golden bytes for the encodings etcd-recipes writes, the client's key namespace, and the
// endpoint rules.
#include <EtcdQt/etcdcodec.h>

#include "casnumber_p.h"
#include "endpoint_p.h"
#include "keyspace_p.h"
#include "recipepaths_p.h"

#include <QtCore/qregularexpression.h>

#include <QtTest/qtest.h>

using namespace Qt::StringLiterals;
using Etcd::Internal::KeySpace;

class tst_EtcdEncoding : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void int32BigEndian();
    void int64BigEndian();
    void decodeRejectsWrongLength();
    void prefixEnd_data();
    void prefixEnd();
    void keySpaceAddsAndStrips();
    void keySpaceRanges();
    void endpoints_data();
    void endpoints();
    void grpcTargets();
    void recipePathsAreEtcdRecipes();
    void mutexKeyIsGosLayout();
    void leaseTagIsSevenBase62Characters();
    void barrierKeysAreEtcdRecipes();
    void counterAndLatchAreEightBytesBigEndian();
};

void tst_EtcdEncoding::int32BigEndian()
{
    QCOMPARE(Etcd::encodeInt32(1), QByteArray::fromHex("00000001"));
    QCOMPARE(Etcd::encodeInt32(-2), QByteArray::fromHex("fffffffe"));
    QCOMPARE(Etcd::encodeInt32(0x12345678), QByteArray::fromHex("12345678"));
    QCOMPARE(Etcd::decodeInt32(QByteArray::fromHex("7fffffff")), std::optional<qint32>(INT32_MAX));
}

void tst_EtcdEncoding::int64BigEndian()
{
    QCOMPARE(Etcd::encodeInt64(1), QByteArray::fromHex("0000000000000001"));
    QCOMPARE(Etcd::encodeInt64(-1), QByteArray::fromHex("ffffffffffffffff"));
    QCOMPARE(Etcd::encodeInt64(0x0102030405060708), QByteArray::fromHex("0102030405060708"));
    QCOMPARE(Etcd::decodeInt64(Etcd::encodeInt64(-42)), std::optional<qint64>(-42));
}

void tst_EtcdEncoding::decodeRejectsWrongLength()
{
    QVERIFY(!Etcd::decodeInt32("abc"_ba).has_value());
    QVERIFY(!Etcd::decodeInt64(QByteArray::fromHex("00000001")).has_value());
    QVERIFY(!Etcd::decodeInt64(QByteArray()).has_value());
}

void tst_EtcdEncoding::prefixEnd_data()
{
    QTest::addColumn<QByteArray>("prefix");
    QTest::addColumn<QByteArray>("end");
    QTest::newRow("plain") << "/app/"_ba
                           << "/app0"_ba;
    QTest::newRow("carry") << QByteArray::fromHex("61ff") << "b"_ba;
    QTest::newRow("all ff") << QByteArray::fromHex("ffff") << QByteArray(1, '\0');
    QTest::newRow("empty") << QByteArray() << QByteArray(1, '\0');
}

void tst_EtcdEncoding::prefixEnd()
{
    QFETCH(QByteArray, prefix);
    QFETCH(QByteArray, end);
    QCOMPARE(Etcd::prefixEnd(prefix), end);
}

void tst_EtcdEncoding::keySpaceAddsAndStrips()
{
    const KeySpace ns("/tenant/"_ba);
    QCOMPARE(ns.key("a"_ba), "/tenant/a"_ba);
    QCOMPARE(ns.strip("/tenant/a"_ba), "a"_ba);
    QCOMPARE(ns.strip("/other/a"_ba), "/other/a"_ba); // not ours: left as etcd gave it
    const KeySpace none;
    QCOMPARE(none.key("a"_ba), "a"_ba);
    QCOMPARE(none.strip("a"_ba), "a"_ba);
}

void tst_EtcdEncoding::keySpaceRanges()
{
    const QByteArray all(1, '\0');
    const KeySpace ns("/t/"_ba);
    QCOMPARE(ns.rangeEnd("k"_ba, true, {}), "/t/l"_ba);
    QCOMPARE(ns.rangeEnd("k"_ba, false, {}), QByteArray());
    QCOMPARE(ns.rangeEnd("a"_ba, false, "c"_ba), "/t/c"_ba);
    QCOMPARE(ns.rangeEnd("a"_ba, false, all), "/t0"_ba); // "everything from a" stays inside /t/
    QCOMPARE(ns.rangeKey({}, true), "/t/"_ba);
    const KeySpace none;
    QCOMPARE(none.rangeKey({}, true), all); // etcd spells "every key" as \0 .. \0
    QCOMPARE(none.rangeEnd({}, true, {}), all);
    QCOMPARE(none.rangeEnd("a"_ba, false, all), all);
}

void tst_EtcdEncoding::endpoints_data()
{
    QTest::addColumn<QList<QUrl>>("urls");
    QTest::addColumn<bool>("valid");
    QTest::newRow("http") << QList<QUrl> {QUrl(u"http://127.0.0.1:2379"_s)} << true;
    QTest::newRow("https dns") << QList<QUrl> {QUrl(u"https://etcd.example:2379"_s)} << true;
    QTest::newRow("ipv6") << QList<QUrl> {QUrl(u"http://[::1]:2379"_s)} << true;
    QTest::newRow("several") << QList<QUrl> {QUrl(u"http://a:1"_s), QUrl(u"http://b:2"_s)} << true;
    QTest::newRow("empty list") << QList<QUrl> {} << false;
    QTest::newRow("no port") << QList<QUrl> {QUrl(u"http://127.0.0.1"_s)} << false;
    QTest::newRow("bad scheme") << QList<QUrl> {QUrl(u"ftp://127.0.0.1:1"_s)} << false;
    QTest::newRow("no host") << QList<QUrl> {QUrl(u"http://:2379"_s)} << false;
    QTest::newRow("malformed") << QList<QUrl> {QUrl(u"http://[::1:2379"_s)} << false;
    QTest::newRow("path") << QList<QUrl> {QUrl(u"http://a:1/v3"_s)} << false;
    QTest::newRow("mixed") << QList<QUrl> {QUrl(u"http://a:1"_s), QUrl(u"https://b:2"_s)} << false;
}

void tst_EtcdEncoding::endpoints()
{
    QFETCH(QList<QUrl>, urls);
    QFETCH(bool, valid);
    const auto parsed = Etcd::Internal::parseEndpoints(urls);
    QCOMPARE(std::holds_alternative<QList<Etcd::Internal::Endpoint>>(parsed), valid);
    if (!valid) {
        const auto status = std::get<EtcdStatus>(parsed);
        QCOMPARE(status.code(), Etcd::ErrorCode::InvalidArgument);
        QVERIFY(!status.message().isEmpty());
    }
}

void tst_EtcdEncoding::grpcTargets()
{
    using Etcd::Internal::Endpoint;
    QCOMPARE(Endpoint({u"127.0.0.1"_s, 2379, false}).grpcTarget(), u"ipv4:127.0.0.1:2379"_s);
    QCOMPARE(Endpoint({u"::1"_s, 2379, false}).grpcTarget(), u"ipv6:[::1]:2379"_s);
    QCOMPARE(Endpoint({u"etcd.local"_s, 1, true}).grpcTarget(), u"dns:etcd.local:1"_s);
}

// Golden layouts from etcd-recipes (reference §1.1, §2.1, §3): a Kotlin candidate reads ours.
void tst_EtcdEncoding::recipePathsAreEtcdRecipes()
{
    using namespace Etcd::Internal::RecipePaths;
    QCOMPARE(appendToPath("/election/", "/LEADER"), "/election/LEADER"_ba);
    QCOMPARE(appendToPath("/election", "LEADER"), "/election/LEADER"_ba);
    QCOMPARE(leaderKey("/e"), "/e/LEADER"_ba);
    QCOMPARE(participantKey("/e/", u"LeaderSelector:Ab3dE9x"_s),
        "/e/participants/LeaderSelector:Ab3dE9x"_ba);
    const QByteArray token = uniqueToken(u"node-1"_s);
    QCOMPARE(token.size(), 6 + 1 + 7);
    QVERIFY(token.startsWith("node-1:"));
    static const QRegularExpression alnum(u"^[A-Za-z0-9]{7}$"_s);
    QVERIFY(alnum.match(QString::fromLatin1(token.mid(7))).hasMatch());
    QCOMPARE(stripUniqueSuffix(token), u"node-1"_s);
    QCOMPARE(stripUniqueSuffix("LeaderSelector:Ab3dE9x:q1W2e3R"), u"LeaderSelector:Ab3dE9x"_s);
    QVERIFY(randomId() != randomId());
    QCOMPARE(randomId().size(), 10);
}

// etcd's concurrency.Mutex: fmt.Sprintf("%s/%x", pfx, leaseID), the '/' appended as is.
void tst_EtcdEncoding::mutexKeyIsGosLayout()
{
    using Etcd::Internal::RecipePaths::mutexKey;
    QCOMPARE(mutexKey("/locks/a", 0x694d8a3b1c2e0f05), "/locks/a/694d8a3b1c2e0f05"_ba);
    QCOMPARE(mutexKey("lk", 10), "lk/a"_ba); // no padding
    QCOMPARE(mutexKey("lk/", 255), "lk//ff"_ba); // Go does not normalise the path either
    QCOMPARE(mutexKey("lk", -31), "lk/-1f"_ba);
}

// DistributedBarrierWithCount and DistributedDoubleBarrier join with appendToPath: one
// trailing '/' of the path is dropped, so "/b" and "/b/" name the same keys.
void tst_EtcdEncoding::barrierKeysAreEtcdRecipes()
{
    using namespace Etcd::Internal::RecipePaths;
    QCOMPARE(countedReadyKey("/b"), "/b/ready"_ba);
    QCOMPARE(countedReadyKey("/b/"), "/b/ready"_ba);
    QCOMPARE(countedWaitingPrefix("/b"), "/b/waiting/"_ba);
    QCOMPARE(countedWaitingKey("/b/", "m-1:AbCdEf1"), "/b/waiting/m-1:AbCdEf1"_ba);
    QCOMPARE(doubleBarrierPhase("/d", "enter"), "/d/enter"_ba);
    QCOMPARE(countedReadyKey(doubleBarrierPhase("/d/", "leave")), "/d/leave/ready"_ba);
    const QByteArray token = uniqueToken(QStringLiteral("DistributedBarrier:x1Y2z3W"));
    QVERIFY(QRegularExpression(QStringLiteral("^DistributedBarrier:x1Y2z3W:[A-Za-z0-9]{7}$"))
                .match(QString::fromLatin1(token))
                .hasMatch());
}

// The "<7 random>" of a read-write or semaphore entry: the lease's low base-62 digits, in
// etcd-recipes' alphabet, so a reused lease re-creates the same name.
void tst_EtcdEncoding::leaseTagIsSevenBase62Characters()
{
    using Etcd::Internal::RecipePaths::leaseTag;
    QCOMPARE(leaseTag(0), "0000000"_ba);
    QCOMPARE(leaseTag(61), "000000z"_ba);
    QCOMPARE(leaseTag(62), "0000010"_ba);
    QCOMPARE(leaseTag(0x694d8a3b1c2e0f05), leaseTag(0x694d8a3b1c2e0f05));
    QVERIFY(leaseTag(0x694d8a3b1c2e0f05) != leaseTag(0x694d8a3b1c2e0f06));
    const QRegularExpression format(u"^[0-9A-Za-z]{7}$"_s);
    for (qint64 lease : {qint64(1), qint64(-1), Q_INT64_C(7587883091418455301)})
        QVERIFY(format.match(QString::fromLatin1(leaseTag(lease))).hasMatch());
}

// EtcdAtomicCounter (etcd-recipes' DistributedAtomicLong: a Long, 8 bytes big-endian) and
// EtcdCountDownLatch (its remaining count, in the same format) through the encoding both use.
void tst_EtcdEncoding::counterAndLatchAreEightBytesBigEndian()
{
    using namespace Etcd::Internal::CasNumber;
    QCOMPARE(encode(1), QByteArray::fromHex("0000000000000001")); // a counter at 1
    QCOMPARE(encode(-1), QByteArray::fromHex("ffffffffffffffff")); // a counter at -1
    QCOMPARE(encode(10), QByteArray::fromHex("000000000000000a")); // a latch created with 10
    QCOMPARE(encode(0), QByteArray(8, '\0')); // an open latch
    QCOMPARE(decode(QByteArray::fromHex("000000000000000a")), std::optional<qint64>(10));
    QCOMPARE(decode(QByteArray::fromHex("00000007")), std::nullopt); // a 4-byte Int is no count
}

QTEST_GUILESS_MAIN(tst_EtcdEncoding)
#include "tst_etcdencoding.moc"
