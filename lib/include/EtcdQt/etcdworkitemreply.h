// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdreply.h>
#include <EtcdQt/etcdworkitem.h>

namespace Etcd::Internal {
class RecipeReplies;
}

// The answer of a work queue's receive: the delivered item, if any. Meaningful once
// finished() reported success.
class ETCDQT_EXPORT EtcdWorkItemReply final : public EtcdReply
{
    Q_OBJECT
    Q_PROPERTY(bool found READ found)
    Q_PROPERTY(EtcdWorkItem item READ item)
    friend class Etcd::Internal::RecipeReplies;
    explicit EtcdWorkItemReply(QObject *parent) : EtcdReply(parent) { }

public:
    [[nodiscard]] bool found() const;
    [[nodiscard]] EtcdWorkItem item() const;
};

// The dead letters of a work queue, in id order.
class ETCDQT_EXPORT EtcdDeadLettersReply final : public EtcdReply
{
    Q_OBJECT
    friend class Etcd::Internal::RecipeReplies;
    explicit EtcdDeadLettersReply(QObject *parent) : EtcdReply(parent) { }

public:
    [[nodiscard]] QList<EtcdDeadLetter> deadLetters() const;
};
