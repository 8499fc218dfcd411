// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// The decoder's passes, one per family of layouts (etcd-recipes.md §3, DESIGN.md "Interop
// contract"). Each takes the keys it recognises out of the pool; what is left goes on to the
// next pass, and whatever survives all of them is raw.
#pragma once

#include "recipedecoder.h"

#include <QtCore/qmap.h>

namespace Etcd::Decode::Layouts {

struct Pool
{
    QMap<QByteArray, EtcdKeyValue> keys;
    QHash<qint64, qint64> ttls;

    // The keys still here that start with `prefix`, by create revision.
    [[nodiscard]] QList<EtcdKeyValue> under(const QByteArray &prefix) const;
    // `kv` out of the pool, as an entry in `role`.
    Entry take(EtcdKeyValue kv, Role role, const QString &owner = {});
};

// A key's parent path ("" at the top) and its last path segment.
inline QByteArray parentOf(const QByteArray &key)
{
    const qsizetype slash = key.lastIndexOf('/');
    return slash < 0 ? QByteArray() : key.left(slash);
}
inline QByteArray lastSegment(const QByteArray &key)
{
    return key.mid(key.lastIndexOf('/') + 1);
}

// "<clientId>:<7 of [A-Za-z0-9]>", the token every etcd-recipes entry carries.
bool isToken(const QByteArray &bytes);
// The client id of a token (its last 8 characters dropped).
QString tokenOwner(const QByteArray &token);

// Order matters: service instances first (their JSON is the most specific test: a service
// named "participants" must not read as an election), then the named layouts (LEADER, permits,
// ready, read-/write-), then queues (their names are the test; before the single keys, which
// would read an item holding 8 bytes as a number and a leased claim as a transient key), then
// keys named after their own lease, then whatever single keys remain.
QList<Recipe> takeServices(Pool &pool);
QList<Recipe> takeElections(Pool &pool);
QList<Recipe> takeSemaphores(Pool &pool);
QList<Recipe> takeCountedBarriers(Pool &pool);
QList<Recipe> takeReadWriteLocks(Pool &pool);
QList<Recipe> takeQueues(Pool &pool); // work queues, then priority queues, then FIFO queues
QList<Recipe> takeLeaseNamedKeys(Pool &pool);
QList<Recipe> takeSingleKeys(Pool &pool);

} // namespace Etcd::Decode::Layouts
