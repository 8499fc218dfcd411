// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
// The one percentile of every bench program, Qt or raw gRPC: nearest rank, as each JSON
// line reports it (p = 0.5: the median; 0 and 1: min and max).
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace Bench {

// The p-quantile of `v` by nearest rank; 0 when `v` is empty.
inline double percentile(std::vector<double> v, double p)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, std::size_t(p * double(v.size())))];
}

} // namespace Bench
