// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "holdbook_p.h"

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
        noteHoldsLocked();
    }
    changed.notify_all();
    return true;
}

void HoldBook::hold(
    ThreadId t, const EtcdFencingToken &token, quint64 id, std::shared_ptr<LeaseShared> lease)
{
    std::lock_guard lock(mutex);
    record(t, token, id);
    leases[id] = Lease {token, std::move(lease)};
    noteHoldsLocked();
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
                noteHoldsLocked();
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
    noteHoldsLocked();
    return dispossessLocked(id);
}

void HoldBook::close()
{
    {
        std::lock_guard lock(mutex);
        closed = true;
        dispossessAllLocked();
        leases.clear();
        noteHoldsLocked();
    }
    changed.notify_all();
}

bool HoldBook::isClosed() const
{
    std::lock_guard lock(mutex);
    return closed;
}

} // namespace Etcd::Internal
