// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API.
#pragma once

#include "handoff_p.h"
#include "mutexsync_p.h"

#include <EtcdQt/etcdkeepalive.h>
#include <EtcdQt/etcdmutex.h>
#include <EtcdQt/etcdwatch.h>

#include <QtCore/qpointer.h>
#include <QtCore/qthread.h>
#include <QtCore/qtimer.h>

#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <set>

class EtcdTxnReply;

// Every acquisition, in the owner thread: take a kept-alive lease granted ahead of time,
// then ONE transaction creates "<path>/<lease hex>" and reads the queue under "<path>/";
// the keys created before ours are the ones ahead. One prefix watch per mutex (DELETE only),
// live before the reads it completes, strikes them off as they go; when none is left, the
// lock is ours, with no further read. The hold's lease is never healed.
class EtcdMutexPrivate
{
    Q_DECLARE_PUBLIC(EtcdMutex)
public:
    enum class Phase { NeedLease, Trying, Waiting, Recheck, Held, Releasing, Ending };
    using ThreadId = std::thread::id;
    using TimePoint = std::chrono::steady_clock::time_point;

    struct Acquisition
    {
        quint64 id = 0;
        std::shared_ptr<Etcd::Internal::MutexRequest> request; // null: the owner's acquire()
        ThreadId thread;
        QPointer<QThread> qthread; // interrupted on loss with interruptOnLockLoss
        Phase phase = Phase::NeedLease;
        qint64 leaseId = 0;
        std::unique_ptr<EtcdKeepAlive> keepAlive;
        QByteArray key;
        qint64 revision = 0; // the key's create revision
        qint64 seen = 0; // the revision up to which `ahead` is known
        QList<QByteArray> ahead; // keys created before ours, still there at `seen`
        quint64 attempt = 0; // bumped per transaction: older answers are dropped
        int retryDelayMs = 0;
        bool answered = false; // a transaction was answered: a tryLock deadline may give up
        bool expired = false; // the tryLock deadline passed
        std::unique_ptr<QTimer> deadline;
        Etcd::Internal::Answer<bool> unlockAnswer; // the unlock() that waits for the delete
    };

    EtcdMutexPrivate(EtcdMutex *q, const QByteArray &path, const EtcdMutexOptions &options);

    [[nodiscard]] EtcdStatus inputProblem() const;
    Acquisition *find(quint64 id);

    // Worker side (any thread but the owner's).
    bool lockBlocking(std::optional<std::chrono::milliseconds> timeout);
    bool unlockBlocking();

    // Owner thread.
    bool start(std::shared_ptr<Etcd::Internal::MutexRequest> request, ThreadId thread,
        QPointer<QThread> qthread, std::optional<TimePoint> deadline);
    void needLease(Acquisition &a);
    void topUpLeases();
    void grant();
    void onGranted(const EtcdStatus &status, qint64 lease);
    std::unique_ptr<EtcdKeepAlive> keepAliveFor(qint64 lease);
    void onLeaseFailed(qint64 lease, const EtcdStatus &why);

    void ensureWatch();
    void onWatchLive();
    void onWatchFailed(const EtcdStatus &why);
    void onDeletes(const QList<EtcdWatchEvent> &events);
    [[nodiscard]] bool watchCovers(qint64 revision) const;

    void tryAcquire(Acquisition &a);
    void onTried(
        quint64 id, quint64 attempt, quint64 since, EtcdTxnReply *reply, const EtcdStatus &status);
    void retryLater(Acquisition &a, const EtcdStatus &why);
    void becomeHeld(Acquisition &a);
    void validate(Acquisition &a);
    void onDeadline(quint64 id);
    void cancel(Acquisition &a);
    void cancelAbandoned();
    void releaseHold(quint64 id, Etcd::Internal::Answer<bool> answer = {});
    void onReleased(quint64 id, qint64 deleted, const EtcdStatus &status);
    void loseHold(Acquisition &a, const EtcdStatus &why);
    void discard(quint64 id); // forgets an acquisition and revokes its lease, in the background
    void closeAll();
    static void dropKeepAlive(std::unique_ptr<EtcdKeepAlive> &k);
    void closeStep();

    EtcdMutex *q_ptr;
    QByteArray path;
    QByteArray prefix; // "<path>/", as Go's concurrency.NewMutex builds it
    EtcdMutexOptions options;
    std::shared_ptr<Etcd::Internal::MutexSync> sync;

    std::map<quint64, std::unique_ptr<Acquisition>> acquisitions;
    quint64 nextId = 0;
    quint64 ownerPending = 0; // the owner thread's acquire() in flight

    struct Lease
    {
        qint64 id = 0;
        std::unique_ptr<EtcdKeepAlive> keepAlive;
    };
    std::optional<Lease> spare; // granted ahead of time and kept alive: lock() is one RPC
    QList<quint64> leaseWaiters; // acquisitions waiting for a lease, in arrival order
    int grantsInFlight = 0;
    int grantRetryMs = 0;
    QTimer grantRetry;

    std::unique_ptr<EtcdWatch> watch; // DELETEs under the prefix
    qint64 watchFrom = 0; // no event from this revision on is missed; 0: not live
    int watchRetryMs = 0;
    struct SeenDelete
    {
        quint64 seq = 0;
        QByteArray key;
        qint64 revision = 0;
    };
    std::deque<SeenDelete> recentDeletes; // seen while transactions sent before were in flight
    std::multiset<quint64> txnStarts; // per transaction in flight: deleteSeq when it was sent
    quint64 deleteSeq = 0;

    bool closing = false;
    int closePending = 0; // revokes and grants close() waits for before closed()
};
