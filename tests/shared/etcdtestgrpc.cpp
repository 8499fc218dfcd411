// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "etcdtestgrpc.h"

#include "etcdserverpb/rpc.grpc.pb.h"

#include <grpc/grpc.h>
#include <grpcpp/grpcpp.h>

#include <QtCore/qstringlist.h>

#include <mutex>

std::shared_ptr<grpc::Channel> etcdTestChannel(const QString &endpoint)
{
    // Keep gRPC initialised for the whole process: each probe's channel would otherwise take
    // it through grpc_init/grpc_shutdown cycles, and 1.51 double-frees its callback queue when
    // a shutdown overlaps a new init (seen under ASan).
    static std::once_flag once;
    std::call_once(once, [] { grpc_init(); });
    grpc::ChannelArguments args;
    args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
    args.SetInt(GRPC_ARG_INITIAL_RECONNECT_BACKOFF_MS, 100);
    args.SetInt(GRPC_ARG_MAX_RECONNECT_BACKOFF_MS, 1000);
    // Despite its name this is the floor of each connect attempt's deadline (TCP connect plus
    // etcd's SETTINGS frame); lower than this, a busy machine fails healthy connects.
    args.SetInt(GRPC_ARG_MIN_RECONNECT_BACKOFF_MS, 1000);
    return grpc::CreateCustomChannel(
        endpoint.toStdString(), grpc::InsecureChannelCredentials(), args);
}

std::optional<etcdserverpb::StatusResponse> etcdTestStatus(
    const QString &endpoint, std::chrono::milliseconds timeout)
{
    auto stub = etcdserverpb::Maintenance::NewStub(etcdTestChannel(endpoint));
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + timeout);
    // Wait for the connection within the deadline instead of failing on the first refused
    // connect: etcd may still be binding its port.
    context.set_wait_for_ready(true);
    etcdserverpb::StatusResponse response;
    if (!stub->Status(&context, etcdserverpb::StatusRequest(), &response).ok())
        return std::nullopt;
    return response;
}

bool etcdTestPut(const QString &endpoint, const QByteArray &key, const QByteArray &value,
    std::chrono::milliseconds timeout)
{
    auto stub = etcdserverpb::KV::NewStub(etcdTestChannel(endpoint));
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + timeout);
    etcdserverpb::PutRequest request;
    request.set_key(key.toStdString());
    request.set_value(value.toStdString());
    etcdserverpb::PutResponse response;
    return stub->Put(&context, request, &response).ok();
}

std::optional<QByteArray> etcdTestGet(
    const QString &endpoint, const QByteArray &key, std::chrono::milliseconds timeout)
{
    auto stub = etcdserverpb::KV::NewStub(etcdTestChannel(endpoint));
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + timeout);
    etcdserverpb::RangeRequest request;
    request.set_key(key.toStdString());
    etcdserverpb::RangeResponse response;
    if (!stub->Range(&context, request, &response).ok() || response.kvs_size() == 0)
        return std::nullopt;
    const std::string &value = response.kvs(0).value();
    return QByteArray(value.data(), qsizetype(value.size()));
}

std::optional<QList<qint64>> etcdTestLeases(
    const QString &endpoint, std::chrono::milliseconds timeout)
{
    auto stub = etcdserverpb::Lease::NewStub(etcdTestChannel(endpoint));
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + timeout);
    etcdserverpb::LeaseLeasesResponse response;
    if (!stub->LeaseLeases(&context, etcdserverpb::LeaseLeasesRequest(), &response).ok())
        return std::nullopt;
    QList<qint64> ids;
    for (const auto &lease : response.leases())
        ids.append(lease.id());
    return ids;
}

qint64 etcdTestLeaseTtl(const QString &endpoint, qint64 leaseId, std::chrono::milliseconds timeout)
{
    auto stub = etcdserverpb::Lease::NewStub(etcdTestChannel(endpoint));
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + timeout);
    etcdserverpb::LeaseTimeToLiveRequest request;
    request.set_id(leaseId);
    etcdserverpb::LeaseTimeToLiveResponse response;
    if (!stub->LeaseTimeToLive(&context, request, &response).ok())
        return -2;
    return response.ttl();
}

QString etcdTestDescribeLease(
    const QString &endpoint, qint64 leaseId, std::chrono::milliseconds timeout)
{
    auto stub = etcdserverpb::Lease::NewStub(etcdTestChannel(endpoint));
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + timeout);
    etcdserverpb::LeaseTimeToLiveRequest request;
    request.set_id(leaseId);
    request.set_keys(true);
    etcdserverpb::LeaseTimeToLiveResponse response;
    const QString id = QString::number(leaseId, 16);
    if (!stub->LeaseTimeToLive(&context, request, &response).ok())
        return id + QStringLiteral(" (no answer)");
    if (response.ttl() < 0)
        return id + QStringLiteral(" gone");
    QStringList keys;
    for (const std::string &key : response.keys())
        keys.append(QString::fromUtf8(key.data(), qsizetype(key.size())));
    return QStringLiteral("%1 ttl %2/%3 s, keys [%4]")
        .arg(id)
        .arg(response.ttl())
        .arg(response.grantedttl())
        .arg(keys.join(u' '));
}
