// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdcodec.h>

// A codec for typed recipes (see etcdcodec.h): 4 bytes, big-endian.
struct ETCDQT_EXPORT EtcdInt32Codec
{
    using Value = qint32;
    static QByteArray encode(qint32 value) { return Etcd::encodeInt32(value); }
    static std::optional<qint32> decode(const QByteArray &bytes)
    {
        return Etcd::decodeInt32(bytes);
    }
};
