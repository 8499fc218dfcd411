// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API.
#pragma once

#include "etcdqt_internal_p.h"

#include <EtcdQt/etcdstatus.h>

#include <QtCore/qobject.h>

#include <chrono>
#include <functional>
#include <optional>

class EtcdClient;
class EtcdLeaseGrantReply;
class EtcdReply;

namespace Etcd::Internal {

// etcd's MaxLeaseTTL (lease/lessor.go): a grant above it fails with "too large lease TTL".
inline constexpr std::chrono::seconds kMaxLeaseTtl {9'000'000'000};

// InvalidArgument when etcd would refuse `ttl` (not positive, or above kMaxLeaseTtl);
// nothing when it is fine. Every recipe that takes a TTL asks this before its first grant.
ETCDQT_AUTOTEST_EXPORT std::optional<EtcdStatus> leaseTtlProblem(std::chrono::seconds ttl);

using GrantDone = std::function<void(const EtcdStatus &status, qint64 leaseId)>;

// A lease id for a grant that names its own (grantLeaseWithin's `leaseId`), so the id is
// known before etcd answers. etcd's ids are positive int64s; a random one collides with no
// lease in practice, and a collision only fails the grant ("lease already exists").
qint64 randomLeaseId();

// Grants a lease of `ttl` (with the id `leaseId`, or one etcd picks when 0); `done` runs once
// in `context`'s thread (not if it died first). A positive `timeout` gives up on the RPC
// after that long, with DeadlineExceeded. Returns the grant's reply (null without a client),
// for a caller that must see the answer even when `context` died first.
EtcdLeaseGrantReply *grantLeaseWithin(EtcdClient *client, std::chrono::seconds ttl,
    std::chrono::milliseconds timeout, QObject *context, GrantDone done, qint64 leaseId = 0);

// Best effort, by design: a failure is logged, never raised; the TTL bounds the rest.
// Returns the revoke's reply (null when there was nothing to revoke).
EtcdReply *revokeLeaseQuietly(EtcdClient *client, qint64 leaseId);

// Runs a user hook that reports through a callback, at most once, bounded by `timeout`.
// A hook that throws, or never answers in time, counts as false.
using HookResult = std::function<void(bool owned, const EtcdStatus &why)>;
void runEstablishHook(const std::function<void(qint64, std::function<void(bool)>)> &hook,
    qint64 leaseId, std::chrono::milliseconds timeout, QObject *context, HookResult result);

// Writes `key` = `value` under `leaseId` only where that restores ownership, never where it
// would take it (spec: leases-and-loss, "every heal is a CAS"): when the key is absent, or
// still bound to `previousLeaseId`, this owner's own earlier lease (a partition can end the
// local deadline before etcd's). A key with any other lease, or none, stays as it is.
// `done` runs once in `context`'s thread (not if it died first) with an RPC error, or whether
// the key is ours now and the lease it is on (0: someone else's key without a lease), and the
// revision of the write that made it ours (0 when it is not).
using ClaimDone = std::function<void(
    const EtcdStatus &status, bool owned, qint64 holderLease, qint64 writtenAt)>;
void claimKey(EtcdClient *client, const QByteArray &key, const QByteArray &value, qint64 leaseId,
    qint64 previousLeaseId, QObject *context, ClaimDone done);

} // namespace Etcd::Internal
