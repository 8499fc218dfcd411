// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API.
#pragma once

#include "etcdqt_internal_p.h"

#include <EtcdQt/etcdstatus.h>

namespace Etcd::Internal {

// The one place where etcd's "etcdserver: ..." and gRPC's transport messages become codes.
ETCDQT_AUTOTEST_EXPORT EtcdStatus statusFromGrpc(int grpcCode, const QString &message);

// Whether a failed unary call may be sent again (etcd-recipes' RpcRetry rule).
ETCDQT_AUTOTEST_EXPORT bool isRetriableGrpcCode(int grpcCode);

} // namespace Etcd::Internal
