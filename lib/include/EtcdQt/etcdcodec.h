// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdqtglobal.h>

#include <QtCore/qbytearray.h>
#include <QtCore/qjsondocument.h>
#include <QtCore/qstring.h>

#include <optional>

namespace Etcd {

ETCDQT_EXPORT QByteArray encodeInt32(qint32 value);
ETCDQT_EXPORT QByteArray encodeInt64(qint64 value);
ETCDQT_EXPORT std::optional<qint32> decodeInt32(const QByteArray &bytes);
ETCDQT_EXPORT std::optional<qint64> decodeInt64(const QByteArray &bytes);
ETCDQT_EXPORT QByteArray prefixEnd(const QByteArray &prefix);

} // namespace Etcd

// Codecs for typed recipes: Value, encode() to the bytes etcd stores, decode() back (nullopt
// when the bytes are not a valid encoding). Byte-identical to etcd-recipes' encodings.
struct ETCDQT_EXPORT EtcdBytesCodec
{
    using Value = QByteArray;
    static QByteArray encode(const QByteArray &value) { return value; }
    static std::optional<QByteArray> decode(const QByteArray &bytes) { return bytes; }
};

struct ETCDQT_EXPORT EtcdTextCodec // UTF-8
{
    using Value = QString;
    static QByteArray encode(const QString &value);
    static std::optional<QString> decode(const QByteArray &bytes);
};

struct ETCDQT_EXPORT EtcdInt32Codec // 4 bytes, big-endian
{
    using Value = qint32;
    static QByteArray encode(qint32 value) { return Etcd::encodeInt32(value); }
    static std::optional<qint32> decode(const QByteArray &bytes)
    {
        return Etcd::decodeInt32(bytes);
    }
};

struct ETCDQT_EXPORT EtcdInt64Codec // 8 bytes, big-endian
{
    using Value = qint64;
    static QByteArray encode(qint64 value) { return Etcd::encodeInt64(value); }
    static std::optional<qint64> decode(const QByteArray &bytes)
    {
        return Etcd::decodeInt64(bytes);
    }
};

struct ETCDQT_EXPORT EtcdJsonCodec // compact JSON, UTF-8
{
    using Value = QJsonDocument;
    static QByteArray encode(const QJsonDocument &value);
    static std::optional<QJsonDocument> decode(const QByteArray &bytes);
};
