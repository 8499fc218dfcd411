// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QtCore/qbytearray.h>
#include <QtCore/qlist.h>
#include <QtCore/qstring.h>

#include <chrono>
#include <memory>
#include <optional>

namespace grpc {
class Channel;
}
namespace etcdserverpb {
class StatusResponse;
}

// Raw gRPC access for tests that must look at etcd without going through EtcdQt.

// An insecure channel to `endpoint` ("127.0.0.1:port") with its own subchannel pool, so a
// channel stuck in backoff never poisons another test's channel to the same address, and with
// reconnect backoff short enough that a channel recovers within a test's patience.
std::shared_ptr<grpc::Channel> etcdTestChannel(const QString &endpoint);

// Maintenance.Status on a fresh channel; nullopt when nothing answered within `timeout`.
std::optional<etcdserverpb::StatusResponse> etcdTestStatus(
    const QString &endpoint, std::chrono::milliseconds timeout);

// Out-of-band KV access (a second client, as another process would be): a plain Put, and a
// linearizable Range of one key (nullopt when it failed or the key is absent).
bool etcdTestPut(const QString &endpoint, const QByteArray &key, const QByteArray &value,
    std::chrono::milliseconds timeout = std::chrono::seconds(5));
std::optional<QByteArray> etcdTestGet(const QString &endpoint, const QByteArray &key,
    std::chrono::milliseconds timeout = std::chrono::seconds(5));

// The value at `key`, or "<absent>": reads well in a QCOMPARE.
inline QByteArray etcdTestValue(const QString &endpoint, const QByteArray &key)
{
    return etcdTestGet(endpoint, key).value_or("<absent>");
}

// The ids of the leases etcd holds (LeaseLeases); nullopt when it did not answer.
std::optional<QList<qint64>> etcdTestLeases(
    const QString &endpoint, std::chrono::milliseconds timeout = std::chrono::seconds(5));

// A lease's remaining TTL in seconds: -1 when etcd no longer has it, 0 when it ran out and
// etcd has yet to remove it, -2 when etcd did not answer.
qint64 etcdTestLeaseTtl(const QString &endpoint, qint64 leaseId,
    std::chrono::milliseconds timeout = std::chrono::seconds(5));

// One lease for a failure message: "<id in hex> ttl <remaining>/<granted> s, keys <k1 k2...>"
// (or "<id in hex> gone" when etcd no longer has it).
QString etcdTestDescribeLease(const QString &endpoint, qint64 leaseId,
    std::chrono::milliseconds timeout = std::chrono::seconds(5));
