// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdkeyvalue.h>
#include <EtcdQt/etcdreply.h>
#include <EtcdQt/etcdtxn.h>

#include <chrono>

class EtcdClientPrivate;

class ETCDQT_EXPORT EtcdRangeReply final : public EtcdReply
{
    Q_OBJECT
    friend class EtcdClientPrivate;
    explicit EtcdRangeReply(QObject *parent) : EtcdReply(parent) { }

public:
    [[nodiscard]] QList<EtcdKeyValue> keyValues() const;
    [[nodiscard]] qint64 count() const;
    [[nodiscard]] bool hasMore() const;
};

class ETCDQT_EXPORT EtcdPutReply final : public EtcdReply
{
    Q_OBJECT
    friend class EtcdClientPrivate;
    explicit EtcdPutReply(QObject *parent) : EtcdReply(parent) { }

public:
    [[nodiscard]] bool hasPrevKeyValue() const;
    [[nodiscard]] EtcdKeyValue prevKeyValue() const;
};

class ETCDQT_EXPORT EtcdDeleteReply final : public EtcdReply
{
    Q_OBJECT
    friend class EtcdClientPrivate;
    explicit EtcdDeleteReply(QObject *parent) : EtcdReply(parent) { }

public:
    [[nodiscard]] qint64 deleted() const;
    [[nodiscard]] QList<EtcdKeyValue> prevKeyValues() const;
};

class ETCDQT_EXPORT EtcdTxnReply final : public EtcdReply
{
    Q_OBJECT
    friend class EtcdClientPrivate;
    explicit EtcdTxnReply(QObject *parent) : EtcdReply(parent) { }

public:
    [[nodiscard]] bool succeeded() const;
    [[nodiscard]] QList<EtcdTxnOpResult> results() const;
};

class ETCDQT_EXPORT EtcdLeaseGrantReply final : public EtcdReply
{
    Q_OBJECT
    friend class EtcdClientPrivate;
    explicit EtcdLeaseGrantReply(QObject *parent) : EtcdReply(parent) { }

public:
    [[nodiscard]] qint64 leaseId() const;
    [[nodiscard]] std::chrono::seconds ttl() const;
};

class ETCDQT_EXPORT EtcdLeaseTimeToLiveReply final : public EtcdReply
{
    Q_OBJECT
    friend class EtcdClientPrivate;
    explicit EtcdLeaseTimeToLiveReply(QObject *parent) : EtcdReply(parent) { }

public:
    [[nodiscard]] qint64 leaseId() const;
    [[nodiscard]] std::chrono::seconds ttl() const;
    [[nodiscard]] std::chrono::seconds grantedTtl() const;
    [[nodiscard]] QList<QByteArray> keys() const;
};

class ETCDQT_EXPORT EtcdLeaseListReply final : public EtcdReply
{
    Q_OBJECT
    friend class EtcdClientPrivate;
    explicit EtcdLeaseListReply(QObject *parent) : EtcdReply(parent) { }

public:
    [[nodiscard]] QList<qint64> leaseIds() const;
};

class ETCDQT_EXPORT EtcdMemberListReply final : public EtcdReply
{
    Q_OBJECT
    friend class EtcdClientPrivate;
    explicit EtcdMemberListReply(QObject *parent) : EtcdReply(parent) { }

public:
    [[nodiscard]] QList<EtcdMember> members() const;
};

class ETCDQT_EXPORT EtcdServerStatusReply final : public EtcdReply
{
    Q_OBJECT
    friend class EtcdClientPrivate;
    explicit EtcdServerStatusReply(QObject *parent) : EtcdReply(parent) { }

public:
    [[nodiscard]] EtcdServerStatus serverStatus() const;
};

class ETCDQT_EXPORT EtcdLockReply final : public EtcdReply
{
    Q_OBJECT
    friend class EtcdClientPrivate;
    explicit EtcdLockReply(QObject *parent) : EtcdReply(parent) { }

public:
    [[nodiscard]] QByteArray key() const;
};

class ETCDQT_EXPORT EtcdEmptyReply final : public EtcdReply
{
    Q_OBJECT
    friend class EtcdClientPrivate;
    explicit EtcdEmptyReply(QObject *parent) : EtcdReply(parent) { }

public:
};
