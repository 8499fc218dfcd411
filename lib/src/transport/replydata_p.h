// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API.
#pragma once

#include <EtcdQt/etcdkeyvalue.h>
#include <EtcdQt/etcdtxn.h>

#include <QtCore/qlist.h>
#include <QtCore/qvariant.h>

namespace Etcd::Internal {

// What a unary response carries, decoded in the completion thread into plain Qt values. One struct
// serves every reply type; each typed reply reads the fields its RPC fills.
struct ReplyData
{
    qint64 revision = 0;
    quint64 memberId = 0;
    quint64 raftTerm = 0;

    QList<EtcdKeyValue> keyValues; // range: kvs; delete: prev kvs
    EtcdKeyValue prevKeyValue; // put
    bool hasPrevKeyValue = false;
    qint64 count = 0; // range: count; delete: deleted
    bool more = false;

    bool succeeded = false; // txn
    QList<EtcdTxnOpResult> txnResults;

    qint64 leaseId = 0;
    qint64 ttl = 0;
    qint64 grantedTtl = 0;
    QList<QByteArray> keys;
    QList<qint64> leaseIds;

    QList<EtcdMember> members;
    EtcdServerStatus server;
    QByteArray lockKey;
    QByteArray authToken;

    QVariant payload; // a recipe reply's own value (a work item, dead letters)
};

} // namespace Etcd::Internal
