// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "recipelayouts_p.h"

#include <algorithm>

namespace Etcd::Decode {

View decode(const Snapshot &snapshot, qint64 wallClockMs)
{
    using namespace Layouts;
    Pool pool;
    pool.ttls = snapshot.leaseTtls;
    for (const EtcdKeyValue &kv : snapshot.keyValues)
        pool.keys.insert(kv.key, kv);

    View view {snapshot.prefix, snapshot.revision, {}, {}, wallClockMs};
    for (auto pass : {takeServices, takeElections, takeSemaphores, takeCountedBarriers,
             takeReadWriteLocks, takeQueues, takeLeaseNamedKeys, takeSingleKeys})
        view.recipes.append(pass(pool));
    std::stable_sort(view.recipes.begin(), view.recipes.end(),
        [](const Recipe &a, const Recipe &b) { return a.path < b.path; });
    view.raw = pool.keys.values();
    return view;
}

} // namespace Etcd::Decode
