// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "leasegroups.h"

#include <QtCore/qhash.h>

#include <algorithm>

using namespace Etcd::Decode;

namespace Inspector {

QList<LeaseGroup> leaseGroupsOf(const View &view)
{
    // Group by lease in one pass, then order leases by id and their keys by key.
    QHash<qint64, QList<LeaseAttached>> byLease;
    for (const Recipe &r : view.recipes) {
        for (const Entry &e : r.entries) {
            if (e.lease != 0)
                byLease[e.lease].append({e.key, r.path, r.kind, e.role, e.side, false});
        }
    }
    for (const EtcdKeyValue &kv : view.raw) {
        if (kv.lease != 0)
            byLease[kv.lease].append(
                {kv.key, {}, Kind::TransientKey, Role::Value, Side::None, true});
    }
    QList<LeaseGroup> groups;
    groups.reserve(byLease.size());
    const auto byKey = [](const LeaseAttached &a, const LeaseAttached &b) { return a.key < b.key; };
    for (auto it = byLease.begin(); it != byLease.end(); ++it) {
        // Recipes come by path and their keys mostly by key: most leases' keys are in order.
        if (!std::is_sorted(it->begin(), it->end(), byKey))
            std::sort(it->begin(), it->end(), byKey);
        groups.append({it.key(), std::move(*it)});
    }
    std::sort(groups.begin(), groups.end(),
        [](const LeaseGroup &a, const LeaseGroup &b) { return a.lease < b.lease; });
    return groups;
}

} // namespace Inspector
