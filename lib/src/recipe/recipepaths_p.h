// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API.
#pragma once

#include "etcdqt_internal_p.h"

#include <QtCore/qbytearray.h>
#include <QtCore/qstring.h>

// Key names and values byte-identical to etcd-recipes 0.12 (reference §1.1 and §3), so Kotlin
// and C++ participants share one election, lock or barrier.
namespace Etcd::Internal::RecipePaths {

// "<path without trailing delim><delim><suffix without leading delim>"
ETCDQT_AUTOTEST_EXPORT QByteArray appendToPath(
    const QByteArray &path, const QByteArray &suffix, char delim = '/');
// n characters of [A-Za-z0-9] from the system's secure generator.
ETCDQT_AUTOTEST_EXPORT QByteArray randomId(int n = 10);
// "<clientId>:<7 random>": the value a recipe writes to say "this instance, this term".
ETCDQT_AUTOTEST_EXPORT QByteArray uniqueToken(const QString &clientId);
// The clientId back out of a uniqueToken (drops ':' + 7 characters).
ETCDQT_AUTOTEST_EXPORT QString stripUniqueSuffix(const QByteArray &token);

ETCDQT_AUTOTEST_EXPORT QByteArray leaderKey(const QByteArray &electionPath);
ETCDQT_AUTOTEST_EXPORT QByteArray participantKey(
    const QByteArray &electionPath, const QString &clientId);

// etcd's concurrency.Mutex layout, so etcdctl lock and Go contend with us: "<path>/" (the
// '/' appended as Go does, even after one) and the lease id in lowercase hex, as Go's %x.
ETCDQT_AUTOTEST_EXPORT QByteArray mutexKey(const QByteArray &path, qint64 leaseId);

// DistributedBarrierWithCount (appendToPath): "<path>/ready" trips the round,
// "<path>/waiting/" holds one key per parked member, "<path>/waiting/<token>".
ETCDQT_AUTOTEST_EXPORT QByteArray countedReadyKey(const QByteArray &barrierPath);
ETCDQT_AUTOTEST_EXPORT QByteArray countedWaitingPrefix(const QByteArray &barrierPath);
ETCDQT_AUTOTEST_EXPORT QByteArray countedWaitingKey(
    const QByteArray &barrierPath, const QByteArray &token);
// DistributedDoubleBarrier: its two counted barriers, "<path>/enter" and "<path>/leave".
ETCDQT_AUTOTEST_EXPORT QByteArray doubleBarrierPhase(
    const QByteArray &barrierPath, const QByteArray &phase);

// Service discovery: "<servicePath>/names", its "<names>/<name>" (an EtcdPathChildrenCache's
// path: the instances are its children) and "<names>/<name>/<id>", one instance's key.
ETCDQT_AUTOTEST_EXPORT QByteArray serviceNamesPath(const QByteArray &servicePath);
ETCDQT_AUTOTEST_EXPORT QByteArray serviceInstancesPath(
    const QByteArray &servicePath, const QString &name);
ETCDQT_AUTOTEST_EXPORT QByteArray serviceInstanceKey(
    const QByteArray &servicePath, const QString &name, const QString &id);

inline constexpr int kTokenLength = 7;

// kTokenLength characters of [0-9A-Za-z] naming a lease: the "<7 random>" of an entry that
// lives on that lease, so an entry re-created on a reused lease keeps its name (etcd keeps
// every name ever used under a prefix until compaction; ranges over it slow down with them).
ETCDQT_AUTOTEST_EXPORT QByteArray leaseTag(qint64 leaseId);

} // namespace Etcd::Internal::RecipePaths
