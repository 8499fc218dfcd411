// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "statusmapping_p.h"

#include <array>

namespace Etcd::Internal {

namespace {

struct Pattern
{
    const char16_t *text;
    Etcd::ErrorCode code;
};

// Substrings of etcd 3.4's error strings (etcdserver/api/v3rpc/rpctypes) and gRPC's own.
constexpr std::array kPatterns {
    Pattern {u"requested lease not found", Etcd::ErrorCode::LeaseNotFound},
    Pattern {u"required revision has been compacted", Etcd::ErrorCode::Compacted},
    Pattern {u"required revision is a future revision", Etcd::ErrorCode::FutureRevision},
    Pattern {u"request is too large", Etcd::ErrorCode::RequestTooLarge},
    Pattern {u"received message larger than max", Etcd::ErrorCode::RequestTooLarge},
    Pattern {u"invalid auth token", Etcd::ErrorCode::InvalidAuthToken},
    Pattern {u"user name is empty", Etcd::ErrorCode::InvalidAuthToken}, // no token sent yet
    Pattern {u"etcdserver: no leader", Etcd::ErrorCode::NoLeader},
    Pattern {u"SSL_ERROR", Etcd::ErrorCode::TlsError},
    Pattern {u"Handshake failed", Etcd::ErrorCode::TlsError},
};

} // namespace

EtcdStatus statusFromGrpc(int grpcCode, const QString &message)
{
    if (grpcCode == 0)
        return {};
    for (const Pattern &p : kPatterns) {
        if (message.contains(QStringView(p.text), Qt::CaseInsensitive))
            return EtcdStatus(p.code, message);
    }
    if (grpcCode < 0 || grpcCode > 16)
        return EtcdStatus(Etcd::ErrorCode::Unknown, message);
    return EtcdStatus(static_cast<Etcd::ErrorCode>(grpcCode), message);
}

bool isRetriableGrpcCode(int grpcCode)
{
    constexpr int kDeadlineExceeded = 4;
    constexpr int kInternal = 13;
    constexpr int kUnavailable = 14;
    return grpcCode == kDeadlineExceeded || grpcCode == kInternal || grpcCode == kUnavailable;
}

} // namespace Etcd::Internal
