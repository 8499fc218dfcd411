// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// Golden key layouts of the queues, byte for byte as etcd-recipes 0.12 writes them (reference
// §2.4 and §3): item names, batch names and their index, priority keys and markers, the raw
// "<path>/" join, and the work queue's areas.
#include "queuekeys_p.h"

#include <QtCore/qregularexpression.h>
#include <QtCore/qset.h>

#include <QtTest/qtest.h>

using namespace Qt::StringLiterals;
using namespace Etcd::Internal;

namespace {
// "%019d-" then three characters of [A-Za-z0-9], exactly.
const QRegularExpression kItemName(u"^(\\d{19})-([A-Za-z0-9]{3})$"_s);
const QRegularExpression kBatchName(u"^(\\d{19})-(\\d{5})-([A-Za-z0-9]{3})$"_s);

QRegularExpressionMatch matchOf(const QRegularExpression &re, const QByteArray &name)
{
    return re.match(QString::fromLatin1(name));
}
} // namespace

class tst_QueueKeys : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void itemNameIsPaddedMillisAndThreeRandom_data();
    void itemNameIsPaddedMillisAndThreeRandom();
    void itemNamesDifferInTheirRandomPart();
    void batchItemNameCarriesItsIndex_data();
    void batchItemNameCarriesItsIndex();
    void batchIndexOfOtherNamesIsNullopt_data();
    void batchIndexOfOtherNamesIsNullopt();
    void namesSortByMillis();
    void priorityKeys();
    void prioritySequenceParsesBack();
    void priorityOfNamesTheLevel();
    void pathsJoinRawly();
    void workQueueAreas();
};

void tst_QueueKeys::itemNameIsPaddedMillisAndThreeRandom_data()
{
    QTest::addColumn<qint64>("millis");
    QTest::addColumn<QByteArray>("digits");
    QTest::newRow("zero") << qint64(0) << "0000000000000000000"_ba;
    QTest::newRow("2023") << qint64(1700000000000) << "0000001700000000000"_ba;
    QTest::newRow("Long.MAX_VALUE")
        << std::numeric_limits<qint64>::max() << "9223372036854775807"_ba;
}

void tst_QueueKeys::itemNameIsPaddedMillisAndThreeRandom()
{
    QFETCH(qint64, millis);
    QFETCH(QByteArray, digits);
    const QByteArray name = QueueKeys::itemName(millis);
    QCOMPARE(name.size(), 19 + 1 + 3);
    const QRegularExpressionMatch m = matchOf(kItemName, name);
    QVERIFY2(m.hasMatch(), name.constData());
    QCOMPARE(m.captured(1).toLatin1(), digits);
    QCOMPARE(QueueKeys::nameMillis(name), std::optional<qint64>(millis));
}

// The suffix is random (etcd-recipes' randomId(3)): two names of one millisecond differ, so
// two producers in one millisecond do not overwrite each other (62^3 choices; 50 names all
// equal would mean it is not random at all).
void tst_QueueKeys::itemNamesDifferInTheirRandomPart()
{
    QSet<QByteArray> names;
    QSet<char> characters;
    for (int i = 0; i < 50; ++i) {
        const QByteArray name = QueueKeys::itemName(42);
        names.insert(name);
        for (const char c : name.right(3))
            characters.insert(c);
    }
    QVERIFY2(names.size() > 40, qPrintable(QString::number(names.size())));
    QVERIFY(characters.size() > 20); // drawn from the 62, not a few
}

void tst_QueueKeys::batchItemNameCarriesItsIndex_data()
{
    QTest::addColumn<int>("index");
    QTest::addColumn<QByteArray>("digits");
    QTest::newRow("0") << 0 << "00000"_ba;
    QTest::newRow("7") << 7 << "00007"_ba;
    QTest::newRow("127") << 127 << "00127"_ba;
    QTest::newRow("99999") << 99999 << "99999"_ba;
}

void tst_QueueKeys::batchItemNameCarriesItsIndex()
{
    QFETCH(int, index);
    QFETCH(QByteArray, digits);
    const QByteArray name = QueueKeys::batchItemName(1700000000000, index);
    QCOMPARE(name.size(), 19 + 1 + 5 + 1 + 3);
    const QRegularExpressionMatch m = matchOf(kBatchName, name);
    QVERIFY2(m.hasMatch(), name.constData());
    QCOMPARE(m.captured(1).toLatin1(), "0000001700000000000"_ba);
    QCOMPARE(m.captured(2).toLatin1(), digits);
    QCOMPARE(QueueKeys::batchIndex(name), std::optional<int>(index));
    QCOMPARE(QueueKeys::nameMillis(name), std::optional<qint64>(1700000000000));
}

void tst_QueueKeys::batchIndexOfOtherNamesIsNullopt_data()
{
    QTest::addColumn<QByteArray>("name");
    QTest::newRow("single item") << QueueKeys::itemName(1700000000000);
    QTest::newRow("etcd-recipes single") << "0000001700000000000-abc"_ba;
    QTest::newRow("empty") << QByteArray();
    QTest::newRow("index not digits") << "0000001700000000000-0x001-abc"_ba;
    QTest::newRow("no dash after index") << "0000001700000000000-00001xabc"_ba;
    QTest::newRow("one character short") << "0000001700000000000-00001-ab"_ba;
    QTest::newRow("priority sequence") << "0000000000000042"_ba;
}

void tst_QueueKeys::batchIndexOfOtherNamesIsNullopt()
{
    QFETCH(QByteArray, name);
    QCOMPARE(QueueKeys::batchIndex(name), std::nullopt);
}

// Zero-padding makes key order equal time order: what the delayed area's head relies on.
// The level a key is at, and the markers' range: what a take's guard compares.
void tst_QueueKeys::priorityOfNamesTheLevel()
{
    using namespace Etcd::Internal::QueueKeys;
    QCOMPARE(priorityOf("/q", priorityItem("/q", 7, 3)).value_or(-1), 7);
    QCOMPARE(priorityOf("/q", priorityItem("/q", 65535, 0)).value_or(-1), 65535);
    QVERIFY(!priorityOf("/q", "/q/00007"_ba)); // no '/' after the level
    QVERIFY(!priorityOf("/q", "/q/0x007/1"_ba));
    QVERIFY(!priorityOf("/q", "/other/00007/1"_ba));
    const auto [from, to] = markerRange("/q");
    QCOMPARE(from, "__/q/"_ba);
    QVERIFY(from <= priorityMarker("/q", 0) && priorityMarker("/q", 65535) < to);
    QVERIFY(!(priorityMarker("/q2", 0) >= from && priorityMarker("/q2", 0) < to));
}

void tst_QueueKeys::namesSortByMillis()
{
    const QByteArray early = QueueKeys::itemName(999);
    const QByteArray late = QueueKeys::itemName(1000);
    QVERIFY(early < late);
    QVERIFY(QueueKeys::batchItemName(5, 9) < QueueKeys::batchItemName(5, 10));
    QCOMPARE(QueueKeys::nameMillis("not-a-name"_ba), std::nullopt);
    QCOMPARE(QueueKeys::nameMillis("000000000000000001"_ba), std::nullopt); // 18 digits
}

void tst_QueueKeys::priorityKeys()
{
    QCOMPARE(QueueKeys::priorityItem("/q", 7, 42), "/q/00007/0000000000000042"_ba);
    QCOMPARE(QueueKeys::priorityItem("/q", 0, 0), "/q/00000/0000000000000000"_ba);
    QCOMPARE(
        QueueKeys::priorityItem("/q", 65535, 1234567890123456), "/q/65535/1234567890123456"_ba);
    QCOMPARE(QueueKeys::priorityLevel("/q", 7), "/q/00007/"_ba);
    // The marker sits outside the queue's prefix: "__" before the path.
    QCOMPARE(QueueKeys::priorityMarker("/q", 7), "__/q/00007"_ba);
    QCOMPARE(QueueKeys::priorityMarker("/jobs/high", 65535), "__/jobs/high/65535"_ba);
    // Key order is priority order, then enqueue order.
    QVERIFY(QueueKeys::priorityItem("/q", 1, 99) < QueueKeys::priorityItem("/q", 2, 0));
    QVERIFY(QueueKeys::priorityItem("/q", 3, 9) < QueueKeys::priorityItem("/q", 3, 10));
}

void tst_QueueKeys::prioritySequenceParsesBack()
{
    QCOMPARE(
        QueueKeys::prioritySequence("/q/00007/0000000000000042"_ba), std::optional<qint64>(42));
    QCOMPARE(QueueKeys::prioritySequence(QueueKeys::priorityItem("/q", 3, 9999999999999999)),
        std::optional<qint64>(9999999999999999));
    QCOMPARE(QueueKeys::prioritySequence("/q/00007/"_ba), std::nullopt);
    QCOMPARE(QueueKeys::prioritySequence("/q/00007/12a"_ba), std::nullopt);
    QCOMPARE(QueueKeys::prioritySequence("no-slash"_ba), std::nullopt);
}

// Queues join with a raw "<path>/", as etcd-recipes' "$path/..." does: a path that ends in
// '/' gives "//", and the keys stay the ones a Kotlin producer on that path writes.
void tst_QueueKeys::pathsJoinRawly()
{
    QCOMPARE(QueueKeys::children("/q"), "/q/"_ba);
    QCOMPARE(QueueKeys::children("/q/"), "/q//"_ba);
    QCOMPARE(QueueKeys::priorityItem("/q/", 7, 42), "/q//00007/0000000000000042"_ba);
    QCOMPARE(QueueKeys::priorityMarker("/q/", 7), "__/q//00007"_ba);
    QCOMPARE(QueueKeys::area("/q/", QueueKeys::Area::Items), "/q//items/"_ba);
    const QByteArray item = QueueKeys::children("/q/") + QueueKeys::itemName(1);
    QVERIFY2(item.startsWith("/q//0000000000000000001-"), item.constData());
}

void tst_QueueKeys::workQueueAreas()
{
    using A = QueueKeys::Area;
    QCOMPARE(QueueKeys::area("/q", A::Items), "/q/items/"_ba);
    QCOMPARE(QueueKeys::area("/q", A::Claimed), "/q/claimed/"_ba);
    QCOMPARE(QueueKeys::area("/q", A::Claims), "/q/claims/"_ba);
    QCOMPARE(QueueKeys::area("/q", A::Attempts), "/q/attempts/"_ba);
    QCOMPARE(QueueKeys::area("/q", A::DeadLetters), "/q/dlq/"_ba);
    QCOMPARE(QueueKeys::area("/q", A::Delayed), "/q/delayed/"_ba);
    const QByteArray id = "0000001700000000000-abc"_ba;
    QCOMPARE(QueueKeys::workKey("/q", A::Claims, id), "/q/claims/0000001700000000000-abc"_ba);
    QCOMPARE(QueueKeys::workKey("/q", A::DeadLetters, id), "/q/dlq/0000001700000000000-abc"_ba);
    QCOMPARE(QueueKeys::idOf("/q/claimed/" + id, "/q/claimed/"), id);
    QCOMPARE(QueueKeys::idOf("/q/items/" + id, "/q/claimed/"), QByteArray()); // another area
}

QTEST_GUILESS_MAIN(tst_QueueKeys)
#include "tst_queuekeys.moc"
