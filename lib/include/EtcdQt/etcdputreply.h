// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdkeyvalue.h>
#include <EtcdQt/etcdreply.h>

class EtcdClientPrivate;

class ETCDQT_EXPORT EtcdPutReply final : public EtcdReply
{
    Q_OBJECT
    friend class EtcdClientPrivate;
    explicit EtcdPutReply(QObject *parent) : EtcdReply(parent) { }

public:
    [[nodiscard]] bool hasPrevKeyValue() const;
    [[nodiscard]] EtcdKeyValue prevKeyValue() const;
};
