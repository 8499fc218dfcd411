// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdreply.h>

#include <QtCore/qlist.h>

class EtcdClientPrivate;

class ETCDQT_EXPORT EtcdLeaseListReply final : public EtcdReply
{
    Q_OBJECT
    friend class EtcdClientPrivate;
    explicit EtcdLeaseListReply(QObject *parent) : EtcdReply(parent) { }

public:
    [[nodiscard]] QList<qint64> leaseIds() const;
};
