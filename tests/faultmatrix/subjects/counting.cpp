// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "counting.h"

#include <EtcdQt/etcdvaluereply.h>

#include <QtCore/qset.h>

using namespace Qt::StringLiterals;

namespace FaultMatrix {

void PacedChanges::pump()
{
    if (m_running && (!m_since.isValid() || m_since.elapsed() >= m_paceMs))
        sendNow();
}

void PacedChanges::sendNow()
{
    if (std::exchange(m_inFlight, true))
        return;
    EtcdValueReply *reply = m_change();
    QObject::connect(
        reply, &EtcdReply::finished, m_context.get(), [this, reply](const EtcdStatus &s) {
            if (s.isOk())
                acked.append(reply->value());
            else
                ++unknown;
            m_inFlight = false;
            m_since.start();
        });
}

void PacedChanges::abandon()
{
    m_running = false;
    m_context = std::make_unique<QObject>(); // disconnects the answer in flight
    if (std::exchange(m_inFlight, false))
        ++unknown;
}

void CountingSubject::start(EtcdClient *faulted, EtcdClient *clean, const QByteArray &path)
{
    m_faulted = faulted;
    m_clean = clean;
    m_path = path;
    m_reader = std::make_unique<EtcdAtomicCounter>(clean, countKey(), startValue());
    createClean();
    createFaulted();
    m_faultedChanges.setChange([this] { return faultedChange(); });
    m_cleanChanges.setChange([this] { return cleanChange(); });
}

bool CountingSubject::steady()
{
    if (!ready())
        return false;
    m_faultedChanges.setRunning(true);
    m_cleanChanges.setRunning(true);
    sample(); // the monitor samples only from the fault on
    return !m_faultedChanges.acked.isEmpty() && !m_cleanChanges.acked.isEmpty();
}

void CountingSubject::sample()
{
    m_faultedChanges.pump();
    m_cleanChanges.pump();
}

// The changes stop, the last ones are answered, and etcd's count must account for them.
QString CountingSubject::afterFault(const FaultFacts &)
{
    m_faultedChanges.setRunning(false);
    m_cleanChanges.setRunning(false);
    if (!waitFor([this] { return m_faultedChanges.idle() && m_cleanChanges.idle(); }))
        return u"a change never answered after the fault"_s;
    const auto value = count();
    if (!value)
        return u"etcd did not answer for the count"_s;
    if (const QString r = settled(*value); !r.isEmpty())
        return r;
    return afterSettled(*value);
}

QString CountingSubject::settled(qint64 value) const
{
    const QList<qint64> acked = m_faultedChanges.acked + m_cleanChanges.acked;
    const int unknown = m_faultedChanges.unknown + m_cleanChanges.unknown;
    if (QSet<qint64>(acked.begin(), acked.end()).size() != acked.size())
        return u"two acknowledged changes answered the same value (a change doubled)"_s;
    const qint64 changes = direction() * (value - startValue());
    qInfo("fault matrix: %s: %lld changes in etcd, %lld acknowledged, %d unknown",
        m_path.constData(), changes, qint64(acked.size()), unknown);
    if (changes < acked.size())
        return u"a change was lost: etcd counts %1 changes, %2 were acknowledged"_s.arg(changes)
            .arg(acked.size());
    if (changes > acked.size() + unknown)
        return u"etcd counts %1 changes, but only %2 were acknowledged and %3 unknown"_s
            .arg(changes)
            .arg(acked.size())
            .arg(unknown);
    return {};
}

std::optional<qint64> CountingSubject::count()
{
    const auto r = await(m_reader->get());
    return r.status.isOk() ? std::optional(r->value()) : std::nullopt;
}

bool CountingSubject::close()
{
    QList<EtcdRecipe *> open = recipes();
    open.removeAll(nullptr);
    open.append(m_reader.get());
    return closeAll(open);
}

void CountingSubject::handOverFaulted()
{
    m_faultedChanges.sendNow();
    m_faultedChanges.abandon();
    takeFaulted().release()->setParent(m_faulted);
}

} // namespace FaultMatrix
