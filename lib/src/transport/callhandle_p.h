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

namespace Etcd::Internal {

// The caller's side of one unary call in flight. cancel() may be called from any thread; after
// it returns the call will not deliver to its target any more.
class CallHandle
{
public:
    virtual ~CallHandle() = default;
    virtual void cancel() = 0;
};

// Where a call's single result goes: `deliver` runs in `context`'s thread, queued. With
// `inCompletionThread` (and no context) it runs where the answer arrives, for a worker thread
// blocked on the answer: `deliver` then only hands it over (a Handoff) and decides nothing, so
// the worker wakes one hop after etcd answered instead of two.
struct CallTarget
{
    QObject *context = nullptr;
    std::function<void(const EtcdStatus &, ReplyData &&)> deliver;
    bool inCompletionThread = false;
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
