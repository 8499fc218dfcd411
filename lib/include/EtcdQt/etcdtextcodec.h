// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdqtglobal.h>

#include <QtCore/qbytearray.h>
#include <QtCore/qstring.h>

#include <optional>

// A codec for typed recipes (see etcdcodec.h): text as UTF-8.
struct ETCDQT_EXPORT EtcdTextCodec
{
    using Value = QString;
    static QByteArray encode(const QString &value);
    static std::optional<QString> decode(const QByteArray &bytes);
};
