// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "etcdworkqueue_p.h"
#include "clientcalls_p.h"
#include "etcdqt_internal_p.h"
#include "queuekeys_p.h"
#include "recipelayer_p.h"
#include "recipepaths_p.h"
#include "workops_p.h"
#include "workreclaim_p.h"

#include <EtcdQt/etcdrangereply.h>
#include <EtcdQt/etcdtxnreply.h>
#include <EtcdQt/etcdwatch.h>

#include <QtCore/qdatetime.h>
#include <QtCore/qrandom.h>

using namespace Etcd::Internal;
using namespace std::chrono;
using QueueKeys::Area;

namespace {
// Promotions one head read makes at most before it answers (the rest wait for the next).
constexpr int kMaxPromotionsPerRead = 16;
} // namespace

EtcdWorkQueuePrivate::EtcdWorkQueuePrivate(
    EtcdWorkQueue *q, const QByteArray &path, const EtcdWorkQueue::Options &o)
    : q_ptr(q), path(path), options(o)
{
    if (options.clientId.isEmpty())
        options.clientId = QStringLiteral("DistributedWorkQueue:")
            + QString::fromLatin1(RecipePaths::randomId(7));
    taker = new QueueTaker(q, QueueKeys::area(path, Area::Items), QueueTaker::Order::Key, hooks());
}

QueueTaker::Hooks EtcdWorkQueuePrivate::hooks()
{
    QueueTaker::Hooks h;
    h.readHead = [this](QueueTaker::HeadRead done) { readHead(std::move(done), 0); };
    h.takeTxn = [this](const EtcdKeyValue &head, QueueTaker::TxnReady ready) {
        takeTxn(head, std::move(ready));
    };
    h.refill = [this](qint64 revision, std::function<void(bool)> done) {
        refill(revision, std::move(done));
    };
    h.recheckAfter = [this] { return recheckAfter(); };
    // The consumer lease ended under a claim being made: the lease heals; try again then.
    h.retryLater = [](const EtcdStatus &s) { return s.code() == Etcd::ErrorCode::LeaseNotFound; };
    return h;
}

void EtcdWorkQueuePrivate::startConsumer()
{
    Q_Q(EtcdWorkQueue);
    if (lease || q->isClosed())
        return;
    // Heals forward only: claims made under an ended lease stay ended (the visibility
    // contract); new claims go on the new lease. Nothing to re-establish, so the hook is done.
    auto establish = [](qint64, EtcdSelfHealingKeepAlive::EstablishDone done) { done(true); };
    lease = std::make_unique<EtcdSelfHealingKeepAlive>(
        q->client(), options.visibilityTimeout, establish);
    EtcdSelfHealingKeepAlive *l = lease.get();
    RecipeLayer::adopt(q, l);
    QObject::connect(l, &EtcdSelfHealingKeepAlive::established, q, [this] {
        for (const auto &waiter : std::exchange(leaseWaiters, {}))
            waiter();
    });
    QObject::connect(l, &EtcdSelfHealingKeepAlive::leaseEvent, q, [q](const EtcdLeaseEvent &e) {
        if (e.type == EtcdLeaseEvent::Type::Expired)
            Q_EMIT q->claimsLost();
    });
    l->start();
    // etcd-recipes' sweeper: a random first delay, so consumers started together spread out.
    const qint64 period = std::max<qint64>(options.sweepInterval.count(), 1);
    sweeper.setSingleShot(true);
    QObject::connect(&sweeper, &QTimer::timeout, q, [this, period] {
        sweep([](int, const EtcdStatus &) {});
        sweeper.start(int(period));
    });
    sweeper.start(int(period + QRandomGenerator::global()->bounded(period / 2 + 1)));
}

// One read of both heads: the first item, and the first delayed item (due first). A due
// delayed item is promoted into items/ (under its due-time name) before the head is taken.
void EtcdWorkQueuePrivate::readHead(QueueTaker::HeadRead done, int promotions)
{
    Q_Q(EtcdWorkQueue);
    if (promotions == 0) // nothing is kept nor on the wire: earlier lost claims are forgotten
        pending.clear();
    EtcdTxn read;
    read.success = {EtcdTxnOp::get(QueueKeys::area(path, Area::Items), WorkOps::headOf()),
        EtcdTxnOp::get(QueueKeys::area(path, Area::Delayed), WorkOps::headOf())};
    EtcdTxnReply *r = txnOn(q->client(), read);
    QObject::connect(
        r, &EtcdReply::finished, taker, [this, r, done, promotions](const EtcdStatus &s) {
            if (!s.isOk())
                return done(s, {}, 0);
            const QList<EtcdTxnOpResult> results = r->results();
            const QList<EtcdKeyValue> items = results.value(0).keyValues;
            const QList<EtcdKeyValue> delayed = results.value(1).keyValues;
            lastReadRevision = r->revision();
            nextDueMillis = 0;
            if (!delayed.isEmpty()) {
                const EtcdKeyValue &first = delayed.first();
                const QByteArray name
                    = QueueKeys::idOf(first.key, QueueKeys::area(path, Area::Delayed));
                const qint64 due = QueueKeys::nameMillis(name).value_or(0);
                if (due <= QDateTime::currentMSecsSinceEpoch()
                    && promotions < kMaxPromotionsPerRead) {
                    EtcdTxnReply *p = txnOn(q_ptr->client(), WorkOps::promote(path, first));
                    QObject::connect(p, &EtcdReply::finished, taker, [this, done, promotions] {
                        readHead(done, promotions + 1); // lost or won, read both heads again
                    });
                    return;
                }
                nextDueMillis = due;
            }
            done({}, items, r->revision());
        });
}

// The attempt this delivery is (the stored count + 1), then the claim. The count only changes
// while the item is claimed, so the claim's guard on the item's revision covers it too.
void EtcdWorkQueuePrivate::takeTxn(const EtcdKeyValue &head, QueueTaker::TxnReady ready)
{
    Q_Q(EtcdWorkQueue);
    startConsumer();
    if (!lease || lease->currentLeaseId() == 0) {
        leaseWaiters.push_back([this, head, ready] { takeTxn(head, ready); });
        return;
    }
    const QByteArray id = QueueKeys::idOf(head.key, QueueKeys::area(path, Area::Items));
    EtcdRangeReply *r = getOn(q->client(), QueueKeys::workKey(path, Area::Attempts, id));
    QObject::connect(r, &EtcdReply::finished, taker, [this, r, head, ready](const EtcdStatus &s) {
        if (!s.isOk())
            return ready(s, {});
        const QList<EtcdKeyValue> kvs = r->keyValues();
        claimWith(head, (kvs.isEmpty() ? 0 : WorkOps::attemptOf(kvs.first().value)) + 1, ready);
    });
}

void EtcdWorkQueuePrivate::claimWith(
    const EtcdKeyValue &head, int attempt, QueueTaker::TxnReady ready)
{
    const qint64 leaseId = lease->currentLeaseId();
    pending.insert(head.key, {attempt, leaseId});
    ready({}, WorkOps::claim(path, head, attempt, options.clientId, leaseId));
}

// An empty queue: orphans may come back (etcd-recipes reclaims on receive too).
void EtcdWorkQueuePrivate::refill(qint64 revision, std::function<void(bool moved)> done)
{
    lastReadRevision = std::max(lastReadRevision, revision);
    sweep([done](int moved, const EtcdStatus &) { done(moved > 0); });
}

void EtcdWorkQueuePrivate::sweep(std::function<void(int moved, const EtcdStatus &status)> done)
{
    Q_Q(EtcdWorkQueue);
    WorkReclaim::run(
        q->client(), taker, path, options.maxDeliveries, [q, done](int moved, const EtcdStatus &s) {
            if (!s.isOk())
                q->recordError(s);
            done(moved, s);
        });
}

// A wait wakes for a put into items/ (the taker's watch), for a delayed item falling due, and
// at the sweep interval (an orphan to reclaim).
milliseconds EtcdWorkQueuePrivate::recheckAfter()
{
    // A delayed put may be due before the timer; a claim that ended may leave an orphan.
    if (!delayedWatch)
        watchArea(delayedWatch, Area::Delayed, false, lastReadRevision + 1,
            [this](const EtcdWatchEvent &e) { taker->recheck(e.keyValue.modRevision); });
    if (!claimsWatch)
        watchArea(claimsWatch, Area::Claims, true, lastReadRevision + 1,
            [this](const EtcdWatchEvent &e) { onClaimEnded(e.keyValue); });
    milliseconds after = options.sweepInterval;
    if (nextDueMillis > 0) {
        const qint64 left = nextDueMillis - QDateTime::currentMSecsSinceEpoch();
        after = std::min(after, milliseconds(std::max<qint64>(left, 1)));
    }
    return after;
}

// A watch of one area of the queue from `revision` (its deletions with `deletes`, else its
// puts), held in `slot`: a resumption re-checks a waiting take, a failure drops the watch
// (the take's sweep timer still wakes it).
void EtcdWorkQueuePrivate::watchArea(std::unique_ptr<EtcdWatch> &slot, Area area, bool deletes,
    qint64 revision, std::function<void(const EtcdWatchEvent &)> onEvent)
{
    Q_Q(EtcdWorkQueue);
    EtcdWatchOptions options;
    options.prefix = true;
    options.noPut = deletes;
    options.noDelete = !deletes;
    options.startRevision = revision;
    WatchFollower f;
    f.events = [onEvent](const QList<EtcdWatchEvent> &events) {
        for (const EtcdWatchEvent &e : events)
            onEvent(e);
    };
    f.reconnected = [this](qint64 compactedAt) { taker->recheck(compactedAt); };
    f.failed = [&slot](const EtcdStatus &) { slot.release()->deleteLater(); };
    slot = RecipeLayer::followWatch(q, QueueKeys::area(path, area), options,
        EtcdWatch::ResyncMode::ResumeAtCompaction, std::move(f));
}

// An ack deletes the claimed copy with the claim; a claim that ended with its lease leaves the
// copy behind: an orphan, which a waiting take reclaims now. With no take waiting there is
// nothing to wake and no read (an idle consumer read once per ack anywhere in the queue: the
// fault matrix's token column saw one every 300 ms), but a take reading now must not miss it:
// it reads again before it waits if its read came before the claim ended (the next receive
// reclaims orphans first anyway). Dropping that end left such a take waiting for the sweep
// timer (30 s by default).
void EtcdWorkQueuePrivate::onClaimEnded(const EtcdKeyValue &claim)
{
    Q_Q(EtcdWorkQueue);
    const qint64 endedAt = claim.modRevision;
    if (!taker->isWaiting())
        return taker->recheck(endedAt);
    const QByteArray id = QueueKeys::idOf(claim.key, QueueKeys::area(path, Area::Claims));
    EtcdRangeOptions o;
    o.countOnly = true;
    EtcdRangeReply *r = getOn(q->client(), QueueKeys::workKey(path, Area::Claimed, id), o);
    QObject::connect(r, &EtcdReply::finished, taker, [this, r, endedAt](const EtcdStatus &s) {
        if (s.isOk() && r->count() > 0)
            taker->recheck(endedAt);
    });
}

EtcdWorkItem EtcdWorkQueuePrivate::itemOf(const EtcdKeyValue &claimed, qint64 revision)
{
    const Pending p = pending.take(claimed.key);
    EtcdWorkItem item;
    item.id = QueueKeys::idOf(claimed.key, QueueKeys::area(path, Area::Items));
    item.value = claimed.value;
    item.attempt = p.attempt;
    item.claim.key = QueueKeys::workKey(path, Area::Claims, item.id);
    item.claim.leaseId = p.leaseId;
    item.claim.revision = revision; // the claim transaction created the claim key
    return item;
}

// A claim made for a receive cancelled meanwhile, at close(): back into its place at once, so
// the next consumer need not wait for the lease to end (the delivery still counts).
EtcdReply *EtcdWorkQueuePrivate::release(const EtcdKeyValue &claimed, qint64 revision)
{
    Q_Q(EtcdWorkQueue);
    return txnOn(q->client(), WorkOps::requeue(path, itemOf(claimed, revision)));
}
