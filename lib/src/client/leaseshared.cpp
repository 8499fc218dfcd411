// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "leaseshared_p.h"

namespace Etcd::Internal {

using Clock = std::chrono::steady_clock;

void LeaseShared::onLoss(LossHook hook)
{
    std::unique_lock lock(m_mutex);
    if (!m_lost) {
        m_hooks.push_back(std::move(hook));
        return;
    }
    const EtcdStatus why = m_why;
    lock.unlock();
    hook(why);
}

void LeaseShared::lose(const EtcdStatus &why)
{
    std::vector<LossHook> hooks;
    {
        std::lock_guard lock(m_mutex);
        if (std::exchange(m_lost, true))
            return;
        m_why = why;
        hooks.swap(m_hooks);
        setDeadline(Clock::now());
    }
    for (const LossHook &hook : hooks)
        hook(why);
}

bool LeaseShared::isLost() const
{
    std::lock_guard lock(m_mutex);
    return m_lost;
}

} // namespace Etcd::Internal
