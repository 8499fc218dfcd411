// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "clientcalls_p.h"
#include "etcdqt_internal_p.h"
#include "handover_p.h"
#include "queuetaker_p.h"
#include "recipelayer_p.h"

#include <EtcdQt/etcdclient.h>
#include <EtcdQt/etcdrangereply.h>
#include <EtcdQt/etcdrecipe.h>
#include <EtcdQt/etcdtxnreply.h>
#include <EtcdQt/etcdwatch.h>

#include <tuple>

using namespace std::chrono;

namespace Etcd::Internal {

EtcdStatus QueueTaker::cancelled()
{
    return EtcdStatus(Etcd::ErrorCode::Cancelled, QueueTaker::tr("the take was cancelled"));
}

namespace {

// etcd-recipes pauses as long before trying again after a lost lease (LEASE_HEAL_PAUSE_MS).
constexpr milliseconds kRetryPause(250);
} // namespace

QueueTaker::QueueTaker(EtcdRecipe *recipe, const QByteArray &prefix, Order order, Hooks hooks)
    : QObject(recipe), m_recipe(recipe), m_prefix(prefix), m_order(order), m_hooks(std::move(hooks))
{
    if (!m_hooks.readHead)
        m_hooks.readHead = [this](HeadRead done) { defaultRead(done); };
    if (!m_hooks.takeTxn)
        m_hooks.takeTxn
            = [this](const EtcdKeyValue &head, TxnReady ready) { defaultTake(head, ready); };
    m_recheck.setSingleShot(true);
    connect(&m_recheck, &QTimer::timeout, this, [this] { recheck(); });
    m_holdOff.setSingleShot(true);
    m_holdOff.setTimerType(Qt::PreciseTimer);
    connect(&m_holdOff, &QTimer::timeout, this, [this] { wakeWaiting(); });
}

QueueTaker::~QueueTaker() = default;

EtcdRangeOptions QueueTaker::headOptions() const
{
    EtcdRangeOptions o;
    o.prefix = true;
    o.limit = 1;
    if (m_order == Order::ModRevision) {
        o.limit = kCandidates;
        o.keysOnly = true; // the delete answers the value it deleted
        o.sortTarget = Etcd::SortTarget::ModRevision;
        o.sortOrder = Etcd::SortOrder::Ascending;
    }
    return o;
}

quint64 QueueTaker::take(bool wait, Done done)
{
    const quint64 id = m_nextId++;
    if (m_closed) { // answered on the next turn, after the caller has connected
        postQueued(this, [done = std::move(done)] { done(cancelled(), {}, 0); });
        return id;
    }
    m_takes.push_back({id, wait, std::move(done)});
    if (m_kept.empty() && !mirrored())
        pump(); // sends a request: its answer comes later (a mirror may answer at once)
    else
        QMetaObject::invokeMethod(this, &QueueTaker::pump, Qt::QueuedConnection);
    return id;
}

void QueueTaker::cancel(quint64 id)
{
    const auto it
        = std::find_if(m_takes.begin(), m_takes.end(), [id](const Take &t) { return t.id == id; });
    if (it == m_takes.end())
        return;
    const bool front = it == m_takes.begin();
    const Done done = std::move(it->done);
    m_takes.erase(it);
    if (front && m_phase != Phase::Taking) { // a read or a wait: its answer is dropped
        ++m_epoch;
        m_phase = Phase::Idle;
        m_recheck.stop();
    }
    done(cancelled(), {}, 0);
    pump();
}

void QueueTaker::recheck(qint64 revision)
{
    if (mirrored())
        return reloadMirror(); // what changed unseen is read again
    if (m_phase != Phase::Waiting) {
        m_changedAt = std::max(m_changedAt, revision); // wait() reads again if it came later
        return;
    }
    m_recheck.stop();
    m_phase = Phase::Idle;
    pump();
}

// The watch starts right after a read's revision, as a waiting take's does, so a take that
// reads the queue empty later misses no put (a watch "from now" would be live at an unknown
// revision).
void QueueTaker::follow()
{
    if (m_watch || m_closed)
        return;
    EtcdRangeOptions o;
    o.prefix = true;
    o.countOnly = true;
    EtcdRangeReply *r = getOn(m_recipe->client(), m_prefix, o);
    connect(r, &EtcdReply::finished, this, [this, r](const EtcdStatus &s) {
        if (s.isOk() && !m_watch && !m_closed)
            startWatch(r->revision() + 1);
    });
}

void QueueTaker::close(const Orphaned &orphaned)
{
    if (m_closed)
        return;
    m_closed = true;
    m_recheck.stop();
    m_holdOff.stop();
    if (m_phase != Phase::Taking) // a transaction on the wire still answers the front take
        ++m_epoch;
    std::deque<Take> takes;
    takes.swap(m_takes);
    if (m_phase == Phase::Taking && !takes.empty()) {
        m_takes.push_back(std::move(takes.front()));
        takes.pop_front();
    }
    m_watch.reset();
    m_mirror.invalidate();
    ++m_loadSeq;
    m_orphaned = orphaned;
    for (Take &t : takes)
        t.done(cancelled(), {}, 0);
    const std::deque<Kept> kept = std::exchange(m_kept, {});
    for (const Kept &k : kept) {
        if (m_orphaned)
            m_orphaned(k.item, k.revision);
    }
}

// Starts the next step of the front take, unless one is on the wire or it waits for a put.
void QueueTaker::pump()
{
    if (m_takes.empty() || m_closed || m_phase == Phase::Reading || m_phase == Phase::Taking)
        return;
    if (!m_kept.empty()) {
        const Kept kept = m_kept.front();
        m_kept.pop_front();
        m_phase = Phase::Idle;
        return finishFront({}, kept.item, kept.revision);
    }
    if (mirrored())
        return pumpMirror();
    if (!m_candidates.empty()) {
        m_recheck.stop();
        const EtcdKeyValue head = m_candidates.front();
        m_candidates.pop_front();
        return sendTake(head);
    }
    if (m_phase == Phase::Idle)
        readHead();
}

void QueueTaker::defaultRead(const HeadRead &done)
{
    EtcdRangeReply *r = getOn(m_recipe->client(), m_prefix, headOptions());
    connect(r, &EtcdReply::finished, this,
        [r, done](const EtcdStatus &s) { done(s, r->keyValues(), r->revision()); });
}

// Deletes the head only while it is unchanged; the delete answers the item it deleted.
EtcdTxn QueueTaker::deleteIfUnchanged(const EtcdKeyValue &head)
{
    EtcdTxn txn;
    txn.compares.append(
        EtcdCompare::modRevision(head.key, Etcd::CompareResult::Equal, head.modRevision));
    EtcdDeleteOptions del;
    del.prevKv = true;
    txn.success.append(EtcdTxnOp::remove(head.key, del));
    return txn;
}

void QueueTaker::defaultTake(const EtcdKeyValue &head, const TxnReady &ready)
{
    if (mirrored())
        return ready({}, mirrorTake(head));
    EtcdTxn txn = deleteIfUnchanged(head);
    // A lost race reads the new head in the same answer, unless candidates are left to try
    // first (in mod order that read sorts the whole prefix: it is made only when needed).
    if (m_order == Order::Key || m_candidates.empty())
        txn.failure.append(EtcdTxnOp::get(m_prefix, headOptions()));
    ready({}, txn);
}

void QueueTaker::readHead()
{
    m_phase = Phase::Reading;
    m_hooks.readHead(
        [this, e = m_epoch](const EtcdStatus &s, const QList<EtcdKeyValue> &kvs, qint64 revision) {
            if (!current(e))
                return;
            m_phase = Phase::Idle;
            if (!s.isOk())
                return fail(s);
            onHead(kvs, revision);
        });
}

// The keys of one revision in key order: the items of one batch in their index order.
void QueueTaker::readRevision(qint64 revision)
{
    m_phase = Phase::Reading;
    EtcdRangeOptions o = headOptions();
    o.sortOrder = Etcd::SortOrder::None;
    o.minModRevision = revision;
    o.maxModRevision = revision;
    EtcdRangeReply *r = getOn(m_recipe->client(), m_prefix, o);
    connect(r, &EtcdReply::finished, this, [this, r, e = m_epoch](const EtcdStatus &s) {
        if (!current(e))
            return;
        m_phase = Phase::Idle;
        if (!s.isOk())
            return fail(s);
        setCandidates(r->keyValues());
        pump();
    });
}

// etcd sorts by mod revision with an unstable sort, so the items of one batch (one
// transaction, one revision) come in any order: sorted again here by (revision, key), the
// key carrying the batch index. A full answer may have cut the last revision's items short:
// those are left for the next read, unless that revision is all there is.
void QueueTaker::setCandidates(QList<EtcdKeyValue> kvs)
{
    if (m_order == Order::Key) // etcd answered in key order
        return m_candidates.assign(kvs.begin(), kvs.end());
    std::sort(kvs.begin(), kvs.end(), [](const EtcdKeyValue &a, const EtcdKeyValue &b) {
        return std::tie(a.modRevision, a.key) < std::tie(b.modRevision, b.key);
    });
    if (kvs.size() >= kCandidates) {
        const qint64 last = kvs.last().modRevision;
        while (!kvs.isEmpty() && kvs.last().modRevision == last)
            kvs.removeLast();
    }
    m_candidates.assign(kvs.begin(), kvs.end());
}

void QueueTaker::onHead(const QList<EtcdKeyValue> &kvs, qint64 revision)
{
    if (m_takes.empty())
        return;
    if (kvs.isEmpty())
        return onEmpty(revision);
    m_recentPuts.clear(); // the read found items: later puts come after them
    const bool oneRevision = kvs.first().modRevision == kvs.last().modRevision;
    if (m_order == Order::ModRevision && kvs.size() >= kCandidates && oneRevision)
        return readRevision(kvs.first().modRevision); // one batch fills the answer
    setCandidates(kvs);
    pump();
}

void QueueTaker::onEmpty(qint64 revision)
{
    m_emptyAt = std::max(m_emptyAt, revision);
    std::erase_if(
        m_recentPuts, [this](const EtcdKeyValue &kv) { return kv.modRevision <= m_emptyAt; });
    if (!m_hooks.refill)
        return wait(revision);
    m_phase = Phase::Reading;
    m_hooks.refill(revision, [this, revision, e = m_epoch](bool moved) {
        if (!current(e))
            return;
        m_phase = Phase::Idle;
        if (moved)
            return pump();
        wait(revision);
    });
}

void QueueTaker::wait(qint64 revision)
{
    if (m_takes.empty())
        return;
    if (!m_recentPuts.empty()) // put after the read was served, seen before its answer
        return takeRecentPuts();
    if (!m_takes.front().wait)
        return finishFront({});
    if (m_changedAt > revision) { // what the read could not see changed after it: read again
        m_phase = Phase::Idle;
        return pump();
    }
    m_phase = Phase::Waiting;
    if (!m_watch)
        startWatch(revision + 1);
    const milliseconds after = m_hooks.recheckAfter ? m_hooks.recheckAfter() : milliseconds(0);
    if (after > milliseconds(0))
        m_recheck.start(after);
}

void QueueTaker::sendTake(const EtcdKeyValue &head)
{
    m_phase = Phase::Reading; // building the transaction may read first (it is not sent yet)
    m_hooks.takeTxn(head, [this, head, e = m_epoch](const EtcdStatus &s, const EtcdTxn &txn) {
        if (!current(e))
            return;
        if (!s.isOk()) {
            m_phase = Phase::Idle;
            return fail(s);
        }
        m_phase = Phase::Taking;
        EtcdTxnReply *r = txnOn(m_recipe->client(), txn);
        const quint64 id = m_takes.front().id;
        const bool readsHead = !txn.failure.isEmpty();
        connect(
            r, &EtcdReply::finished, this, [this, r, head, id, readsHead](const EtcdStatus &st) {
                const QList<EtcdTxnOpResult> results = r->results();
                if (mirrored())
                    return onMirrorAnswer(id, head, st, r->succeeded(), results, r->revision());
                const QList<EtcdKeyValue> kvs
                    = results.isEmpty() ? QList<EtcdKeyValue>() : results.first().keyValues;
                onTakeAnswer(id, head, st, r->succeeded(), readsHead, kvs, r->revision());
            });
    });
}

void QueueTaker::onTakeAnswer(quint64 takeId, const EtcdKeyValue &head, const EtcdStatus &status,
    bool succeeded, bool readsHead, const QList<EtcdKeyValue> &kvs, qint64 revision)
{
    m_phase = Phase::Idle;
    const bool ours = !m_takes.empty() && m_takes.front().id == takeId;
    if (!status.isOk()) {
        if (ours)
            fail(status);
        return pump();
    }
    if (succeeded) // a delete answers the item it deleted; a claim, nothing (the head is it)
        return onTaken(takeId, kvs.isEmpty() ? head : kvs.first(), revision);
    if (m_closed)
        return finishFront(cancelled());
    if (!readsHead) // lost the race: the next candidate
        return pump();
    onHead(kvs, revision); // lost the race: the answer carries the new head
}

void QueueTaker::onTaken(quint64 takeId, const EtcdKeyValue &item, qint64 revision)
{
    if (!m_takes.empty() && m_takes.front().id == takeId)
        return finishFront({}, item, revision);
    // Its take was cancelled while the transaction was on the wire: the next take gets it.
    qCDebug(lcEtcdQueue).noquote()
        << "queue" << m_prefix << "keeps" << item.key << "taken for a cancelled take";
    if (!m_closed)
        m_kept.push_back({item, revision});
    else if (m_orphaned)
        m_orphaned(item, revision);
    pump();
}

// A failure ends the front take, unless it passes: then it tries again soon. What passes: what
// the hooks say, and for a take that waits, an outage of an etcd the client had reached
// (restarting, unreachable for a while, without a leader): such a take lasts until it takes an
// item, as its watch lasts across the outage. An etcd never reached fails it in bounded time.
void QueueTaker::fail(const EtcdStatus &status)
{
    const bool outage = RecipeLayer::isOutageOfReachedEtcd(m_recipe->client(), status);
    const bool passes = (m_hooks.retryLater && m_hooks.retryLater(status))
        || (outage && !m_takes.empty() && m_takes.front().wait);
    if (passes && !m_takes.empty() && !m_closed) {
        qCDebug(lcEtcdQueue).noquote() << "queue" << m_prefix << "retries after" << status;
        m_phase = Phase::Waiting;
        m_recheck.start(kRetryPause);
        return;
    }
    finishFront(status);
}

void QueueTaker::finishFront(const EtcdStatus &status, const EtcdKeyValue &item, qint64 revision)
{
    if (m_takes.empty())
        return;
    const Done done = std::move(m_takes.front().done);
    m_takes.pop_front();
    done(status, item, revision);
    pump();
}

void QueueTaker::startWatch(qint64 revision)
{
    EtcdWatchOptions options;
    options.prefix = true;
    options.noDelete = !mirrored(); // a mirror drops the keys others took
    options.startRevision = revision; // right after the read that saw the queue empty
    m_watchFrom = revision;
    WatchFollower f;
    f.events = [this](const QList<EtcdWatchEvent> &events) { onEvents(events); };
    f.reconnected = [this](qint64 compactedAt) { recheck(compactedAt); }; // a gap's puts
    f.failed = [this](const EtcdStatus &why) {
        m_watch.release()->deleteLater(); // we are inside one of its signals
        if (mirrored() && m_mirror.isLoaded())
            m_mirror.invalidate(); // what follows is unseen: read again (a load restarts it)
        if (m_phase == Phase::Waiting) {
            m_recheck.stop();
            m_phase = Phase::Idle;
            finishFront(why);
        }
    };
    m_watch = RecipeLayer::followWatch(
        m_recipe, m_prefix, options, EtcdWatch::ResyncMode::ResumeAtCompaction, std::move(f));
}

// A put after the queue was seen empty is its head at that revision: it is taken at once,
// without reading it again (a lost race reads the new head from the take's answer). A put
// that comes while a read is on the wire is kept: the read may have been served before it
// (the answer and the event travel apart), and then the wait must not miss it.
void QueueTaker::onEvents(const QList<EtcdWatchEvent> &events)
{
    if (mirrored()) {
        m_mirror.apply(events);
        wakeWaiting();
    } else {
        keepRecentPuts(events);
    }
    for (const EtcdWatchEvent &event : events) {
        if (event.type == EtcdWatchEvent::Type::Put)
            Q_EMIT itemAdded(event.keyValue);
    }
}

void QueueTaker::keepRecentPuts(const QList<EtcdWatchEvent> &events)
{
    for (const EtcdWatchEvent &event : events) {
        if (event.type != EtcdWatchEvent::Type::Put || event.revision <= m_emptyAt
            || m_takes.empty())
            continue;
        if (m_recentPuts.size() >= kCandidates)
            m_recentPuts.pop_front();
        m_recentPuts.push_back(event.keyValue);
    }
    if (m_phase == Phase::Waiting && !m_recentPuts.empty())
        takeRecentPuts();
}

// The puts seen after the queue was last seen empty become the candidates (in key order
// the lowest key first).
void QueueTaker::takeRecentPuts()
{
    m_recheck.stop();
    m_phase = Phase::Idle;
    std::deque<EtcdKeyValue> puts = std::exchange(m_recentPuts, {});
    if (m_order == Order::Key)
        std::sort(puts.begin(), puts.end(),
            [](const EtcdKeyValue &a, const EtcdKeyValue &b) { return a.key < b.key; });
    m_candidates = std::move(puts);
    pump();
}

} // namespace Etcd::Internal
