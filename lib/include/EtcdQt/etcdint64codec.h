// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdcodec.h>

// A codec for typed recipes (see etcdcodec.h): 8 bytes, big-endian.
struct ETCDQT_EXPORT EtcdInt64Codec
{
    using Value = qint64;
    static QByteArray encode(qint64 value) { return Etcd::encodeInt64(value); }
    static std::optional<qint64> decode(const QByteArray &bytes)
    {
        return Etcd::decodeInt64(bytes);
    }
};
