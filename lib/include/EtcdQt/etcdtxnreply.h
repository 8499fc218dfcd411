// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdreply.h>
#include <EtcdQt/etcdtxn.h>

#include <QtCore/qlist.h>

class EtcdClientPrivate;

class ETCDQT_EXPORT EtcdTxnReply final : public EtcdReply
{
    Q_OBJECT
    friend class EtcdClientPrivate;
    explicit EtcdTxnReply(QObject *parent) : EtcdReply(parent) { }

public:
    [[nodiscard]] bool succeeded() const;
    [[nodiscard]] QList<EtcdTxnOpResult> results() const;
};
