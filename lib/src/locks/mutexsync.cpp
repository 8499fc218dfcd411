// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "mutexsync_p.h"

namespace Etcd::Internal {

MutexSync::MutexSync() : HoldBook(std::make_unique<ThreadHolds>()) { }

bool MutexSync::reenter(ThreadId t)
{
    return updateHolds<ThreadHolds>([t](ThreadHolds &h, State &s) {
        const auto it = h.live.find(t);
        if (it == h.live.end())
            return false;
        // Its lease's deadline passed: lost, whether or not the engine has said so yet. Counted
        // again, it would hand the caller a hold it no longer has (and the loss, told later,
        // would read as the new hold's). Dispossessed here as the engine will; the caller
        // queues anew and lockLost() still follows.
        if (!s.live(it->second.id)) {
            s.dispossess(it->second.id); // erases `it`: nothing of it is read after
            return false;
        }
        ++it->second.count;
        return true;
    });
}

void MutexSync::ThreadHolds::record(ThreadId t, const EtcdFencingToken &token, quint64 id)
{
    live[t] = Hold {1, token, id};
}

MutexSync::Release MutexSync::release(ThreadId t, quint64 *id, Lease *hold)
{
    return updateHolds<ThreadHolds>([t, id, hold](ThreadHolds &h, State &s) {
        // A live hold first: it is the most recent (a thread re-locks after losing one).
        if (const auto it = h.live.find(t); it != h.live.end()) {
            if (--it->second.count > 0)
                return Release::Nested;
            *id = it->second.id;
            h.live.erase(it);
            Lease forgotten = s.releaseLease(*id);
            if (hold)
                *hold = std::move(forgotten);
            return Release::Last;
        }
        if (const auto it = h.dispossessed.find(t); it != h.dispossessed.end()) {
            if (--it->second == 0)
                h.dispossessed.erase(it);
            return Release::Dispossessed;
        }
        return Release::NotHeld;
    });
}

bool MutexSync::ThreadHolds::dispossess(quint64 id)
{
    for (auto it = live.begin(); it != live.end(); ++it) {
        if (it->second.id == id) {
            dispossessed[it->first] += it->second.count;
            live.erase(it);
            return true;
        }
    }
    return false;
}

void MutexSync::ThreadHolds::dispossessAll()
{
    for (const auto &[t, h] : live)
        dispossessed[t] += h.count;
    live.clear();
}

int MutexSync::holdCount(ThreadId t) const
{
    return readHolds<ThreadHolds>([t](const ThreadHolds &h, const State &s) {
        const auto it = h.live.find(t);
        return it == h.live.end() || !s.live(it->second.id) ? 0 : it->second.count;
    });
}

EtcdFencingToken MutexSync::token(ThreadId t) const
{
    return readHolds<ThreadHolds>([t](const ThreadHolds &h, const State &s) {
        const auto it = h.live.find(t);
        return it == h.live.end() || !s.live(it->second.id) ? EtcdFencingToken {}
                                                            : it->second.token;
    });
}

bool MutexSync::holdsId(ThreadId t, quint64 id) const
{
    return readHolds<ThreadHolds>([t, id](const ThreadHolds &h, const State &) {
        const auto it = h.live.find(t);
        return it != h.live.end() && it->second.id == id;
    });
}

} // namespace Etcd::Internal
