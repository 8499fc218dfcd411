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
