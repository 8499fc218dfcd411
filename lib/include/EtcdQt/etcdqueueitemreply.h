// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdreply.h>

#include <QtCore/qbytearray.h>

namespace Etcd::Internal {
class RecipeReplies;
}

// The answer of a queue's take: whether an item was taken, its value and the key it had.
// Meaningful once finished() reported success.
class ETCDQT_EXPORT EtcdQueueItemReply final : public EtcdReply
{
    Q_OBJECT
    Q_PROPERTY(bool found READ found)
    Q_PROPERTY(QByteArray value READ value)
    Q_PROPERTY(QByteArray key READ key)
    friend class Etcd::Internal::RecipeReplies;
    explicit EtcdQueueItemReply(QObject *parent) : EtcdReply(parent) { }

public:
    [[nodiscard]] bool found() const;
    [[nodiscard]] QByteArray value() const;
    [[nodiscard]] QByteArray key() const;
};
