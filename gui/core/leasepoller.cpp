// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "leasepoller.h"

#include "modelclock.h"

#include <EtcdQt/etcdclient.h>
#include <EtcdQt/etcdreplies.h>

namespace Inspector {

LeasePoller::LeasePoller(
    EtcdClient *client, const QHash<qint64, int> *keysPerLease, LeaseClock *clock, QObject *parent)
    : QObject(parent), m_client(client), m_keysPerLease(keysPerLease), m_clock(clock)
{
    m_timer.setInterval(kTickMs);
    connect(&m_timer, &QTimer::timeout, this, &LeasePoller::tick);
}

void LeasePoller::setActive(bool active)
{
    if (active)
        m_timer.start();
    else
        m_timer.stop();
}

void LeasePoller::tick()
{
    if (std::exchange(m_answered, false))
        Q_EMIT reconciled();
    const QList<qint64> wanted = m_keysPerLease->keys();
    m_clock->retainOnly(wanted);
    const qsizetype room = std::min(kPerTick, kMaxInFlight - m_inFlight.size());
    if (room <= 0)
        return;
    QList<qint64> candidates;
    for (qint64 lease : wanted) {
        if (!m_inFlight.contains(lease))
            candidates.append(lease);
    }
    for (qint64 lease : m_clock->due(candidates, monotonicMs(), room, kMinAgeMs))
        ask(lease);
}

void LeasePoller::ask(qint64 lease)
{
    m_inFlight.insert(lease);
    EtcdLeaseTimeToLiveReply *reply = m_client->leaseTimeToLive(lease);
    connect(reply, &EtcdReply::finished, this, [this, reply, lease](const EtcdStatus &status) {
        m_inFlight.remove(lease);
        if (!status.isOk() || !m_keysPerLease->contains(lease))
            return; // asked again on a later tick; or no longer in view
        const unsigned raised = m_clock->reconcile(lease, reply->ttl().count(),
            reply->grantedTtl().count(), monotonicMs(), m_keysPerLease->value(lease) > 0);
        m_answered = true;
        if (raised != LeaseClock::None)
            Q_EMIT anomaliesFound(lease, raised);
    });
}

} // namespace Inspector
