// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdqtglobal.h>

#include <QtCore/qbytearray.h>

struct ETCDQT_EXPORT EtcdCompare
{
    Etcd::CompareTarget target = Etcd::CompareTarget::Version;
    Etcd::CompareResult result = Etcd::CompareResult::Equal;
    QByteArray key;
    qint64 number = 0; // version, revision or lease id
    QByteArray bytes; // for CompareTarget::Value
    // When set, the condition is on every key in [key, rangeEnd): it holds when each holds it
    // (none: as for a key that does not exist).
    QByteArray rangeEnd;

    static EtcdCompare version(const QByteArray &key, Etcd::CompareResult result, qint64 version);
    static EtcdCompare createRevision(
        const QByteArray &key, Etcd::CompareResult result, qint64 revision);
    static EtcdCompare modRevision(
        const QByteArray &key, Etcd::CompareResult result, qint64 revision);
    static EtcdCompare value(
        const QByteArray &key, Etcd::CompareResult result, const QByteArray &value);
    static EtcdCompare lease(const QByteArray &key, Etcd::CompareResult result, qint64 leaseId);
    static EtcdCompare missing(const QByteArray &key);
};
