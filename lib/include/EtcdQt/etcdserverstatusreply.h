// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdkeyvalue.h>
#include <EtcdQt/etcdreply.h>

class EtcdClientPrivate;

class ETCDQT_EXPORT EtcdServerStatusReply final : public EtcdReply
{
    Q_OBJECT
    friend class EtcdClientPrivate;
    explicit EtcdServerStatusReply(QObject *parent) : EtcdReply(parent) { }

public:
    [[nodiscard]] EtcdServerStatus serverStatus() const;
};
