// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdreply.h>

class EtcdClientPrivate;

class ETCDQT_EXPORT EtcdLockReply final : public EtcdReply
{
    Q_OBJECT
    friend class EtcdClientPrivate;
    explicit EtcdLockReply(QObject *parent) : EtcdReply(parent) { }

public:
    [[nodiscard]] QByteArray key() const;
};
