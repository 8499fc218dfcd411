// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdreply.h>

#include <chrono>

class EtcdClientPrivate;

class ETCDQT_EXPORT EtcdLeaseGrantReply final : public EtcdReply
{
    Q_OBJECT
    friend class EtcdClientPrivate;
    explicit EtcdLeaseGrantReply(QObject *parent) : EtcdReply(parent) { }

public:
    [[nodiscard]] qint64 leaseId() const;
    [[nodiscard]] std::chrono::seconds ttl() const;
};
