// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// Lease TTLs as a reconciled estimate: the last LeaseTimeToLive answer per lease, counted
// down locally on a monotonic clock, with the anomalies a reconciliation can reveal. Pure
// logic: the session feeds it answers; models and delegates read remaining() when painting.
#pragma once

#include <QtCore/qhash.h>
#include <QtCore/qlist.h>

#include <optional>

namespace Inspector {

class LeaseClock
{
public:
    enum Anomaly : unsigned {
        None = 0,
        AboveGrant = 1, // etcd reported more seconds left than the lease was granted
        NegativeRemaining = 2, // etcd reported a negative TTL other than -1 (not found)
        KeyWithoutLease = 4, // etcd says the lease is gone while keys on it are still seen
        JumpedUp = 8, // renewed again after going unrenewed for over half its grant (.cpp)
    };

    struct Sample
    {
        qint64 ttlSeconds = -1; // as etcd answered; -1: lease not found
        qint64 grantedSeconds = 0;
        qint64 atMs = 0; // monotonic ms when the answer arrived
        unsigned anomalies = None;
        int samples = 0; // answers so far
        qint64 unrenewedSinceMs = -1; // answers since then followed the countdown; -1: none
    };

    // An answer from LeaseTimeToLive; keysSeen: keys on this lease are in the current view.
    // Returns the anomalies this answer newly raised (bits not set by the previous answer).
    unsigned reconcile(
        qint64 lease, qint64 ttlSeconds, qint64 grantedSeconds, qint64 nowMs, bool keysSeen);
    void forget(qint64 lease);
    void retainOnly(const QList<qint64> &leases);

    // Milliseconds left by the local countdown; nullopt when never asked or not found.
    [[nodiscard]] std::optional<qint64> remainingMs(qint64 lease, qint64 nowMs) const;
    [[nodiscard]] std::optional<Sample> sample(qint64 lease) const;
    [[nodiscard]] unsigned anomalies(qint64 lease) const;
    [[nodiscard]] QList<qint64> leases() const { return m_samples.keys(); }
    // The leases to ask next: never asked first, then the oldest answers; at most max.
    [[nodiscard]] QList<qint64> due(
        const QList<qint64> &wanted, qint64 nowMs, qsizetype max, qint64 minAgeMs) const;

    static QString describe(unsigned anomalies); // translated, comma-separated

private:
    static void trackRenewals(Sample &s, qint64 ttlSeconds, qint64 nowMs, unsigned &raised);

    QHash<qint64, Sample> m_samples;
};

} // namespace Inspector
