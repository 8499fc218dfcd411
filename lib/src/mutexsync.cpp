// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "mutexsync_p.h"

namespace Etcd::Internal {

bool MutexSync::reenter(ThreadId t)
{
    std::lock_guard lock(mutex);
    const auto it = holds.find(t);
    if (closed || it == holds.end())
        return false;
    ++it->second.count;
    return true;
}

bool MutexSync::grant(MutexRequest &request, ThreadId t, const EtcdFencingToken &token, quint64 id)
{
    {
        std::lock_guard lock(mutex);
        if (request.abandoned || closed)
            return false;
        request.outcome = MutexRequest::Outcome::Acquired;
        holds[t] = Hold {1, token, id};
    }
    changed.notify_all();
    return true;
}

void MutexSync::hold(ThreadId t, const EtcdFencingToken &token, quint64 id)
{
    std::lock_guard lock(mutex);
    holds[t] = Hold {1, token, id};
}

void MutexSync::fail(MutexRequest &request)
{
    {
        std::lock_guard lock(mutex);
        if (request.outcome == MutexRequest::Outcome::Pending)
            request.outcome = MutexRequest::Outcome::Failed;
    }
    changed.notify_all();
}

bool MutexSync::await(MutexRequest &request, std::optional<TimePoint> giveUp)
{
    std::unique_lock lock(mutex);
    const auto answered
        = [&] { return request.outcome != MutexRequest::Outcome::Pending || closed; };
    if (!giveUp) {
        changed.wait(lock, answered);
    } else if (!changed.wait_until(lock, *giveUp, answered)) {
        request.abandoned = true;
        request.outcome = MutexRequest::Outcome::Failed;
    }
    return request.outcome == MutexRequest::Outcome::Acquired;
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
        return Release::Last;
    }
    if (const auto it = dispossessed.find(t); it != dispossessed.end()) {
        if (--it->second == 0)
            dispossessed.erase(it);
        return Release::Dispossessed;
    }
    return Release::NotHeld;
}

bool MutexSync::dispossess(quint64 id)
{
    std::lock_guard lock(mutex);
    for (auto it = holds.begin(); it != holds.end(); ++it) {
        if (it->second.id == id) {
            dispossessed[it->first] += it->second.count;
            holds.erase(it);
            return true;
        }
    }
    return false;
}

void MutexSync::close()
{
    {
        std::lock_guard lock(mutex);
        closed = true;
        for (const auto &[t, h] : holds)
            dispossessed[t] += h.count;
        holds.clear();
    }
    changed.notify_all();
}

bool MutexSync::isClosed() const
{
    std::lock_guard lock(mutex);
    return closed;
}

int MutexSync::holdCount(ThreadId t) const
{
    std::lock_guard lock(mutex);
    const auto it = holds.find(t);
    return it == holds.end() ? 0 : it->second.count;
}

EtcdFencingToken MutexSync::token(ThreadId t) const
{
    std::lock_guard lock(mutex);
    const auto it = holds.find(t);
    return it == holds.end() ? EtcdFencingToken {} : it->second.token;
}

} // namespace Etcd::Internal
