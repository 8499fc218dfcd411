// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "queueinput_p.h"

#include <QtCore/qcoreapplication.h>

namespace Etcd::Internal::QueueInput {

namespace {
QString translated(const char *text)
{
    return QCoreApplication::translate("EtcdQueue", text);
}

EtcdStatus invalid(const QString &why)
{
    return EtcdStatus(Etcd::ErrorCode::InvalidArgument, why);
}
} // namespace

EtcdStatus check(const QByteArray &path, qsizetype payloadBytes)
{
    if (path.isEmpty())
        return invalid(translated(QT_TRANSLATE_NOOP("EtcdQueue", "empty queue path")));
    // The key, the transaction's other keys and gRPC's framing need room too.
    if (payloadBytes + path.size() + 256 > kMaxRequestBytes)
        return invalid(
            translated(QT_TRANSLATE_NOOP("EtcdQueue",
                           "%1 bytes are more than etcd accepts in one request (%2 bytes)"))
                .arg(payloadBytes)
                .arg(kMaxRequestBytes));
    return {};
}

EtcdStatus checkBatch(const QByteArray &path, const QList<QByteArray> &values, qsizetype maxItems)
{
    if (values.isEmpty())
        return invalid(translated(QT_TRANSLATE_NOOP("EtcdQueue", "no values to enqueue")));
    if (values.size() > maxItems)
        return invalid(translated(
            QT_TRANSLATE_NOOP("EtcdQueue", "%1 values are more than one transaction takes (%2)"))
                           .arg(values.size())
                           .arg(maxItems));
    qsizetype bytes = 0;
    for (const QByteArray &v : values)
        bytes += v.size() + path.size() + 32; // each value has its own key
    return check(path, bytes);
}

} // namespace Etcd::Internal::QueueInput
