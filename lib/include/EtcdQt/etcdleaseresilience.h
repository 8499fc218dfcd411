// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdretrypolicy.h>

#include <chrono>

struct ETCDQT_EXPORT EtcdLeaseResilience
{
    EtcdRetryPolicy retryPolicy = EtcdRetryPolicy::exponentialBackoff();
    std::chrono::milliseconds healOperationTimeout {10000};

    static EtcdLeaseResilience disabled();
};
