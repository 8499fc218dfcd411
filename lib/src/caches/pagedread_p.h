// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API.
#pragma once

#include "etcdqt_internal_p.h"

#include <EtcdQt/etcdkeyvalue.h>
#include <EtcdQt/etcdstatus.h>

#include <QtCore/qbytearray.h>
#include <QtCore/qlist.h>

#include <functional>

class EtcdClient;
class QObject;

namespace Etcd::Internal {

// What a paged read saw: every key-value of the range in key order, all as of `revision`.
struct PagedSnapshot
{
    QList<EtcdKeyValue> keyValues;
    qint64 revision = 0;
};

// Reads the range [key, rangeEnd) (one key when rangeEnd is empty) in pages of at most
// `pageSize` keys, every page after the first pinned to the first page's revision, so the
// result is one consistent snapshot however large the range is and no response grows past
// etcd's limits (1.5 MiB by default). Each page goes on from the last key + '\0'. A page
// refused as too large is asked again at half the size; a revision compacted between two
// pages starts the read over. `done` runs in `context`'s thread, once, unless `context` was
// destroyed first.
void readPaged(EtcdClient *client, QObject *context, const QByteArray &key,
    const QByteArray &rangeEnd, std::function<void(const EtcdStatus &, PagedSnapshot)> done,
    int pageSize = 1000);

} // namespace Etcd::Internal
