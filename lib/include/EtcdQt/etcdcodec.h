// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdqtglobal.h>

#include <QtCore/qbytearray.h>

#include <optional>

namespace Etcd {

ETCDQT_EXPORT QByteArray encodeInt32(qint32 value);
ETCDQT_EXPORT QByteArray encodeInt64(qint64 value);
ETCDQT_EXPORT std::optional<qint32> decodeInt32(const QByteArray &bytes);
ETCDQT_EXPORT std::optional<qint64> decodeInt64(const QByteArray &bytes);
ETCDQT_EXPORT QByteArray prefixEnd(const QByteArray &prefix);

} // namespace Etcd

// Codecs for typed recipes: Value, encode() to the bytes etcd stores, decode() back (nullopt
// when the bytes are not a valid encoding). Byte-identical to etcd-recipes' encodings. One
// header each; included here last, after the functions the integer codecs call, because
// those include this header back.
#include <EtcdQt/etcdbytescodec.h>
#include <EtcdQt/etcdint32codec.h>
#include <EtcdQt/etcdint64codec.h>
#include <EtcdQt/etcdjsoncodec.h>
#include <EtcdQt/etcdtextcodec.h>

#include <QtCore/qjsondocument.h>
#include <QtCore/qstring.h>
