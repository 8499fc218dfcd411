// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include <EtcdQt/etcdfencing.h>

/*!
    \class EtcdFencingToken
    \inmodule EtcdQt
    \brief The proof of one ownership: a key, its lease, and the key's create revision.

    A leadership term or a lock hold is real only while etcd still holds its key with the
    create revision it had when it was won. A process that was paused or partitioned may still
    believe it owns something etcd has long given to another; work done on that belief must
    not reach etcd. guard() turns any transaction into one that commits only while this
    ownership lasts, so a stale owner's writes fail instead of overwriting a successor's.

    The revision grows with every new owner, so it also serves as a monotonically increasing
    token for systems outside etcd (pass it along and reject anything older than the newest
    seen).
*/

/*!
    Returns \a txn with one more comparison in front: the key still exists with this create
    revision. When this token is not valid the comparison can never hold, so the transaction
    takes its failure branch.
*/
EtcdTxn EtcdFencingToken::guard(EtcdTxn txn) const
{
    // create_revision == -1 never holds, not even for a missing key (whose create revision is
    // 0): an invalid token must never let a write through.
    const qint64 expected = isValid() ? revision : -1;
    txn.compares.prepend(EtcdCompare::createRevision(
        key.isEmpty() ? QByteArray("\0", 1) : key, Etcd::CompareResult::Equal, expected));
    return txn;
}

/*!
    \variable EtcdFencingToken::key
    \brief the owner's key (lock hold, permit or leadership key).
*/

/*!
    \variable EtcdFencingToken::leaseId
    \brief the lease the owner's key is attached to.
*/

/*!
    \variable EtcdFencingToken::revision
    \brief the create revision of the owner's key; 0 when there is no ownership.
*/

/*!
    \property EtcdFencingToken::key
    \brief the owner's key, for QML; the member of the same name.
*/

/*!
    \property EtcdFencingToken::leaseId
    \brief the owner's lease id, for QML; the member of the same name.
*/

/*!
    \property EtcdFencingToken::revision
    \brief the create revision, for QML; the member of the same name.
*/

/*!
    \property EtcdFencingToken::valid
    \brief whether the token names an ownership; see isValid().
*/

/*!
    \fn bool EtcdFencingToken::operator==(const EtcdFencingToken &a, const EtcdFencingToken &b)
    Returns \c true if \a a and \a b name the same key, lease and revision.
*/
