// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdqtglobal.h>

#include <QtCore/qbytearray.h>

#include <optional>

// A codec for typed recipes (see etcdcodec.h): the bytes as they are.
struct ETCDQT_EXPORT EtcdBytesCodec
{
    using Value = QByteArray;
    static QByteArray encode(const QByteArray &value) { return value; }
    static std::optional<QByteArray> decode(const QByteArray &bytes) { return bytes; }
};
