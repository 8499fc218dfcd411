// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "mutexsync_p.h"

namespace Etcd::Internal {

bool MutexSync::reenter(ThreadId t)
{
    std::lock_guard lock(mutex);
    const auto it = holds.find(t);
    if (it == holds.end())
        return false;
    ++it->second.count;
    return true;
}

void MutexSync::record(ThreadId t, const EtcdFencingToken &token, quint64 id)
{
    holds[t] = Hold {1, token, id};
}

MutexSync::Release MutexSync::release(ThreadId t, quint64 *id)
{
    std::lock_guard lock(mutex);
    // A live hold first: it is the most recent (a thread re-locks after losing one).
    if (const auto it = holds.find(t); it != holds.end()) {
        if (--it->second.count > 0)
            return Release::Nested;
        *id = it->second.id;
        holds.erase(it);
        forgetLeaseLocked(*id);
        return Release::Last;
    }
    if (const auto it = dispossessed.find(t); it != dispossessed.end()) {
        if (--it->second == 0)
            dispossessed.erase(it);
        return Release::Dispossessed;
    }
    return Release::NotHeld;
}

bool MutexSync::dispossessLocked(quint64 id)
{
    for (auto it = holds.begin(); it != holds.end(); ++it) {
        if (it->second.id == id) {
            dispossessed[it->first] += it->second.count;
            holds.erase(it);
            return true;
        }
    }
    return false;
}

void MutexSync::dispossessAllLocked()
{
    for (const auto &[t, h] : holds)
        dispossessed[t] += h.count;
    holds.clear();
}

int MutexSync::holdCount(ThreadId t) const
{
    std::lock_guard lock(mutex);
    const auto it = holds.find(t);
    return it == holds.end() || !liveLocked(it->second.id) ? 0 : it->second.count;
}

EtcdFencingToken MutexSync::token(ThreadId t) const
{
    std::lock_guard lock(mutex);
    const auto it = holds.find(t);
    return it == holds.end() || !liveLocked(it->second.id) ? EtcdFencingToken {} : it->second.token;
}

bool MutexSync::holdsId(ThreadId t, quint64 id) const
{
    std::lock_guard lock(mutex);
    const auto it = holds.find(t);
    return it != holds.end() && it->second.id == id;
}

} // namespace Etcd::Internal
