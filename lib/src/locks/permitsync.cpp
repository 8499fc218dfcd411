// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "permitsync_p.h"

#include <algorithm>

namespace Etcd::Internal {

PermitSync::PermitSync() : HoldBook(std::make_unique<Permits>()) { }

void PermitSync::Permits::record(ThreadId, const EtcdFencingToken &token, quint64 id)
{
    stack.push_back({id, token, false});
}

HoldBook::Release PermitSync::release(quint64 *id)
{
    return updateHolds<Permits>([id](Permits &h, State &s) {
        if (h.stack.empty())
            return Release::NotHeld;
        const Permit p = h.stack.back();
        h.stack.pop_back();
        if (p.lost)
            return Release::Dispossessed;
        *id = p.id;
        s.releaseLease(p.id);
        return Release::Last;
    });
}

bool PermitSync::Permits::dispossess(quint64 id)
{
    const auto it
        = std::find_if(stack.begin(), stack.end(), [id](const Permit &p) { return p.id == id; });
    if (it == stack.end() || it->lost)
        return false;
    it->lost = true;
    return true;
}

void PermitSync::Permits::dispossessAll()
{
    for (Permit &p : stack)
        p.lost = true;
}

int PermitSync::liveCount() const
{
    return readHolds<Permits>([](const Permits &h, const State &s) {
        return int(std::count_if(h.stack.begin(), h.stack.end(),
            [&s](const Permit &p) { return !p.lost && s.live(p.id); }));
    });
}

EtcdFencingToken PermitSync::latestToken() const
{
    return readHolds<Permits>([](const Permits &h, const State &s) {
        for (auto it = h.stack.rbegin(); it != h.stack.rend(); ++it) {
            if (!it->lost && s.live(it->id))
                return it->token;
        }
        return EtcdFencingToken {};
    });
}

} // namespace Etcd::Internal
