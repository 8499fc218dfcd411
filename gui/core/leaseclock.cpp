// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "leaseclock.h"

#include <QtCore/qcoreapplication.h>
#include <QtCore/qstringlist.h>

#include <algorithm>
#include <cstdlib>
#include <tuple>

namespace Inspector {

namespace {
// A keep-alive renews to the full grant; anything between the countdown and the grant is
// explained by one. A rise is only unexplained when it overshoots what the grant allows by
// more than the second of rounding etcd applies to TTLs.
constexpr qint64 kRoundingSlackSeconds = 1;
} // namespace

// A kept-alive lease is renewed every third of its TTL, so between answers more than a
// third apart its TTL has usually gone back up. Answers that instead follow the countdown
// (each one lower by the time that passed, to etcd's whole seconds) show nobody renewing it.
// If, after more than half its grant of that, the TTL goes up again, something revived it
// late: a holder back from a pause, or etcd refreshing leases on a leader change (without
// checkpointing). Sparse answers rarely follow the countdown, so they raise nothing.
void LeaseClock::trackRenewals(Sample &s, qint64 ttlSeconds, qint64 nowMs, unsigned &raised)
{
    if (s.samples == 0 || s.ttlSeconds < 0 || ttlSeconds < 0) {
        s.unrenewedSinceMs = -1;
        return;
    }
    const qint64 predictedMs = s.ttlSeconds * 1000 - (nowMs - s.atMs);
    const bool followsCountdown = ttlSeconds < s.ttlSeconds
        && std::abs(ttlSeconds * 1000 - predictedMs) <= kRoundingSlackSeconds * 1000;
    if (followsCountdown) {
        if (s.unrenewedSinceMs < 0)
            s.unrenewedSinceMs = s.atMs;
        return;
    }
    if (ttlSeconds > s.ttlSeconds && s.unrenewedSinceMs >= 0
        && (s.atMs - s.unrenewedSinceMs) * 2 > s.grantedSeconds * 1000)
        raised |= JumpedUp;
    s.unrenewedSinceMs = -1;
}

unsigned LeaseClock::reconcile(
    qint64 lease, qint64 ttlSeconds, qint64 grantedSeconds, qint64 nowMs, bool keysSeen)
{
    Sample &s = m_samples[lease];
    const unsigned before = s.anomalies;
    unsigned now = None;
    if (ttlSeconds == -1 && keysSeen)
        now |= KeyWithoutLease;
    if (ttlSeconds < -1)
        now |= NegativeRemaining;
    if (grantedSeconds > 0 && ttlSeconds > grantedSeconds + kRoundingSlackSeconds)
        now |= AboveGrant;
    trackRenewals(s, ttlSeconds, nowMs, now);
    s.ttlSeconds = ttlSeconds;
    s.grantedSeconds = grantedSeconds;
    s.atMs = nowMs;
    s.anomalies = now;
    ++s.samples;
    return now & ~before;
}

void LeaseClock::forget(qint64 lease)
{
    m_samples.remove(lease);
}

void LeaseClock::retainOnly(const QList<qint64> &leases)
{
    for (auto it = m_samples.begin(); it != m_samples.end();) {
        if (leases.contains(it.key()))
            ++it;
        else
            it = m_samples.erase(it);
    }
}

std::optional<qint64> LeaseClock::remainingMs(qint64 lease, qint64 nowMs) const
{
    const auto it = m_samples.constFind(lease);
    if (it == m_samples.cend() || it->ttlSeconds < 0)
        return std::nullopt;
    return it->ttlSeconds * 1000 - (nowMs - it->atMs);
}

std::optional<LeaseClock::Sample> LeaseClock::sample(qint64 lease) const
{
    const auto it = m_samples.constFind(lease);
    if (it == m_samples.cend())
        return std::nullopt;
    return *it;
}

unsigned LeaseClock::anomalies(qint64 lease) const
{
    return m_samples.value(lease).anomalies;
}

// Leases whose countdown ran out come first after the never-asked ones, and may be asked
// again sooner: what the view shows for them is the most stale.
QList<qint64> LeaseClock::due(
    const QList<qint64> &wanted, qint64 nowMs, qsizetype max, qint64 minAgeMs) const
{
    QList<qint64> never;
    QList<std::tuple<bool, qint64, qint64>> aged; // (not overdue, answered at, lease)
    for (qint64 lease : wanted) {
        const auto it = m_samples.constFind(lease);
        if (it == m_samples.cend()) {
            never.append(lease);
            continue;
        }
        const bool overdue = it->ttlSeconds >= 0 && it->ttlSeconds * 1000 <= nowMs - it->atMs;
        if (nowMs - it->atMs >= (overdue ? minAgeMs / 4 : minAgeMs))
            aged.append({!overdue, it->atMs, lease});
    }
    std::sort(aged.begin(), aged.end());
    QList<qint64> out = never.mid(0, max);
    for (qsizetype i = 0; i < aged.size() && out.size() < max; ++i)
        out.append(std::get<2>(aged.at(i)));
    return out;
}

QString LeaseClock::describe(unsigned anomalies)
{
    QStringList parts;
    if (anomalies & AboveGrant)
        parts << QCoreApplication::translate("Inspector::LeaseClock", "TTL above its grant");
    if (anomalies & NegativeRemaining)
        parts << QCoreApplication::translate("Inspector::LeaseClock", "negative TTL");
    if (anomalies & KeyWithoutLease)
        parts << QCoreApplication::translate("Inspector::LeaseClock", "key present, lease gone");
    if (anomalies & JumpedUp)
        parts << QCoreApplication::translate(
            "Inspector::LeaseClock", "TTL jumped up after going unrenewed");
    return parts.join(QStringLiteral(", "));
}

} // namespace Inspector
