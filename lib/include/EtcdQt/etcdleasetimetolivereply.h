// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdreply.h>

#include <QtCore/qlist.h>

#include <chrono>

class EtcdClientPrivate;

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
