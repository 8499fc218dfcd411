// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdqtglobal.h>

#include <QtCore/qbytearray.h>
#include <QtCore/qjsondocument.h>

#include <optional>

// A codec for typed recipes (see etcdcodec.h): compact JSON, UTF-8.
struct ETCDQT_EXPORT EtcdJsonCodec
{
    using Value = QJsonDocument;
    static QByteArray encode(const QJsonDocument &value);
    static std::optional<QJsonDocument> decode(const QByteArray &bytes);
};
