// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "keyspace_p.h"

#include <EtcdQt/etcdcodec.h>

namespace Etcd::Internal {

namespace {
// etcd's spelling of "no upper bound" (every key >= key).
const QByteArray kAllKeys(1, '\0');
} // namespace

QByteArray KeySpace::key(const QByteArray &key) const
{
    return m_prefix + key;
}

QByteArray KeySpace::rangeKey(const QByteArray &key, bool prefixScan) const
{
    const QByteArray full = m_prefix + key;
    // etcd rejects an empty key; a prefix scan over everything starts at "\0".
    return (full.isEmpty() && prefixScan) ? kAllKeys : full;
}

QByteArray KeySpace::rangeEnd(
    const QByteArray &key, bool prefixScan, const QByteArray &rangeEnd) const
{
    if (prefixScan) {
        const QByteArray full = m_prefix + key;
        return full.isEmpty() ? kAllKeys : Etcd::prefixEnd(full);
    }
    if (rangeEnd.isEmpty())
        return {};
    if (rangeEnd == kAllKeys)
        return m_prefix.isEmpty() ? kAllKeys : Etcd::prefixEnd(m_prefix);
    return m_prefix + rangeEnd;
}

QByteArray KeySpace::strip(const QByteArray &key) const
{
    return key.startsWith(m_prefix) ? key.mid(m_prefix.size()) : key;
}

} // namespace Etcd::Internal
