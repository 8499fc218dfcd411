// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include <EtcdQt/etcdstatus.h>

#include "statusmapping_p.h"

#include <QtTest/qtest.h>

#include <grpcpp/support/status_code_enum.h>

using Etcd::ErrorCode;
using namespace Qt::StringLiterals;

// Codes 0-16 are gRPC's and must never change.
static_assert(int(ErrorCode::Ok) == grpc::OK);
static_assert(int(ErrorCode::Cancelled) == grpc::CANCELLED);
static_assert(int(ErrorCode::Unknown) == grpc::UNKNOWN);
static_assert(int(ErrorCode::InvalidArgument) == grpc::INVALID_ARGUMENT);
static_assert(int(ErrorCode::DeadlineExceeded) == grpc::DEADLINE_EXCEEDED);
static_assert(int(ErrorCode::NotFound) == grpc::NOT_FOUND);
static_assert(int(ErrorCode::AlreadyExists) == grpc::ALREADY_EXISTS);
static_assert(int(ErrorCode::PermissionDenied) == grpc::PERMISSION_DENIED);
static_assert(int(ErrorCode::ResourceExhausted) == grpc::RESOURCE_EXHAUSTED);
static_assert(int(ErrorCode::FailedPrecondition) == grpc::FAILED_PRECONDITION);
static_assert(int(ErrorCode::Aborted) == grpc::ABORTED);
static_assert(int(ErrorCode::OutOfRange) == grpc::OUT_OF_RANGE);
static_assert(int(ErrorCode::Unimplemented) == grpc::UNIMPLEMENTED);
static_assert(int(ErrorCode::Internal) == grpc::INTERNAL);
static_assert(int(ErrorCode::Unavailable) == grpc::UNAVAILABLE);
static_assert(int(ErrorCode::DataLoss) == grpc::DATA_LOSS);
static_assert(int(ErrorCode::Unauthenticated) == grpc::UNAUTHENTICATED);
// Our own ranges are stable too: recipes and users persist and compare them.
static_assert(int(ErrorCode::LeaseNotFound) == 100);
static_assert(int(ErrorCode::NotConnected) == 200);

class tst_EtcdStatus : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void defaultIsOk();
    void equality();
    void toStringNamesTheCode();
    void mapping_data();
    void mapping();
    void retriable();
};

void tst_EtcdStatus::defaultIsOk()
{
    EtcdStatus s;
    QVERIFY(s.isOk());
    QCOMPARE(s.code(), ErrorCode::Ok);
    QVERIFY(s.message().isEmpty());
    QVERIFY(!EtcdStatus(ErrorCode::Unavailable).isOk());
}

void tst_EtcdStatus::equality()
{
    const EtcdStatus a(ErrorCode::NotFound, u"x"_s);
    QVERIFY(a == ErrorCode::NotFound);
    QVERIFY(!(a == ErrorCode::Ok));
    QCOMPARE(a, EtcdStatus(ErrorCode::NotFound, u"x"_s));
    QVERIFY(!(a == EtcdStatus(ErrorCode::NotFound, u"y"_s)));
}

void tst_EtcdStatus::toStringNamesTheCode()
{
    QCOMPARE(EtcdStatus().toString(), u"Ok"_s);
    QCOMPARE(EtcdStatus(ErrorCode::Compacted, u"gone"_s).toString(), u"Compacted: gone"_s);
}

void tst_EtcdStatus::mapping_data()
{
    QTest::addColumn<int>("grpcCode");
    QTest::addColumn<QString>("message");
    QTest::addColumn<ErrorCode>("expected");
    QTest::newRow("ok") << 0 << QString() << ErrorCode::Ok;
    QTest::newRow("plain unavailable") << 14 << u"failed to connect"_s << ErrorCode::Unavailable;
    QTest::newRow("lease not found")
        << 5 << u"etcdserver: requested lease not found"_s << ErrorCode::LeaseNotFound;
    QTest::newRow("compacted") << 11 << u"etcdserver: mvcc: required revision has been compacted"_s
                               << ErrorCode::Compacted;
    QTest::newRow("future") << 11 << u"etcdserver: mvcc: required revision is a future revision"_s
                            << ErrorCode::FutureRevision;
    QTest::newRow("too large") << 3 << u"etcdserver: request is too large"_s
                               << ErrorCode::RequestTooLarge;
    QTest::newRow("grpc too large")
        << 8 << u"grpc: received message larger than max (3 vs 2)"_s << ErrorCode::RequestTooLarge;
    QTest::newRow("auth token") << 16 << u"etcdserver: invalid auth token"_s
                                << ErrorCode::InvalidAuthToken;
    QTest::newRow("no leader") << 14 << u"etcdserver: no leader"_s << ErrorCode::NoLeader;
    QTest::newRow("permission") << 7 << u"etcdserver: permission denied"_s
                                << ErrorCode::PermissionDenied;
    QTest::newRow("tls") << 14 << u"Handshake failed"_s << ErrorCode::TlsError;
    QTest::newRow("out of range code") << 42 << u"?"_s << ErrorCode::Unknown;
}

void tst_EtcdStatus::mapping()
{
    QFETCH(int, grpcCode);
    QFETCH(QString, message);
    QFETCH(ErrorCode, expected);
    const EtcdStatus s = Etcd::Internal::statusFromGrpc(grpcCode, message);
    QCOMPARE(s.code(), expected);
    QCOMPARE(s.message(), message); // etcd's words are kept for the user
}

void tst_EtcdStatus::retriable()
{
    using Etcd::Internal::isRetriableGrpcCode;
    QVERIFY(isRetriableGrpcCode(grpc::UNAVAILABLE));
    QVERIFY(isRetriableGrpcCode(grpc::INTERNAL));
    QVERIFY(isRetriableGrpcCode(grpc::DEADLINE_EXCEEDED));
    QVERIFY(!isRetriableGrpcCode(grpc::OK));
    QVERIFY(!isRetriableGrpcCode(grpc::INVALID_ARGUMENT));
    QVERIFY(!isRetriableGrpcCode(grpc::PERMISSION_DENIED));
    QVERIFY(!isRetriableGrpcCode(grpc::NOT_FOUND));
    QVERIFY(!isRetriableGrpcCode(grpc::CANCELLED));
}

QTEST_GUILESS_MAIN(tst_EtcdStatus)
#include "tst_etcdstatus.moc"
