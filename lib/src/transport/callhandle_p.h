// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API.
#pragma once

#include "replydata_p.h"

#include <EtcdQt/etcdretrypolicy.h>
#include <EtcdQt/etcdstatus.h>

#include <QtCore/qbytearray.h>

#include <chrono>
#include <functional>

class QObject;
namespace grpc {
class CompletionQueue;
}

namespace Etcd::Internal {

// The caller's side of one unary call in flight. cancel() may be called from any thread; after
// it returns the call will not deliver to its target any more.
class CallHandle
{
public:
    virtual ~CallHandle() = default;
    virtual void cancel() = 0;
    // Any thread: ends a unary call early, yet it still answers its target: Cancelled,
    // unless etcd's answer came first. For a caller that drives the call's queue itself and
    // must see it end. (A stream has no answer to give: it is cancelled.)
    virtual void abort() { cancel(); }
    // Whether no attempt of it is left with gRPC: a caller that drives the call's queue
    // itself returns only then, or the attempt's completion would stay queued in its thread.
    [[nodiscard]] virtual bool isSettled() const { return true; }
};

// Where a call's single result goes: `deliver` runs in `context`'s thread, queued. With
// `inCompletionThread` (and no context) it runs where the answer arrives, for a worker thread
// blocked on the answer: `deliver` then only hands it over (a Handoff) and decides nothing.
// With `queue` as well (the worker's ThreadQueue), the answer arrives in the worker itself,
// which drives that queue while it waits: it wakes once, when etcd answered.
struct CallTarget
{
    QObject *context = nullptr;
    std::function<void(const EtcdStatus &, ReplyData &&)> deliver;
    bool inCompletionThread = false;
    grpc::CompletionQueue *queue = nullptr; // null: the completion thread's
};

struct CallOptions
{
    QByteArray prefix;
    std::chrono::milliseconds deadline {0}; // whole call, all attempts; 0 = none
    EtcdRpcResilience resilience;
    bool retriable = true; // transactions and revokes: false
    bool waitForReady = false; // the engine's connect probe waits for a channel
    bool drainOnShutdown = false; // revokes: the client's destructor lets them finish first
};

} // namespace Etcd::Internal
