// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdreply.h>

namespace Etcd::Internal {
class RecipeReplies;
}

// The answer of a recipe operation that yields a number: a counter's committed value, a
// latch's remaining count. value() and written() (whether this operation wrote the number,
// or found it and left it) are meaningful once finished() reported success.
class ETCDQT_EXPORT EtcdValueReply final : public EtcdReply
{
    Q_OBJECT
    Q_PROPERTY(qint64 value READ value)
    Q_PROPERTY(bool written READ written)
    friend class Etcd::Internal::RecipeReplies;
    explicit EtcdValueReply(QObject *parent) : EtcdReply(parent) { }

public:
    [[nodiscard]] qint64 value() const;
    [[nodiscard]] bool written() const;
};
