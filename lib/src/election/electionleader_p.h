// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API.
#pragma once

#include "cachecore_p.h"

namespace Etcd::Internal {

// Who leads an etcd-native election (Go's concurrency.Election): the candidate whose key was
// created first. nullptr when there is none.
ETCDQT_AUTOTEST_EXPORT const EtcdKeyValue *firstCreated(const CacheEntries &candidates);

} // namespace Etcd::Internal
