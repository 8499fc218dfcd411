// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdreply.h>

namespace Etcd::Internal {
class RecipeReplies;
}

// The answer of a recipe operation that yields yes or no: whether a barrier was set by this
// call, or is set at all. result() is meaningful once finished() reported success.
class ETCDQT_EXPORT EtcdBoolReply final : public EtcdReply
{
    Q_OBJECT
    Q_PROPERTY(bool result READ result)
    friend class Etcd::Internal::RecipeReplies;
    explicit EtcdBoolReply(QObject *parent) : EtcdReply(parent) { }

public:
    [[nodiscard]] bool result() const;
};
