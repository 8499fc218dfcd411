// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "barrierarrival_p.h"
#include "clientcalls_p.h"
#include "etcdqt_internal_p.h"
#include "leaseops_p.h"
#include "recipepaths_p.h"

#include <EtcdQt/etcdclient.h>
#include <EtcdQt/etcdselfhealingkeepalive.h>
#include <EtcdQt/etcdwatch.h>

#include <QtCore/qtimer.h>

using namespace Etcd::Internal;

BarrierArrival::BarrierArrival(
    EtcdClient *client, const Options &options, QObject *parent, ConnectionSink sink)
    : QObject(parent), m_client(client), m_options(options), m_sink(std::move(sink))
{ }

// No finished() from here: whoever deletes an arrival has stopped listening to it.
BarrierArrival::~BarrierArrival()
{
    if (!std::exchange(m_done, true))
        cleanUp();
}

QByteArray BarrierArrival::readyKey() const
{
    return RecipePaths::countedReadyKey(m_options.path);
}

QByteArray BarrierArrival::waitingPrefix() const
{
    return RecipePaths::countedWaitingPrefix(m_options.path);
}

void BarrierArrival::start()
{
    m_waiting = MetricSpan(metricsOf(m_client));
    createReady();
}

// Creates the round's marker if absent, and learns which marker this member's round is
// (its create revision), so a leave can tell whether that round tripped.
void BarrierArrival::createReady()
{
    const EtcdTxn txn {{EtcdCompare::missing(readyKey())},
        {EtcdTxnOp::put(readyKey(), m_options.token)}, {EtcdTxnOp::get(readyKey())}};
    EtcdTxnReply *r = txnOn(m_client, txn);
    connect(r, &EtcdReply::finished, this, [this, r](const EtcdStatus &s) {
        if (m_done)
            return;
        if (!s.isOk() || m_leaveRequested)
            return s.isOk() ? end(false) : fail(s);
        const QList<EtcdTxnOpResult> results = r->results();
        const bool read = !r->succeeded() && !results.isEmpty() && !results[0].keyValues.isEmpty();
        m_roundRevision = read ? results[0].keyValues[0].createRevision : r->revision();
        registerWaiting();
    });
}

void BarrierArrival::registerWaiting()
{
    auto establish = [this](qint64 leaseId, EtcdSelfHealingKeepAlive::EstablishDone done) {
        writeWaiting(leaseId, done, 0);
    };
    m_lease = std::make_unique<EtcdSelfHealingKeepAlive>(
        m_client, m_options.ttl, establish, m_options.resilience);
    EtcdSelfHealingKeepAlive *l = m_lease.get();
    connect(l, &EtcdSelfHealingKeepAlive::established, this, [this] {
        m_registered = true;
        if (m_leaveRequested)
            return leaveCounted(); // it may count now: leave so that no trip can miss it
        check();
    });
    // A re-registered key after a heal counts again: check whether the round is complete.
    connect(l, &EtcdSelfHealingKeepAlive::leaseEvent, this, [this](const EtcdLeaseEvent &e) {
        Q_EMIT leaseEvent(e);
        if (e.type == EtcdLeaseEvent::Type::Restored)
            check();
    });
    // Its renewals acknowledged again after a suspension: no lease event says so (a
    // suspension is one), so the owner hears it here.
    connect(l, &EtcdRecipe::connectionStateChanged, this, [this](EtcdRecipe::ConnectionState s) {
        if (s == EtcdRecipe::ConnectionState::Reconnected && m_sink)
            m_sink(s);
    });
    connect(l, &EtcdSelfHealingKeepAlive::failed, this, [this](const EtcdStatus &why) {
        fail(EtcdStatus(why.code(),
            QStringLiteral("cannot register at %1: %2")
                .arg(QString::fromUtf8(m_options.path), why.message())));
    });
    l->start();
}

// The waiting key under `leaseId`, created if absent. A heal may find it still there: etcd kept
// the lease this client gave up on (a restart or a new leader restores leases), and with it
// our key (its name carries our random token, its value the token). That key is moved onto
// the new lease; anything else there declines (fault matrix, restart column: the counted and
// double barriers failed every run before). The old lease may expire between the read and the
// move, deleting the key: the write is then tried again, a bounded number of times (a pause
// longer than the TTL made the hook decline for good, about one run in thirty).
void BarrierArrival::writeWaiting(
    qint64 leaseId, const std::function<void(bool)> &done, int attempt)
{
    const QByteArray key = RecipePaths::countedWaitingKey(m_options.path, m_options.token);
    EtcdPutOptions put;
    put.lease = leaseId;
    const EtcdTxn txn {{EtcdCompare::missing(key)}, {EtcdTxnOp::put(key, m_options.token, put)},
        {EtcdTxnOp::get(key)}};
    EtcdTxnReply *r = txnOn(m_client, txn);
    connect(r, &EtcdReply::finished, this, [this, r, leaseId, done, attempt](const EtcdStatus &s) {
        if (!s.isOk() || r->succeeded())
            return done(s.isOk());
        const QList<EtcdKeyValue> found = r->results().value(0).keyValues;
        if (found.isEmpty() || found.first().value != m_options.token)
            return done(false);
        moveOwnWaiting(found.first(), leaseId, done, attempt);
    });
}

void BarrierArrival::moveOwnWaiting(
    const EtcdKeyValue &own, qint64 leaseId, const std::function<void(bool)> &done, int attempt)
{
    constexpr int kMoveAttempts = 3;
    EtcdPutOptions put;
    put.lease = leaseId;
    const EtcdTxn txn {
        {EtcdCompare::modRevision(own.key, Etcd::CompareResult::Equal, own.modRevision)},
        {EtcdTxnOp::put(own.key, m_options.token, put)}, {}};
    EtcdTxnReply *r = txnOn(m_client, txn);
    connect(r, &EtcdReply::finished, this, [this, r, leaseId, done, attempt](const EtcdStatus &s) {
        if (s.isOk() && !r->succeeded() && !m_done && attempt + 1 < kMoveAttempts)
            return writeWaiting(leaseId, done, attempt + 1); // it changed under us: look again
        done(s.isOk() && r->succeeded());
    });
}

// "ready" and the waiting keys, read together at one revision.
void BarrierArrival::check()
{
    if (m_done)
        return;
    if (std::exchange(m_checking, true)) {
        m_checkAgain = true;
        return;
    }
    EtcdRangeOptions keys;
    keys.prefix = true;
    keys.keysOnly = true;
    const EtcdTxn txn {{}, {EtcdTxnOp::get(readyKey()), EtcdTxnOp::get(waitingPrefix(), keys)}, {}};
    EtcdTxnReply *r = txnOn(m_client, txn);
    connect(r, &EtcdReply::finished, this, [this, r](const EtcdStatus &s) { onChecked(r, s); });
}

void BarrierArrival::onChecked(EtcdTxnReply *reply, const EtcdStatus &status)
{
    m_checking = false;
    if (m_done)
        return;
    if (!status.isOk())
        return checkLaterOrFail(status);
    const QList<EtcdTxnOpResult> results = reply->results();
    if (results.size() != 2)
        return fail(EtcdStatus(Etcd::ErrorCode::Internal, QStringLiteral("malformed reply")));
    const QList<EtcdKeyValue> &ready = results[0].keyValues;
    // Members register after their round's marker exists: older keys are members of an
    // earlier round still leaving, and must not complete this one.
    QList<EtcdKeyValue> waiting = results[1].keyValues;
    waiting.removeIf(
        [this](const EtcdKeyValue &kv) { return kv.createRevision < m_roundRevision; });
    Q_EMIT waiterCountChanged(int(waiting.size()));
    // This member's round tripped: its marker is gone, or already replaced by the next one.
    if (ready.isEmpty() || ready[0].createRevision != m_roundRevision)
        return end(true);
    if (waiting.size() >= m_options.memberCount)
        return trip(waiting);
    if (!m_watch)
        watchFrom(reply->revision() + 1);
    if (std::exchange(m_checkAgain, false))
        check();
}

void BarrierArrival::watchFrom(qint64 revision)
{
    WatchFollower f;
    f.events = [this](const QList<EtcdWatchEvent> &events) {
        for (const EtcdWatchEvent &e : events) {
            const QByteArray &key = e.keyValue.key;
            if (e.type == EtcdWatchEvent::Type::Delete && key == readyKey())
                return end(true);
            if (key.startsWith(waitingPrefix()))
                check(); // joins trip the round; leaves only change the count
        }
    };
    f.reconnected = [this](qint64 compactedAt) {
        if (compactedAt > 0)
            countAgain();
    };
    f.failed = [this](const EtcdStatus &why) { fail(why); };
    EtcdWatchOptions o;
    o.prefix = true;
    o.startRevision = revision;
    m_watch = RecipeLayer::followWatch(m_client, this, m_options.path + '/', o,
        EtcdWatch::ResyncMode::AwaitResync, std::move(f), m_sink);
}

// After a compaction gap the check re-reads everything the gap hid; the watch then resumes
// after that read.
void BarrierArrival::countAgain()
{
    qCDebug(
        lcEtcdBarrier, "barrier %s: history compacted, counting again", m_options.path.constData());
    EtcdRangeOptions none;
    none.countOnly = true;
    EtcdRangeReply *r = getOn(m_client, readyKey(), none);
    connect(r, &EtcdReply::finished, this, [this, r](const EtcdStatus &s) {
        if (m_done)
            return;
        if (!s.isOk())
            return checkLaterOrFail(s);
        m_watch->resync(r->revision() + 1);
        check();
    });
}

// This member completed the round: deleting "ready" releases every other member. Only if
// every member counted is still there: one that left meanwhile (timed out) must not be
// counted, or the round would trip without it and it would wait alone when it came back.
// etcd bounds the operations of one transaction (128 by default): beyond that the trip
// trusts the count, as the reference always does.
void BarrierArrival::trip(const QList<EtcdKeyValue> &counted)
{
    constexpr qsizetype kMaxCompares = 120;
    EtcdTxn txn {
        {EtcdCompare::createRevision(readyKey(), Etcd::CompareResult::Equal, m_roundRevision)},
        {EtcdTxnOp::remove(readyKey())}, {}};
    for (qsizetype i = 0; i < counted.size() && i < kMaxCompares; ++i)
        txn.compares.append(EtcdCompare::createRevision(
            counted[i].key, Etcd::CompareResult::Equal, counted[i].createRevision));
    EtcdTxnReply *r = txnOn(m_client, txn);
    connect(r, &EtcdReply::finished, this, [this, r](const EtcdStatus &s) {
        if (m_done)
            return;
        if (!s.isOk()) // the delete may have committed: the next check tells
            return checkLaterOrFail(s);
        if (r->succeeded())
            return end(true);
        check(); // someone left, or the round tripped already: count again
    });
}

// A read or trip that met an outage of an etcd the client had reached (a connection reset, a
// leader election) is counted again after a pause, as its watch rides the outage out: one
// failed request must not end an arrival the lease still holds (fault matrix, cut-off column:
// 'Unavailable: recvmsg: Connection reset by peer' ended a counted-barrier member). An etcd
// never reached, or any other error, fails it.
void BarrierArrival::checkLaterOrFail(const EtcdStatus &why)
{
    constexpr std::chrono::milliseconds kPause(250);
    if (!RecipeLayer::isOutageOfReachedEtcd(m_client, why))
        return fail(why);
    qCDebug(lcEtcdBarrier, "barrier %s: counting again after %s", m_options.path.constData(),
        qPrintable(why.toString()));
    QTimer::singleShot(kPause, this, [this] {
        if (!m_done)
            check();
    });
}

void BarrierArrival::fail(const EtcdStatus &why)
{
    m_untripped = EtcdMetrics::Outcome::Failed;
    Q_EMIT errorOccurred(why);
    end(false);
}

void BarrierArrival::leave()
{
    end(false);
}

// A member that gives up (its wait timed out) may have been counted by a trip it has not
// heard of yet; if it then arrived again it would start a round of one. So it deletes its
// key and reads the marker in one transaction: after that revision no trip can count it,
// and a marker gone or replaced means its round did trip, which it reports.
void BarrierArrival::leaveCounted()
{
    if (m_done)
        return;
    m_untripped = EtcdMetrics::Outcome::TimedOut;
    if (!m_registered) { // its key may be on the way: leave when that is settled
        m_leaveRequested = true;
        return;
    }
    m_done = true;
    if (m_watch)
        m_watch->cancel();
    const QByteArray key = RecipePaths::countedWaitingKey(m_options.path, m_options.token);
    const EtcdTxn txn {{}, {EtcdTxnOp::remove(key), EtcdTxnOp::get(readyKey())}, {}};
    EtcdTxnReply *r = txnOn(m_client, txn);
    connect(r, &EtcdReply::finished, this, [this, r](const EtcdStatus &s) {
        const QList<EtcdTxnOpResult> results = r->results();
        const bool read = s.isOk() && results.size() == 2;
        const bool tripped = read
            && (results[1].keyValues.isEmpty()
                || results[1].keyValues[0].createRevision != m_roundRevision);
        if (!s.isOk())
            Q_EMIT errorOccurred(s);
        closeLease();
        reportWait(tripped);
        Q_EMIT finished(tripped);
    });
}

void BarrierArrival::reportWait(bool tripped)
{
    m_waiting.end([&](EtcdMetrics &m, EtcdMetrics::Duration wait) {
        m.recordWait(EtcdMetrics::Wait::CountedBarrier, m_options.path, wait,
            tripped ? EtcdMetrics::Outcome::Succeeded : m_untripped);
    });
}

// Every exit leaves the barrier: the lease is revoked (its waiting key goes with it) and the
// key deleted too, in case the lease is not the one the key is on any more.
void BarrierArrival::end(bool tripped)
{
    reportWait(tripped);
    if (std::exchange(m_done, true))
        return;
    cleanUp();
    Q_EMIT finished(tripped);
}

void BarrierArrival::cleanUp()
{
    if (m_watch)
        m_watch->cancel();
    closeLease();
    if (m_lease && m_client)
        m_client->remove(RecipePaths::countedWaitingKey(m_options.path, m_options.token));
}

// cleanedUp() once etcd answered the revoke, so an owner that reports closed() then leaves
// no lease behind.
void BarrierArrival::closeLease()
{
    if (!m_lease) {
        QMetaObject::invokeMethod(this, &BarrierArrival::cleanedUp, Qt::QueuedConnection);
        return;
    }
    connect(m_lease.get(), &EtcdRecipe::closed, this, &BarrierArrival::cleanedUp);
    m_lease->close();
}
