// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include <EtcdQt/etcdcodec.h>

#include <QtCore/qendian.h>

/*!
    \namespace Etcd
    \inmodule EtcdQt
    \brief Enumerations and value encodings shared by every EtcdQt class.
*/

namespace Etcd {

/*!
    Returns \a value as 4 big-endian bytes, the layout etcd-recipes writes for 32-bit integers.
*/
QByteArray encodeInt32(qint32 value)
{
    QByteArray out(sizeof(qint32), Qt::Uninitialized);
    qToBigEndian(value, out.data());
    return out;
}

/*!
    Returns \a value as 8 big-endian bytes, the layout etcd-recipes writes for 64-bit integers.
*/
QByteArray encodeInt64(qint64 value)
{
    QByteArray out(sizeof(qint64), Qt::Uninitialized);
    qToBigEndian(value, out.data());
    return out;
}

/*!
    Decodes 4 big-endian bytes; returns nothing when \a bytes has another length.
*/
std::optional<qint32> decodeInt32(const QByteArray &bytes)
{
    if (bytes.size() != sizeof(qint32))
        return std::nullopt;
    return qFromBigEndian<qint32>(bytes.constData());
}

/*!
    Decodes 8 big-endian bytes; returns nothing when \a bytes has another length.
*/
std::optional<qint64> decodeInt64(const QByteArray &bytes)
{
    if (bytes.size() != sizeof(qint64))
        return std::nullopt;
    return qFromBigEndian<qint64>(bytes.constData());
}

/*!
    Returns the smallest key greater than every key that starts with \a prefix: the range end
    of a prefix scan. A prefix of only 0xff bytes (or an empty one) has no such key; etcd
    spells "no upper bound" as a single NUL byte, which is returned then.
*/
QByteArray prefixEnd(const QByteArray &prefix)
{
    QByteArray end = prefix;
    for (qsizetype i = end.size() - 1; i >= 0; --i) {
        if (static_cast<quint8>(end.at(i)) < 0xff) {
            end[i] = static_cast<char>(static_cast<quint8>(end.at(i)) + 1);
            end.truncate(i + 1);
            return end;
        }
    }
    return QByteArray(1, '\0');
}

} // namespace Etcd

/*!
    \class EtcdTextCodec
    \inmodule EtcdQt
    \brief Text as UTF-8 bytes, for typed recipes.
*/
QByteArray EtcdTextCodec::encode(const QString &value)
{
    return value.toUtf8();
}

std::optional<QString> EtcdTextCodec::decode(const QByteArray &bytes)
{
    return QString::fromUtf8(bytes);
}

/*!
    \class EtcdJsonCodec
    \inmodule EtcdQt
    \brief A JSON document as compact UTF-8 text, for typed recipes.
*/
QByteArray EtcdJsonCodec::encode(const QJsonDocument &value)
{
    return value.toJson(QJsonDocument::Compact);
}

std::optional<QJsonDocument> EtcdJsonCodec::decode(const QByteArray &bytes)
{
    QJsonParseError error;
    QJsonDocument doc = QJsonDocument::fromJson(bytes, &error);
    if (error.error != QJsonParseError::NoError)
        return std::nullopt;
    return doc;
}

/*!
    \typedef EtcdTextCodec::Value
    QString.
*/

/*!
    \fn QByteArray EtcdTextCodec::encode(const QString &value)
    Returns \a value as UTF-8.
*/

/*!
    \fn std::optional<QString> EtcdTextCodec::decode(const QByteArray &bytes)
    Returns \a bytes read as UTF-8 (never nothing: invalid sequences become U+FFFD).
*/

/*!
    \typedef EtcdJsonCodec::Value
    QJsonDocument.
*/

/*!
    \fn QByteArray EtcdJsonCodec::encode(const QJsonDocument &value)
    Returns \a value as compact JSON text.
*/

/*!
    \fn std::optional<QJsonDocument> EtcdJsonCodec::decode(const QByteArray &bytes)
    Returns the document \a bytes hold, or nothing if they are not valid JSON.
*/

/*!
    \class EtcdBytesCodec
    \inmodule EtcdQt
    \brief The identity codec: values are the bytes themselves.
*/

/*!
    \typedef EtcdBytesCodec::Value
    QByteArray.
*/

/*!
    \fn QByteArray EtcdBytesCodec::encode(const QByteArray &value)
    Returns \a value unchanged.
*/

/*!
    \fn std::optional<QByteArray> EtcdBytesCodec::decode(const QByteArray &bytes)
    Returns \a bytes unchanged.
*/

/*!
    \class EtcdInt32Codec
    \inmodule EtcdQt
    \brief A 32-bit integer as 4 big-endian bytes (etcd-recipes' layout), for typed recipes.
*/

/*!
    \typedef EtcdInt32Codec::Value
    qint32.
*/

/*!
    \fn QByteArray EtcdInt32Codec::encode(qint32 value)
    Returns \a value as 4 big-endian bytes; see Etcd::encodeInt32().
*/

/*!
    \fn std::optional<qint32> EtcdInt32Codec::decode(const QByteArray &bytes)
    Returns the number in \a bytes, or nothing unless they are exactly 4 bytes.
*/

/*!
    \class EtcdInt64Codec
    \inmodule EtcdQt
    \brief A 64-bit integer as 8 big-endian bytes (etcd-recipes' layout), for typed recipes.
*/

/*!
    \typedef EtcdInt64Codec::Value
    qint64.
*/

/*!
    \fn QByteArray EtcdInt64Codec::encode(qint64 value)
    Returns \a value as 8 big-endian bytes; see Etcd::encodeInt64().
*/

/*!
    \fn std::optional<qint64> EtcdInt64Codec::decode(const QByteArray &bytes)
    Returns the number in \a bytes, or nothing unless they are exactly 8 bytes.
*/
