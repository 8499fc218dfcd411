// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdretrypolicy.h>

#include <chrono>

struct ETCDQT_EXPORT EtcdRpcResilience
{
    EtcdRetryPolicy retryPolicy = EtcdRetryPolicy::bounded(4, std::chrono::milliseconds(250));
    std::chrono::milliseconds attemptTimeout {30000};

    static EtcdRpcResilience disabled();
};
