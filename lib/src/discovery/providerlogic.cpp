// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "providerlogic_p.h"

#include <QtCore/qset.h>

#include <algorithm>

namespace Etcd::Internal {

namespace {

using std::chrono::milliseconds;

// now + period, saturating: a huge period means "until further notice", not an overflow.
ProviderLogic::TimePoint later(ProviderLogic::TimePoint now, milliseconds period)
{
    const auto room
        = std::chrono::duration_cast<milliseconds>(ProviderLogic::TimePoint::max() - now);
    return period >= room ? ProviderLogic::TimePoint::max() : now + period;
}

// etcd-recipes' RoundRobinStrategy: Math.floorMod(counter++, size).
qsizetype floorMod(qint64 cursor, qsizetype size)
{
    const qint64 r = cursor % size;
    return qsizetype(r < 0 ? r + size : r);
}

} // namespace

ProviderLogic::ProviderLogic(Clock clock)
    : m_clock(clock ? std::move(clock) : Clock(&std::chrono::steady_clock::now)),
      m_random(QRandomGenerator::securelySeeded())
{ }

QString ProviderLogic::keyOf(const EtcdServiceInstance &instance)
{
    return instance.name + u'/' + instance.id;
}

void ProviderLogic::setInstances(const QList<EtcdServiceInstance> &instances)
{
    m_all = instances;
    if (!m_errors.isEmpty()) {
        // An instance that went away starts again from zero if it comes back (a heal).
        QSet<QString> present;
        for (const EtcdServiceInstance &i : m_all)
            present.insert(keyOf(i));
        m_errors.removeIf([&present](const auto &it) { return !present.contains(it.key()); });
    }
    refresh();
}

QList<EtcdServiceInstance> ProviderLogic::candidates() const
{
    if (m_ejections.isEmpty())
        return m_candidates;
    const TimePoint now = m_clock();
    if (now < m_nextEnd)
        return m_candidates;
    QList<EtcdServiceInstance> out; // an ejection ended, and nothing has looked since
    for (const EtcdServiceInstance &i : m_all) {
        if (i.enabled && !ejectedAt(keyOf(i), now))
            out.append(i);
    }
    return out;
}

std::optional<EtcdServiceInstance> ProviderLogic::pick()
{
    expireIfDue();
    const qsizetype n = m_candidates.size();
    if (n == 0)
        return std::nullopt;
    switch (m_strategy) {
    case Strategy::Random:
        return m_candidates.at(qsizetype(m_random.bounded(quint32(n))));
    case Strategy::RoundRobin:
        return m_candidates.at(floorMod(m_cursor++, n));
    case Strategy::Sticky:
        if (m_stickyIndex < 0) {
            m_stickyIndex = qsizetype(m_random.bounded(quint32(n)));
            m_stickyKey = keyOf(m_candidates.at(m_stickyIndex));
        }
        return m_candidates.at(m_stickyIndex);
    case Strategy::Custom: {
        if (!m_selector)
            return std::nullopt;
        const QList<EtcdServiceInstance> offered = m_candidates; // the selector may call back
        const qsizetype i = m_selector(offered);
        if (i < 0 || i >= offered.size())
            return std::nullopt;
        return offered.at(i);
    }
    }
    return std::nullopt;
}

void ProviderLogic::setStrategy(Strategy strategy)
{
    m_strategy = strategy;
    if (strategy != Strategy::Sticky) {
        m_stickyKey.clear();
        m_stickyIndex = -1;
    }
}

void ProviderLogic::setSelector(Selector selector)
{
    m_selector = std::move(selector);
    setStrategy(Strategy::Custom);
}

void ProviderLogic::setErrorThreshold(int errors)
{
    m_threshold = std::max(errors, 1);
}

void ProviderLogic::setDownPeriod(std::chrono::milliseconds period)
{
    m_downPeriod = std::max(period, milliseconds(0));
}

bool ProviderLogic::noteError(const EtcdServiceInstance &instance)
{
    expireIfDue();
    const QString key = keyOf(instance);
    if (m_ejections.contains(key))
        return false; // out already: its errors say nothing new
    int &count = m_errors[key];
    if (++count < m_threshold)
        return false;
    m_errors.remove(key);
    const TimePoint until = later(m_clock(), m_downPeriod);
    m_ejections.insert(key, {until, instance});
    m_nextEnd = std::min(m_nextEnd, until);
    refresh();
    return true;
}

int ProviderLogic::errorCount(const EtcdServiceInstance &instance) const
{
    return m_errors.value(keyOf(instance));
}

bool ProviderLogic::isEjected(const EtcdServiceInstance &instance) const
{
    return !m_ejections.isEmpty() && ejectedAt(keyOf(instance), m_clock());
}

QList<EtcdServiceInstance> ProviderLogic::restoreDue()
{
    expireIfDue();
    return std::exchange(m_restored, {});
}

std::optional<ProviderLogic::TimePoint> ProviderLogic::nextRestore() const
{
    return m_ejections.isEmpty() ? std::nullopt : std::optional(m_nextEnd);
}

bool ProviderLogic::ejectedAt(const QString &key, TimePoint now) const
{
    const auto it = m_ejections.constFind(key);
    return it != m_ejections.cend() && now < it->until;
}

// Ends the ejections whose period is over by the clock, whether or not a timer said so.
void ProviderLogic::expireIfDue()
{
    if (m_ejections.isEmpty())
        return;
    const TimePoint now = m_clock();
    if (now < m_nextEnd)
        return;
    m_nextEnd = TimePoint::max();
    for (auto it = m_ejections.begin(); it != m_ejections.end();) {
        if (now < it->until) {
            m_nextEnd = std::min(m_nextEnd, it->until);
            ++it;
            continue;
        }
        m_restored.append(it->instance);
        it = m_ejections.erase(it);
    }
    refresh();
}

// The candidate list pick() reads, and where the sticky pick is in it (gone: the next pick
// chooses afresh).
void ProviderLogic::refresh()
{
    m_candidates.clear();
    for (const EtcdServiceInstance &i : m_all) {
        if (i.enabled && (m_ejections.isEmpty() || !m_ejections.contains(keyOf(i))))
            m_candidates.append(i);
    }
    m_stickyIndex = -1;
    if (m_stickyKey.isEmpty())
        return;
    const auto it = std::find_if(m_candidates.cbegin(), m_candidates.cend(),
        [this](const EtcdServiceInstance &i) { return keyOf(i) == m_stickyKey; });
    if (it == m_candidates.cend())
        m_stickyKey.clear();
    else
        m_stickyIndex = it - m_candidates.cbegin();
}

} // namespace Etcd::Internal
