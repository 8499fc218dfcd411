// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdqtglobal.h>

#include <QtCore/qbytearray.h>

/*
 * Options of a range (get) request. An empty rangeEnd with prefix == false reads one key.
 */
struct EtcdRangeOptions
{
    bool prefix = false;
    QByteArray rangeEnd {};
    qint64 limit = 0;
    qint64 revision = 0;
    Etcd::SortOrder sortOrder = Etcd::SortOrder::None;
    Etcd::SortTarget sortTarget = Etcd::SortTarget::Key;
    bool keysOnly = false;
    bool countOnly = false;
    bool serializable = false;
    // Only keys last modified at or after / at or before these revisions (0: no bound).
    qint64 minModRevision = 0;
    qint64 maxModRevision = 0;
};
