// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "mutexsync_p.h"

#include <algorithm>

namespace Etcd::Internal {

bool HoldBook::grant(MutexRequest &request, ThreadId t, const EtcdFencingToken &token, quint64 id)
{
    {
        std::lock_guard lock(mutex);
        if (request.abandoned || closed)
            return false;
        request.outcome = MutexRequest::Outcome::Acquired;
        record(t, token, id);
    }
    changed.notify_all();
    return true;
}

void HoldBook::hold(ThreadId t, const EtcdFencingToken &token, quint64 id)
{
    std::lock_guard lock(mutex);
    record(t, token, id);
}

void HoldBook::fail(MutexRequest &request)
{
    {
        std::lock_guard lock(mutex);
        if (request.outcome == MutexRequest::Outcome::Pending)
            request.outcome = MutexRequest::Outcome::Failed;
    }
    changed.notify_all();
}

bool HoldBook::await(MutexRequest &request, std::optional<TimePoint> giveUp)
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

bool HoldBook::dispossess(quint64 id)
{
    std::lock_guard lock(mutex);
    return dispossessLocked(id);
}

void HoldBook::close()
{
    {
        std::lock_guard lock(mutex);
        closed = true;
        dispossessAllLocked();
    }
    changed.notify_all();
}

bool HoldBook::isClosed() const
{
    std::lock_guard lock(mutex);
    return closed;
}

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
    return it == holds.end() ? 0 : it->second.count;
}

EtcdFencingToken MutexSync::token(ThreadId t) const
{
    std::lock_guard lock(mutex);
    const auto it = holds.find(t);
    return it == holds.end() ? EtcdFencingToken {} : it->second.token;
}

bool MutexSync::holdsId(ThreadId t, quint64 id) const
{
    std::lock_guard lock(mutex);
    const auto it = holds.find(t);
    return it != holds.end() && it->second.id == id;
}

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
    return int(
        std::count_if(permits.begin(), permits.end(), [](const Permit &p) { return !p.lost; }));
}

EtcdFencingToken PermitSync::latestToken() const
{
    std::lock_guard lock(mutex);
    for (auto it = permits.rbegin(); it != permits.rend(); ++it) {
        if (!it->lost)
            return it->token;
    }
    return {};
}

} // namespace Etcd::Internal
