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
