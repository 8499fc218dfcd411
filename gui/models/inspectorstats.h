// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// The figures the Charts view draws, computed from what the inspector already keeps: the
// timeline's hand-offs, the event log's acquisitions and releases, the lease clock. Pure
// logic over lists, so each figure is tested without a chart or an etcd.
#pragma once

#include "leaseclock.h"
#include "recipeevent.h"

#include <QtCore/qdatetime.h>
#include <QtCore/qhash.h>
#include <QtCore/qlist.h>

namespace Inspector::Stats {

// Per election, hand-offs in each of the last `minutes` whole minutes up to `now`, oldest
// first. Hand-offs without a time (rebuilt from history) are not counted.
QHash<QByteArray, QList<int>> handOffsPerMinute(
    const QList<HandOff> &handOffs, const QDateTime &now, int minutes);

// Per lock (or semaphore), the waits (queued until acquired) and holds (acquired until
// released) the live events show, in milliseconds, in the order they ended.
struct LockTimes
{
    QByteArray path;
    QList<qint64> waitsMs;
    QList<qint64> holdsMs;
};
QList<LockTimes> lockTimes(const QList<RecipeEvent> &events); // by path

qint64 median(QList<qint64> values); // 0 for none

// Leases by the TTL they were granted, in buckets of growing width; leases the clock has not
// asked yet count as unknown (the last bucket).
struct TtlBucket
{
    qint64 upToSeconds = 0; // 0: the unknown bucket
    int count = 0;
};
QList<TtlBucket> leasesByGrantedTtl(const QList<qint64> &leases, const LeaseClock &clock);

// Watch events counted per second over a sliding window (the Charts view's events/s).
class EventRate
{
public:
    explicit EventRate(int seconds = 120) : m_seconds(seconds) { }
    void add(int events, qint64 nowMs);
    // Events in each of the last `seconds` whole seconds up to nowMs, oldest first.
    [[nodiscard]] QList<int> perSecond(qint64 nowMs) const;

private:
    int m_seconds;
    QHash<qint64, int> m_bySecond; // second since the epoch of nowMs -> events
};

} // namespace Inspector::Stats
