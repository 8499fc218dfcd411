// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API.
#pragma once

#include "guardedcommit_p.h"
#include "handoff_p.h"
#include "mutexsync_p.h"
#include "pendinggrants_p.h"
#include "permitsync_p.h"
#include "recipemetrics_p.h"
#include "recipereplies_p.h"

#include <EtcdQt/etcdkeepalive.h>
#include <EtcdQt/etcdrecipe.h>
#include <EtcdQt/etcdwatch.h>

#include <QtCore/qpointer.h>
#include <QtCore/qset.h>
#include <QtCore/qthread.h>
#include <QtCore/qtimer.h>

#include <array>
#include <atomic>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>

class EtcdTxnReply;

namespace Etcd::Internal {

struct ReplyData;

// Where a queue lock keeps its entries and when an entry may hold.
struct LockLayout
{
    enum Side { Exclusive = 0, Shared = 1 };
    QByteArray path; // the recipe's
    QByteArray prefix; // the entries, read and watched, ordered by create revision
    QByteArray value; // each entry's value
    // The entry of an acquisition on `side` holding `lease`: the same for the same lease,
    // which is reused once a hold on it was released.
    std::function<QByteArray(Side side, qint64 lease)> entryKey;
    // Whether an earlier entry keeps a Shared acquisition waiting (Exclusive: every one does).
    std::function<bool(const QByteArray &earlier)> blocksShared;
    int allowance = 1; // an entry holds while fewer than this many earlier entries block it
    const char *noun = QT_TRANSLATE_NOOP("EtcdRecipe", "lock"); // in messages
    // What each side's waits and holds are reported as (none: not a lock, an election).
    std::array<std::optional<EtcdMetrics::Lock>, 2> metric {};
};

// The machinery of EtcdMutex, EtcdReadWriteLock and EtcdSemaphore, in the recipe's thread.
// Every acquisition takes a kept-alive lease granted ahead of time, then ONE transaction
// creates its entry under the prefix and reads every entry there; those created before it
// and blocking it are ahead. One prefix watch per lock (DELETE only), live before the reads
// it completes, strikes them off as they go; when few enough are left (none for a lock,
// fewer than the permits for a semaphore), it holds, with no further read. A hold's lease
// is never healed. A worker's lock() takes the spare lease from a shelf and sends the
// transaction from its own thread; this thread adopts what it won (lockqueue_worker.cpp).
class LockQueue
{
public:
    using Side = LockLayout::Side;
    enum class Phase { Preparing, NeedLease, Trying, Waiting, Recheck, Held, Releasing, Ending };
    using ThreadId = std::thread::id;
    using TimePoint = std::chrono::steady_clock::time_point;

    struct Acquisition
    {
        quint64 id = 0;
        Side side = Side::Exclusive;
        std::shared_ptr<MutexRequest> request; // null: the owner thread's acquire()
        ThreadId thread;
        QPointer<QThread> qthread; // interrupted on loss with interruptOnLoss
        Phase phase = Phase::NeedLease;
        qint64 leaseId = 0;
        std::unique_ptr<EtcdKeepAlive> keepAlive;
        QByteArray key;
        qint64 revision = 0; // the entry's create revision
        qint64 seen = 0; // the revision up to which `ahead` is known
        // Blocking entries created before ours, still there at `seen`. A set: every waiter of
        // a process looks each DELETE up in it, and a list's removeAll() made that n^2 per
        // hand-off with n waiters (bench/run --scale's scale_lock_waiters).
        QSet<QByteArray> ahead;
        quint64 attempt = 0; // bumped per transaction: older answers are dropped
        int retryDelayMs = 0;
        bool answered = false; // a transaction was answered: a tryLock deadline may give up
        bool expired = false; // the tryLock deadline passed
        bool confirmingLoss = false; // the key went: asking etcd whether the lease went too
        std::unique_ptr<QTimer> deadline;
        MetricSpan waiting; // from the request until held or given up
        MetricSpan holding; // from held until released or lost
    };

    LockQueue(EtcdRecipe *q, LockLayout layout, std::chrono::seconds ttl, bool interruptOnLoss,
        std::array<std::shared_ptr<HoldBook>, 2> books);
    ~LockQueue(); // revokes every lease without waiting

    // Hooks of the recipe, called in its thread.
    std::function<void(Side)> onAcquired; // an owner-thread acquire() won
    std::function<void(Side, const EtcdStatus &)> onLost; // a hold was lost
    // Runs once before the first entry is written (a semaphore's permit check); calls its
    // argument with the outcome. A failure fails the acquisitions waiting for it.
    std::function<void(std::function<void(const EtcdStatus &)>)> prepare;

    [[nodiscard]] EtcdStatus inputProblem() const;
    void recordErrorOf(const EtcdStatus &status); // from any thread
    Acquisition *find(quint64 id);
    [[nodiscard]] HoldBook &book(Side side) const { return *books[side]; }

    // Worker side (any thread but the recipe's).
    bool lockBlocking(Side side, std::optional<std::chrono::milliseconds> timeout);
    bool releaseBlocking(quint64 id, const HoldBook::Lease &hold); // the last unlock() of `id`
    bool countOnly(const QByteArray &prefix, std::function<bool(qint64)> answer) const;
    bool commitGuarded(const EtcdFencingToken &token, const EtcdTxn &txn,
        std::chrono::milliseconds timeout, EtcdStatus *status) const;

    // The recipe's thread.
    bool start(Side side, std::shared_ptr<MutexRequest> request, ThreadId thread,
        QPointer<QThread> qthread, std::optional<TimePoint> deadline);
    bool acquireInOwnerThread(Side side);
    void abandonOwnerAcquire();
    void releaseHold(quint64 id);
    Acquisition *markReleasing(quint64 id); // this thread's part of every release
    // Carries out one unlock() (from a worker: waits for the delete) or release() (in this
    // thread: sends it) after the hold book said `verdict` about hold `id`.
    enum class Caller { Worker, Owner };
    // `hold`: for a worker's last release (its key is deleted from that thread).
    bool settleRelease(HoldBook::Release verdict, quint64 id, Caller caller, const char *who,
        const HoldBook::Lease &hold = {});
    void closeAll();

    std::chrono::seconds ttl;
    bool interruptOnLoss;
    LockLayout layout;

private:
    void runPrepare();
    void settlePreparing();
    void needLease(Acquisition &a);
    void topUpLeases();
    void grant();
    void onGranted(const EtcdStatus &status, qint64 lease);
    std::unique_ptr<EtcdKeepAlive> keepAliveFor(qint64 lease);
    void onLeaseFailed(qint64 lease, const EtcdStatus &why);
    void adoptLease(qint64 lease, std::unique_ptr<EtcdKeepAlive> keepAlive);
    void recycle(quint64 id); // a released hold's lease becomes the spare

    void ensureWatch();
    void onWatchLive();
    void onWatchFailed(const EtcdStatus &why);
    void onDeletes(const QList<EtcdWatchEvent> &events);
    [[nodiscard]] bool watchCovers(qint64 revision) const;
    [[nodiscard]] bool blocks(const Acquisition &a, const QByteArray &earlier) const;
    [[nodiscard]] bool mayHold(const Acquisition &a) const;

    void tryAcquire(Acquisition &a);
    void onTried(
        quint64 id, quint64 attempt, quint64 since, EtcdTxnReply *reply, const EtcdStatus &status);
    void retryLater(Acquisition &a, const EtcdStatus &why);
    void becomeHeld(Acquisition &a);
    void validate(Acquisition &a);
    void onDeadline(quint64 id);
    void cancel(Acquisition &a);
    void cancelAbandoned();
    void onReleased(quint64 id, qint64 deleted, const EtcdStatus &status, bool shelved = false);
    enum class Cause { Key, Lease }; // what was lost: the lease emits leaseLost() too
    void loseHold(Acquisition &a, const EtcdStatus &why, Cause cause = Cause::Key);
    void loseHoldForKey(Acquisition &a);
    [[nodiscard]] bool releasedMeanwhile(const Acquisition &a) const;
    void discard(quint64 id); // forgets an acquisition and revokes its lease, in the background
    std::unique_ptr<Acquisition> take(quint64 id);
    static void dropKeepAlive(std::unique_ptr<EtcdKeepAlive> &k);
    static void dropTimer(std::unique_ptr<QTimer> &t);
    [[nodiscard]] EtcdStatus lostStatus(const char *what) const;
    [[nodiscard]] QString nounText() const; // the noun, translated
    // The metrics: a wait ends once (the first outcome counts), a hold when it goes.
    void endWait(Acquisition &a, EtcdMetrics::Outcome outcome) const;
    void endHold(Acquisition &a) const;

    EtcdRecipe *q;
    std::array<std::shared_ptr<HoldBook>, 2> books;
    // The books, held weakly: for the engine-thread hooks, which may outlive this queue.
    struct WeakBooks
    {
        std::array<std::weak_ptr<HoldBook>, 2> books;
        template <typename F>
        void forEach(F f) const
        {
            for (const auto &weak : books) {
                if (const auto book = weak.lock())
                    f(*book);
            }
        }
    };
    [[nodiscard]] WeakBooks weakBooks() const { return {{books[0], books[1]}}; }
    std::shared_ptr<WorkerDoor> door; // commitGuarded() from workers, past the owner thread
    // The workers inside a blocking call: the destructor waits until they have left.
    std::shared_ptr<WorkerGate> gate = std::make_shared<WorkerGate>();
    MetricsSlotPtr metrics;

    // The spare lease as workers may take it: one at a time, while the queue is prepared.
    struct Shelf
    {
        std::mutex mutex;
        bool open = false;
        qint64 lease = 0; // 0: empty
        std::shared_ptr<LeaseShared> state;
    };
    Shelf shelf;
    // Leases taken from the shelf by workers, until their acquisition arrives here: the
    // keep-alive, and whether the lease failed meanwhile. (What became of the entry, the
    // HoldBook knows: the engine keeps it.)
    struct Lent
    {
        std::unique_ptr<EtcdKeepAlive> keepAlive;
        bool failed = false;
    };
    std::map<qint64, Lent> lent;
    // The worker path (lockqueue_worker.cpp). What a worker takes, then hands over here.
    enum class Handed { Held, Retry, GiveBack };
    std::optional<bool> lockFromWorker(Side side, std::optional<TimePoint> deadline);
    [[nodiscard]] EtcdTxn entryTxn(const Acquisition &a) const;
    static qint64 entryCreatedAt(
        bool succeeded, qint64 revision, const QList<EtcdTxnOpResult> &results);
    bool readEntryAnswer(Acquisition &a, const ReplyData &reply, qsizetype *blocking) const;
    bool awaitAnswer(Side side, MutexRequest &request, std::optional<TimePoint> deadline);
    void lend(qint64 lease);
    void adoptFromWorker(
        std::shared_ptr<Acquisition> handed, Handed how, std::optional<TimePoint> deadline);
    void adoptHeld(Acquisition &a, const Lent &from);
    bool shelveReleased(qint64 lease, const std::shared_ptr<LeaseShared> &state, quint64 id,
        const EtcdStatus &status);
    void takeShelvedBack(std::unique_ptr<Acquisition> released);
    void publishSpare();
    void publishSpareLocked(); // with the shelf's mutex held
    bool haveSpare(); // the spare, unless a worker took it from the shelf (then it is lent)
    bool claimSpare(); // haveSpare(), and off the shelf: this thread uses or drops it
    void openShelf(bool open);
    void armDeadline(Acquisition &a, std::optional<TimePoint> deadline);

    std::map<quint64, std::unique_ptr<Acquisition>> acquisitions;
    std::atomic<quint64> nextId = 0; // workers number their own acquisitions
    quint64 startedId = 0; // the last one start() began
    quint64 ownerPending = 0; // the owner thread's acquire() in flight

    enum class Prepared { No, Running, Yes };
    Prepared prepared = Prepared::No;

    struct Lease
    {
        qint64 id = 0;
        std::unique_ptr<EtcdKeepAlive> keepAlive;
        bool published = false; // on the shelf for workers (unless one took it since)
    };
    std::optional<Lease> spare; // granted ahead of time and kept alive: lock() is one RPC
    QList<quint64> leaseWaiters; // acquisitions waiting for a lease, in arrival order
    PendingGrants grants; // close() waits for their answers
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
};

} // namespace Etcd::Internal
