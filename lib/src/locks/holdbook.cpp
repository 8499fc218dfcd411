// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "holdbook_p.h"

namespace Etcd::Internal {

HoldBook::HoldBook(std::unique_ptr<Holds> holds)
{
    m_state.update([&holds](State &s) { s.holds = std::move(holds); });
}

bool HoldBook::grant(MutexRequest &request, ThreadId t, const EtcdFencingToken &token, quint64 id,
    std::shared_ptr<LeaseShared> lease)
{
    return m_state.update([&](State &s) {
        if (request.abandoned || s.closed)
            return false;
        request.outcome = MutexRequest::Outcome::Acquired;
        s.holds->record(t, token, id);
        s.leases[id] = Lease {token, std::move(lease)};
        s.noteHolds();
        return true;
    });
}

void HoldBook::hold(
    ThreadId t, const EtcdFencingToken &token, quint64 id, std::shared_ptr<LeaseShared> lease)
{
    m_state.update([&](State &s) {
        s.holds->record(t, token, id);
        s.leases[id] = Lease {token, std::move(lease)};
        s.noteHolds();
    });
}

void HoldBook::expect(const QByteArray &key)
{
    m_state.update([&key](State &s) {
        s.expected[key] = 0;
        s.noteHolds();
    });
}

HoldBook::Settled HoldBook::settle(
    ThreadId t, const EtcdFencingToken &token, quint64 id, std::shared_ptr<LeaseShared> lease)
{
    return m_state.update([&](State &s) {
        const auto it = s.expected.find(token.key);
        const bool deleted = it != s.expected.end() && it->second > token.revision;
        if (it != s.expected.end())
            s.expected.erase(it);
        const Settled settled
            = s.closed ? Settled::Closed : (deleted ? Settled::Deleted : Settled::Held);
        if (settled == Settled::Held) {
            s.holds->record(t, token, id);
            s.leases[id] = Lease {token, std::move(lease)};
        }
        s.noteHolds();
        return settled;
    });
}

void HoldBook::unexpect(const QByteArray &key)
{
    m_state.update([&key](State &s) {
        s.expected.erase(key);
        s.noteHolds();
    });
}

template <typename Match>
void HoldBook::loseWhere(State &s, Match match)
{
    for (auto it = s.leases.begin(); it != s.leases.end();) {
        if (match(it->second.token)) {
            s.holds->dispossess(it->first);
            it = s.leases.erase(it);
            s.noteHolds();
        } else {
            ++it;
        }
    }
}

void HoldBook::loseLease(qint64 leaseId)
{
    m_state.update([leaseId](State &s) {
        loseWhere(s, [leaseId](const EtcdFencingToken &t) { return t.leaseId == leaseId; });
    });
}

// One update for both: an expected entry and the recorded holds see the same deletion.
void HoldBook::loseKey(const QByteArray &key, qint64 deletedAt)
{
    m_state.update([&](State &s) {
        if (const auto it = s.expected.find(key); it != s.expected.end())
            it->second = std::max(it->second, deletedAt);
        loseWhere(
            s, [&](const EtcdFencingToken &t) { return t.key == key && t.revision < deletedAt; });
    });
}

bool HoldBook::State::live(quint64 id) const
{
    const auto it = leases.find(id);
    return it != leases.end() && (!it->second.state || it->second.state->isValid());
}

std::shared_ptr<const std::atomic<bool>> HoldBook::holding() const
{
    return m_state.read(
        [](const State &s) { return std::shared_ptr<const std::atomic<bool>>(s.holding); });
}

std::chrono::milliseconds HoldBook::remainingValidity(const EtcdFencingToken &token) const
{
    using namespace std::chrono;
    if (!token.isValid())
        return milliseconds(0);
    return m_state.read([&token](const State &s) {
        for (const auto &[id, lease] : s.leases) {
            if (lease.token.leaseId == token.leaseId && lease.state) {
                const auto left = lease.state->deadline() - steady_clock::now();
                return std::max(duration_cast<milliseconds>(left), milliseconds(0));
            }
        }
        return milliseconds(0);
    });
}

void HoldBook::fail(MutexRequest &request)
{
    m_state.update([&request](State &) {
        if (request.outcome == MutexRequest::Outcome::Pending)
            request.outcome = MutexRequest::Outcome::Failed;
    });
}

bool HoldBook::await(MutexRequest &request, std::optional<TimePoint> giveUp)
{
    const auto answered = [&request](const State &s) {
        return request.outcome != MutexRequest::Outcome::Pending || s.closed;
    };
    // Only a deadline ends the wait unanswered: then a late win must be given back.
    return m_state.waitUntil(giveUp, answered, [&](const State &s) {
        if (!answered(s)) {
            request.abandoned = true;
            request.outcome = MutexRequest::Outcome::Failed;
        }
        return request.outcome == MutexRequest::Outcome::Acquired;
    });
}

bool HoldBook::isRecorded(quint64 id) const
{
    return m_state.read([id](const State &s) { return s.leases.count(id) > 0; });
}

bool HoldBook::released(quint64 id, bool take)
{
    return m_state.update([id, take](State &s) {
        const auto it = s.released.find(id);
        if (it == s.released.end())
            return false;
        if (take)
            s.released.erase(it);
        return true;
    });
}

bool HoldBook::dispossess(quint64 id)
{
    return m_state.update([id](State &s) { return s.dispossess(id); });
}

void HoldBook::close()
{
    m_state.update([](State &s) {
        s.closed = true;
        s.holds->dispossessAll();
        s.leases.clear();
        s.released.clear();
        s.noteHolds();
    });
}

bool HoldBook::isClosed() const
{
    return m_state.read([](const State &s) { return s.closed; });
}

} // namespace Etcd::Internal
