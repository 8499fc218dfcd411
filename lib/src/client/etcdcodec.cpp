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
