// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API.
#pragma once

#include "leaseshared_p.h"
#include "sharedstate_p.h"

#include <EtcdQt/etcdstatus.h>

#include <chrono>
#include <functional>
#include <memory>
#include <vector>

namespace Etcd::Internal {

// The lease an ownership stands on now, for any thread: how long it may still be counted on.
// The owner thread sets it when it keeps a lease alive and clears it when it lets go (a lost
// lease reads 0 by itself: the engine moved its deadline to the moment of the loss). A recipe
// made of another mirrors the inner one's view into its own, which never goes away. A recipe
// that owns a key on the lease also reads 0 from the moment the engine thread saw that key
// change or go (OwnedKey's watch guard), whatever the owner thread is doing.
//
// It also carries word of a loss to whoever keeps the lease (the owner thread's part): a key
// on it was seen deleted, which is how a revoke or an expiry shows first, and then etcd's
// answer whether the lease is gone. Told at once, the keeper heals without waiting for its
// next renewal to learn the same thing (issue 18: a heal within a round trip of etcd's word).
class LeaseView : public std::enable_shared_from_this<LeaseView>
{
public:
    struct LossListener
    {
        // a key on the lease was deleted; true when the keeper writes it again itself
        std::function<bool(qint64 leaseId)> suspected;
        // etcd answered: the lease is gone (true) or lives (false)
        std::function<void(qint64 leaseId, bool gone, const EtcdStatus &why)> decided;
    };

    void set(std::shared_ptr<LeaseShared> lease)
    {
        for (const auto &weak : m_mirrors) {
            if (const auto mirror = weak.lock())
                mirror->set(lease);
        }
        m_state.update([&lease](State &s) { s.lease = std::move(lease); });
    }
    void clear() { set(nullptr); }
    void mirrorTo(const std::shared_ptr<LeaseView> &other)
    {
        m_mirrors.push_back(other);
        other->m_source = weak_from_this();
        other->set(m_state.read([](const State &s) { return s.lease; }));
    }
    // Owner thread: the keeper of the lease listens here; a mirror passes word on to the view
    // it mirrors, up to the one whose keeper listens.
    void listen(LossListener listener) { m_listener = std::move(listener); }
    // True when the keeper writes the deleted key again (see setRestoresKeys()).
    bool lossSuspected(qint64 leaseId)
    {
        if (m_listener.suspected)
            return m_listener.suspected(leaseId);
        const auto source = m_source.lock();
        return source && source->lossSuspected(leaseId);
    }
    void lossDecided(qint64 leaseId, bool gone, const EtcdStatus &why)
    {
        if (m_listener.decided)
            return m_listener.decided(leaseId, gone, why);
        if (const auto source = m_source.lock())
            source->lossDecided(leaseId, gone, why);
    }
    // Owner thread: the recipe's keys may be written again wherever they went, with the lease
    // or without it (a transient key, a registration; not a barrier), so the keeper runs its
    // hook on a spare lease the moment a key is seen deleted, before etcd says why (issue 18).
    void setRestoresKeys(bool restores) { m_restoresKeys = restores; }
    [[nodiscard]] bool restoresKeys() const { return m_restoresKeys; }
    // Owner thread: the owned key was written at `revision`; it counts from now on.
    void ownKey(qint64 revision)
    {
        m_state.update([revision](State &s) {
            s.keyWrittenAt = revision;
            s.keyGone = false;
        });
    }
    // Any thread (the engine's, from the key's watch): the key written at `revision` changed
    // or went. A later write of the key's (ownKey() again) is not undone by a late word on
    // an earlier one.
    void loseKey(qint64 revision)
    {
        m_state.update([revision](State &s) {
            if (s.keyWrittenAt == revision)
                s.keyGone = true;
        });
    }
    [[nodiscard]] std::chrono::milliseconds remaining() const
    {
        using namespace std::chrono;
        return m_state.read([](const State &s) {
            if (!s.lease || s.keyGone)
                return milliseconds(0);
            return std::max(duration_cast<milliseconds>(s.lease->deadline() - steady_clock::now()),
                milliseconds(0));
        });
    }

private:
    struct State
    {
        std::shared_ptr<LeaseShared> lease;
        qint64 keyWrittenAt = 0; // the owned key's last write, when the view follows a key
        bool keyGone = false; // someone changed or deleted that write: nothing is owned
    };
    SharedState<State> m_state;
    std::vector<std::weak_ptr<LeaseView>> m_mirrors; // the owner thread's
    std::weak_ptr<LeaseView> m_source; // the view this one mirrors, if any (owner thread)
    LossListener m_listener; // the owner thread's
    bool m_restoresKeys = false; // the owner thread's
};

} // namespace Etcd::Internal
