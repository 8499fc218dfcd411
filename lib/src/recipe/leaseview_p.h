// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API.
#pragma once

#include "leaseshared_p.h"
#include "sharedstate_p.h"

#include <chrono>
#include <memory>
#include <vector>

namespace Etcd::Internal {

// The lease an ownership stands on now, for any thread: how long it may still be counted on.
// The owner thread sets it when it keeps a lease alive and clears it when it lets go (a lost
// lease reads 0 by itself: the engine moved its deadline to the moment of the loss). A recipe
// made of another mirrors the inner one's view into its own, which never goes away.
class LeaseView
{
public:
    void set(std::shared_ptr<LeaseShared> lease)
    {
        for (const auto &weak : m_mirrors) {
            if (const auto mirror = weak.lock())
                mirror->set(lease);
        }
        m_lease.update([&lease](std::shared_ptr<LeaseShared> &l) { l = std::move(lease); });
    }
    void clear() { set(nullptr); }
    void mirrorTo(const std::shared_ptr<LeaseView> &other)
    {
        m_mirrors.push_back(other);
        other->set(m_lease.read([](const std::shared_ptr<LeaseShared> &l) { return l; }));
    }
    [[nodiscard]] std::chrono::milliseconds remaining() const
    {
        using namespace std::chrono;
        return m_lease.read([](const std::shared_ptr<LeaseShared> &l) {
            if (!l)
                return milliseconds(0);
            return std::max(
                duration_cast<milliseconds>(l->deadline() - steady_clock::now()), milliseconds(0));
        });
    }

private:
    SharedState<std::shared_ptr<LeaseShared>> m_lease;
    std::vector<std::weak_ptr<LeaseView>> m_mirrors; // the owner thread's
};

} // namespace Etcd::Internal
