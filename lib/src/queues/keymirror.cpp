// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "keymirror_p.h"

#include <EtcdQt/etcdwatchevent.h>

namespace Etcd::Internal {

void KeyMirror::startLoading()
{
    m_state = State::Loading;
    m_pending.clear();
}

void KeyMirror::load(const QList<EtcdKeyValue> &kvs, qint64 revision, bool more)
{
    m_keys.clear();
    for (const EtcdKeyValue &kv : kvs)
        m_keys.emplace(kv.key, kv.modRevision);
    m_bound = more && !kvs.isEmpty() ? kvs.last().key : QByteArray();
    m_loadedAt = revision;
    m_revision = revision;
    m_state = State::Loaded;
    for (const EtcdWatchEvent &e : std::exchange(m_pending, {}))
        applyOne(e);
}

void KeyMirror::invalidate()
{
    m_state = State::Unloaded;
    m_pending.clear();
    m_keys.clear();
    m_bound.clear();
}

void KeyMirror::apply(const QList<EtcdWatchEvent> &events)
{
    for (const EtcdWatchEvent &e : events) {
        if (m_state == State::Loading)
            m_pending.push_back(e);
        else if (m_state == State::Loaded)
            applyOne(e);
    }
}

// The events of one transaction share its revision: each is compared with the read's
// revision, not with the last one applied.
void KeyMirror::applyOne(const EtcdWatchEvent &e)
{
    if (e.revision <= m_loadedAt)
        return;
    m_revision = std::max(m_revision, e.revision);
    set(e.keyValue.key,
        e.type == EtcdWatchEvent::Type::Delete ? std::nullopt
                                               : std::optional<qint64>(e.keyValue.modRevision));
}

void KeyMirror::correct(const QByteArray &key, std::optional<qint64> modRevision, qint64 revision)
{
    if (m_state == State::Loaded && revision >= m_revision)
        set(key, modRevision);
}

// A key gone is dropped; one there is kept unless it lies beyond a truncated read.
void KeyMirror::set(const QByteArray &key, std::optional<qint64> modRevision)
{
    if (!modRevision)
        m_keys.erase(key);
    else if (m_bound.isEmpty() || key <= m_bound)
        m_keys[key] = *modRevision;
}

std::optional<EtcdKeyValue> KeyMirror::head() const
{
    if (m_keys.empty())
        return std::nullopt;
    EtcdKeyValue kv;
    kv.key = m_keys.begin()->first;
    kv.modRevision = m_keys.begin()->second;
    return kv;
}

} // namespace Etcd::Internal
