// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// Asks etcd for the TTLs of the leases in view, a bounded number per tick (etcd has no lease
// events: a lease's TTL can only be polled), and keeps the answers in a LeaseClock.
#pragma once

#include "leaseclock.h"

#include <QtCore/qhash.h>
#include <QtCore/qobject.h>
#include <QtCore/qset.h>
#include <QtCore/qtimer.h>

class EtcdClient;

namespace Inspector {

class LeasePoller : public QObject
{
    Q_OBJECT
public:
    static constexpr int kTickMs = 250;
    static constexpr qsizetype kPerTick = 25; // at most 100 LeaseTimeToLive calls a second
    static constexpr qsizetype kMaxInFlight = 50;
    static constexpr qint64 kMinAgeMs = 1000; // no lease asked twice within a second

    // keysPerLease: the session's count of keys in view per lease (which leases to ask);
    // clock: where the answers go (the session's, which outlives every poller it makes).
    LeasePoller(EtcdClient *client, const QHash<qint64, int> *keysPerLease, LeaseClock *clock,
        QObject *parent);

    void setActive(bool active);

Q_SIGNALS:
    void reconciled(); // answers arrived since the last tick
    void anomaliesFound(qint64 lease, unsigned anomalies);

private:
    void tick();
    void ask(qint64 lease);

    EtcdClient *m_client;
    const QHash<qint64, int> *m_keysPerLease;
    LeaseClock *m_clock;
    QTimer m_timer;
    QSet<qint64> m_inFlight;
    bool m_answered = false;
};

} // namespace Inspector
