// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdqt_export.h>

#include <QtCore/qglobal.h>
#include <QtCore/qobjectdefs.h>

namespace Etcd {
Q_NAMESPACE_EXPORT(ETCDQT_EXPORT)

enum class ErrorCode : quint16 {
    // 0-16: identical to gRPC's status codes (static_asserted in tst_etcdstatus)
    Ok = 0,
    Cancelled = 1,
    Unknown = 2,
    InvalidArgument = 3,
    DeadlineExceeded = 4,
    NotFound = 5,
    AlreadyExists = 6,
    PermissionDenied = 7,
    ResourceExhausted = 8,
    FailedPrecondition = 9,
    Aborted = 10,
    OutOfRange = 11,
    Unimplemented = 12,
    Internal = 13,
    Unavailable = 14,
    DataLoss = 15,
    Unauthenticated = 16,
    // 100-199: etcd and recipe conditions
    LeaseNotFound = 100,
    LeaseExpired = 101,
    Compacted = 102,
    RequestTooLarge = 103,
    InvalidAuthToken = 104,
    NoLeader = 105,
    FutureRevision = 106,
    // 200-299: client-side conditions
    NotConnected = 200,
    TlsError = 201,
    WrongThread = 202,
};
Q_ENUM_NS(ErrorCode)

enum class SortOrder { None, Ascending, Descending };
Q_ENUM_NS(SortOrder)

enum class SortTarget { Key, Version, CreateRevision, ModRevision, Value };
Q_ENUM_NS(SortTarget)

enum class CompareResult { Equal, Greater, Less, NotEqual };
Q_ENUM_NS(CompareResult)

enum class CompareTarget { Version, CreateRevision, ModRevision, Value, Lease };
Q_ENUM_NS(CompareTarget)

enum class CompactionMode { Logical, Physical };
Q_ENUM_NS(CompactionMode)

enum class LeaseKeys { Omit, Include };
Q_ENUM_NS(LeaseKeys)

} // namespace Etcd
