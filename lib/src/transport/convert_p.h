// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API. Includes protobuf.
#pragma once

#include "keyspace_p.h"
#include "replydata_p.h"

#include "etcdserverpb/rpc.pb.h"
#include "v3lockpb/v3lock.pb.h"

// Public value types <-> etcd's protobuf messages. The key space adds the client's prefix on
// the way out and strips it on the way back.
namespace Etcd::Internal::Convert {

void fill(etcdserverpb::RangeRequest &r, const KeySpace &ks, const QByteArray &key,
    const EtcdRangeOptions &o);
void fill(etcdserverpb::PutRequest &r, const KeySpace &ks, const QByteArray &key,
    const QByteArray &value, const EtcdPutOptions &o);
void fill(etcdserverpb::DeleteRangeRequest &r, const KeySpace &ks, const QByteArray &key,
    const EtcdDeleteOptions &o);
void fill(etcdserverpb::TxnRequest &r, const KeySpace &ks, const EtcdTxn &txn);

EtcdKeyValue keyValue(const mvccpb::KeyValue &kv, const KeySpace &ks);

ReplyData range(const etcdserverpb::RangeResponse &r, const KeySpace &ks);
ReplyData put(const etcdserverpb::PutResponse &r, const KeySpace &ks);
ReplyData remove(const etcdserverpb::DeleteRangeResponse &r, const KeySpace &ks);
ReplyData txn(const etcdserverpb::TxnResponse &r, const KeySpace &ks);
ReplyData compact(const etcdserverpb::CompactionResponse &r, const KeySpace &ks);
ReplyData leaseGrant(const etcdserverpb::LeaseGrantResponse &r, const KeySpace &ks);
ReplyData leaseRevoke(const etcdserverpb::LeaseRevokeResponse &r, const KeySpace &ks);
ReplyData leaseTimeToLive(const etcdserverpb::LeaseTimeToLiveResponse &r, const KeySpace &ks);
ReplyData leaseList(const etcdserverpb::LeaseLeasesResponse &r, const KeySpace &ks);
ReplyData memberList(const etcdserverpb::MemberListResponse &r, const KeySpace &ks);
ReplyData status(const etcdserverpb::StatusResponse &r, const KeySpace &ks);
ReplyData lock(const v3lockpb::LockResponse &r, const KeySpace &ks);
ReplyData unlock(const v3lockpb::UnlockResponse &r, const KeySpace &ks);
ReplyData authenticate(const etcdserverpb::AuthenticateResponse &r, const KeySpace &ks);

} // namespace Etcd::Internal::Convert
