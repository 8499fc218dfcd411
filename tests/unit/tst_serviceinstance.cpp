// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// EtcdServiceInstance's JSON against etcd-recipes' (kotlinx.serialization, encodeDefaults):
// the reference's sample read and written back byte for byte, kotlinx's quoting, defaults
// for missing optional fields, and clear refusals of anything else.
#include <EtcdQt/etcdserviceinstance.h>

#include <QtCore/qdatetime.h>
#include <QtCore/qregularexpression.h>
#include <QtCore/qset.h>
#include <QtTest/qtest.h>

#include <limits>

using namespace Qt::StringLiterals;
using Type = EtcdServiceInstance::ServiceType;

// Declared before the golden documents: moc 6.4 loses its way in a raw string holding \""
// and would see no class after one.
class tst_ServiceInstance : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void referenceSampleReadsAndWritesBack();
    void everyFieldWrittenInOrder();
    void escapes_data();
    void escapes();
    void escapedInputIsRead();
    void serviceTypes_data();
    void serviceTypes();
    void missingOptionalFieldsTakeDefaults();
    void unknownKeysAreReadNotWritten();
    void largeIntegersStayExact();
    void refused_data();
    void refused();
    void successClearsStatus();
    void validate_data();
    void validate();
    void create();
    void codec();
};

namespace {

// etcd-recipes' reference sample (etcd-recipes.md, §3), as a Kotlin service writes it.
const QByteArray kSample = R"({"name":"worker","jsonPayload":"{\"x\":1}","address":"","port":-1,)"
                           R"("sslPort":-1,"registrationTimeUTC":1752880000000,)"
                           R"("serviceType":"DYNAMIC","uri":"","enabled":true,"id":"aB3xK9q"})"_ba;

EtcdServiceInstance sample()
{
    EtcdServiceInstance s;
    s.name = u"worker"_s;
    s.jsonPayload = uR"({"x":1})"_s;
    s.registrationTimeUtc = 1752880000000;
    s.id = u"aB3xK9q"_s;
    return s;
}

bool isTokenId(const QString &id)
{
    static const QRegularExpression token(u"^[A-Za-z0-9]{7}$"_s);
    return token.match(id).hasMatch();
}

} // namespace

void tst_ServiceInstance::referenceSampleReadsAndWritesBack()
{
    EtcdStatus status(Etcd::ErrorCode::Unknown, u"not touched"_s);
    const std::optional<EtcdServiceInstance> read = EtcdServiceInstance::fromJson(kSample, &status);
    QVERIFY2(read, qPrintable(status.message()));
    QVERIFY(status.isOk());
    QCOMPARE(*read, sample());
    QCOMPARE(read->toJson(), kSample);
    QVERIFY(read->isDynamic());
}

// Nothing left out, even the defaults (kotlinx's encodeDefaults = true), nothing added.
void tst_ServiceInstance::everyFieldWrittenInOrder()
{
    EtcdServiceInstance s;
    s.name = u"api"_s;
    s.address = u"10.0.0.7"_s;
    s.port = 8080;
    s.sslPort = 8443;
    s.registrationTimeUtc = 1;
    s.serviceType = Type::Static;
    s.uri = u"http://10.0.0.7:8080/"_s;
    s.enabled = false;
    s.id = u"Zz09aAq"_s;
    QCOMPARE(s.toJson(),
        R"({"name":"api","jsonPayload":"","address":"10.0.0.7","port":8080,"sslPort":8443,)"
        R"("registrationTimeUTC":1,"serviceType":"STATIC","uri":"http://10.0.0.7:8080/",)"
        R"("enabled":false,"id":"Zz09aAq"})"_ba);
    QCOMPARE(EtcdServiceInstance().toJson(),
        R"({"name":"","jsonPayload":"","address":"","port":-1,"sslPort":-1,)"
        R"("registrationTimeUTC":0,"serviceType":"DYNAMIC","uri":"","enabled":true,"id":""})"_ba);
}

void tst_ServiceInstance::escapes_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QByteArray>("quoted"); // between the quotes, as kotlinx writes it
    QTest::newRow("plain") << u"abc"_s << "abc"_ba;
    QTest::newRow("quote") << u"a\"b"_s << R"(a\"b)"_ba;
    QTest::newRow("backslash") << u"a\\b"_s << R"(a\\b)"_ba;
    QTest::newRow("backspace") << u"\b"_s << R"(\b)"_ba;
    QTest::newRow("tab") << u"\t"_s << R"(\t)"_ba;
    QTest::newRow("newline") << u"\n"_s << R"(\n)"_ba;
    QTest::newRow("formfeed") << u"\f"_s << R"(\f)"_ba;
    QTest::newRow("return") << u"\r"_s << R"(\r)"_ba;
    QTest::newRow("nul") << QString(QChar(0)) << R"(\u0000)"_ba;
    QTest::newRow("0x01") << u"\x01"_s << R"(\u0001)"_ba;
    QTest::newRow("vtab 0x0b") << u"\x0b"_s << R"(\u000b)"_ba;
    QTest::newRow("0x1a lowercase") << u"\x1a"_s << R"(\u001a)"_ba;
    QTest::newRow("0x1f") << u"\x1f"_s << R"(\u001f)"_ba;
    QTest::newRow("space, not control") << u" "_s << " "_ba;
    QTest::newRow("DEL raw") << u"\x7f"_s << "\x7f"_ba;
    QTest::newRow("slash raw") << u"a/b"_s << "a/b"_ba;
    QTest::newRow("e acute raw UTF-8") << u"caf\u00e9"_s << "caf\xc3\xa9"_ba;
    QTest::newRow("U+2028 raw") << u"\u2028"_s << "\xe2\x80\xa8"_ba;
    QTest::newRow("astral raw") << u"\U0001F600"_s << "\xf0\x9f\x98\x80"_ba;
    QTest::newRow("JSON payload") << uR"({"k":"v\n"})"_s << R"({\"k\":\"v\\n\"})"_ba;
}

// Every text field is quoted the same way; a document written is read back unchanged.
void tst_ServiceInstance::escapes()
{
    QFETCH(QString, text);
    QFETCH(QByteArray, quoted);
    EtcdServiceInstance s = sample();
    s.jsonPayload = text;
    s.address = text;
    s.uri = text;
    const QByteArray json = s.toJson();
    QVERIFY2(json.contains("\"jsonPayload\":\"" + quoted + "\",\"address\":\"" + quoted + "\""),
        json.constData());
    QVERIFY2(json.contains("\"uri\":\"" + quoted + "\",\"enabled\""), json.constData());
    const std::optional<EtcdServiceInstance> back = EtcdServiceInstance::fromJson(json);
    QVERIFY(back);
    QCOMPARE(*back, s);
    QCOMPARE(back->toJson(), json);
}

// A writer that escapes more than kotlinx does (\u00e9, \/) is read all the same, and
// written back the kotlinx way.
void tst_ServiceInstance::escapedInputIsRead()
{
    const QByteArray in = R"({"name":"w","jsonPayload":"caf\u00e9 \/ \u0041 \ud83d\ude00"})"_ba;
    const std::optional<EtcdServiceInstance> s = EtcdServiceInstance::fromJson(in);
    QVERIFY(s);
    QCOMPARE(s->jsonPayload, u"caf\u00e9 / A \U0001F600"_s);
    QVERIFY(s->toJson().contains("\"jsonPayload\":\"caf\xc3\xa9 / A \xf0\x9f\x98\x80\""));
}

void tst_ServiceInstance::serviceTypes_data()
{
    QTest::addColumn<Type>("type");
    QTest::addColumn<QByteArray>("name");
    QTest::addColumn<bool>("dynamic");
    QTest::newRow("dynamic") << Type::Dynamic << "DYNAMIC"_ba << true;
    QTest::newRow("static") << Type::Static << "STATIC"_ba << false;
    QTest::newRow("permanent") << Type::Permanent << "PERMANENT"_ba << false;
    QTest::newRow("dynamic sequential")
        << Type::DynamicSequential << "DYNAMIC_SEQUENTIAL"_ba << true;
}

void tst_ServiceInstance::serviceTypes()
{
    QFETCH(Type, type);
    QFETCH(QByteArray, name);
    QFETCH(bool, dynamic);
    EtcdServiceInstance s = sample();
    s.serviceType = type;
    QCOMPARE(s.isDynamic(), dynamic);
    QByteArray expected = kSample;
    expected.replace("\"DYNAMIC\"", '"' + name + '"');
    QCOMPARE(s.toJson(), expected);
    const std::optional<EtcdServiceInstance> back = EtcdServiceInstance::fromJson(expected);
    QVERIFY(back);
    QCOMPARE(back->serviceType, type);
}

// The reference's defaults; a missing time is now and a missing id a fresh one (as the
// Kotlin constructor's defaults would give).
void tst_ServiceInstance::missingOptionalFieldsTakeDefaults()
{
    const qint64 before = QDateTime::currentMSecsSinceEpoch();
    const std::optional<EtcdServiceInstance> s
        = EtcdServiceInstance::fromJson(R"({"jsonPayload":"p","name":"w"})"_ba);
    const qint64 after = QDateTime::currentMSecsSinceEpoch();
    QVERIFY(s);
    QCOMPARE(s->name, u"w"_s);
    QCOMPARE(s->jsonPayload, u"p"_s);
    QCOMPARE(s->address, QString());
    QCOMPARE(s->port, -1);
    QCOMPARE(s->sslPort, -1);
    QVERIFY(s->registrationTimeUtc >= before && s->registrationTimeUtc <= after);
    QCOMPARE(s->serviceType, Type::Dynamic);
    QCOMPARE(s->uri, QString());
    QCOMPARE(s->enabled, true);
    QVERIFY2(isTokenId(s->id), qPrintable(s->id));
    const std::optional<EtcdServiceInstance> other
        = EtcdServiceInstance::fromJson(R"({"jsonPayload":"p","name":"w"})"_ba);
    QVERIFY(other);
    QVERIFY(other->id != s->id);

    // Present fields are kept, whatever their order in the document.
    const std::optional<EtcdServiceInstance> some = EtcdServiceInstance::fromJson(
        R"({"id":"abc","port":0,"enabled":false,"name":"w","jsonPayload":""})"_ba);
    QVERIFY(some);
    QCOMPARE(some->id, u"abc"_s);
    QCOMPARE(some->port, 0);
    QCOMPARE(some->enabled, false);
    QCOMPARE(some->sslPort, -1);
}

// Tolerant where the Kotlin reader is strict (a later writer's field), but never echoed:
// the Kotlin reader would refuse our document.
void tst_ServiceInstance::unknownKeysAreReadNotWritten()
{
    QByteArray in = kSample;
    in.insert(1, R"("weight":5,)");
    const std::optional<EtcdServiceInstance> s = EtcdServiceInstance::fromJson(in);
    QVERIFY(s);
    QCOMPARE(*s, sample());
    QCOMPARE(s->toJson(), kSample);
}

// A Long beyond a double's 53 bits (Kotlin's registrationTimeUTC is a Long) and the ends
// of an Int survive a round trip exactly.
void tst_ServiceInstance::largeIntegersStayExact()
{
    EtcdServiceInstance s = sample();
    s.registrationTimeUtc = (qint64(1) << 53) + 1;
    s.port = std::numeric_limits<int>::min();
    s.sslPort = std::numeric_limits<int>::max();
    const QByteArray json = s.toJson();
    QVERIFY(json.contains(R"("port":-2147483648,"sslPort":2147483647,)"
                          R"("registrationTimeUTC":9007199254740993,)"));
    const std::optional<EtcdServiceInstance> back = EtcdServiceInstance::fromJson(json);
    QVERIFY(back);
    QCOMPARE(*back, s);
    QCOMPARE(back->toJson(), json);
}

void tst_ServiceInstance::refused_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("named"); // what the message must name
    const auto with = [](const char *field, const char *value) {
        QByteArray json = kSample;
        const QByteArray key = '"' + QByteArray(field) + "\":";
        const qsizetype at = json.indexOf(key) + key.size();
        qsizetype end = at;
        for (bool inText = false; inText || (json[end] != ',' && json[end] != '}'); ++end) {
            if (json[end] == '"' && json[end - 1] != '\\')
                inText = !inText;
        }
        return json.replace(at, end - at, value);
    };
    const auto without = [](const char *field) {
        const QByteArray key = '"' + QByteArray(field) + "\":";
        QByteArray json = kSample;
        const qsizetype at = json.indexOf(key);
        const qsizetype end = json.indexOf(",\"", at + 1);
        return json.remove(at, end + 1 - at);
    };
    QTest::newRow("missing name") << without("name") << u"\"name\""_s;
    QTest::newRow("missing jsonPayload") << without("jsonPayload") << u"\"jsonPayload\""_s;
    QTest::newRow("name null") << with("name", "null") << u"\"name\""_s;
    QTest::newRow("name number") << with("name", "5") << u"\"name\""_s;
    QTest::newRow("jsonPayload object")
        << with("jsonPayload", R"({"x":1})") << u"\"jsonPayload\""_s;
    QTest::newRow("address array") << with("address", "[]") << u"\"address\""_s;
    QTest::newRow("port text") << with("port", R"("80")") << u"\"port\""_s;
    QTest::newRow("port fraction") << with("port", "1.5") << u"\"port\""_s;
    QTest::newRow("port beyond Int") << with("port", "2147483648") << u"\"port\""_s;
    QTest::newRow("sslPort bool") << with("sslPort", "true") << u"\"sslPort\""_s;
    QTest::newRow("sslPort below Int") << with("sslPort", "-2147483649") << u"\"sslPort\""_s;
    QTest::newRow("registrationTimeUTC text")
        << with("registrationTimeUTC", R"("now")") << u"\"registrationTimeUTC\""_s;
    QTest::newRow("registrationTimeUTC beyond Long")
        << with("registrationTimeUTC", "1e30") << u"\"registrationTimeUTC\""_s;
    QTest::newRow("serviceType lowercase")
        << with("serviceType", R"("dynamic")") << u"\"serviceType\""_s;
    QTest::newRow("serviceType ordinal") << with("serviceType", "0") << u"\"serviceType\""_s;
    QTest::newRow("uri number") << with("uri", "1") << u"\"uri\""_s;
    QTest::newRow("enabled text") << with("enabled", R"("true")") << u"\"enabled\""_s;
    QTest::newRow("enabled number") << with("enabled", "1") << u"\"enabled\""_s;
    QTest::newRow("id number") << with("id", "7") << u"\"id\""_s;
    QTest::newRow("array") << "[1]"_ba << u"not an object"_s;
    QTest::newRow("array of the sample") << '[' + kSample + ']' << u"not an object"_s;
    QTest::newRow("empty") << QByteArray() << QString();
    QTest::newRow("text") << "worker"_ba << QString();
    QTest::newRow("trailing garbage") << kSample + "x" << QString();
    for (const qsizetype cut : {1, 10, 30, 60, 100, int(kSample.size()) - 1})
        QTest::addRow("truncated at %d", int(cut)) << kSample.left(cut) << QString();
}

// Refused with InvalidArgument and a message that names the field at fault.
void tst_ServiceInstance::refused()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, named);
    EtcdStatus status;
    QVERIFY2(!EtcdServiceInstance::fromJson(json, &status), json.constData());
    QCOMPARE(status.code(), Etcd::ErrorCode::InvalidArgument);
    QVERIFY(!status.message().isEmpty());
    QVERIFY2(status.message().contains(named), qPrintable(status.message()));
    QVERIFY(!EtcdServiceInstance::fromJson(json)); // without a status too
    QVERIFY(!EtcdServiceInstanceCodec::decode(json));
}

void tst_ServiceInstance::successClearsStatus()
{
    EtcdStatus status;
    QVERIFY(!EtcdServiceInstance::fromJson("{}", &status));
    QCOMPARE(status.code(), Etcd::ErrorCode::InvalidArgument);
    QVERIFY(EtcdServiceInstance::fromJson(kSample, &status));
    QVERIFY(status.isOk());
}

void tst_ServiceInstance::validate_data()
{
    QTest::addColumn<EtcdServiceInstance>("instance");
    QTest::addColumn<bool>("valid");
    const auto changed = [](auto change) {
        EtcdServiceInstance s = sample();
        change(s);
        return s;
    };
    QTest::newRow("sample") << sample() << true;
    QTest::newRow("empty name") << changed([](auto &s) { s.name.clear(); }) << false;
    QTest::newRow("name with /") << changed([](auto &s) { s.name = u"a/b"_s; }) << false;
    QTest::newRow("empty id") << changed([](auto &s) { s.id.clear(); }) << false;
    QTest::newRow("id with /") << changed([](auto &s) { s.id = u"a/b"_s; }) << false;
    QTest::newRow("non-ASCII name") << changed([](auto &s) { s.name = u"w\u00f6rker"_s; }) << true;
    QTest::newRow("port -1") << changed([](auto &s) { s.port = -1; }) << true;
    QTest::newRow("port 0") << changed([](auto &s) { s.port = 0; }) << true;
    QTest::newRow("port 65535") << changed([](auto &s) { s.port = 65535; }) << true;
    QTest::newRow("port -2") << changed([](auto &s) { s.port = -2; }) << false;
    QTest::newRow("port 65536") << changed([](auto &s) { s.port = 65536; }) << false;
    QTest::newRow("sslPort 65535") << changed([](auto &s) { s.sslPort = 65535; }) << true;
    QTest::newRow("sslPort 65536") << changed([](auto &s) { s.sslPort = 65536; }) << false;
    QTest::newRow("sslPort -2") << changed([](auto &s) { s.sslPort = -2; }) << false;
    QTest::newRow("disabled") << changed([](auto &s) { s.enabled = false; }) << true;
}

void tst_ServiceInstance::validate()
{
    QFETCH(EtcdServiceInstance, instance);
    QFETCH(bool, valid);
    const EtcdStatus status = instance.validate();
    QCOMPARE(status.isOk(), valid);
    if (!valid) {
        QCOMPARE(status.code(), Etcd::ErrorCode::InvalidArgument);
        QVERIFY(!status.message().isEmpty());
    }
}

void tst_ServiceInstance::create()
{
    const qint64 before = QDateTime::currentMSecsSinceEpoch();
    const EtcdServiceInstance s = EtcdServiceInstance::create(u"worker"_s, u"{}"_s);
    const qint64 after = QDateTime::currentMSecsSinceEpoch();
    QCOMPARE(s.name, u"worker"_s);
    QCOMPARE(s.jsonPayload, u"{}"_s);
    QVERIFY2(isTokenId(s.id), qPrintable(s.id));
    QVERIFY(s.registrationTimeUtc >= before && s.registrationTimeUtc <= after);
    QCOMPARE(s.port, -1);
    QCOMPARE(s.serviceType, Type::Dynamic);
    QVERIFY(s.enabled);
    QVERIFY(s.validate().isOk());
    // Ids are drawn afresh: 50 of them, all of the alphabet's shape, no two alike.
    QSet<QString> ids;
    for (int i = 0; i < 50; ++i) {
        const QString id = EtcdServiceInstance::create(u"w"_s).id;
        QVERIFY2(isTokenId(id), qPrintable(id));
        ids.insert(id);
    }
    QCOMPARE(ids.size(), 50);
}

void tst_ServiceInstance::codec()
{
    QCOMPARE(EtcdServiceInstanceCodec::encode(sample()), kSample);
    const std::optional<EtcdServiceInstance> s = EtcdServiceInstanceCodec::decode(kSample);
    QVERIFY(s);
    QCOMPARE(*s, sample());
}

QTEST_APPLESS_MAIN(tst_ServiceInstance)
#include "tst_serviceinstance.moc"
