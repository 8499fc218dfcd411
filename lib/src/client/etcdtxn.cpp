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
    return EtcdCompare {Etcd::CompareTarget::Version, result, key, v, {}, {}};
}

EtcdCompare EtcdCompare::createRevision(
    const QByteArray &key, Etcd::CompareResult result, qint64 revision)
{
    return EtcdCompare {Etcd::CompareTarget::CreateRevision, result, key, revision, {}, {}};
}

EtcdCompare EtcdCompare::modRevision(
    const QByteArray &key, Etcd::CompareResult result, qint64 revision)
{
    return EtcdCompare {Etcd::CompareTarget::ModRevision, result, key, revision, {}, {}};
}

EtcdCompare EtcdCompare::value(
    const QByteArray &key, Etcd::CompareResult result, const QByteArray &value)
{
    return EtcdCompare {Etcd::CompareTarget::Value, result, key, 0, value, {}};
}

EtcdCompare EtcdCompare::lease(const QByteArray &key, Etcd::CompareResult result, qint64 leaseId)
{
    return EtcdCompare {Etcd::CompareTarget::Lease, result, key, leaseId, {}, {}};
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

/*!
    \variable EtcdCompare::target
    \brief the field of the key that is compared.
*/

/*!
    \variable EtcdCompare::result
    \brief how the field must compare with the operand for the condition to hold.
*/

/*!
    \variable EtcdCompare::key
    \brief the key whose field is compared.
*/

/*!
    \variable EtcdCompare::number
    \brief the operand when target is a version, a revision or a lease id.
*/

/*!
    \variable EtcdCompare::bytes
    \brief the operand when target is Etcd::CompareTarget::Value.
*/

/*!
    \variable EtcdCompare::rangeEnd
    \brief when not empty, the end (exclusive) of a key range starting at key: the condition
    then holds when every key in the range satisfies it, and a range without keys compares as
    a key that does not exist: for example, that no key before a given one was created after a
    given revision.
*/

// clang-format off
/*!
    \fn EtcdCompare EtcdCompare::version(const QByteArray &key, Etcd::CompareResult result, qint64 version)
    Returns a condition on the version of \a key: it holds when that version compares with
    \a version as \a result says. Version 0 means the key does not exist.
*/
// clang-format on

// clang-format off
/*!
    \fn EtcdCompare EtcdCompare::createRevision(const QByteArray &key, Etcd::CompareResult result, qint64 revision)
    Returns a condition on the create revision of \a key compared with \a revision as \a result
    says. Equal to an owner's create revision, it holds while that owner's key exists: the fencing
    check.
*/
// clang-format on

// clang-format off
/*!
    \fn EtcdCompare EtcdCompare::modRevision(const QByteArray &key, Etcd::CompareResult result, qint64 revision)
    Returns a condition on the revision of the last change of \a key compared with \a revision as
    \a result says: equal, it is a compare-and-set on what was read.
*/
// clang-format on

// clang-format off
/*!
    \fn EtcdCompare EtcdCompare::value(const QByteArray &key, Etcd::CompareResult result, const QByteArray &value)
    Returns a condition on the value of \a key compared bytewise with \a value as \a result says.
*/
// clang-format on

// clang-format off
/*!
    \fn EtcdCompare EtcdCompare::lease(const QByteArray &key, Etcd::CompareResult result, qint64 leaseId)
    Returns a condition on the lease \a key is attached to, compared with \a leaseId as \a result
    says (0: no lease).
*/
// clang-format on

/*!
    \variable EtcdTxnOp::type
    \brief whether the operation reads, writes or deletes.
*/

/*!
    \variable EtcdTxnOp::key
    \brief the key (or first key of a range) the operation works on.
*/

/*!
    \variable EtcdTxnOp::value
    \brief the value a put writes.
*/

/*!
    \variable EtcdTxnOp::rangeOptions
    \brief the options of a get.
*/

/*!
    \variable EtcdTxnOp::putOptions
    \brief the options of a put.
*/

/*!
    \variable EtcdTxnOp::deleteOptions
    \brief the options of a delete.
*/

/*!
    \enum EtcdTxnOp::Type
    \value Range a get (range read)
    \value Put a put
    \value Delete a delete (range delete)
*/

/*!
    \fn EtcdTxnOp EtcdTxnOp::get(const QByteArray &key, const EtcdRangeOptions &options)
    Returns an operation that reads \a key (or the range \a options name).
*/

// clang-format off
/*!
    \fn EtcdTxnOp EtcdTxnOp::put(const QByteArray &key, const QByteArray &value, const EtcdPutOptions &options)
    Returns an operation that writes \a value to \a key with \a options (a lease, the previous
    key-value).
*/
// clang-format on

/*!
    \fn EtcdTxnOp EtcdTxnOp::remove(const QByteArray &key, const EtcdDeleteOptions &options)
    Returns an operation that deletes \a key (or the range \a options name).
*/

/*!
    \class EtcdTxn
    \inmodule EtcdQt
    \brief A transaction: if every compare holds, the success operations run, else the
    failure ones, atomically at one revision.
*/

/*!
    \variable EtcdTxn::compares
    \brief the conditions; all must hold for the success branch to run.
*/

/*!
    \variable EtcdTxn::success
    \brief the operations that run when every condition holds.
*/

/*!
    \variable EtcdTxn::failure
    \brief the operations that run when a condition does not hold.
*/

/*!
    \class EtcdTxnOpResult
    \inmodule EtcdQt
    \brief One operation's result inside a transaction.

    The key-values of a range, the previous key-value of a put (when asked for), or the
    previous key-values of a delete.
*/

/*!
    \variable EtcdTxnOpResult::type
    \brief the type of the operation this result answers.
*/

/*!
    \variable EtcdTxnOpResult::keyValues
    \brief the key-values read, or the previous ones of a put or delete.
*/

/*!
    \variable EtcdTxnOpResult::count
    \brief the number of keys in the range (a get), or deleted (a delete).
*/

/*!
    \variable EtcdTxnOpResult::more
    \brief whether a get's limit left keys out.
*/

/*!
    \class EtcdPutOptions
    \inmodule EtcdQt
    \brief Options of a put.
*/

/*!
    \variable EtcdPutOptions::lease
    \brief the lease the key is attached to; 0 for none.
*/

/*!
    \variable EtcdPutOptions::prevKv
    \brief whether the reply carries the key-value the put replaced.
*/

/*!
    \class EtcdDeleteOptions
    \inmodule EtcdQt
    \brief Options of a delete: one key, a prefix or a range.
*/

/*!
    \variable EtcdDeleteOptions::prefix
    \brief whether every key that starts with the key is deleted.
*/

/*!
    \variable EtcdDeleteOptions::rangeEnd
    \brief the end (exclusive) of the range to delete; empty deletes one key.
*/

/*!
    \variable EtcdDeleteOptions::prevKv
    \brief whether the reply carries the deleted key-values.
*/

/*!
    \class EtcdRangeOptions
    \inmodule EtcdQt
    \brief Options of a range read. With an empty rangeEnd and no prefix it reads one key.
*/

/*!
    \variable EtcdRangeOptions::prefix
    \brief whether every key that starts with the key is read.
*/

/*!
    \variable EtcdRangeOptions::rangeEnd
    \brief the end (exclusive) of the range; empty reads one key.
*/

/*!
    \variable EtcdRangeOptions::minModRevision
    \brief only keys last modified at or after this revision; 0 for no bound.
*/

/*!
    \variable EtcdRangeOptions::maxModRevision
    \brief only keys last modified at or before this revision; 0 for no bound.
*/

/*!
    \variable EtcdRangeOptions::limit
    \brief the most keys returned; 0 for no limit.
*/

/*!
    \variable EtcdRangeOptions::revision
    \brief the revision to read at; 0 for the latest.
*/

/*!
    \variable EtcdRangeOptions::sortOrder
    \brief the order of the keys returned.
*/

/*!
    \variable EtcdRangeOptions::sortTarget
    \brief what the keys are sorted by when sortOrder is not None.
*/

/*!
    \variable EtcdRangeOptions::keysOnly
    \brief whether values are left out.
*/

/*!
    \variable EtcdRangeOptions::countOnly
    \brief whether only the number of keys is returned.
*/

/*!
    \variable EtcdRangeOptions::serializable
    \brief whether the member answers from its local state, without a quorum read: faster,
    possibly stale.
*/
