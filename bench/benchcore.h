// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
// What every bench program shares, Qt or raw gRPC (no Qt here, so the raw floors can use it).
#pragma once

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <random>
#include <vector>

namespace Bench {

// The p-quantile of `v` by nearest rank, as each JSON line reports it (p = 0.5: the median;
// 0 and 1: min and max); 0 when `v` is empty.
inline double percentile(std::vector<double> v, double p)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, std::size_t(p * double(v.size())))];
}

// How long a leader leads on before it resigns in the held hand-offs, as the peers' s3 does
// (rng seeded 42): a random 100-200 ms, so that the loop does not phase-lock to etcd's 100 ms
// ticks.
inline std::chrono::milliseconds peersLeadTime(std::mt19937 &rng)
{
    return std::chrono::milliseconds(100 + rng() % 100);
}

} // namespace Bench
