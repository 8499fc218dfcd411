// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "permitsync_p.h"

#include <algorithm>

namespace Etcd::Internal {

void PermitSync::record(ThreadId, const EtcdFencingToken &token, quint64 id)
{
    permits.push_back({id, token, false});
}

HoldBook::Release PermitSync::release(quint64 *id)
{
    std::lock_guard lock(mutex);
    if (permits.empty())
        return Release::NotHeld;
    const Permit p = permits.back();
    permits.pop_back();
    if (p.lost)
        return Release::Dispossessed;
    *id = p.id;
    forgetLeaseLocked(p.id);
    return Release::Last;
}

bool PermitSync::dispossessLocked(quint64 id)
{
    const auto it = std::find_if(
        permits.begin(), permits.end(), [id](const Permit &p) { return p.id == id; });
    if (it == permits.end() || it->lost)
        return false;
    it->lost = true;
    return true;
}

void PermitSync::dispossessAllLocked()
{
    for (Permit &p : permits)
        p.lost = true;
}

int PermitSync::liveCount() const
{
    std::lock_guard lock(mutex);
    return int(std::count_if(permits.begin(), permits.end(),
        [this](const Permit &p) { return !p.lost && liveLocked(p.id); }));
}

EtcdFencingToken PermitSync::latestToken() const
{
    std::lock_guard lock(mutex);
    for (auto it = permits.rbegin(); it != permits.rend(); ++it) {
        if (!it->lost && liveLocked(it->id))
            return it->token;
    }
    return {};
}

} // namespace Etcd::Internal
