// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API.
#pragma once

#include <EtcdQt/etcdstatus.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

class EtcdClient;
class EtcdKeepAlive;

namespace Etcd::Internal {

using SteadyTime = std::chrono::steady_clock::time_point;

// Shared by one EtcdKeepAlive, the hub and the recipe that owns something through the lease:
// the deadline, readable at any time without a message; whether anyone listens to every
// renewal (without a listener a renewal does not wake the owner's thread at all: 1,000 leases
// renew ~500 times a second); and what ends with the lease. The deadline is measured from when
// the renewal (or grant) that etcd answered was *sent*, plus the TTL etcd answered, minus the
// client's safety margin: measured from the answer's arrival it would outrun etcd's own
// deadline whenever answers are slow.
struct LeaseShared
{
    using LossHook = std::function<void(const EtcdStatus &why)>;

    std::atomic<qint64> deadlineNs {0}; // steady_clock, since its epoch
    std::atomic<bool> wantsRenewals {false};
    // The owner revokes a lease expired on the client's clock itself, once it moved its keys
    // off it (the self-healing group: a heal restores its keys onto a new lease first, so
    // that discovery never sees them go). Otherwise the keep-alive revokes it at once.
    std::atomic<bool> ownerRevokesAbandoned {false};

    void setDeadline(SteadyTime t) { deadlineNs.store(t.time_since_epoch().count()); }
    SteadyTime deadline() const { return SteadyTime(SteadyTime::duration(deadlineNs.load())); }
    [[nodiscard]] bool isValid() const { return std::chrono::steady_clock::now() < deadline(); }

    // Ownership that ends with the lease registers here. The hooks run once, in the thread
    // that decides the lease is gone (the engine's: an answer of TTL 0, its deadline, the
    // client going away), before the owner thread hears of it, so a busy owner thread cannot
    // make a loss late. A hook added after the loss runs at once. Hooks must be short: they
    // flip views, request stops and wake waiters, nothing more.
    void onLoss(LossHook hook);
    // Ends the lease here and now (deadline passed) and runs the hooks; later calls do nothing.
    void lose(const EtcdStatus &why);
    [[nodiscard]] bool isLost() const;

private:
    mutable std::mutex m_mutex;
    std::vector<LossHook> m_hooks;
    bool m_lost = false;
    EtcdStatus m_why;
};

// The state `keepAlive` shares with the hub: its deadline, and where ownership that ends with
// the lease registers (LeaseShared::onLoss).
std::shared_ptr<LeaseShared> leaseStateOf(const EtcdKeepAlive &keepAlive);

// Revokes a lease this client gave up on its own clock (no renewal acknowledged within its
// TTL), which etcd may still hold: retried with backoff while `client` lives, for at most
// `patience`. LeaseNotFound settles it too, after `notFoundRechecks` more revokes (100 ms,
// then twice as long each time): for a grant whose answer never came, which etcd may still
// apply after saying "not found".
void revokeAbandonedLease(EtcdClient *client, qint64 leaseId, int notFoundRechecks = 0,
    std::chrono::milliseconds patience = std::chrono::minutes(5));

} // namespace Etcd::Internal
