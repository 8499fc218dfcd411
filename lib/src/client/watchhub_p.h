// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API.
#pragma once

#include "keyspace_p.h"
#include "transport_p.h"
#include "watchrouter_p.h"

#include <EtcdQt/etcdwatch.h>

#include <QtCore/qelapsedtimer.h>
#include <QtCore/qtimer.h>

#include <deque>
#include <map>
#include <tuple>
#include <unordered_map>

namespace Etcd::Internal {

// What the hub tells one EtcdWatch; called in the watch's thread through its mailbox.
class WatchObserver
{
public:
    virtual ~WatchObserver() = default;
    virtual void watchCreated(qint64 nextRevision, bool resubscribed) = 0;
    virtual void watchEvents(const QList<EtcdWatchEvent> &events, qint64 nextRevision) = 0;
    virtual void watchSuspended(const EtcdStatus &reason) = 0;
    virtual void watchResyncRequested(qint64 compactRevision) = 0;
    virtual void watchResynced(qint64 compactRevision, qint64 anchorRevision) = 0;
    virtual void watchFailed(const EtcdStatus &status) = 0;
};

struct WatchSpec
{
    WatchCreate request; // key and range end already carry the client's prefix
    KeySpace keySpace;
    bool awaitResync = false;
    WatchGuard guard; // runs in the engine thread on every batch of events (may be empty)
};

// Every watch of one client on one Watch stream (design/streams.md). Lives in the engine
// thread: creates one at a time, and after a broken or silent stream resumes every watch where
// it left off. Events bypass it: the WatchRouter delivers them from the gRPC thread and keeps
// each watch's resume revision. Beyond streams.md: watches with the same request (all but the
// start) share one server watch when the live one has not passed where they start, so etcd's
// fan-out is per client, not per watch; a server watch that ends (compaction, refusal) ends
// for each of its watches, which recover one by one.
class WatchHub : public QObject
{
    Q_OBJECT
public:
    WatchHub(Transport &transport, const EtcdRetryPolicy &recovery,
        std::chrono::milliseconds liveness, QObject *parent);
    ~WatchHub() override;

    void add(quint64 id, const WatchSpec &spec, MailboxPtr mailbox, WatchObserver *observer);
    void remove(quint64 id);
    void resync(quint64 id, qint64 anchorRevision);

private:
    enum class Phase { Queued, Creating, Active, AwaitingResync };
    struct Entry
    {
        WatchSpec spec;
        WatchRoutePtr route;
        qint64 serverId = -1;
        qint64 compactRevision = 0;
        Phase phase = Phase::Queued;
    };

    // What watches must agree on to share one server watch (all but where they start).
    using ShareKey = std::tuple<QByteArray, QByteArray, bool, bool, bool, bool>;
    struct Group
    {
        ShareKey key;
        std::vector<quint64> members;
    };
    static ShareKey shareKey(const WatchCreate &request);

    template <class F>
    void tell(Entry &e, F &&f);
    bool join(quint64 id);
    void detach(quint64 id);
    Group forget(std::unordered_map<qint64, Group>::iterator group);
    void cancelMember(quint64 id, const WatchResponseData &r);
    void ensureStream();
    void enqueue(quint64 id);
    void sendNextCreate();
    void onResponse(WatchResponseData &&r);
    void onCreated(const WatchResponseData &r);
    void onCanceled(qint64 serverId, const WatchResponseData &r);
    void reauthenticate(quint64 id);
    void onStreamDone(const EtcdStatus &status);
    void onLivenessTick();
    void fail(quint64 id, const EtcdStatus &status);
    void report(EtcdMetrics::WatchRecovery kind) const;

    Transport &m_transport;
    EtcdRetryPolicy m_recovery;
    MailboxPtr m_self;
    std::shared_ptr<WatchRouter> m_router = std::make_shared<WatchRouter>();
    std::shared_ptr<WatchStream> m_stream;
    quint64 m_generation = 0;
    std::map<quint64, Entry> m_entries;
    std::unordered_map<qint64, Group> m_groups; // by server id: the watches each serves
    std::map<ShareKey, qint64> m_shared; // the live server watch new watches join
    std::deque<quint64> m_queue;
    std::optional<quint64> m_creating; // etcd answers creates in order, without our id
    bool m_creatingOrphan = false; // the watch being created was removed meanwhile
    QTimer m_reconnect;
    QTimer m_liveness;
    QElapsedTimer m_outage;
    int m_failures = 0;
    bool m_progressAsked = false;
    bool m_authPending = false;
};

} // namespace Etcd::Internal
