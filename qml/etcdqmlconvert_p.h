// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

// Conversions between the library's C++ types and what QML reads: integer milliseconds,
// strings, and plain maps for the library's value types.

#include <QtCore/qloggingcategory.h>
#include <QtCore/qurl.h>
#include <QtCore/qvariant.h>

#include <chrono>
#include <optional>

class EtcdStatus;
class EtcdLeaseEvent;
struct EtcdFencingToken;

Q_DECLARE_LOGGING_CATEGORY(lcEtcdQml)

namespace Etcd::Qml {

// A lease TTL given in milliseconds, rounded up to whole seconds (etcd's unit), at least 1 s.
std::chrono::seconds ttlFromMilliseconds(int ms);
// Why `ms` is no lease TTL (0 or less: refused, never rounded up to 1 s), or empty.
QString ttlProblem(int ms);
int toMilliseconds(std::chrono::milliseconds duration);
// Strings ("host:port" or "http://host:port") and urls; "host:port" gets "http://".
QList<QUrl> toEndpoints(const QVariantList &list);
// Lease ids use all 64 bits, beyond a JS number's 53: QML sees them as decimal strings,
// empty for "no lease".
QString leaseIdToString(qint64 leaseId);
// A JS number that is a whole number a double holds exactly (|n| <= 2^53), or nullopt.
std::optional<qint64> exactInteger(double number);

} // namespace Etcd::Qml
