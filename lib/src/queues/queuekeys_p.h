// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API.
#pragma once

#include "etcdqt_internal_p.h"

#include <QtCore/qbytearray.h>

#include <optional>
#include <utility>

// The keys of etcd-recipes 0.12's queues (reference §2.4 and §3), byte for byte, so Kotlin
// producers and Qt consumers share one queue. Queues join with a raw "<path>/" (a path ending
// in '/' gives "//", as there).
namespace Etcd::Internal::QueueKeys {

// "<millis %019d>-<3 random>": one enqueued item's name.
ETCDQT_AUTOTEST_EXPORT QByteArray itemName(qint64 millis);
// "<millis %019d>-<index %05d>-<3 random>": item `index` of one batch (they share a millis).
ETCDQT_AUTOTEST_EXPORT QByteArray batchItemName(qint64 millis, int index);
// The index of a batch item's name; nullopt for a single item's name.
ETCDQT_AUTOTEST_EXPORT std::optional<int> batchIndex(const QByteArray &name);
// The millis a name starts with (an item's enqueue time, a delayed item's due time).
ETCDQT_AUTOTEST_EXPORT std::optional<qint64> nameMillis(const QByteArray &name);

// "<q>/": what every queue key starts with.
ETCDQT_AUTOTEST_EXPORT QByteArray children(const QByteArray &queuePath);

// The priority queue: "<q>/<priority %05d>/<seq %016d>", "<q>/<priority %05d>/" (the level's
// prefix) and the marker "__<q>/<priority %05d>" (outside the queue's prefix, never deleted).
ETCDQT_AUTOTEST_EXPORT QByteArray priorityLevel(const QByteArray &queuePath, int priority);
ETCDQT_AUTOTEST_EXPORT QByteArray priorityItem(
    const QByteArray &queuePath, int priority, qint64 seq);
ETCDQT_AUTOTEST_EXPORT QByteArray priorityMarker(const QByteArray &queuePath, int priority);
// The sequence number a priority item's key ends with; nullopt when it is not one.
ETCDQT_AUTOTEST_EXPORT std::optional<qint64> prioritySequence(const QByteArray &key);
// The priority a key of the queue at `queuePath` names; nullopt when it names none.
ETCDQT_AUTOTEST_EXPORT std::optional<int> priorityOf(
    const QByteArray &queuePath, const QByteArray &key);
// [from, to): every marker of the queue at `queuePath`.
ETCDQT_AUTOTEST_EXPORT std::pair<QByteArray, QByteArray> markerRange(const QByteArray &queuePath);

// The work queue's areas: "<q>/items/", "<q>/claimed/", "<q>/claims/", "<q>/attempts/",
// "<q>/dlq/", "<q>/delayed/"; an item's key in one is the area followed by its id.
enum class Area { Items, Claimed, Claims, Attempts, DeadLetters, Delayed };
ETCDQT_AUTOTEST_EXPORT QByteArray area(const QByteArray &queuePath, Area area);
ETCDQT_AUTOTEST_EXPORT QByteArray workKey(
    const QByteArray &queuePath, Area area, const QByteArray &id);
// The id of a key in `area` (what follows the area's prefix).
ETCDQT_AUTOTEST_EXPORT QByteArray idOf(const QByteArray &key, const QByteArray &areaPrefix);

} // namespace Etcd::Internal::QueueKeys
