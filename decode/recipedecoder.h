// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// Reads the recipes out of a snapshot of keys: pure logic, no network.
#pragma once

#include "recipeview.h"

#include <QtCore/qhash.h>
#include <QtCore/qjsonobject.h>

namespace Etcd::Decode {

// The keys under a prefix as one read returned them, and what is known of their leases.
struct Snapshot
{
    QByteArray prefix;
    qint64 revision = 0;
    QList<EtcdKeyValue> keyValues;
    QHash<qint64, qint64> leaseTtls; // lease id -> seconds left; absent: not asked
};

// Every key lands in exactly one place: a recipe's entry, or raw. A key that looks like part
// of a recipe but is malformed (a short value, a missing lease) is not read into it, and the
// recipe says so in its notes; it goes on to the later passes (leased: a transient key) or
// to raw. A layout two recipes share is decoded as what both have in common (Kind::Number).
// wallClockMs: when the keys were read, in ms since the epoch (View::wallClockMs; 0: unknown).
View decode(const Snapshot &snapshot, qint64 wallClockMs = 0);

// One JSON document: {"prefix", "revision", "recipes": [...], "raw": [...]}. Lease ids are
// lowercase hex strings (as etcdctl and the mutex keys spell them): they exceed 2^53.
QJsonObject toJson(const View &view);
// wallClockMs: what queue items' ages are measured from (View::wallClockMs); 0 leaves them out.
QJsonObject toJson(const Recipe &recipe, qint64 wallClockMs = 0);
// The spellings toJson() uses, for other JSON of keys (etcdqt cache watch): a lease id as
// lowercase hex, null for none; bytes as text under `field` when they are UTF-8, else as hex
// under `<field>Hex` (JSON strings hold no raw bytes).
QJsonValue leaseJson(qint64 lease);
void insertBytes(QJsonObject &o, const QString &field, const QByteArray &bytes);

} // namespace Etcd::Decode
