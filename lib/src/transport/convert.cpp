// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "convert_p.h"

namespace Etcd::Internal::Convert {

namespace pb = etcdserverpb;

namespace {

QByteArray bytes(const std::string &s)
{
    return QByteArray(s.data(), static_cast<qsizetype>(s.size()));
}

std::string str(const QByteArray &b)
{
    return std::string(b.constData(), static_cast<size_t>(b.size()));
}

ReplyData withHeader(const pb::ResponseHeader &h)
{
    ReplyData d;
    d.revision = h.revision();
    d.memberId = h.member_id();
    d.raftTerm = h.raft_term();
    return d;
}

QList<EtcdKeyValue> keyValues(
    const google::protobuf::RepeatedPtrField<mvccpb::KeyValue> &kvs, const KeySpace &ks)
{
    QList<EtcdKeyValue> out;
    out.reserve(kvs.size());
    for (const auto &kv : kvs)
        out.append(keyValue(kv, ks));
    return out;
}

void fillCompare(pb::Compare &c, const KeySpace &ks, const EtcdCompare &in)
{
    c.set_key(str(ks.key(in.key)));
    if (!in.rangeEnd.isEmpty())
        c.set_range_end(str(ks.rangeEnd(in.key, false, in.rangeEnd)));
    c.set_result(static_cast<pb::Compare::CompareResult>(in.result));
    c.set_target(static_cast<pb::Compare::CompareTarget>(in.target));
    switch (in.target) {
    case Etcd::CompareTarget::Version:
        c.set_version(in.number);
        break;
    case Etcd::CompareTarget::CreateRevision:
        c.set_create_revision(in.number);
        break;
    case Etcd::CompareTarget::ModRevision:
        c.set_mod_revision(in.number);
        break;
    case Etcd::CompareTarget::Value:
        c.set_value(str(in.bytes));
        break;
    case Etcd::CompareTarget::Lease:
        c.set_lease(in.number);
        break;
    }
}

void fillOp(pb::RequestOp &op, const KeySpace &ks, const EtcdTxnOp &in)
{
    switch (in.type) {
    case EtcdTxnOp::Type::Range:
        fill(*op.mutable_request_range(), ks, in.key, in.rangeOptions);
        break;
    case EtcdTxnOp::Type::Put:
        fill(*op.mutable_request_put(), ks, in.key, in.value, in.putOptions);
        break;
    case EtcdTxnOp::Type::Delete:
        fill(*op.mutable_request_delete_range(), ks, in.key, in.deleteOptions);
        break;
    }
}

EtcdTxnOpResult txnOpResult(const pb::ResponseOp &op, const KeySpace &ks)
{
    EtcdTxnOpResult out;
    if (op.has_response_range()) {
        const auto &r = op.response_range();
        out.type = EtcdTxnOp::Type::Range;
        out.keyValues = keyValues(r.kvs(), ks);
        out.count = r.count();
        out.more = r.more();
    } else if (op.has_response_put()) {
        out.type = EtcdTxnOp::Type::Put;
        if (op.response_put().has_prev_kv())
            out.keyValues.append(keyValue(op.response_put().prev_kv(), ks));
    } else if (op.has_response_delete_range()) {
        const auto &r = op.response_delete_range();
        out.type = EtcdTxnOp::Type::Delete;
        out.keyValues = keyValues(r.prev_kvs(), ks);
        out.count = r.deleted();
    }
    return out;
}

} // namespace

void fill(pb::RangeRequest &r, const KeySpace &ks, const QByteArray &key, const EtcdRangeOptions &o)
{
    r.set_key(str(ks.rangeKey(key, o.prefix)));
    r.set_range_end(str(ks.rangeEnd(key, o.prefix, o.rangeEnd)));
    r.set_limit(o.limit);
    r.set_revision(o.revision);
    r.set_sort_order(static_cast<pb::RangeRequest::SortOrder>(o.sortOrder));
    r.set_sort_target(static_cast<pb::RangeRequest::SortTarget>(o.sortTarget));
    r.set_serializable(o.serializable);
    r.set_keys_only(o.keysOnly);
    r.set_count_only(o.countOnly);
    r.set_min_mod_revision(o.minModRevision);
    r.set_max_mod_revision(o.maxModRevision);
}

void fill(pb::PutRequest &r, const KeySpace &ks, const QByteArray &key, const QByteArray &value,
    const EtcdPutOptions &o)
{
    r.set_key(str(ks.key(key)));
    r.set_value(str(value));
    r.set_lease(o.lease);
    r.set_prev_kv(o.prevKv);
}

void fill(pb::DeleteRangeRequest &r, const KeySpace &ks, const QByteArray &key,
    const EtcdDeleteOptions &o)
{
    r.set_key(str(ks.rangeKey(key, o.prefix)));
    r.set_range_end(str(ks.rangeEnd(key, o.prefix, o.rangeEnd)));
    r.set_prev_kv(o.prevKv);
}

void fill(pb::TxnRequest &r, const KeySpace &ks, const EtcdTxn &txn)
{
    for (const EtcdCompare &c : txn.compares)
        fillCompare(*r.add_compare(), ks, c);
    for (const EtcdTxnOp &op : txn.success)
        fillOp(*r.add_success(), ks, op);
    for (const EtcdTxnOp &op : txn.failure)
        fillOp(*r.add_failure(), ks, op);
}

EtcdKeyValue keyValue(const mvccpb::KeyValue &kv, const KeySpace &ks)
{
    return EtcdKeyValue {ks.strip(bytes(kv.key())), bytes(kv.value()), kv.create_revision(),
        kv.mod_revision(), kv.version(), kv.lease()};
}

ReplyData range(const pb::RangeResponse &r, const KeySpace &ks)
{
    ReplyData d = withHeader(r.header());
    d.keyValues = keyValues(r.kvs(), ks);
    d.count = r.count();
    d.more = r.more();
    return d;
}

ReplyData put(const pb::PutResponse &r, const KeySpace &ks)
{
    ReplyData d = withHeader(r.header());
    d.hasPrevKeyValue = r.has_prev_kv();
    if (d.hasPrevKeyValue)
        d.prevKeyValue = keyValue(r.prev_kv(), ks);
    return d;
}

ReplyData remove(const pb::DeleteRangeResponse &r, const KeySpace &ks)
{
    ReplyData d = withHeader(r.header());
    d.count = r.deleted();
    d.keyValues = keyValues(r.prev_kvs(), ks);
    return d;
}

ReplyData txn(const pb::TxnResponse &r, const KeySpace &ks)
{
    ReplyData d = withHeader(r.header());
    d.succeeded = r.succeeded();
    d.txnResults.reserve(r.responses_size());
    for (const auto &op : r.responses())
        d.txnResults.append(txnOpResult(op, ks));
    return d;
}

ReplyData compact(const pb::CompactionResponse &r, const KeySpace &)
{
    return withHeader(r.header());
}

ReplyData leaseGrant(const pb::LeaseGrantResponse &r, const KeySpace &)
{
    ReplyData d = withHeader(r.header());
    d.leaseId = r.id();
    d.ttl = r.ttl();
    return d;
}

ReplyData leaseRevoke(const pb::LeaseRevokeResponse &r, const KeySpace &)
{
    return withHeader(r.header());
}

ReplyData leaseTimeToLive(const pb::LeaseTimeToLiveResponse &r, const KeySpace &ks)
{
    ReplyData d = withHeader(r.header());
    d.leaseId = r.id();
    d.ttl = r.ttl();
    d.grantedTtl = r.grantedttl();
    for (const std::string &k : r.keys())
        d.keys.append(ks.strip(bytes(k)));
    return d;
}

ReplyData leaseList(const pb::LeaseLeasesResponse &r, const KeySpace &)
{
    ReplyData d = withHeader(r.header());
    for (const auto &l : r.leases())
        d.leaseIds.append(l.id());
    return d;
}

ReplyData memberList(const pb::MemberListResponse &r, const KeySpace &)
{
    ReplyData d = withHeader(r.header());
    for (const auto &m : r.members()) {
        EtcdMember member {m.id(), QString::fromStdString(m.name()), {}, {}, m.islearner()};
        for (const std::string &u : m.peerurls())
            member.peerUrls.append(QString::fromStdString(u));
        for (const std::string &u : m.clienturls())
            member.clientUrls.append(QString::fromStdString(u));
        d.members.append(member);
    }
    return d;
}

ReplyData status(const pb::StatusResponse &r, const KeySpace &)
{
    ReplyData d = withHeader(r.header());
    d.server = EtcdServerStatus {QString::fromStdString(r.version()), r.dbsize(),
        r.header().member_id(), r.leader(), r.raftindex(), r.raftterm(), {}};
    for (const std::string &error : r.errors())
        d.server.errors.append(QString::fromStdString(error));
    return d;
}

ReplyData lock(const v3lockpb::LockResponse &r, const KeySpace &ks)
{
    ReplyData d = withHeader(r.header());
    d.lockKey = ks.strip(bytes(r.key()));
    return d;
}

ReplyData unlock(const v3lockpb::UnlockResponse &r, const KeySpace &)
{
    return withHeader(r.header());
}

ReplyData authenticate(const pb::AuthenticateResponse &r, const KeySpace &)
{
    ReplyData d = withHeader(r.header());
    d.authToken = bytes(r.token());
    return d;
}

} // namespace Etcd::Internal::Convert
