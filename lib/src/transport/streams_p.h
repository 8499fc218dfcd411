// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API.
#pragma once

#include "callhandle_p.h"
#include "mailbox_p.h"

#include <EtcdQt/etcdstatus.h>
#include <EtcdQt/etcdwatch.h>

#include <functional>

// The engine's view of the two bidirectional streams: plain Qt values in, plain Qt values out.
// Implemented in transport/ on our completion queue (completionqueue_p.h).
namespace Etcd::Internal {

struct WatchCreate
{
    QByteArray key;
    QByteArray rangeEnd;
    qint64 startRevision = 0;
    bool progressNotify = false;
    bool prevKv = false;
    bool noPut = false;
    bool noDelete = false;
};

// One WatchResponse, decoded in the completion thread. Keys are as etcd sent them (prefix
// included).
struct WatchResponseData
{
    qint64 watchId = 0;
    bool created = false;
    bool canceled = false;
    qint64 compactRevision = 0;
    QString cancelReason;
    qint64 revision = 0; // header revision
    QList<EtcdWatchEvent> events;
};

struct KeepAliveAck
{
    qint64 leaseId = 0;
    qint64 ttl = 0;
};

// cancel() ends the stream; the done callback follows.
class Stream : public CallHandle
{ };

class WatchStream : public Stream
{
public:
    virtual void create(const WatchCreate &request) = 0;
    virtual void cancelWatch(qint64 watchId) = 0;
    virtual void requestProgress() = 0;
};

class KeepAliveStream : public Stream
{
public:
    virtual void renew(qint64 leaseId) = 0;
};

// `intercept`, when set, sees each response first, in the completion thread, and consumes it by
// returning true (the hot path: watch events, keep-alive acks). The rest run in the engine
// thread (posted through the mailbox), in stream order; `done` comes once, last.
template <class Response>
struct StreamCallbacks
{
    MailboxPtr mailbox;
    std::function<bool(Response &)> intercept;
    std::function<void(Response &&)> response;
    std::function<void(const EtcdStatus &)> done;
};

} // namespace Etcd::Internal
