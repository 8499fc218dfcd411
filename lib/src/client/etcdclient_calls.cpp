// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// EtcdClient's one-shot requests: validate, then hand to the transport.
#include "etcdclient_p.h"
#include "leaseops_p.h"

#include <algorithm>

using namespace Etcd::Internal;
using Target = Etcd::Internal::CallTarget;
using Options = Etcd::Internal::CallOptions;

namespace {

std::optional<EtcdStatus> invalid(const QString &message)
{
    return EtcdStatus(Etcd::ErrorCode::InvalidArgument, message);
}

std::optional<EtcdStatus> checkKey(const QByteArray &key, bool prefixScan = false)
{
    if (key.isEmpty() && !prefixScan)
        return invalid(EtcdClient::tr("empty key"));
    return std::nullopt;
}

// etcd's --max-txn-ops default. etcd (v3rpc checkTxnRequest) bounds the compares, the success
// operations and the failure operations each by it, not their sum: 128 of each is accepted.
constexpr qsizetype kMaxTxnOps = 128;

std::optional<EtcdStatus> checkTxn(const EtcdTxn &txn)
{
    const qsizetype ops = std::max({txn.compares.size(), txn.success.size(), txn.failure.size()});
    if (ops > kMaxTxnOps)
        return invalid(EtcdClient::tr("a transaction takes at most %1 compares, %1 success and %1 "
                                      "failure operations; this one has %2, %3 and %4")
                           .arg(kMaxTxnOps)
                           .arg(txn.compares.size())
                           .arg(txn.success.size())
                           .arg(txn.failure.size()));
    for (const EtcdCompare &c : txn.compares) {
        if (c.key.isEmpty())
            return invalid(EtcdClient::tr("transaction compare with an empty key"));
    }
    for (const auto *branch : {&txn.success, &txn.failure}) {
        for (const EtcdTxnOp &op : *branch) {
            const bool scan = (op.type == EtcdTxnOp::Type::Range && op.rangeOptions.prefix)
                || (op.type == EtcdTxnOp::Type::Delete && op.deleteOptions.prefix);
            if (op.key.isEmpty() && !scan)
                return invalid(EtcdClient::tr("transaction operation with an empty key"));
        }
    }
    return std::nullopt;
}

std::optional<EtcdStatus> checkLeaseId(qint64 id)
{
    if (id <= 0)
        return invalid(EtcdClient::tr("lease id must be positive, got %1").arg(id));
    return std::nullopt;
}

} // namespace

/*!
    Reads \a key, or the range \a options describe (prefix, explicit end, limit, sort,
    keys or count only, at a past revision).
*/
EtcdRangeReply *EtcdClient::get(const QByteArray &key, const EtcdRangeOptions &options)
{
    const bool scan = options.prefix || !options.rangeEnd.isEmpty();
    return d_func()->call<EtcdRangeReply>(
        [&](Transport &t, const Options &o, Target target) {
            return t.range(key, options, o, std::move(target));
        },
        checkKey(key, scan));
}

/*! Writes \a value under \a key, attached to a lease if \a options names one. */
EtcdPutReply *EtcdClient::put(
    const QByteArray &key, const QByteArray &value, const EtcdPutOptions &options)
{
    return d_func()->call<EtcdPutReply>(
        [&](Transport &t, const Options &o, Target target) {
            return t.put(key, value, options, o, std::move(target));
        },
        checkKey(key));
}

/*! Deletes \a key, or the range or prefix \a options describe. */
EtcdDeleteReply *EtcdClient::remove(const QByteArray &key, const EtcdDeleteOptions &options)
{
    const bool scan = options.prefix || !options.rangeEnd.isEmpty();
    return d_func()->call<EtcdDeleteReply>(
        [&](Transport &t, const Options &o, Target target) {
            return t.remove(key, options, o, std::move(target));
        },
        checkKey(key, scan));
}

/*!
    Runs \a txn atomically: if every compare holds, the success operations run, otherwise the
    failure operations. Never retried: after a lost response the outcome is unknown.

    Refused with InvalidArgument before it is sent when it has more than 128 compares, 128
    success or 128 failure operations (etcd's default \c{--max-txn-ops}, which bounds each
    list on its own), or an empty key.
*/
EtcdTxnReply *EtcdClient::txn(const EtcdTxn &txn)
{
    return d_func()->call<EtcdTxnReply>(
        [&](Transport &t, const Options &o, Target target) {
            return t.txn(txn, o, std::move(target));
        },
        checkTxn(txn), false);
}

/*!
    Compacts the history up to \a revision; Physical waits until the space is freed. \a mode says
    when etcd answers.
*/
EtcdEmptyReply *EtcdClient::compact(qint64 revision, Etcd::CompactionMode mode)
{
    std::optional<EtcdStatus> early;
    if (revision <= 0)
        early = invalid(tr("compaction revision must be positive, got %1").arg(revision));
    return d_func()->call<EtcdEmptyReply>(
        [&](Transport &t, const Options &o, Target target) {
            return t.compact(
                revision, mode == Etcd::CompactionMode::Physical, o, std::move(target));
        },
        early);
}

/*!
    Grants a lease of \a ttl, with the id \a leaseId or, when 0, one etcd picks. etcd may
    raise a TTL below its minimum; the reply says what was granted. A TTL that is not
    positive, or above etcd's maximum of 9,000,000,000 s, is refused with InvalidArgument
    before anything is sent. A grant still in flight when the client is destroyed is given up
    to 500 ms to be answered; a lease granted then is revoked, since nobody can renew it.
*/
EtcdLeaseGrantReply *EtcdClient::grantLease(std::chrono::seconds ttl, qint64 leaseId)
{
    std::optional<EtcdStatus> early = leaseTtlProblem(ttl);
    if (!early && leaseId < 0)
        early = checkLeaseId(leaseId);
    const auto asked = std::chrono::steady_clock::now();
    auto *reply = d_func()->call<EtcdLeaseGrantReply>(
        [&](Transport &t, Options o, Target target) {
            o.drainOnShutdown = true; // answered as the client goes: revoked there, not left
            return t.leaseGrant(ttl.count(), leaseId, o, std::move(target));
        },
        early);
    if (reply->parent() != this || early) // a call refused (from a foreign thread, bad input)
        return reply;
    // A chosen id can be kept alive before the grant's answer (a heal on a lease granted
    // ahead): its TTL counts from the send however early its keep-alive starts.
    if (leaseId > 0)
        d_func()->recordGrant(leaseId, asked);
    else
        connect(reply, &EtcdReply::finished, reply, [this, reply, asked](const EtcdStatus &s) {
            if (s.isOk())
                d_func()->recordGrant(reply->leaseId(), asked);
        });
    return reply;
}

/*!
    Revokes lease \a leaseId and deletes its keys. Never retried. A revoke still in flight
    when the client is destroyed is given up to 500 ms to be answered.
*/
EtcdEmptyReply *EtcdClient::revokeLease(qint64 leaseId)
{
    return d_func()->call<EtcdEmptyReply>(
        [&](Transport &t, Options o, Target target) {
            o.drainOnShutdown = true; // quitting right after a revoke strands no lease
            return t.leaseRevoke(leaseId, o, std::move(target));
        },
        checkLeaseId(leaseId), false);
}

/*!
    Asks for lease \a leaseId's remaining TTL and, with Etcd::LeaseKeys::Include, its keys. \a keys
    says whether the attached keys are listed.
*/
EtcdLeaseTimeToLiveReply *EtcdClient::leaseTimeToLive(qint64 leaseId, Etcd::LeaseKeys keys)
{
    return d_func()->call<EtcdLeaseTimeToLiveReply>(
        [&](Transport &t, const Options &o, Target target) {
            return t.leaseTimeToLive(
                leaseId, keys == Etcd::LeaseKeys::Include, o, std::move(target));
        },
        checkLeaseId(leaseId));
}

/*! Lists every lease in the cluster. */
EtcdLeaseListReply *EtcdClient::leases()
{
    return d_func()->call<EtcdLeaseListReply>([&](Transport &t, const Options &o, Target target) {
        return t.leaseList(o, std::move(target));
    });
}

/*! Lists the cluster's members. */
EtcdMemberListReply *EtcdClient::memberList()
{
    return d_func()->call<EtcdMemberListReply>([&](Transport &t, const Options &o, Target target) {
        return t.memberList(o, std::move(target));
    });
}

/*! Asks the member in use for its status (version, database size, raft leader and term). */
EtcdServerStatusReply *EtcdClient::serverStatus()
{
    return d_func()->call<EtcdServerStatusReply>(
        [&](Transport &t, const Options &o, Target target) {
            return t.status(o, std::move(target));
        });
}

/*!
    Acquires etcd's server-side lock \a name, owned by lease \a leaseId; the reply finishes
    when the lock is held (or the lease ends). Never retried, and not bounded by the
    per-attempt timeout: waiting is what a lock does. Use callDeadline() or abort() to bound it.
*/
EtcdLockReply *EtcdClient::lock(const QByteArray &name, qint64 leaseId)
{
    Q_D(EtcdClient);
    auto early = checkKey(name);
    if (!early)
        early = checkLeaseId(leaseId);
    return d->call<EtcdLockReply>(
        [&](Transport &t, Options o, Target target) {
            o.resilience.attemptTimeout = std::chrono::milliseconds(0);
            return t.lock(name, leaseId, o, std::move(target));
        },
        early, false);
}

/*! Releases the lock held under \a key (from EtcdLockReply::key()). */
EtcdEmptyReply *EtcdClient::unlock(const QByteArray &key)
{
    return d_func()->call<EtcdEmptyReply>(
        [&](Transport &t, const Options &o, Target target) {
            return t.unlock(key, o, std::move(target));
        },
        checkKey(key));
}
