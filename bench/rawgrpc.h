// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
// What the raw gRPC floors (etcdqt-raw-floor) share: a failed call ends the run.
#pragma once

#include <grpcpp/grpcpp.h>

#include <cstdio>
#include <cstdlib>

namespace Bench {

// A call that failed is no floor: says which, and exits with status 2.
inline void check(const grpc::Status &s, const char *what)
{
    if (!s.ok()) {
        std::fprintf(stderr, "%s failed: %d %s\n", what, s.error_code(), s.error_message().c_str());
        std::exit(2);
    }
}

} // namespace Bench
