// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "recipepaths_p.h"

#include <EtcdQt/etcdserviceinstance.h>

#include <QtCore/qcoreapplication.h>
#include <QtCore/qdatetime.h>
#include <QtCore/qjsondocument.h>
#include <QtCore/qjsonobject.h>

#include <array>
#include <limits>

using namespace Etcd::Internal;

/*!
    \class EtcdServiceInstance
    \inmodule EtcdQt
    \brief One registered instance of a service, as etcd-recipes' \c ServiceInstance.

    The ten fields and their JSON are etcd-recipes' own, so Kotlin services and Qt applications
    find each other: toJson() writes every field, always, in the reference's order
    (\c name, \c jsonPayload, \c address, \c port, \c sslPort, \c registrationTimeUTC,
    \c serviceType, \c uri, \c enabled, \c id) and escapes text as kotlinx.serialization
    does, so a document read from a Kotlin writer and written again is the same bytes.
    Nothing is ever added: the Kotlin reader rejects keys it does not know.

    fromJson() is as tolerant as the Kotlin reader where that reader is: a missing optional
    field takes the reference's default (a missing \c id a fresh random one, a missing time
    now). It also accepts keys it does not know, which the Kotlin reader refuses, so that a
    later writer's fields do not make an instance vanish here.
*/

namespace {

QString message(const char *text)
{
    return QCoreApplication::translate("EtcdServiceInstance", text);
}

constexpr std::array<const char *, 4> kTypeNames {
    "DYNAMIC", "STATIC", "PERMANENT", "DYNAMIC_SEQUENTIAL"};

// kotlinx.serialization's quoting: \" \\ \b \t \n \f \r, other control characters as
// \u00xx in lowercase hex, everything else (non-ASCII too) as its UTF-8 bytes.
void appendQuoted(QByteArray &out, const QString &text)
{
    static constexpr char kHex[] = "0123456789abcdef";
    out += '"';
    for (const char c : text.toUtf8()) {
        const auto u = static_cast<unsigned char>(c);
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\b':
            out += "\\b";
            break;
        case '\t':
            out += "\\t";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\f':
            out += "\\f";
            break;
        case '\r':
            out += "\\r";
            break;
        default:
            if (u < 0x20) {
                out += "\\u00";
                out += kHex[u >> 4];
                out += kHex[u & 0xf];
            } else {
                out += c;
            }
        }
    }
    out += '"';
}

void appendField(QByteArray &out, const char *name)
{
    out += out.size() > 1 ? ",\"" : "\"";
    out += name;
    out += "\":";
}

// A JSON document's field: its type checked; `why` set (and false) when it is wrong.
struct Reader
{
    const QJsonObject &object;
    QString why;

    bool text(const char *field, QString &to, bool required)
    {
        const QJsonValue v = object.value(QLatin1StringView(field));
        if (v.isUndefined() && !required)
            return true;
        if (!v.isString())
            return fail(field, required && v.isUndefined() ? "missing" : "not a string");
        to = v.toString();
        return true;
    }
    bool integer(const char *field, qint64 &to, qint64 min, qint64 max)
    {
        const QJsonValue v = object.value(QLatin1StringView(field));
        if (v.isUndefined())
            return true;
        const qint64 n = v.toInteger();
        if (!v.isDouble() || double(n) != v.toDouble() || n < min || n > max)
            return fail(field, "not an integer in range");
        to = n;
        return true;
    }
    bool boolean(const char *field, bool &to)
    {
        const QJsonValue v = object.value(QLatin1StringView(field));
        if (v.isUndefined())
            return true;
        if (!v.isBool())
            return fail(field, "not true or false");
        to = v.toBool();
        return true;
    }
    bool type(EtcdServiceInstance::ServiceType &to)
    {
        const QJsonValue v = object.value(QLatin1StringView("serviceType"));
        if (v.isUndefined())
            return true;
        for (size_t i = 0; i < kTypeNames.size(); ++i) {
            if (v.toString() == QLatin1StringView(kTypeNames[i])) {
                to = EtcdServiceInstance::ServiceType(i);
                return true;
            }
        }
        return fail("serviceType", "not DYNAMIC, STATIC, PERMANENT or DYNAMIC_SEQUENTIAL");
    }
    bool fail(const char *field, const char *problem)
    {
        why = message(
            QT_TRANSLATE_NOOP("EtcdServiceInstance", "service instance JSON: \"%1\" is %2"))
                  .arg(QLatin1StringView(field), message(problem));
        return false;
    }
};

bool read(Reader &r, EtcdServiceInstance &s)
{
    qint64 port = s.port, sslPort = s.sslPort;
    constexpr qint64 intMin = std::numeric_limits<int>::min();
    constexpr qint64 intMax = std::numeric_limits<int>::max();
    const bool ok = r.text("name", s.name, true) && r.text("jsonPayload", s.jsonPayload, true)
        && r.text("address", s.address, false) && r.integer("port", port, intMin, intMax)
        && r.integer("sslPort", sslPort, intMin, intMax)
        && r.integer("registrationTimeUTC", s.registrationTimeUtc,
            std::numeric_limits<qint64>::min(), std::numeric_limits<qint64>::max())
        && r.type(s.serviceType) && r.text("uri", s.uri, false) && r.boolean("enabled", s.enabled)
        && r.text("id", s.id, false);
    s.port = int(port);
    s.sslPort = int(sslPort);
    return ok;
}

} // namespace

// clang-format off
/*!
    \enum EtcdServiceInstance::ServiceType
    The JSON's \c serviceType.
    \value Dynamic "DYNAMIC", the default: registered while the process runs
    \value Static "STATIC"
    \value Permanent "PERMANENT"
    \value DynamicSequential "DYNAMIC_SEQUENTIAL"
*/

/*!
    \variable EtcdServiceInstance::name
    \brief the service's name; required, not empty, no '/'.
*/

/*!
    \property EtcdServiceInstance::name
    \brief the member of the same name, for QML.
*/

/*!
    \variable EtcdServiceInstance::jsonPayload
    \brief opaque text the service publishes, often JSON itself; required (may be empty).
*/

/*!
    \property EtcdServiceInstance::jsonPayload
    \brief the member of the same name, for QML.
*/

/*!
    \variable EtcdServiceInstance::address
    \brief where the instance is reached; empty by default.
*/

/*!
    \property EtcdServiceInstance::address
    \brief the member of the same name, for QML.
*/

/*!
    \variable EtcdServiceInstance::port
    \brief its port; -1 (the default) for none.
*/

/*!
    \property EtcdServiceInstance::port
    \brief the member of the same name, for QML.
*/

/*!
    \variable EtcdServiceInstance::sslPort
    \brief its TLS port; -1 (the default) for none.
*/

/*!
    \property EtcdServiceInstance::sslPort
    \brief the member of the same name, for QML.
*/

/*!
    \variable EtcdServiceInstance::registrationTimeUtc
    \brief when it registered, in milliseconds since the epoch (JSON: registrationTimeUTC).
*/

/*!
    \property EtcdServiceInstance::registrationTimeUtc
    \brief the member of the same name, for QML.
*/

/*!
    \variable EtcdServiceInstance::serviceType
    \brief its type; Dynamic by default.
*/

/*!
    \property EtcdServiceInstance::serviceType
    \brief the member of the same name, for QML.
*/

/*!
    \variable EtcdServiceInstance::uri
    \brief a URI for it; empty by default.
*/

/*!
    \property EtcdServiceInstance::uri
    \brief the member of the same name, for QML.
*/

/*!
    \variable EtcdServiceInstance::enabled
    \brief whether clients should pick it; true by default (EtcdServiceProvider skips disabled ones).
*/

/*!
    \property EtcdServiceInstance::enabled
    \brief the member of the same name, for QML.
*/

/*!
    \variable EtcdServiceInstance::id
    \brief the instance's id, unique within the service; seven random characters from create().
*/

/*!
    \property EtcdServiceInstance::id
    \brief the member of the same name, for QML.
*/

/*!
    \fn bool EtcdServiceInstance::operator==(const EtcdServiceInstance &a, const EtcdServiceInstance &b)
    Returns \c true when every field of \a a and \a b is equal, the id included (etcd-recipes
    leaves the id out; two instances of one service are told apart by it here).
*/

/*!
    \typedef EtcdServiceInstanceCodec::Value
    EtcdServiceInstance.
*/

// clang-format on

/*!
    Returns an instance of the service \a name carrying \a jsonPayload, with a fresh random
    id of seven characters and registrationTimeUtc now, as etcd-recipes' constructor does.
*/
EtcdServiceInstance EtcdServiceInstance::create(const QString &name, const QString &jsonPayload)
{
    EtcdServiceInstance s;
    s.name = name;
    s.jsonPayload = jsonPayload;
    s.registrationTimeUtc = QDateTime::currentMSecsSinceEpoch();
    s.id = QString::fromLatin1(RecipePaths::randomId(RecipePaths::kTokenLength));
    return s;
}

/*! \property EtcdServiceInstance::dynamic
    Whether the type is one etcd-recipes counts as dynamic: Dynamic or DynamicSequential. */

/*! Returns \c true for the types etcd-recipes counts as dynamic: Dynamic, DynamicSequential. */
bool EtcdServiceInstance::isDynamic() const noexcept
{
    return serviceType == ServiceType::Dynamic || serviceType == ServiceType::DynamicSequential;
}

/*! Returns \a type as the JSON spells it: "DYNAMIC", "STATIC", "PERMANENT", "DYNAMIC_SEQUENTIAL".
 */
QString EtcdServiceInstance::typeName(ServiceType type)
{
    return QString::fromLatin1(kTypeNames[size_t(type)]);
}

/*!
    Returns what makes this instance impossible to register (InvalidArgument: an empty name
    or id, either containing '/', which would nest its key; a port or SSL port outside
    -1..65535), or success.
*/
EtcdStatus EtcdServiceInstance::validate() const
{
    const auto bad = [](const char *text) {
        return EtcdStatus(Etcd::ErrorCode::InvalidArgument, message(text));
    };
    if (name.isEmpty())
        return bad("the service name is empty");
    if (name.contains(u'/'))
        return bad("the service name contains '/'");
    if (id.isEmpty())
        return bad("the instance id is empty");
    if (id.contains(u'/'))
        return bad("the instance id contains '/'");
    if (port < -1 || port > 65535 || sslPort < -1 || sslPort > 65535)
        return bad("a port is outside -1..65535");
    return {};
}

/*! Returns etcd-recipes' JSON of this instance, compact, every field in the reference's order. */
QByteArray EtcdServiceInstance::toJson() const
{
    QByteArray out;
    out.reserve(160 + jsonPayload.size() + name.size() + address.size() + uri.size());
    out += '{';
    appendField(out, "name");
    appendQuoted(out, name);
    appendField(out, "jsonPayload");
    appendQuoted(out, jsonPayload);
    appendField(out, "address");
    appendQuoted(out, address);
    appendField(out, "port");
    out += QByteArray::number(port);
    appendField(out, "sslPort");
    out += QByteArray::number(sslPort);
    appendField(out, "registrationTimeUTC");
    out += QByteArray::number(registrationTimeUtc);
    appendField(out, "serviceType");
    out += '"';
    out += kTypeNames[size_t(serviceType)];
    out += '"';
    appendField(out, "uri");
    appendQuoted(out, uri);
    appendField(out, "enabled");
    out += enabled ? "true" : "false";
    appendField(out, "id");
    appendQuoted(out, id);
    out += '}';
    return out;
}

/*!
    Parses \a json, etcd-recipes' JSON of an instance. Returns nothing, with InvalidArgument in
    \a status (when given) naming the problem, for text that is not a JSON object, a
    missing or non-text \c name or \c jsonPayload, or a field of the wrong type.
*/
std::optional<EtcdServiceInstance> EtcdServiceInstance::fromJson(
    const QByteArray &json, EtcdStatus *status)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &error);
    QString why;
    if (error.error != QJsonParseError::NoError)
        why = message(
            QT_TRANSLATE_NOOP("EtcdServiceInstance", "service instance JSON: %1 at offset %2"))
                  .arg(error.errorString())
                  .arg(error.offset);
    else if (!doc.isObject())
        why = message(
            QT_TRANSLATE_NOOP("EtcdServiceInstance", "service instance JSON: not an object"));
    const QJsonObject object = doc.object();
    Reader r {object, {}};
    EtcdServiceInstance s;
    if (why.isEmpty() && read(r, s)) {
        if (!object.contains(QLatin1StringView("registrationTimeUTC")))
            s.registrationTimeUtc = QDateTime::currentMSecsSinceEpoch();
        if (!object.contains(QLatin1StringView("id")))
            s.id = QString::fromLatin1(RecipePaths::randomId(RecipePaths::kTokenLength));
        if (status)
            *status = {};
        return s;
    }
    if (status)
        *status = EtcdStatus(Etcd::ErrorCode::InvalidArgument, why.isEmpty() ? r.why : why);
    return std::nullopt;
}

/*!
    \class EtcdServiceInstanceCodec
    \inmodule EtcdQt
    \brief A codec for typed recipes: an EtcdServiceInstance as etcd-recipes' JSON.
*/

/*! Returns the JSON of \a value. */
QByteArray EtcdServiceInstanceCodec::encode(const EtcdServiceInstance &value)
{
    return value.toJson();
}

/*! Returns the instance in \a bytes, or nothing when they do not parse. */
std::optional<EtcdServiceInstance> EtcdServiceInstanceCodec::decode(const QByteArray &bytes)
{
    return EtcdServiceInstance::fromJson(bytes);
}
