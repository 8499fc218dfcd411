// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdkeyvalue.h>

#include <QtCore/qbytearray.h>
#include <QtCore/qlist.h>

struct ETCDQT_EXPORT EtcdCompare
{
    Etcd::CompareTarget target = Etcd::CompareTarget::Version;
    Etcd::CompareResult result = Etcd::CompareResult::Equal;
    QByteArray key;
    qint64 number = 0; // version, revision or lease id
    QByteArray bytes; // for CompareTarget::Value

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

struct ETCDQT_EXPORT EtcdTxnOp
{
    enum class Type { Range, Put, Delete };

    Type type = Type::Range;
    QByteArray key;
    QByteArray value;
    EtcdRangeOptions rangeOptions;
    EtcdPutOptions putOptions;
    EtcdDeleteOptions deleteOptions;

    static EtcdTxnOp get(const QByteArray &key, const EtcdRangeOptions &options = {});
    static EtcdTxnOp put(
        const QByteArray &key, const QByteArray &value, const EtcdPutOptions &options = {});
    static EtcdTxnOp remove(const QByteArray &key, const EtcdDeleteOptions &options = {});
};

struct EtcdTxn
{
    QList<EtcdCompare> compares {};
    QList<EtcdTxnOp> success {};
    QList<EtcdTxnOp> failure {};
};

/*
 * One operation's result inside a transaction: the key-values of a range, the previous
 * key-value of a put (when asked for), or the previous key-values of a delete.
 */
struct EtcdTxnOpResult
{
    EtcdTxnOp::Type type = EtcdTxnOp::Type::Range;
    QList<EtcdKeyValue> keyValues {};
    qint64 count = 0;
    bool more = false;
};
