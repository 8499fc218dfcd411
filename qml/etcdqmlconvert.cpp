// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "etcdqmlconvert_p.h"
#include "etcdqmlvalues.h"

#include <EtcdQt/etcdfencing.h>
#include <EtcdQt/etcdleaseevent.h>
#include <EtcdQt/etcdstatus.h>

#include <QtCore/qcoreapplication.h>

#include <algorithm>
#include <cmath>
#include <limits>

Q_LOGGING_CATEGORY(lcEtcdQml, "etcdqt.qml", QtWarningMsg)

namespace Etcd::Qml {

std::chrono::seconds ttlFromMilliseconds(int ms)
{
    // In 64 bits: ms + 999 overflows an int near its largest value.
    return std::chrono::seconds(std::max<qint64>(1, (qint64(ms) + 999) / 1000));
}

QString ttlProblem(int ms)
{
    if (ms > 0)
        return {};
    return QCoreApplication::translate("EtcdQml",
        "ttl must be a positive number of "
        "milliseconds, got %1")
        .arg(ms);
}

int toMilliseconds(std::chrono::milliseconds duration)
{
    const auto count = std::clamp<qint64>(duration.count(), 0, std::numeric_limits<int>::max());
    return int(count);
}

QList<QUrl> toEndpoints(const QVariantList &list)
{
    QList<QUrl> urls;
    for (const QVariant &entry : list) {
        if (entry.metaType() == QMetaType::fromType<QUrl>()) {
            urls.append(entry.toUrl());
            continue;
        }
        QString text = entry.toString().trimmed();
        if (text.isEmpty())
            continue;
        if (!text.contains(QLatin1String("://")))
            text.prepend(QLatin1String("http://"));
        urls.append(QUrl(text));
    }
    return urls;
}

QString leaseIdToString(qint64 leaseId)
{
    return leaseId > 0 ? QString::number(leaseId) : QString();
}

std::optional<qint64> exactInteger(double number)
{
    constexpr double limit = 9007199254740992.0; // 2^53
    if (!std::isfinite(number) || number != std::floor(number) || std::fabs(number) > limit)
        return std::nullopt;
    return qint64(number);
}

} // namespace Etcd::Qml

EtcdQmlFencingToken::EtcdQmlFencingToken(const EtcdFencingToken &token)
    : key(QString::fromUtf8(token.key)), leaseId(Etcd::Qml::leaseIdToString(token.leaseId)),
      revision(token.isValid() ? double(token.revision) : 0)
{ }

EtcdQmlLeaseEvent::EtcdQmlLeaseEvent(const EtcdLeaseEvent &event)
    : type(int(event.type)), typeName(event.typeName()),
      leaseId(Etcd::Qml::leaseIdToString(event.leaseId)),
      newLeaseId(Etcd::Qml::leaseIdToString(event.newLeaseId)), code(int(event.cause.code())),
      message(event.cause.message())
{ }
