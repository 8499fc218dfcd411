// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G
//  -------------
// This file is not part of the EtcdQt API. It may change from version to version.
#pragma once

#include <EtcdQt/etcdqtglobal.h>

#include <QtCore/qloggingcategory.h>

#include <algorithm>
#include <chrono>
#include <limits>

// Internal classes that unit tests reach are exported only in test-enabled builds.
#if defined(ETCDQT_BUILDING_TESTS)
#define ETCDQT_AUTOTEST_EXPORT ETCDQT_EXPORT
#else
#define ETCDQT_AUTOTEST_EXPORT ETCDQT_NO_EXPORT
#endif

Q_DECLARE_LOGGING_CATEGORY(lcEtcdClient)
Q_DECLARE_LOGGING_CATEGORY(lcEtcdTransport)
Q_DECLARE_LOGGING_CATEGORY(lcEtcdLease)
Q_DECLARE_LOGGING_CATEGORY(lcEtcdRecipe)
Q_DECLARE_LOGGING_CATEGORY(lcEtcdWatch)
Q_DECLARE_LOGGING_CATEGORY(lcEtcdElection)
Q_DECLARE_LOGGING_CATEGORY(lcEtcdLock)
Q_DECLARE_LOGGING_CATEGORY(lcEtcdBarrier)
Q_DECLARE_LOGGING_CATEGORY(lcEtcdCounter)
Q_DECLARE_LOGGING_CATEGORY(lcEtcdQueue)
Q_DECLARE_LOGGING_CATEGORY(lcEtcdCache)
Q_DECLARE_LOGGING_CATEGORY(lcEtcdDiscovery)

namespace Etcd::Internal {

// Qt 6.4's QTimer takes int milliseconds (its std::chrono overloads narrow with int()), so a
// delay past 24.8 days would wrap to a negative or tiny interval. Every timer armed from a
// duration a user or etcd chose goes through this: a longer delay fires after 24.8 days,
// which for a retry, a heal or a timeout is the same thing as never.
constexpr std::chrono::milliseconds timerDelay(std::chrono::milliseconds delay)
{
    constexpr std::chrono::milliseconds longest(std::numeric_limits<int>::max());
    return std::clamp(delay, std::chrono::milliseconds(0), longest);
}

// The next delay of a retry that doubles from `minMs` up to half a TTL (and never past a
// minute, whatever the TTL): a recipe retrying etcd neither hammers an outage nor overflows.
constexpr int backoffMs(int previousMs, int minMs, std::chrono::seconds ttl)
{
    const qint64 cap = std::clamp<qint64>(ttl.count() * 500, minMs, 60'000);
    return int(std::clamp<qint64>(qint64(previousMs) * 2, minMs, cap));
}

} // namespace Etcd::Internal
