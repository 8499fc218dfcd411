// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include <EtcdQt/etcdkeyvalue.h>

#include <QtCore/qdebug.h>

/*!
    \class EtcdKeyValue
    \inmodule EtcdQt
    \brief A key, its value and etcd's bookkeeping: create and mod revision, version, lease.

    The revisions make ownership checkable: a key's createRevision is a fencing token for
    whoever created it, and comparing modRevision in a transaction is a compare-and-set.
*/

/*!
    \class EtcdMember
    \inmodule EtcdQt
    \brief One member of the etcd cluster.
*/

/*!
    \class EtcdServerStatus
    \inmodule EtcdQt
    \brief One member's status: version, database size, raft leader, index and term.
*/

QDebug operator<<(QDebug debug, const EtcdKeyValue &kv)
{
    QDebugStateSaver saver(debug);
    debug.nospace() << "EtcdKeyValue(" << kv.key << ", " << kv.value.size() << " bytes, create "
                    << kv.createRevision << ", mod " << kv.modRevision << ", version " << kv.version
                    << ", lease " << kv.lease << ')';
    return debug;
}

/*!
    \variable EtcdKeyValue::key
    \brief the key.
*/

/*!
    \variable EtcdKeyValue::value
    \brief the value; empty when read with EtcdRangeOptions::keysOnly.
*/

/*!
    \variable EtcdKeyValue::createRevision
    \brief the revision that created the key (it stays until the key is deleted).
*/

/*!
    \variable EtcdKeyValue::modRevision
    \brief the revision of the key's last change.
*/

/*!
    \variable EtcdKeyValue::version
    \brief the number of changes since the key was created (1 after the first put).
*/

/*!
    \variable EtcdKeyValue::lease
    \brief the id of the lease the key is attached to; 0 for none.
*/

/*!
    \property EtcdKeyValue::key
    \brief the key, for QML; the member of the same name.
*/

/*!
    \property EtcdKeyValue::value
    \brief the value, for QML; the member of the same name.
*/

/*!
    \property EtcdKeyValue::createRevision
    \brief the create revision, for QML; the member of the same name.
*/

/*!
    \property EtcdKeyValue::modRevision
    \brief the mod revision, for QML; the member of the same name.
*/

/*!
    \property EtcdKeyValue::version
    \brief the version, for QML; the member of the same name.
*/

/*!
    \property EtcdKeyValue::lease
    \brief the lease id, for QML; the member of the same name.
*/

/*!
    \fn bool EtcdKeyValue::operator==(const EtcdKeyValue &, const EtcdKeyValue &)
    Returns \c true if both key-values are equal in every member.
*/

/*!
    \fn QDebug operator<<(QDebug debug, const EtcdKeyValue &kv)
    \relates EtcdKeyValue
    Writes \a kv to \a debug (the value's size, not its bytes) and returns \a debug.
*/

/*!
    \variable EtcdMember::id
    \brief the member's id.
*/

/*!
    \variable EtcdMember::name
    \brief the member's name (etcd's --name).
*/

/*!
    \variable EtcdMember::peerUrls
    \brief the URLs the member talks raft on.
*/

/*!
    \variable EtcdMember::clientUrls
    \brief the URLs the member serves clients on; empty until the member started.
*/

/*!
    \variable EtcdMember::learner
    \brief whether the member is a non-voting learner.
*/

/*!
    \property EtcdMember::id
    \brief the member's id, for QML; the member of the same name.
*/

/*!
    \property EtcdMember::name
    \brief the member's name, for QML; the member of the same name.
*/

/*!
    \property EtcdMember::peerUrls
    \brief the peer URLs, for QML; the member of the same name.
*/

/*!
    \property EtcdMember::clientUrls
    \brief the client URLs, for QML; the member of the same name.
*/

/*!
    \property EtcdMember::learner
    \brief whether the member is a learner, for QML; the member of the same name.
*/

/*!
    \fn bool EtcdMember::operator==(const EtcdMember &, const EtcdMember &)
    Returns \c true if both members are equal in every field.
*/

/*!
    \variable EtcdServerStatus::version
    \brief the etcd version the member runs.
*/

/*!
    \variable EtcdServerStatus::dbSize
    \brief the size of the member's database file in bytes.
*/

/*!
    \variable EtcdServerStatus::memberId
    \brief the id of the member that answered.
*/

/*!
    \variable EtcdServerStatus::leaderId
    \brief the id of the raft leader as this member knows it; 0 for none.
*/

/*!
    \variable EtcdServerStatus::raftIndex
    \brief the member's raft index.
*/

/*!
    \variable EtcdServerStatus::raftTerm
    \brief the member's raft term.
*/

/*!
    \variable EtcdServerStatus::errors
    \brief the member's alarms and health problems as etcd words them (for example
    \c{"memberID:… alarm:NOSPACE"}); empty when it has none.
*/

/*!
    \property EtcdServerStatus::errors
    \brief the member's alarms, for QML; the member of the same name.
*/

/*!
    \property EtcdServerStatus::version
    \brief the etcd version, for QML; the member of the same name.
*/

/*!
    \property EtcdServerStatus::dbSize
    \brief the database size, for QML; the member of the same name.
*/

/*!
    \property EtcdServerStatus::memberId
    \brief the answering member's id, for QML; the member of the same name.
*/

/*!
    \property EtcdServerStatus::leaderId
    \brief the raft leader's id, for QML; the member of the same name.
*/

/*!
    \property EtcdServerStatus::raftIndex
    \brief the raft index, for QML; the member of the same name.
*/

/*!
    \property EtcdServerStatus::raftTerm
    \brief the raft term, for QML; the member of the same name.
*/

/*!
    \fn bool EtcdServerStatus::isLeader() const
    Returns \c true if the member that answered is the raft leader.
*/
