// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdqtglobal.h>

#include <QtCore/qobject.h>
#include <QtQml/qqml.h>

// Etcd::ErrorCode for QML, so that errorCode compares with names: EtcdError.NotFound,
// EtcdError.LeaseExpired, ... (the values are the library's; a code added there without a
// name here still reaches QML as its number).
class EtcdQmlError : public QObject
{
    Q_OBJECT
    QML_NAMED_ELEMENT(EtcdError)
    QML_UNCREATABLE("EtcdError only holds the error codes")
public:
    enum Code {
        Ok = int(Etcd::ErrorCode::Ok),
        Cancelled = int(Etcd::ErrorCode::Cancelled),
        Unknown = int(Etcd::ErrorCode::Unknown),
        InvalidArgument = int(Etcd::ErrorCode::InvalidArgument),
        DeadlineExceeded = int(Etcd::ErrorCode::DeadlineExceeded),
        NotFound = int(Etcd::ErrorCode::NotFound),
        AlreadyExists = int(Etcd::ErrorCode::AlreadyExists),
        PermissionDenied = int(Etcd::ErrorCode::PermissionDenied),
        ResourceExhausted = int(Etcd::ErrorCode::ResourceExhausted),
        FailedPrecondition = int(Etcd::ErrorCode::FailedPrecondition),
        Aborted = int(Etcd::ErrorCode::Aborted),
        OutOfRange = int(Etcd::ErrorCode::OutOfRange),
        Unimplemented = int(Etcd::ErrorCode::Unimplemented),
        Internal = int(Etcd::ErrorCode::Internal),
        Unavailable = int(Etcd::ErrorCode::Unavailable),
        DataLoss = int(Etcd::ErrorCode::DataLoss),
        Unauthenticated = int(Etcd::ErrorCode::Unauthenticated),
        LeaseNotFound = int(Etcd::ErrorCode::LeaseNotFound),
        LeaseExpired = int(Etcd::ErrorCode::LeaseExpired),
        Compacted = int(Etcd::ErrorCode::Compacted),
        RequestTooLarge = int(Etcd::ErrorCode::RequestTooLarge),
        InvalidAuthToken = int(Etcd::ErrorCode::InvalidAuthToken),
        NoLeader = int(Etcd::ErrorCode::NoLeader),
        FutureRevision = int(Etcd::ErrorCode::FutureRevision),
        NotConnected = int(Etcd::ErrorCode::NotConnected),
        TlsError = int(Etcd::ErrorCode::TlsError),
        WrongThread = int(Etcd::ErrorCode::WrongThread),
    };
    Q_ENUM(Code)
};
