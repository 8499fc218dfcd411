// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API.
#pragma once

#include "callhandle_p.h"
#include "replydata_p.h"

#include <EtcdQt/etcdreply.h>

#include <functional>
#include <memory>

class EtcdReplyPrivate
{
    Q_DECLARE_PUBLIC(EtcdReply)
public:
    explicit EtcdReplyPrivate(EtcdReply *q) : q_ptr(q) { }
    static EtcdReplyPrivate *get(EtcdReply *reply) { return reply->d_func(); }
    static const EtcdReplyPrivate *get(const EtcdReply *reply) { return reply->d_func(); }

    // Emits finished() exactly once; later calls are ignored.
    void finish(const EtcdStatus &status, Etcd::Internal::ReplyData &&data = {});
    // Finishes on the next event-loop turn, after the caller has connected.
    void finishLater(const EtcdStatus &status);

    EtcdReply *q_ptr;
    EtcdStatus status;
    Etcd::Internal::ReplyData data;
    bool finished = false;
    bool autoDelete = true;
    std::shared_ptr<Etcd::Internal::CallHandle> call;
    std::function<void(EtcdReply *)> onDone; // the client forgets the reply
};
