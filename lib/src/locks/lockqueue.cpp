// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// The acquisition machinery shared by the locks (see lockqueue_p.h for its shape).
#include "clientcalls_p.h"
#include "etcdqt_internal_p.h"
#include "handover_p.h"
#include "leaseops_p.h"
#include "lockqueue_p.h"
#include "recipelayer_p.h"
#include "recipepaths_p.h"

#include <EtcdQt/etcdclient.h>
#include <EtcdQt/etcdreplies.h>

#include <QtCore/qscopeguard.h>

using namespace Etcd::Internal;
using namespace std::chrono;
using namespace Qt::StringLiterals;

namespace {
constexpr milliseconds kGrantTimeout {5000};
constexpr int kRetryMinMs = 100;

} // namespace

void LockQueue::dropTimer(std::unique_ptr<QTimer> &t)
{
    // Possibly inside its own timeout(): stop it now, delete it later.
    if (!t)
        return;
    t->stop();
    t.release()->deleteLater();
}

void LockQueue::dropKeepAlive(std::unique_ptr<EtcdKeepAlive> &k)
{
    // Possibly inside its own signal: stop it now, delete it later.
    if (!k)
        return;
    k->disconnect();
    k->stop();
    k.release()->deleteLater();
}

LockQueue::LockQueue(EtcdRecipe *q, LockLayout l, seconds t, bool interrupt,
    std::array<std::shared_ptr<HoldBook>, 2> b)
    : ttl(t), interruptOnLoss(interrupt), layout(std::move(l)), q(q), books(std::move(b)),
      door(workerDoorOf(q->client())), metrics(metricsOf(q->client())), grants(q)
{
    grantRetry.setSingleShot(true);
    QObject::connect(&grantRetry, &QTimer::timeout, q, [this] { topUpLeases(); });
}

EtcdStatus LockQueue::inputProblem() const
{
    if (q->isClosed())
        return EtcdStatus(Etcd::ErrorCode::FailedPrecondition,
            EtcdRecipe::tr("the %1 is closed").arg(nounText()));
    if (layout.allowance < 1)
        return EtcdStatus(Etcd::ErrorCode::InvalidArgument,
            EtcdRecipe::tr("a %1 needs at least one permit").arg(nounText()));
    if (layout.path.isEmpty())
        return EtcdStatus(
            Etcd::ErrorCode::InvalidArgument, EtcdRecipe::tr("empty %1 path").arg(nounText()));
    if (const auto problem = leaseTtlProblem(ttl))
        return *problem;
    if (!q->client())
        return EtcdStatus(Etcd::ErrorCode::NotConnected, EtcdRecipe::tr("no client"));
    return {};
}

LockQueue::Acquisition *LockQueue::find(quint64 id)
{
    const auto it = acquisitions.find(id);
    return it == acquisitions.end() ? nullptr : it->second.get();
}

bool LockQueue::start(Side side, std::shared_ptr<MutexRequest> request, ThreadId thread,
    QPointer<QThread> qthread, std::optional<TimePoint> deadline)
{
    if (const EtcdStatus problem = inputProblem(); !problem.isOk()) {
        if (!q->isClosed())
            q->recordError(problem);
        if (request)
            book(side).fail(*request);
        return false;
    }
    auto owned = std::make_unique<Acquisition>();
    Acquisition &a = *owned;
    a.id = ++nextId;
    startedId = a.id;
    a.side = side;
    a.request = std::move(request);
    a.thread = thread;
    a.qthread = std::move(qthread);
    if (layout.metric[side])
        a.waiting = MetricSpan(metrics);
    acquisitions.emplace(a.id, std::move(owned));
    armDeadline(a, deadline);
    q->setActive(true);
    ensureWatch();
    if (prepared == Prepared::Yes) {
        needLease(a);
    } else {
        a.phase = Phase::Preparing;
        runPrepare();
    }
    return true;
}

// A semaphore checks its permit count once, before its first entry; everyone else is ready.
// A failed check fails the acquisitions waiting for it; the next acquisition checks again
// (never at once: a count that disagrees with etcd's would be asked about in a loop).
void LockQueue::runPrepare()
{
    if (!prepare) {
        prepared = Prepared::Yes;
        openShelf(true);
    } else if (prepared == Prepared::No) {
        prepared = Prepared::Running;
        return prepare([this](const EtcdStatus &status) {
            prepared = status.isOk() ? Prepared::Yes : Prepared::No;
            openShelf(status.isOk());
            if (!status.isOk())
                q->recordError(status);
            settlePreparing();
        });
    } else if (prepared == Prepared::Running) {
        return;
    }
    settlePreparing();
}

void LockQueue::settlePreparing()
{
    std::vector<quint64> ids;
    for (const auto &[id, a] : acquisitions) {
        if (a->phase == Phase::Preparing)
            ids.push_back(id);
    }
    for (quint64 id : ids) {
        Acquisition *a = find(id);
        if (!a)
            continue;
        if (prepared == Prepared::Yes) {
            needLease(*a);
            continue;
        }
        if (a->request)
            book(a->side).fail(*a->request);
        endWait(*a, EtcdMetrics::Outcome::Failed);
        discard(id);
    }
}

// The spare lease goes to this acquisition and a new spare is granted at once, alongside
// the transaction: no grant sits on the path of a lock() that finds a spare.
void LockQueue::needLease(Acquisition &a)
{
    a.phase = Phase::NeedLease;
    a.key.clear();
    a.leaseId = 0;
    if (claimSpare()) {
        a.leaseId = spare->id;
        a.keepAlive = std::move(spare->keepAlive);
        spare.reset();
        topUpLeases();
        return tryAcquire(a);
    }
    leaseWaiters.append(a.id);
    topUpLeases();
}

void LockQueue::topUpLeases()
{
    if (closing || !q->client() || grantRetry.isActive())
        return;
    // A lease for each waiter and one spare, so that the next acquire() finds one at once:
    // its transaction then goes out right behind the release's delete instead of after that
    // delete's answer (the lease it frees). A lease whose delete is in flight comes back
    // within a round trip and counts as coming: a loop of acquire() and release() settles on
    // two leases taking turns, and costs etcd two writes per turn (the transaction and the
    // delete), no grant or revoke. A lease lent to a worker counts as coming too: its
    // unlock() puts it on the shelf for the next lock(), which must find the shelf empty.
    qsizetype coming = qsizetype(lent.size());
    for (const auto &[id, a] : acquisitions)
        coming += a->phase == Phase::Releasing ? 1 : 0;
    const qsizetype wanted = leaseWaiters.size() + 1;
    for (qsizetype have = grants.inFlight() + (haveSpare() ? 1 : 0) + coming; have < wanted; ++have)
        grant();
}

void LockQueue::grant()
{
    grants.grant(
        ttl, kGrantTimeout, [this](const EtcdStatus &s, qint64 lease) { onGranted(s, lease); });
}

void LockQueue::onGranted(const EtcdStatus &status, qint64 lease)
{
    if (!status.isOk()) {
        q->recordError(status);
        if (!leaseWaiters.isEmpty()) {
            grantRetryMs = backoffMs(grantRetryMs, kRetryMinMs, ttl);
            grantRetry.start(grantRetryMs);
        }
        return;
    }
    grantRetryMs = 0;
    adoptLease(lease, keepAliveFor(lease));
}

// A live lease, granted or handed back by a release: to the first acquisition waiting for
// one, else the spare, else (more than needed) revoked.
void LockQueue::adoptLease(qint64 lease, std::unique_ptr<EtcdKeepAlive> keepAlive)
{
    while (!leaseWaiters.isEmpty()) {
        Acquisition *a = find(leaseWaiters.takeFirst());
        if (!a || a->phase != Phase::NeedLease)
            continue;
        a->leaseId = lease;
        a->keepAlive = std::move(keepAlive);
        return tryAcquire(*a);
    }
    if (haveSpare()) {
        dropKeepAlive(keepAlive);
        revokeLeaseQuietly(q->client(), lease);
        return;
    }
    spare = Lease {lease, std::move(keepAlive)};
    publishSpare();
}

std::unique_ptr<EtcdKeepAlive> LockQueue::keepAliveFor(qint64 lease)
{
    KeepAliveFollower follow;
    follow.failed = [this, lease](const EtcdStatus &why) { onLeaseFailed(lease, why); };
    // A hold on this lease ends in the engine thread the moment the engine decides the lease
    // is gone; lockLost() follows when this thread gets to `failed`.
    follow.lost = [books = weakBooks(), lease](const EtcdStatus &) {
        books.forEach([lease](HoldBook &book) { book.loseLease(lease); });
    };
    return RecipeLayer::followKeepAlive(q, lease, ttl, std::move(follow));
}

// A hold's lease is never healed: etcd has deleted the key and may have a new holder. A
// waiter's lease is only its ticket: it queues again, at the tail, with a fresh one.
void LockQueue::onLeaseFailed(qint64 lease, const EtcdStatus &why)
{
    if (spare && spare->id == lease && claimSpare()) {
        dropKeepAlive(spare->keepAlive);
        spare.reset();
        return topUpLeases();
    }
    if (const auto it = lent.find(lease); it != lent.end()) {
        dropKeepAlive(it->second.keepAlive);
        it->second.failed = true; // its worker's acquisition learns it on arrival
        return;
    }
    for (auto &[id, owned] : acquisitions) {
        Acquisition &a = *owned;
        if (a.leaseId != lease)
            continue;
        dropKeepAlive(a.keepAlive);
        switch (a.phase) {
        case Phase::Held:
            return loseHold(a,
                EtcdStatus(Etcd::ErrorCode::LeaseExpired,
                    EtcdRecipe::tr("the %1's lease is gone: %2").arg(nounText(), why.message())),
                Cause::Lease);
        case Phase::Trying:
        case Phase::Waiting:
        case Phase::Recheck:
            ++a.attempt; // an answer still on its way is about the old key
            // Unheard for a TTL is not always gone: an old key must not stay ahead of us.
            revokeLeaseQuietly(q->client(), lease);
            return needLease(a);
        default:
            return; // releasing or ending: the key goes anyway
        }
    }
}

// One watch for the whole lock, from "now": etcd serves it from its synced group (a watch
// that starts at an older revision waits for etcd's 100 ms catch-up loop). Reads are only
// trusted once it covers their revision; a read it does not cover is done again once live.
void LockQueue::ensureWatch()
{
    if (watch || closing)
        return;
    EtcdWatchOptions o;
    o.prefix = true;
    o.noPut = true;
    WatchFollower follow;
    follow.events = [this](const QList<EtcdWatchEvent> &events) { onDeletes(events); };
    follow.active = [this] {
        if (watchFrom == 0 && watch) {
            watchFrom = watch->nextRevision();
            onWatchLive();
        }
    };
    follow.failed = [this](const EtcdStatus &why) { onWatchFailed(why); };
    // A hold whose key is deleted ends in the engine thread, before this thread hears of it.
    ArmedGuard guard;
    guard.armed = [first = books[0]->holding(), second = books[1] ? books[1]->holding() : nullptr] {
        return first->load() || (second && second->load());
    };
    guard.see = [books = weakBooks()](const QList<EtcdWatchEvent> &events) {
        for (const EtcdWatchEvent &e : events)
            books.forEach([&e](HoldBook &book) { book.loseKey(e.keyValue.key, e.revision); });
    };
    follow.guard = std::move(guard);
    watch = RecipeLayer::followWatch(
        q, layout.prefix, o, EtcdWatch::ResyncMode::ResumeAtCompaction, std::move(follow));
    QObject::connect(watch.get(), &EtcdWatch::resynced, q, [this](qint64 compacted, qint64) {
        qCDebug(lcEtcdLock).noquote() << layout.noun << layout.prefix << "history compacted at"
                                      << compacted << "; re-reading";
        watchFrom = 0; // history was compacted away: what was read before is re-read once live
    });
}

bool LockQueue::watchCovers(qint64 revision) const
{
    return watchFrom > 0 && watchFrom <= revision + 1;
}

void LockQueue::onWatchLive()
{
    watchRetryMs = 0;
    std::vector<quint64> ids;
    for (const auto &[id, a] : acquisitions)
        ids.push_back(id);
    for (quint64 id : ids) {
        Acquisition *a = find(id);
        if (!a)
            continue;
        // A Recheck waits for exactly this, whether or not the watch happens to cover its
        // read (it may: a watch from "now" can start right after it), and deletes were not
        // applied to it meanwhile: read again.
        if (a->phase == Phase::Recheck)
            tryAcquire(*a);
        else if (watchCovers(a->seen))
            continue;
        else if (a->phase == Phase::Waiting)
            tryAcquire(*a); // read again, now that no DELETE after it can be missed
        else if (a->phase == Phase::Held)
            validate(*a);
    }
}

void LockQueue::onWatchFailed(const EtcdStatus &why)
{
    watchFrom = 0;
    watch.release()->deleteLater(); // we are inside its signal
    q->recordError(why);
    watchRetryMs = backoffMs(watchRetryMs, kRetryMinMs, ttl);
    QTimer::singleShot(watchRetryMs, q, [this] {
        if (!acquisitions.empty())
            ensureWatch();
    });
}

// Hold `a` was released and this thread has not heard of it yet: a worker's delete is on its
// way (releaseBlocking(), whose answer comes to onReleased()), or a release() from another
// thread is queued here (releaseHold(): it sends the delete). The key's deletion, or the
// lease's end, is then no loss: the release decides, and says whether the hold was still ours.
bool LockQueue::releasedMeanwhile(const Acquisition &a) const
{
    return a.phase == Phase::Held && book(a.side).released(a.id);
}

// The engine has dispossessed the hold already (the watch's guard); the signals say whether
// the lease went with the key, so they read the same whichever etcd reported first.
void LockQueue::loseHoldForKey(Acquisition &a)
{
    if (std::exchange(a.confirmingLoss, true))
        return;
    const auto decided = [this, id = a.id](std::optional<bool> gone, const EtcdStatus &) {
        Acquisition *a = find(id);
        if (!a || a->phase != Phase::Held)
            return; // lost through its lease meanwhile, or released
        a->confirmingLoss = false;
        if (!gone.value_or(false))
            return loseHold(
                *a, lostStatus(QT_TRANSLATE_NOOP("EtcdRecipe", "the %1 key was deleted")));
        dropKeepAlive(a->keepAlive); // etcd has no such lease: nothing to renew or revoke
        loseHold(*a,
            EtcdStatus(Etcd::ErrorCode::LeaseExpired,
                EtcdRecipe::tr("the %1's lease is gone").arg(nounText())),
            Cause::Lease);
    };
    const auto known = a.keepAlive ? leaseStateOf(*a.keepAlive) : nullptr; // the engine's word
    RecipeLayer::askWhetherLeaseIsGone(q->client(), q, a.leaseId, decided, known);
}

void LockQueue::onDeletes(const QList<EtcdWatchEvent> &events)
{
    for (const EtcdWatchEvent &e : events) {
        if (e.type != EtcdWatchEvent::Type::Delete)
            continue;
        const QByteArray &key = e.keyValue.key;
        qCDebug(lcEtcdLock).noquote()
            << layout.noun << layout.prefix << "saw" << key << "deleted at" << e.revision;
        if (!txnStarts.empty())
            recentDeletes.push_back({deleteSeq++, key, e.revision});
        std::vector<quint64> ids;
        for (const auto &[id, a] : acquisitions)
            ids.push_back(id);
        for (quint64 id : ids) {
            Acquisition *a = find(id);
            if (!a || e.revision <= a->seen)
                continue;
            if (a->phase == Phase::Held && key == a->key && !releasedMeanwhile(*a))
                loseHoldForKey(*a);
            else if (a->phase == Phase::Waiting && key == a->key)
                tryAcquire(*a); // our key was deleted, not our lease: queue again
            else if (a->phase == Phase::Waiting && a->ahead.remove(key)) {
                a->seen = e.revision;
                if (mayHold(*a))
                    becomeHeld(*a);
            }
        }
    }
}

// ONE transaction: create our key unless it exists (etcd's concurrency.Mutex does the same),
// and read the whole queue by create revision. Whoever was created before us is ahead.
void LockQueue::tryAcquire(Acquisition &a)
{
    if (!q->client()) {
        if (a.request)
            book(a.side).fail(*a.request);
        endWait(a, EtcdMetrics::Outcome::Failed);
        return discard(a.id);
    }
    a.phase = Phase::Trying;
    if (a.key.isEmpty())
        a.key = layout.entryKey(a.side, a.leaseId);
    const quint64 attempt = ++a.attempt;
    const quint64 since = deleteSeq;
    txnStarts.insert(since);
    EtcdTxnReply *reply = txnOn(q->client(), entryTxn(a));
    QObject::connect(reply, &EtcdReply::finished, q,
        [this, id = a.id, attempt, since, reply](
            const EtcdStatus &s) { onTried(id, attempt, since, reply, s); });
}

void LockQueue::onTried(
    quint64 id, quint64 attempt, quint64 since, EtcdTxnReply *reply, const EtcdStatus &status)
{
    // A DELETE may be seen before the answer of a read that predates it. Deletes are kept
    // while a transaction sent before them is unanswered.
    const auto done = qScopeGuard([this, since] {
        txnStarts.erase(txnStarts.find(since));
        const quint64 oldest = txnStarts.empty() ? deleteSeq : *txnStarts.begin();
        while (!recentDeletes.empty() && recentDeletes.front().seq < oldest)
            recentDeletes.pop_front();
    });
    Acquisition *a = find(id);
    if (!a || a->attempt != attempt || a->phase != Phase::Trying)
        return;
    a->answered = true;
    if (status.code() == Etcd::ErrorCode::LeaseNotFound) { // expired before its keep-alive said
        dropKeepAlive(a->keepAlive);
        return needLease(*a);
    }
    const QList<EtcdTxnOpResult> results = reply->results();
    if (!status.isOk() || results.size() < 2)
        return retryLater(*a, status);
    a->retryDelayMs = 0;
    a->seen = reply->revision();
    a->revision = entryCreatedAt(reply->succeeded(), reply->revision(), results);
    if (a->revision <= 0) // cannot be: the comparison said the key exists
        return retryLater(*a, EtcdStatus(Etcd::ErrorCode::Internal, u"no create revision"_s));
    a->ahead.clear();
    for (const EtcdKeyValue &kv : results.at(1).keyValues) {
        if (kv.createRevision < a->revision && blocks(*a, kv.key))
            a->ahead.insert(kv.key);
    }
    for (const SeenDelete &d : recentDeletes) {
        if (d.seq < since || d.revision <= a->seen)
            continue;
        const QByteArray &key = d.key;
        if (key == a->key)
            return tryAcquire(*a); // our key was deleted right after: queue again
        a->ahead.remove(key);
    }
    qCDebug(lcEtcdLock).noquote() << layout.noun << a->key << "created at" << a->revision
                                  << "read at" << a->seen << "behind" << a->ahead << "watch from"
                                  << watchFrom;
    if (mayHold(*a))
        return becomeHeld(*a);
    if (a->expired)
        return cancel(*a);
    if (watchCovers(a->seen))
        a->phase = Phase::Waiting;
    else if (watchFrom > 0)
        tryAcquire(*a); // the watch went live after this read: read again, now covered
    else
        a->phase = Phase::Recheck; // read again once the watch is live
}

void LockQueue::retryLater(Acquisition &a, const EtcdStatus &why)
{
    qCDebug(lcEtcdLock).noquote() << layout.noun << layout.prefix << "retries after"
                                  << why.toString();
    if (a.expired)
        return cancel(a);
    a.phase = Phase::Recheck;
    a.retryDelayMs = backoffMs(a.retryDelayMs, kRetryMinMs, ttl);
    QTimer::singleShot(a.retryDelayMs, q, [this, id = a.id, attempt = a.attempt] {
        Acquisition *a = find(id);
        if (a && a->attempt == attempt && a->phase == Phase::Recheck)
            tryAcquire(*a);
    });
}

void LockQueue::becomeHeld(Acquisition &a)
{
    a.phase = Phase::Held;
    dropTimer(a.deadline);
    const EtcdFencingToken token {a.key, a.leaseId, a.revision};
    qCDebug(lcEtcdLock).noquote() << layout.noun << layout.prefix << "held, token" << a.revision;
    auto lease = a.keepAlive ? leaseStateOf(*a.keepAlive) : nullptr;
    if (a.request) {
        if (!book(a.side).grant(*a.request, a.thread, token, a.id, std::move(lease)))
            return discard(a.id); // its caller gave up just now: give it back
    } else {
        book(a.side).hold(a.thread, token, a.id, std::move(lease));
        ownerPending = 0;
    }
    endWait(a, EtcdMetrics::Outcome::Succeeded);
    if (layout.metric[a.side])
        a.holding = MetricSpan(metrics);
    const Side side = a.side;
    const bool fromOwner = !a.request;
    QPointer<EtcdRecipe> guard(q);
    if (q->connectionState() == EtcdRecipe::ConnectionState::Lost)
        q->reportConnectionState(EtcdRecipe::ConnectionState::Reconnected);
    if (guard && fromOwner && onAcquired)
        onAcquired(side);
}

// A hold won before the watch covered it: a DELETE of its key in between would have gone
// unseen, so ask etcd once whether the key is still ours.
void LockQueue::validate(Acquisition &a)
{
    EtcdRangeReply *reply = getOn(q->client(), a.key);
    QObject::connect(reply, &EtcdReply::finished, q,
        [this, reply, id = a.id, revision = a.revision](const EtcdStatus &s) {
            Acquisition *a = find(id);
            if (!a || a->phase != Phase::Held || !s.isOk())
                return; // on error the keep-alive and the watch still watch
            const auto kvs = reply->keyValues();
            if (kvs.isEmpty() || kvs.first().createRevision != revision)
                return loseHold(
                    *a, lostStatus(QT_TRANSLATE_NOOP("EtcdRecipe", "the %1 key was deleted")));
            a->seen = std::max(a->seen, reply->revision());
        });
}

void LockQueue::endWait(Acquisition &a, EtcdMetrics::Outcome outcome) const
{
    a.waiting.end([&](EtcdMetrics &m, EtcdMetrics::Duration wait) {
        m.recordLockWait(*layout.metric[a.side], layout.path, wait, outcome);
    });
}

void LockQueue::endHold(Acquisition &a) const
{
    a.holding.end([&](EtcdMetrics &m, EtcdMetrics::Duration hold) {
        m.recordLockHold(*layout.metric[a.side], layout.path, hold);
    });
}

QString LockQueue::nounText() const
{
    return EtcdRecipe::tr(layout.noun);
}

EtcdStatus LockQueue::lostStatus(const char *what) const
{
    return EtcdStatus(Etcd::ErrorCode::LeaseExpired, EtcdRecipe::tr(what).arg(nounText()));
}

// Entries created earlier keep an exclusive acquisition waiting; a shared one only waits
// for the exclusive ones, except its own thread's write hold (a downgrade).
bool LockQueue::blocks(const Acquisition &a, const QByteArray &earlier) const
{
    if (a.side == Side::Exclusive)
        return true;
    if (layout.blocksShared && !layout.blocksShared(earlier))
        return false;
    for (const auto &[id, other] : acquisitions) {
        if (other->side == Side::Exclusive && other->thread == a.thread && other->key == earlier
            && (other->phase == Phase::Held || other->phase == Phase::Releasing))
            return false;
    }
    return true;
}

bool LockQueue::mayHold(const Acquisition &a) const
{
    return a.ahead.size() < layout.allowance;
}

// The end of an acquisition (given up, released, lost, closed).

LockQueue::~LockQueue()
{
    closing = true;
    for (const auto &b : books) {
        if (b)
            b->close();
    }
    // A worker still in lock(), unlock() or a read uses this queue to its return: it is woken
    // from its wait for etcd, and this waits until it has left (a few instructions).
    gate->close(EtcdStatus(
        Etcd::ErrorCode::FailedPrecondition, EtcdRecipe::tr("the %1 is closed").arg(nounText())));
    watch.reset();
    for (auto &[id, a] : acquisitions) {
        endWait(*a, EtcdMetrics::Outcome::Cancelled);
        endHold(*a);
        a->keepAlive.reset();
        revokeLeaseQuietly(q->client(), a->leaseId);
    }
    acquisitions.clear();
    openShelf(false);
    if (spare) {
        spare->keepAlive.reset();
        revokeLeaseQuietly(q->client(), spare->id);
    }
    for (auto &[lease, l] : lent) {
        l.keepAlive.reset();
        revokeLeaseQuietly(q->client(), lease);
    }
}

// A release of hold `id` is on its way (release(), or a worker's releaseBlocking()): the hold
// is no longer this thread's to lose or reuse. Null when it was lost (or closed) first; then
// onReleased() finds nothing to settle.
LockQueue::Acquisition *LockQueue::markReleasing(quint64 id)
{
    for (const auto &b : books) {
        if (b)
            b->released(id, true);
    }
    Acquisition *a = find(id);
    if (!a || a->phase != Phase::Held)
        return nullptr;
    a->phase = Phase::Releasing;
    ++a->attempt;
    return a;
}

// From a worker: sends `txn` guarded by `token` (the calling thread's hold, not a later
// one) and waits at most `timeout` for etcd's answer. True when it committed.
bool LockQueue::commitGuarded(const EtcdFencingToken &token, const EtcdTxn &txn,
    milliseconds timeout, EtcdStatus *status) const
{
    const WorkerGate::Pass pass(gate);
    // `token` is the caller's hold as the engine last decided it: null once that hold is lost.
    return commitGuardedFromWorker(door, pass && token.isValid(), token, txn, timeout, status,
        EtcdRecipe::tr("the hold is over"), gate.get());
}

void LockQueue::recordErrorOf(const EtcdStatus &status)
{
    // Errors are kept in the recipe's thread; a worker's refusal is recorded there.
    runInThreadOf(q, [recipe = q, status] { recipe->recordError(status); });
}

bool LockQueue::settleRelease(HoldBook::Release verdict, quint64 id, Caller caller, const char *who,
    const HoldBook::Lease &hold)
{
    switch (verdict) {
    case HoldBook::Release::Nested:
        return true;
    case HoldBook::Release::Dispossessed:
        return false; // lost or closed: lockLost() told, unlock() answers
    case HoldBook::Release::NotHeld:
        if (caller == Caller::Worker)
            qCWarning(lcEtcdLock, "%s by a thread that holds nothing", who);
        else
            abandonOwnerAcquire();
        return false;
    case HoldBook::Release::Last:
        break;
    }
    if (caller == Caller::Worker)
        return releaseBlocking(id, hold);
    releaseHold(id);
    return true;
}

// The owner thread's non-blocking acquire: one in flight at a time.
bool LockQueue::acquireInOwnerThread(Side side)
{
    if (ownerPending) {
        qCWarning(lcEtcdLock, "acquire() while one is in flight; refused");
        return false;
    }
    if (!start(side, nullptr, std::this_thread::get_id(), QThread::currentThread(), std::nullopt))
        return false;
    ownerPending = startedId;
    return true;
}

void LockQueue::abandonOwnerAcquire()
{
    if (Acquisition *a = find(ownerPending))
        cancel(*a);
}

// A tryLock() deadline: the first transaction is always answered before giving up, so
// tryLock(0ms) still takes a free lock.
void LockQueue::onDeadline(quint64 id)
{
    Acquisition *a = find(id);
    if (!a)
        return;
    a->expired = true;
    if (!a->answered)
        return;
    if (a->phase == Phase::Waiting || a->phase == Phase::Recheck || a->phase == Phase::NeedLease)
        cancel(*a);
}

// Gives up waiting: the lease is revoked (which deletes our key, wherever the transaction
// is), and only once etcd answered is the caller told, so no key is left behind it.
void LockQueue::cancel(Acquisition &a)
{
    endWait(a, a.expired ? EtcdMetrics::Outcome::TimedOut : EtcdMetrics::Outcome::Cancelled);
    a.phase = Phase::Ending;
    ++a.attempt;
    leaseWaiters.removeAll(a.id);
    dropTimer(a.deadline);
    dropKeepAlive(a.keepAlive);
    if (!a.request)
        ownerPending = 0;
    EtcdReply *revoke = revokeLeaseQuietly(q->client(), std::exchange(a.leaseId, 0));
    const auto fail = [this, id = a.id] {
        if (Acquisition *a = find(id)) {
            if (a->request)
                book(a->side).fail(*a->request);
            acquisitions.erase(id);
        }
    };
    if (revoke)
        QObject::connect(revoke, &EtcdReply::finished, q, fail);
    else
        fail();
}

void LockQueue::cancelAbandoned()
{
    std::vector<quint64> ids;
    for (const auto &[id, a] : acquisitions) {
        if (a->request && a->phase != Phase::Held && a->phase != Phase::Releasing
            && a->phase != Phase::Ending && a->request->abandoned)
            ids.push_back(id);
    }
    for (quint64 id : ids) {
        Acquisition &a = *find(id);
        endWait(a, EtcdMetrics::Outcome::TimedOut); // its caller's tryLock() deadline passed
        cancel(a);
    }
}

// The last unlock() of a hold: delete the key (the successor's watch fires now); once etcd
// confirmed, the lease serves the next acquisition (recycle()).
void LockQueue::releaseHold(quint64 id)
{
    Acquisition *a = markReleasing(id);
    if (!a)
        return; // lost (or closed) before this release() got here
    EtcdDeleteReply *reply = removeOn(q->client(), a->key);
    QObject::connect(reply, &EtcdReply::finished, q,
        [this, id, reply](const EtcdStatus &s) { onReleased(id, reply->deleted(), s); });
}

void LockQueue::onReleased(quint64 id, qint64 deleted, const EtcdStatus &status, bool shelved)
{
    markReleasing(id); // a worker's release is heard of here first
    Acquisition *a = find(id);
    if (!a || a->phase != Phase::Releasing)
        return;
    if (shelved) // its worker put the lease on the shelf for the next lock()
        return takeShelvedBack(take(id));
    if (!status.isOk()) // the revoke that follows, or the TTL, removes the key
        q->recordError(status);
    const bool wasOurs = !status.isOk() || deleted > 0;
    if (!wasOurs) { // etcd had deleted it already: the hold was lost before this unlock
        a->phase = Phase::Held;
        loseHold(*a,
            lostStatus(QT_TRANSLATE_NOOP("EtcdRecipe", "the %1 was lost before it was released")));
    } else if (status.isOk()) {
        recycle(id);
    } else {
        discard(id);
    }
}

// The engine thread has dispossessed a hold whose lease went already (HoldBook::loseLease):
// here the owner thread catches up, and the signals follow in order.
void LockQueue::loseHold(Acquisition &a, const EtcdStatus &why, Cause cause)
{
    if (a.phase != Phase::Held || releasedMeanwhile(a))
        return;
    book(a.side).dispossess(a.id);
    const Side side = a.side;
    QPointer<QThread> holder = a.qthread;
    const bool fromOwner = !a.request;
    discard(a.id); // the lease may still live when only the key was deleted
    qCWarning(lcEtcdLock).noquote() << layout.noun << layout.prefix << "lost:" << why.toString();
    QPointer<EtcdRecipe> guard(q);
    q->reportConnectionState(EtcdRecipe::ConnectionState::Lost);
    if (guard)
        q->keepError(why);
    if (guard && interruptOnLoss && holder && !fromOwner)
        holder->requestInterruption();
    if (guard && cause == Cause::Lease)
        Q_EMIT q->leaseLost(why);
    if (guard)
        onLost(side, why);
}

// The hold's key is gone and its lease alive: the lease is the next acquisition's (Go's
// concurrency.Mutex keeps one session lease for all its locks). Each hold still has a lease
// of its own while it lives; a lost one is never reused.
void LockQueue::recycle(quint64 id)
{
    Acquisition *held = find(id);
    if (!held || closing || !held->keepAlive)
        return discard(id);
    std::unique_ptr<Acquisition> a = take(id);
    adoptLease(a->leaseId, std::move(a->keepAlive));
}

void LockQueue::discard(quint64 id)
{
    std::unique_ptr<Acquisition> a = take(id);
    if (!a)
        return;
    dropKeepAlive(a->keepAlive);
    revokeLeaseQuietly(q->client(), a->leaseId);
    if (!leaseWaiters.isEmpty())
        topUpLeases(); // a waiter may have counted on this lease coming back
}

// Forgets acquisition `id` (null when unknown): no longer waiting for a lease, nor the owner
// thread's acquire() in flight.
std::unique_ptr<LockQueue::Acquisition> LockQueue::take(quint64 id)
{
    const auto it = acquisitions.find(id);
    if (it == acquisitions.end())
        return nullptr;
    std::unique_ptr<Acquisition> a = std::move(it->second);
    acquisitions.erase(it);
    endWait(*a, EtcdMetrics::Outcome::Cancelled);
    endHold(*a);
    leaseWaiters.removeAll(id);
    if (!a->request && ownerPending == id)
        ownerPending = 0;
    return a;
}

// Every hold is released and every wait ended: each acquisition's lease (and the spare) is
// revoked, which deletes its key. closed() follows once etcd answered all of them, and the
// grants in flight (whose leases are revoked as they come).
void LockQueue::closeAll()
{
    closing = true;
    for (const auto &b : books) {
        if (b)
            b->close();
    }
    grantRetry.stop();
    watch.reset();
    watchFrom = 0;
    QList<EtcdReply *> revokes;
    auto all = std::move(acquisitions);
    acquisitions.clear();
    leaseWaiters.clear();
    ownerPending = 0;
    for (auto &[id, a] : all) {
        endWait(*a, EtcdMetrics::Outcome::Cancelled);
        endHold(*a);
        dropKeepAlive(a->keepAlive);
        revokes.append(revokeLeaseQuietly(q->client(), a->leaseId));
    }
    all.clear();
    openShelf(false);
    if (spare) {
        dropKeepAlive(spare->keepAlive);
        revokes.append(revokeLeaseQuietly(q->client(), spare->id));
        spare.reset();
    }
    for (auto &[lease, l] : lent) { // a worker's transaction on it fails, or its key goes
        dropKeepAlive(l.keepAlive);
        revokes.append(revokeLeaseQuietly(q->client(), lease));
    }
    lent.clear();
    grants.close(revokes);
}
