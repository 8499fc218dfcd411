// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include <EtcdQt/etcdtxn.h>

/*!
    \class EtcdCompare
    \inmodule EtcdQt
    \brief One condition of a transaction: a key's version, create or mod revision, value or
    lease compared with a given one.
*/

EtcdCompare EtcdCompare::version(const QByteArray &key, Etcd::CompareResult result, qint64 v)
{
    return EtcdCompare {Etcd::CompareTarget::Version, result, key, v, {}};
}

EtcdCompare EtcdCompare::createRevision(
    const QByteArray &key, Etcd::CompareResult result, qint64 revision)
{
    return EtcdCompare {Etcd::CompareTarget::CreateRevision, result, key, revision, {}};
}

EtcdCompare EtcdCompare::modRevision(
    const QByteArray &key, Etcd::CompareResult result, qint64 revision)
{
    return EtcdCompare {Etcd::CompareTarget::ModRevision, result, key, revision, {}};
}

EtcdCompare EtcdCompare::value(
    const QByteArray &key, Etcd::CompareResult result, const QByteArray &value)
{
    return EtcdCompare {Etcd::CompareTarget::Value, result, key, 0, value};
}

EtcdCompare EtcdCompare::lease(const QByteArray &key, Etcd::CompareResult result, qint64 leaseId)
{
    return EtcdCompare {Etcd::CompareTarget::Lease, result, key, leaseId, {}};
}

/*! Holds while \a key does not exist (its version is 0): create-if-absent. */
EtcdCompare EtcdCompare::missing(const QByteArray &key)
{
    return version(key, Etcd::CompareResult::Equal, 0);
}

/*!
    \class EtcdTxnOp
    \inmodule EtcdQt
    \brief One operation in a transaction branch: get, put or delete.
*/

EtcdTxnOp EtcdTxnOp::get(const QByteArray &key, const EtcdRangeOptions &options)
{
    EtcdTxnOp op;
    op.type = Type::Range;
    op.key = key;
    op.rangeOptions = options;
    return op;
}

EtcdTxnOp EtcdTxnOp::put(
    const QByteArray &key, const QByteArray &value, const EtcdPutOptions &options)
{
    EtcdTxnOp op;
    op.type = Type::Put;
    op.key = key;
    op.value = value;
    op.putOptions = options;
    return op;
}

EtcdTxnOp EtcdTxnOp::remove(const QByteArray &key, const EtcdDeleteOptions &options)
{
    EtcdTxnOp op;
    op.type = Type::Delete;
    op.key = key;
    op.deleteOptions = options;
    return op;
}
