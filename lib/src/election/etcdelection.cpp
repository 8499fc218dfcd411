// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "cachecore_p.h"
#include "clientcalls_p.h"
#include "electionleader_p.h"
#include "etcdqt_internal_p.h"
#include "lockqueue_p.h"
#include "recipepaths_p.h"

#include <EtcdQt/etcdclient.h>
#include <EtcdQt/etcdelection.h>
#include <EtcdQt/etcdrecipereplies.h>
#include <EtcdQt/etcdreplies.h>

#include <QtCore/qtimer.h>

using namespace Etcd::Internal;
using namespace std::chrono;

const EtcdKeyValue *Etcd::Internal::firstCreated(const CacheEntries &candidates)
{
    const EtcdKeyValue *first = nullptr;
    for (const EtcdKeyValue &kv : candidates) {
        if (!first || kv.createRevision < first->createRevision)
            first = &kv;
    }
    return first;
}

// Candidacy is one side of a LockQueue with etcd's concurrency.Mutex key layout (Go builds its
// Election on the same keys and the same waiting rule), holding at most one permit: the
// leadership. Who leads is followed apart from that, by a cache of the candidates' keys.
class EtcdElectionPrivate
{
    Q_DECLARE_PUBLIC(EtcdElection)
public:
    using State = EtcdElection::State;

    EtcdElectionPrivate(EtcdElection *q, const QByteArray &prefix, const EtcdElectionOptions &o)
        : q_ptr(q), prefix(prefix), term(std::make_shared<PermitSync>()),
          queue(q, layoutFor(prefix), o.ttl, false, {term, nullptr}),
          candidates(q, prefix + '/', true, hooks())
    {
        queue.onAcquired = [this](LockLayout::Side) { won(); };
        queue.onLost = [this](LockLayout::Side, const EtcdStatus &why) { lost(why); };
    }

    static LockLayout layoutFor(const QByteArray &prefix)
    {
        LockLayout l;
        l.path = prefix;
        l.prefix = prefix + '/'; // as Go's concurrency.NewElection builds it
        l.noun = QT_TRANSLATE_NOOP("EtcdRecipe", "election");
        l.entryKey = [prefix](LockLayout::Side, qint64 lease) {
            return RecipePaths::mutexKey(prefix, lease);
        };
        return l;
    }

    CacheCore::Hooks hooks();
    void setState(State next);
    void setValue(const QByteArray &next);
    void reportTransition(EtcdMetrics::Transition transition) const;
    void won();
    void lost(const EtcdStatus &why);
    void seeLeader();
    void failObserving(const EtcdStatus &why);

    EtcdElection *q_ptr;
    QByteArray prefix;
    std::shared_ptr<PermitSync> term; // this candidate's leadership: one permit at most
    LockQueue queue;
    CacheCore candidates;
    State state = State::Idle;
    QByteArray value;
    EtcdKeyValue leader; // empty key: nobody leads
    bool observeAsked = false; // observe() ran (once per object)
    bool observing = false;
};

CacheCore::Hooks EtcdElectionPrivate::hooks()
{
    CacheCore::Hooks h;
    h.changed = [this](const CacheChange &) { seeLeader(); };
    h.loaded = [this](const PagedSnapshot &) { seeLeader(); };
    h.live = [this] {
        observing = true;
        Q_EMIT q_func()->observed();
    };
    h.failed = [this](const EtcdStatus &why) { failObserving(why); };
    h.error = [this](const EtcdStatus &s) { q_func()->recordError(s); };
    return h;
}

void EtcdElectionPrivate::setState(State next)
{
    const State previous = std::exchange(state, next);
    if (previous == next)
        return;
    if (next == State::Leading || previous == State::Leading) {
        reportTransition(next == State::Leading ? EtcdMetrics::Transition::Acquired
                                                : EtcdMetrics::Transition::Relinquished);
    }
    Q_EMIT q_func()->stateChanged(next);
}

void EtcdElectionPrivate::reportTransition(EtcdMetrics::Transition transition) const
{
    metricsOf(q_func()->client())->report([&](EtcdMetrics &m) {
        m.recordLeadershipTransition(prefix, transition);
    });
}

void EtcdElectionPrivate::setValue(const QByteArray &next)
{
    if (std::exchange(value, next) != next)
        Q_EMIT q_func()->valueChanged();
}

void EtcdElectionPrivate::won()
{
    Q_Q(EtcdElection);
    QPointer<EtcdElection> guard(q);
    setState(State::Leading);
    if (guard)
        Q_EMIT q->elected();
}

void EtcdElectionPrivate::lost(const EtcdStatus &why)
{
    Q_Q(EtcdElection);
    if (state == State::Closed)
        return;
    QPointer<EtcdElection> guard(q);
    if (state == State::Leading)
        reportTransition(EtcdMetrics::Transition::Lost);
    setState(State::Idle);
    if (guard)
        Q_EMIT q->leadershipLost(why);
}

// Reported only when the leader's key or value changed, not for every candidate that comes
// or goes behind it.
void EtcdElectionPrivate::seeLeader()
{
    const EtcdKeyValue *first = firstCreated(candidates.entries());
    const EtcdKeyValue now = first ? *first : EtcdKeyValue();
    if (now.key == leader.key && now.value == leader.value
        && now.createRevision == leader.createRevision)
        return;
    leader = now;
    Q_EMIT q_func()->leaderChanged(leader.value);
}

void EtcdElectionPrivate::failObserving(const EtcdStatus &why)
{
    Q_Q(EtcdElection);
    candidates.stop();
    observing = false;
    QPointer<EtcdElection> guard(q);
    q->recordError(why);
    if (guard)
        Q_EMIT q->failed(why);
}

/*!
    \class EtcdElection
    \inmodule EtcdQt
    \brief Leadership alone is advisory: writes only the leader may make go through
    guardedTxn() or commitGuarded(), which commit only while this term lasts.

    An election in etcd's own layout, the one Go's \c concurrency.Election and \c{etcdctl
    elect} use, so Qt applications and Go services run for one leadership. A campaign
    creates \c{<prefix>/<lease id in lowercase hex>} holding the candidate's value on a lease
    of its own; the candidate whose key was created first leads, and the others wait for every
    key created before theirs to go. Keys and values are byte-identical to Go's.

    Waiting costs no polling and no extra round trip: one watch on the prefix (deletes only,
    beside observe()'s, which every candidate runs), live before the read it completes (so
    anchored after it), strikes off the keys ahead as etcd deletes them, and the next
    candidate leads the moment the last one goes. Go's own wait starts its watch at the
    revision it read and is served by etcd's catch-up loop, about 100 ms later.

    observe() follows who leads, for candidates and onlookers alike: leader() and leaderKey()
    are the first-created key's value and name, and leaderChanged() reports each change,
    proclaim()ed values included.

    \section1 Losing the leadership
    A campaign's lease is never healed. When etcd says it is gone (it expired, it was revoked,
    the key was deleted), or no renewal was acknowledged within the TTL, the client's engine
    thread decides the term is over at once, so isLeader(), fencingToken() and
    remainingValidity() answer so in every thread before this object's thread hears of it;
    then leadershipLost() (and leaseLost() when the lease was what ended) is emitted, the state
    goes back to Idle and the connection state to Lost. Another campaign() may follow.
*/

/*! \enum EtcdElection::State
    \value Idle Not running: never started, resigned, or the leadership was lost.
    \value Campaigning The candidate's key exists and waits for those created before it.
    \value Leading This candidate leads.
    \value Closed close() was called.
*/

/*! \fn void EtcdElection::stateChanged(EtcdElection::State state)
    Emitted when the state changed to \a state. */
/*! \fn void EtcdElection::observed()
    Emitted once after observe() (or the first campaign()), when the candidates were read and
    the watch following them is live: leader() is current from then on. */
/*! \fn void EtcdElection::elected()
    Emitted when this candidate became the leader. */
/*! \fn void EtcdElection::leadershipLost(const EtcdStatus &reason)
    Emitted once when leadership (or a campaign's lease) was lost for \a reason before a
    resign(). */
/*! \fn void EtcdElection::resigned()
    Emitted when resign() ended a leadership or a campaign. */
/*! \fn void EtcdElection::valueChanged()
    Emitted when value() changed: a campaign() or a proclaim() that etcd committed. */
/*! \fn void EtcdElection::leaderChanged(const QByteArray &value)
    Emitted when another key leads, or the leader proclaimed a new \a value; an empty
    leaderKey() means nobody leads. */
/*! \fn void EtcdElection::failed(const EtcdStatus &reason)
    Emitted when following the leader stopped for good with \a reason (the watch was refused,
    or the first read failed). The candidacy, if any, goes on. */

/*!
    Constructs an election on \a prefix for \a client with \a options; no I/O until
    observe() or campaign(). The object is a child of \a parent.
*/
EtcdElection::EtcdElection(EtcdClient *client, const QByteArray &prefix,
    const EtcdElectionOptions &options, QObject *parent)
    : EtcdRecipe(client, QStringLiteral("Election[%1]").arg(QString::fromUtf8(prefix)), parent),
      d_ptr(new EtcdElectionPrivate(this, prefix, options))
{ }

/*! Ends the campaign or leadership, revoking its lease without waiting for etcd. */
EtcdElection::~EtcdElection()
{
    d_func()->candidates.stop();
}

/*! \property EtcdElection::prefix
    The election's name; the candidates' keys live under \c{<prefix>/}. */
QByteArray EtcdElection::prefix() const
{
    return d_func()->prefix;
}

/*! The TTL of each campaign's lease. */
seconds EtcdElection::ttl() const
{
    return d_func()->queue.ttl;
}

/*! \property EtcdElection::state
    Where this candidate stands, as this object's thread last heard. */
EtcdElection::State EtcdElection::state() const
{
    return d_func()->state;
}

/*! \property EtcdElection::value
    This candidate's value: the last campaign()'s, or the last proclaim() etcd committed. */
QByteArray EtcdElection::value() const
{
    return d_func()->value;
}

/*! \property EtcdElection::leader
    The leader's value as last seen (any candidate's, Go's too); empty before observed(). */
QByteArray EtcdElection::leader() const
{
    return d_func()->leader.value;
}

/*! \property EtcdElection::leaderKey
    The leader's key as last seen; empty when nobody leads or before observed(). */
QByteArray EtcdElection::leaderKey() const
{
    return d_func()->leader.key;
}

/*! \property EtcdElection::observing
    Whether the leader is followed now (after observed(), until failed() or close()). */
bool EtcdElection::isObserving() const
{
    return d_func()->observing;
}

/*! \property EtcdElection::isLeader
    Whether this candidate leads, as the engine thread decided it: false the moment the lease
    is known lost or its deadline passed, whichever thread asks. */
bool EtcdElection::isLeader() const
{
    return d_func()->term->liveCount() > 0;
}

/*! \property EtcdElection::fencingToken
    The proof of this term: the candidate's key, its lease and its create revision; invalid
    when this candidate does not lead. Any thread. */
EtcdFencingToken EtcdElection::fencingToken() const
{
    return d_func()->term->latestToken();
}

/*!
    The time the leadership may still be counted on: until its lease's deadline (when the
    renewal etcd last answered was sent, plus the TTL, less the client's safety margin). Zero
    when this candidate does not lead. Any thread.
*/
milliseconds EtcdElection::remainingValidity() const
{
    return d_func()->term->remainingValidity(fencingToken());
}

/*!
    In this object's thread: replaces the leader's value with \a value, as Go's \c Proclaim
    does, in a transaction guarded by fencingToken() that keeps the key on its lease. The
    reply's result is true when etcd committed it; false with FailedPrecondition when this
    candidate does not lead (or no longer did when etcd applied it).
*/
EtcdBoolReply *EtcdElection::proclaim(const QByteArray &value)
{
    Q_D(EtcdElection);
    const EtcdFencingToken token = fencingToken();
    const EtcdStatus notLeader(Etcd::ErrorCode::FailedPrecondition, tr("not the leader"));
    if (!token.isValid())
        return RecipeReplies::failedBool(this, notLeader);
    EtcdPutOptions keep;
    keep.lease = token.leaseId;
    EtcdTxn txn;
    txn.success = {EtcdTxnOp::put(token.key, value, keep)};
    EtcdBoolReply *answer = RecipeReplies::boolReply(this);
    EtcdTxnReply *reply = txnOn(client(), token.guard(txn));
    connect(reply, &EtcdReply::finished, answer,
        [d, answer, reply, value, notLeader](const EtcdStatus &s) {
            const bool committed = s.isOk() && reply->succeeded();
            if (committed)
                d->setValue(value);
            RecipeReplies::finish(
                answer, s.isOk() && !committed ? notLeader : s, committed, reply->revision());
        });
    return answer;
}

/*!
    In this object's thread: sends \a txn guarded by fencingToken(), so it commits
    (succeeded() is true) only while this term's key still exists with its create revision.
*/
EtcdTxnReply *EtcdElection::guardedTxn(const EtcdTxn &txn)
{
    return txnOn(client(), fencingToken().guard(txn));
}

/*!
    For worker threads: sends \a txn guarded by fencingToken() and waits at most \a timeout
    for etcd's answer; returns true when it committed. See EtcdMutex::commitGuarded(). When
    \a status is not null, it receives the outcome.
*/
bool EtcdElection::commitGuarded(const EtcdTxn &txn, milliseconds timeout, EtcdStatus *status)
{
    if (refuseOwnThread(this, "EtcdElection::commitGuarded()", status))
        return false;
    return d_func()->queue.commitGuarded(fencingToken(), txn, timeout, status);
}

/*!
    Reads the candidates and follows who leads; observed() follows, or failed() (an empty
    prefix is refused so). Idempotent; campaign() calls it.
*/
void EtcdElection::observe()
{
    Q_D(EtcdElection);
    // Not isActive(): a campaign makes the recipe active before it asks to observe.
    if (std::exchange(d->observeAsked, true) || isClosed())
        return;
    setActive(true);
    if (d->prefix.isEmpty()) {
        QTimer::singleShot(0, this, [d] {
            d->failObserving(EtcdStatus(Etcd::ErrorCode::InvalidArgument, tr("empty prefix")));
        });
        return;
    }
    d->candidates.start(true);
}

/*!
    In this object's thread: runs for leadership with \a value; elected() follows once every
    candidate created before this one is gone. Returns false, with the reason in errors() or
    a warning, when called from another thread, while campaigning or leading already, after
    close(), or on bad input (an empty prefix, a TTL below 1 s).
*/
bool EtcdElection::campaign(const QByteArray &value)
{
    Q_D(EtcdElection);
    if (QThread::currentThread() != thread()) {
        qCWarning(
            lcEtcdElection, "EtcdElection::campaign() outside the election's thread; refused");
        return false;
    }
    if (d->state != State::Idle) {
        qCWarning(lcEtcdElection, "EtcdElection::campaign() while campaigning or leading; refused");
        return false;
    }
    d->queue.layout.value = value;
    if (!d->queue.acquireInOwnerThread(LockLayout::Exclusive))
        return false;
    d->setValue(value);
    d->setState(State::Campaigning);
    observe();
    return true;
}

/*!
    In this object's thread: gives up leadership (the key is deleted, and the next candidate
    leads at once) or the campaign still waiting (its lease is revoked). Returns true when
    this candidate led or campaigned until now; false when it had lost its leadership or was
    idle. resigned() follows a true result.
*/
bool EtcdElection::resign()
{
    Q_D(EtcdElection);
    if (d->state != State::Campaigning && d->state != State::Leading)
        return false;
    quint64 id = 0;
    const HoldBook::Release verdict = d->term->release(&id);
    if (verdict == HoldBook::Release::NotHeld)
        d->queue.abandonOwnerAcquire();
    else if (!d->queue.settleRelease(verdict, id, LockQueue::Caller::Owner, "resign()"))
        return false; // lost meanwhile: leadershipLost() tells
    QPointer<EtcdElection> guard(this);
    d->setState(State::Idle);
    if (guard)
        Q_EMIT resigned();
    return true;
}

/*!
    Ends the campaign or leadership and stops following the leader; the lease is revoked,
    which deletes the key, and closed() follows once etcd answered. Never blocks.
*/
void EtcdElection::close()
{
    Q_D(EtcdElection);
    if (isClosed())
        return;
    d->candidates.stop();
    d->observing = false;
    markClosed();
    d->setState(State::Closed);
    d->queue.closeAll();
}

/*!
    \class EtcdElectionOptions
    \inmodule EtcdQt
    \brief Options of an EtcdElection.
*/

/*!
    \variable EtcdElectionOptions::ttl
    \brief the TTL of each campaign's lease: how long a crashed leader keeps the others
    waiting, and how long a leader may go unheard before etcd hands its leadership on. 10 s.
*/
