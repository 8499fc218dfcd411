// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "inspectorstats.h"

#include <QtCore/qmap.h>

#include <algorithm>

namespace Inspector::Stats {

QHash<QByteArray, QList<int>> handOffsPerMinute(
    const QList<HandOff> &handOffs, const QDateTime &now, int minutes)
{
    QHash<QByteArray, QList<int>> counts;
    const qint64 nowMin = now.toSecsSinceEpoch() / 60;
    for (const HandOff &h : handOffs) {
        if (!h.time.isValid() || h.to.isEmpty()) // a term's end is no new leader
            continue;
        const qint64 age = nowMin - h.time.toSecsSinceEpoch() / 60;
        if (age < 0 || age >= minutes)
            continue;
        QList<int> &perMinute = counts[h.election];
        if (perMinute.isEmpty())
            perMinute.fill(0, minutes);
        ++perMinute[minutes - 1 - int(age)];
    }
    return counts;
}

QList<LockTimes> lockTimes(const QList<RecipeEvent> &events)
{
    using T = RecipeEvent::Type;
    QMap<QByteArray, LockTimes> byPath;
    QHash<QByteArray, QDateTime> queued; // path + actor -> when it queued
    QHash<QByteArray, QDateTime> acquired; // path + actor -> when it acquired
    for (const RecipeEvent &e : events) {
        if (e.backfilled || !e.time.isValid())
            continue;
        const QByteArray who = e.path + '\0' + e.actor.toUtf8();
        switch (e.type) {
        case T::Queued:
            queued.insert(who, e.time);
            break;
        case T::Acquired: {
            LockTimes &t = byPath[e.path];
            t.path = e.path;
            if (const QDateTime since = queued.take(who); since.isValid())
                t.waitsMs.append(since.msecsTo(e.time));
            acquired.insert(who, e.time);
            break;
        }
        case T::Released: {
            if (const QDateTime since = acquired.take(who); since.isValid()) {
                LockTimes &t = byPath[e.path];
                t.path = e.path;
                t.holdsMs.append(since.msecsTo(e.time));
            }
            break;
        }
        default:
            break;
        }
    }
    return byPath.values();
}

qint64 median(QList<qint64> values)
{
    if (values.isEmpty())
        return 0;
    const auto middle = values.begin() + values.size() / 2;
    std::nth_element(values.begin(), middle, values.end());
    return *middle;
}

QList<TtlBucket> leasesByGrantedTtl(const QList<qint64> &leases, const LeaseClock &clock)
{
    static const qint64 bounds[] = {2, 5, 10, 30, 60, 300, 3600, 86400 * 365};
    QList<TtlBucket> buckets;
    for (qint64 b : bounds)
        buckets.append(TtlBucket {b, 0});
    buckets.append(TtlBucket {0, 0}); // unknown
    for (qint64 lease : leases) {
        const auto sample = clock.sample(lease);
        if (!sample || sample->grantedSeconds <= 0) {
            ++buckets.last().count;
            continue;
        }
        for (TtlBucket &b : buckets) {
            if (b.upToSeconds > 0 && sample->grantedSeconds <= b.upToSeconds) {
                ++b.count;
                break;
            }
        }
    }
    return buckets;
}

void EventRate::add(int events, qint64 nowMs)
{
    const qint64 second = nowMs / 1000;
    m_bySecond[second] += events;
    for (auto it = m_bySecond.begin(); it != m_bySecond.end();)
        it = it.key() <= second - m_seconds ? m_bySecond.erase(it) : std::next(it);
}

QList<int> EventRate::perSecond(qint64 nowMs) const
{
    const qint64 second = nowMs / 1000;
    QList<int> counts(m_seconds, 0);
    for (auto it = m_bySecond.cbegin(); it != m_bySecond.cend(); ++it) {
        const qint64 age = second - it.key();
        if (age >= 0 && age < m_seconds)
            counts[m_seconds - 1 - int(age)] = it.value();
    }
    return counts;
}

} // namespace Inspector::Stats
