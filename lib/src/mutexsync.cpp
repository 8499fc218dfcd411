// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "mutexsync_p.h"

#include <algorithm>

namespace Etcd::Internal {

bool HoldBook::grant(MutexRequest &request, ThreadId t, const EtcdFencingToken &token, quint64 id,
    std::shared_ptr<LeaseShared> lease)
{
    {
        std::lock_guard lock(mutex);
        if (request.abandoned || closed)
            return false;
        request.outcome = MutexRequest::Outcome::Acquired;
        record(t, token, id);
        leases[id] = Lease {token, std::move(lease)};
    }
    changed.notify_all();
    return true;
}

void HoldBook::hold(ThreadId t, const EtcdFencingToken &token, quint64 id,
    std::shared_ptr<LeaseShared> lease)
{
    std::lock_guard lock(mutex);
    record(t, token, id);
    leases[id] = Lease {token, std::move(lease)};
}

template <typename Match>
void HoldBook::loseWhere(Match match)
{
    {
        std::lock_guard lock(mutex);
        for (auto it = leases.begin(); it != leases.end();) {
            if (match(it->second.token)) {
                dispossessLocked(it->first);
                it = leases.erase(it);
            } else {
                ++it;
            }
        }
    }
    changed.notify_all();
}

void HoldBook::loseLease(qint64 leaseId)
{
    loseWhere([leaseId](const EtcdFencingToken &t) { return t.leaseId == leaseId; });
}

void HoldBook::loseKey(const QByteArray &key, qint64 deletedAt)
{
    loseWhere([&](const EtcdFencingToken &t) { return t.key == key && t.revision < deletedAt; });
}

bool HoldBook::liveLocked(quint64 id) const
{
    const auto it = leases.find(id);
    return it != leases.end() && (!it->second.state || it->second.state->isValid());
}

std::chrono::milliseconds HoldBook::remainingValidity(const EtcdFencingToken &token) const
{
    using namespace std::chrono;
    if (!token.isValid())
        return milliseconds(0);
    std::lock_guard lock(mutex);
    for (const auto &[id, lease] : leases) {
        if (lease.token.leaseId == token.leaseId && lease.state) {
            const auto left = lease.state->deadline() - steady_clock::now();
            return std::max(duration_cast<milliseconds>(left), milliseconds(0));
        }
    }
    return milliseconds(0);
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
    leases.erase(id);
    return dispossessLocked(id);
}

void HoldBook::close()
{
    {
        std::lock_guard lock(mutex);
        closed = true;
        dispossessAllLocked();
        leases.clear();
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
    return it == holds.end() || !liveLocked(it->second.id) ? EtcdFencingToken {}
                                                            : it->second.token;
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
