// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API.
#pragma once

#include "etcdqt_internal_p.h"

#include <EtcdQt/etcdstatus.h>

#include <QtCore/qbytearray.h>

// What every queue refuses before any RPC: an empty path, and values that etcd would refuse.
namespace Etcd::Internal::QueueInput {

// etcd's default --max-request-bytes (1.5 MiB): a bigger request is refused by etcd.
inline constexpr qsizetype kMaxRequestBytes = 1536 * 1024;

// InvalidArgument for an empty path or `payloadBytes` over etcd's request limit; else OK.
ETCDQT_AUTOTEST_EXPORT EtcdStatus check(const QByteArray &path, qsizetype payloadBytes);
// The same for a batch of values: also empty, or more than `maxItems` in one transaction.
ETCDQT_AUTOTEST_EXPORT EtcdStatus checkBatch(
    const QByteArray &path, const QList<QByteArray> &values, qsizetype maxItems);

} // namespace Etcd::Internal::QueueInput
