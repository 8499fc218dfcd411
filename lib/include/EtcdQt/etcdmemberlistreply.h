// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdkeyvalue.h>
#include <EtcdQt/etcdreply.h>

#include <QtCore/qlist.h>

class EtcdClientPrivate;

class ETCDQT_EXPORT EtcdMemberListReply final : public EtcdReply
{
    Q_OBJECT
    friend class EtcdClientPrivate;
    explicit EtcdMemberListReply(QObject *parent) : EtcdReply(parent) { }

public:
    [[nodiscard]] QList<EtcdMember> members() const;
};
