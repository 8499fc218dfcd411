// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API.
#pragma once

#include "etcdqt_internal_p.h"
#include "keymirror_p.h"

#include <EtcdQt/etcdkeyvalue.h>
#include <EtcdQt/etcdstatus.h>
#include <EtcdQt/etcdtxn.h>
#include <EtcdQt/etcdtxnopresult.h>

#include <QtCore/qobject.h>
#include <QtCore/qtimer.h>

#include <chrono>
#include <deque>
#include <functional>
#include <memory>
#include <optional>

class EtcdRecipe;
class EtcdWatch;
struct EtcdWatchEvent;

namespace Etcd::Internal {

// The take side every queue shares (etcd-recipes' AbstractQueue): the head of a prefix in the
// queue's order, taken by a transaction that commits only while the head's mod revision is
// unchanged. A take that loses the race reads the new head from the same answer (no second
// RPC); an empty queue is waited on with a watch of puts anchored right after the read that
// saw it empty, and the put it reports is taken without a read in between. Takes of one
// object run one at a time, in call order.
//
// The plain queues take by deleting the head. The work queue claims it instead, reads the
// head together with its delayed items, and refills an empty queue from orphaned claims: the
// Hooks say how.
//
// The priority queue reads no head at all: Hooks::aheadOf has the taker keep the queue's
// first keys from its watch (KeyMirror; queuetaker_mirror.cpp).
class ETCDQT_AUTOTEST_EXPORT QueueTaker : public QObject
{
    Q_OBJECT
public:
    enum class Order { ModRevision, Key };
    // `item.key` empty: nothing was taken (an empty queue, a take that did not wait).
    // `revision`: the revision of the take's transaction.
    using Done
        = std::function<void(const EtcdStatus &status, const EtcdKeyValue &item, qint64 revision)>;
    using HeadRead = std::function<void(
        const EtcdStatus &status, const QList<EtcdKeyValue> &head, qint64 revision)>;
    using TxnReady = std::function<void(const EtcdStatus &status, const EtcdTxn &txn)>;

    struct Hooks
    {
        // Reads the head (the first of the list; empty: the queue is empty). Default: one
        // ranged read of the prefix in the queue's order.
        std::function<void(HeadRead done)> readHead;
        // The transaction that takes `head`: it compares the head's mod revision and, as its
        // only failure operation, may read the new head as readHead() does (without one, a
        // lost race tries the next candidate or reads). Default: delete.
        std::function<void(const EtcdKeyValue &head, TxnReady ready)> takeTxn;
        // The queue was empty at `revision`: items may be moved in; done(true) reads again.
        std::function<void(qint64 revision, std::function<void(bool moved)> done)> refill;
        // While waiting: read again after this long at the latest (zero: only on a put).
        std::function<std::chrono::milliseconds()> recheckAfter;
        // A failure to try again after a short pause instead of ending the take.
        std::function<bool(const EtcdStatus &status)> retryLater;
        // Key order: keep the queue's first keys from its watch (KeyMirror) instead of
        // reading the head for each take; the other hooks are not used. Returns [from, to):
        // the keys whose mod revisions tell of an item put ahead of `head` (the priority
        // queue's markers of lower priorities; from empty: none). The take commits only
        // while none of them changed after the mirror's revision.
        std::function<std::pair<QByteArray, QByteArray>(const QByteArray &head)> aheadOf;
    };

    QueueTaker(EtcdRecipe *recipe, const QByteArray &prefix, Order order, Hooks hooks = {});
    ~QueueTaker() override;

    // What the default hooks read: in key order the head (one key, etcd stops there); in
    // mod-revision order the first kCandidates keys (etcd must sort the whole prefix for
    // that order, so one read serves many takes).
    static constexpr int kCandidates = 128;
    [[nodiscard]] EtcdRangeOptions headOptions() const;

    // Queues a take; waiting, it lasts until an item is taken (or cancel(), close(), or the
    // watch failed). Returns its id for cancel(). `done` is never called from within take().
    quint64 take(bool wait, Done done);
    // Ends take `id` with Cancelled at once. When its transaction was already on the wire,
    // the item it takes is kept for the next take, so nothing taken is dropped.
    void cancel(quint64 id);
    // A waiting take reads the head again: something it cannot watch changed (at `revision`,
    // when known). A take reading meanwhile reads again instead of waiting when its read came
    // before `revision`: the change would otherwise be missed until the recheck timer.
    void recheck(qint64 revision = 0);
    // A take waits for the queue to change (recheck() has something to wake).
    [[nodiscard]] bool isWaiting() const { return m_phase == Phase::Waiting; }
    // Follows the queue from now (itemAdded()), also with no take waiting.
    void follow();
    // Cancels every take; a transaction on the wire still answers its take. Each item kept
    // by a cancelled take goes to `orphaned` with its take's revision (the queue puts it
    // back). Idempotent.
    using Orphaned = std::function<void(const EtcdKeyValue &item, qint64 revision)>;
    void close(const Orphaned &orphaned);

Q_SIGNALS:
    void itemAdded(const EtcdKeyValue &item); // while following: an item was put

private:
    struct Take
    {
        quint64 id = 0;
        bool wait = false;
        Done done;
    };
    struct Kept
    {
        EtcdKeyValue item;
        qint64 revision = 0;
    };
    enum class Phase { Idle, Reading, Taking, Waiting };

    static EtcdStatus cancelled();
    void pump();
    void readHead();
    void readRevision(qint64 revision);
    void setCandidates(QList<EtcdKeyValue> kvs);
    void sendTake(const EtcdKeyValue &head);
    void onTakeAnswer(quint64 takeId, const EtcdKeyValue &head, const EtcdStatus &status,
        bool succeeded, bool readsHead, const QList<EtcdKeyValue> &kvs, qint64 revision);
    void onHead(const QList<EtcdKeyValue> &kvs, qint64 revision);
    void onEmpty(qint64 revision);
    void wait(qint64 revision);
    void onTaken(quint64 takeId, const EtcdKeyValue &item, qint64 revision);
    void onEvents(const QList<EtcdWatchEvent> &events);
    void takeRecentPuts();
    void keepRecentPuts(const QList<EtcdWatchEvent> &events);
    void finishFront(const EtcdStatus &status, const EtcdKeyValue &item = {}, qint64 revision = 0);
    void fail(const EtcdStatus &status);
    void startWatch(qint64 revision);
    void defaultRead(const HeadRead &done);
    void defaultTake(const EtcdKeyValue &head, const TxnReady &ready);
    [[nodiscard]] static EtcdTxn deleteIfUnchanged(const EtcdKeyValue &head);
    [[nodiscard]] bool mirrored() const { return bool(m_hooks.aheadOf); }
    void pumpMirror();
    void loadMirror();
    void reloadMirror();
    void wakeWaiting();
    bool holdOff(const QByteArray &head);
    [[nodiscard]] EtcdTxn mirrorTake(const EtcdKeyValue &head);
    void onMirrorAnswer(quint64 takeId, const EtcdKeyValue &head, const EtcdStatus &status,
        bool succeeded, const QList<EtcdTxnOpResult> &results, qint64 revision);
    [[nodiscard]] bool current(quint64 epoch) const { return epoch == m_epoch; }

    EtcdRecipe *m_recipe;
    QByteArray m_prefix;
    Order m_order;
    Hooks m_hooks;
    std::deque<Take> m_takes;
    std::deque<Kept> m_kept; // taken for a take that was cancelled meanwhile
    // The heads to try in order, from a read or put events. In mod-revision order the first
    // still present is the queue's head: revisions only grow, so no later put goes before.
    std::deque<EtcdKeyValue> m_candidates;
    std::deque<EtcdKeyValue> m_recentPuts; // puts seen since the last empty read
    std::unique_ptr<EtcdWatch> m_watch;
    Orphaned m_orphaned; // set by close()
    QTimer m_recheck; // a waiting take reads again (Hooks::recheckAfter)
    Phase m_phase = Phase::Idle;
    quint64 m_nextId = 1;
    quint64 m_epoch = 0; // answers of an earlier read are dropped
    qint64 m_emptyAt = 0; // the revision at which the queue was last seen empty
    qint64 m_changedAt = 0; // the latest recheck(revision) that found no take waiting
    bool m_closed = false;
    // Mirrored (Hooks::aheadOf): the keys, the revision a take waits for it to reach (an
    // item was put ahead of its head), the revision the watch started at, and which read of
    // the keys is the current one.
    KeyMirror m_mirror;
    qint64 m_needRevision = 0;
    qint64 m_guardRevision = 0; // the mirror's revision the take on the wire was built at
    qint64 m_watchFrom = 0;
    quint64 m_loadSeq = 0;
    // Lost its last race to another taker: it holds off before trying a head (holdOff()).
    bool m_contended = false;
    QByteArray m_heldOffFor;
    std::chrono::steady_clock::time_point m_heldOffUntil;
    QTimer m_holdOff;
};

} // namespace Etcd::Internal
