// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdreply.h>

class EtcdClientPrivate;

class ETCDQT_EXPORT EtcdEmptyReply final : public EtcdReply
{
    Q_OBJECT
    friend class EtcdClientPrivate;
    explicit EtcdEmptyReply(QObject *parent) : EtcdReply(parent) { }

public:
};
