// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "clientcalls_p.h"
#include "etcdleaderselector_p.h"
#include "etcdqt_internal_p.h"
#include "guardedcommit_p.h"
#include "handover_p.h"
#include "leaseops_p.h"
#include "recipereplies_p.h"

#include <EtcdQt/etcdclient.h>
#include <EtcdQt/etcdparticipants.h>
#include <EtcdQt/etcdreplies.h>

#include <QtCore/qthread.h>

#include <condition_variable>
#include <mutex>
#include <optional>

using namespace Etcd::Internal;
using namespace std::chrono;

/*!
    \class EtcdLeaderSelector
    \inmodule EtcdQt
    \brief Runs for election on an etcd path; leadership is a job that ends when it is done.

    Wire-compatible with etcd-recipes' LeaderSelector: the winner creates \c{<path>/LEADER}
    by compare-and-set with the value \c{<clientId>:<7 random>} on a lease of ttl(), and every
    candidate advertises itself under \c{<path>/participants/<clientId>} on a self-healing
    lease. Kotlin, Java and C++ candidates, EtcdLeaderLatch and EtcdLeaderObserver on one path
    share one election.

    start() returns at once; started() follows when this node is in the running (its first
    compare-and-set answered and the watch on LEADER is live); waitForStarted() is the
    blocking form for worker threads. The watch goes live before that first compare-and-set,
    so a hand-off between the two is never missed (etcd-recipes watches after it and can
    miss one), and etcd serves it from its live group: a watch that starts at an older
    revision waits for etcd's 100 ms catch-up loop.

    When this node wins, elected() is emitted and the body set with setTakeLeadership() runs
    on a thread of its own with a \c std::stop_token. Returning from it ends the term: the
    relinquish callback runs (always: clean return, step-down or a throw), the lease is
    revoked so a successor wins at once, and relinquished() then termFinished() follow. A
    selector is reusable: start() again after termFinished(). While a term is in flight,
    start() fails with FailedPrecondition.

    From its first term's grant until close(), a selector keeps its client's standby lease of
    ttl() (one per client and TTL, shared with the participation heals, renewed on the
    client's keep-alive stream). The next term leads on it, granted and renewed ahead, so
    that term's first compare-and-set leaves as soon as its watch is live; a new standby is
    granted behind it. close() revokes it, unless another recipe of the client still wants it.

    Without a body, leadership lasts until resign() or close(): the Qt-native form, for an
    application that reacts to elected() and leadershipLost() and reads isLeader.

    \section1 Losing the lease
    Leadership is never healed. Whether it still holds is decided in the client's engine
    thread, not in this object's: at the first of etcd's word (a keep-alive answered with TTL
    0, the LEADER key deleted or taken) and the lease's local deadline (remainingValidity()
    reaching zero: a keep-alive unacknowledged for a TTL, measured from when the renewal was
    sent), and in that thread, isLeader() and remainingValidity() read as over,
    waitUntilFinished() is released and the body's stop is requested (unless
    EtcdLeaderSelectorOptions::interruptOnLeaseLoss is false). A busy owner thread (a modal
    dialog, a slow slot) cannot make that late. The signals follow in this object's thread,
    once each, in this order: connectionStateChanged() to Lost, leaseLost() (when the lease
    is what was lost), leadershipLost(), stateChanged(), then relinquished() and
    termFinished() once the body returned and the relinquish callback ran. Leadership is also
    re-read after every reconnect and the selector steps down when the key is no longer this
    term's.

    leaderChanged() reports every change of the election's leader this selector's watch sees
    (its own terms included; an empty id while nobody leads), in revision order.

    \section1 Fencing
    A leader that was paused or partitioned keeps running for up to a TTL after etcd promoted
    its successor. Work that must not run twice writes through guardedTxn(), which commits
    only while this term's LEADER key still exists with the create revision it was won at
    (fencingToken()).
*/

/*! \fn void EtcdLeaderSelector::started()
    Emitted once per term, when this node is in the running.
*/
/*! \fn void EtcdLeaderSelector::elected()
    Emitted when this node won; the body (if any) has just been started.
*/
/*! \fn void EtcdLeaderSelector::leadershipLost(const EtcdStatus &reason)
    Emitted when leadership was lost for \a reason before the term ended by itself.
*/
/*! \fn void EtcdLeaderSelector::leaderChanged(const QString &leaderId)
    Emitted when the election's leader changed to \a leaderId (empty: nobody leads), as this
    selector's watch on LEADER saw it while a term ran.
*/
/*! \fn void EtcdLeaderSelector::relinquished()
    Emitted when a term that led has ended, however it ended, after the relinquish callback.
*/
/*! \fn void EtcdLeaderSelector::termFinished()
    Emitted when the term is over (led or not); start() may be called again.
*/
/*!
    \fn void EtcdLeaderSelector::failed(const EtcdStatus &reason)
    Emitted when a term could not run: bad input, etcd unreachable, the watch failed. \a reason says
    why.
*/

/*!
    Constructs a candidate for the election at \a electionPath on \a client, with
    \a options. No I/O happens until start(). The object is a child of \a parent.
*/
EtcdLeaderSelector::EtcdLeaderSelector(EtcdClient *client, const QByteArray &electionPath,
    const EtcdLeaderSelectorOptions &options, QObject *parent)
    : EtcdRecipe(
        client, QStringLiteral("LeaderSelector[%1]").arg(QString::fromUtf8(electionPath)), parent),
      d_ptr(new EtcdLeaderSelectorPrivate(this, electionPath, options))
{ }

/*!
    Ends the term: asks the body to stop, releases every wait, and revokes the leases.
    Destroying a selector whose body is still running waits for that body to return (it is
    handed a reference to this object), so bodies should honour their stop token.
*/
EtcdLeaderSelector::~EtcdLeaderSelector()
{
    Q_D(EtcdLeaderSelector);
    d->sync->markEnding();
    if (d->bodyThread.joinable()) {
        d->bodyThread.request_stop();
        d->bodyThread.join();
    }
    d->keepAlive.reset();
    revokeLeaseQuietly(client(), d->leaseId);
    d->standby.reset(); // revoked, unless another recipe of the client still wants it
    d->sync->finish();
}

/*! Sets the \a body run on a worker thread while this node leads. Set it before start(). */
void EtcdLeaderSelector::setTakeLeadership(TakeLeadership body)
{
    d_func()->body = std::move(body);
}

/*! Sets the \a relinquish callback, run whenever a term that led ends. */
void EtcdLeaderSelector::setRelinquishLeadership(RelinquishLeadership relinquish)
{
    d_func()->relinquish = std::move(relinquish);
}

/*! \property EtcdLeaderSelector::electionPath
    The election this node runs in. */
QByteArray EtcdLeaderSelector::electionPath() const
{
    return d_func()->path;
}

/*! \property EtcdLeaderSelector::clientId
    The id this node runs under (written to etcd). */
QString EtcdLeaderSelector::clientId() const
{
    return d_func()->clientId;
}

/*! The TTL of the leadership and participation leases. */
seconds EtcdLeaderSelector::ttl() const
{
    return d_func()->options.ttl;
}

/*! Returns whether the body's stop is requested when leadership is lost. */
bool EtcdLeaderSelector::interruptOnLeaseLoss() const
{
    return d_func()->options.interruptOnLeaseLoss;
}

/*! \property EtcdLeaderSelector::state
    Where the selector is in its term. */
EtcdLeaderSelector::State EtcdLeaderSelector::state() const
{
    return d_func()->state;
}

/*!
    \property EtcdLeaderSelector::isLeader
    Whether this node leads now, as far as etcd has told it. Safe from any thread (the body
    polls it); a point-in-time answer, never a substitute for guardedTxn().
*/
bool EtcdLeaderSelector::isLeader() const
{
    return d_func()->sync->isLeader();
}

/*!
    \property EtcdLeaderSelector::fencingToken
    This term's proof of leadership (LEADER key, lease, create revision); after the term it
    stays the last term's, so a late write guarded with it fails. Invalid before a term is
    won. Safe from any thread.
*/
EtcdFencingToken EtcdLeaderSelector::fencingToken() const
{
    return d_func()->sync->fencingToken();
}

/*!
    The time this node may still count on its leadership: until the term's lease deadline
    (the renewal etcd last answered was sent that long ago, less the TTL and the client's
    safety margin). Zero when not leading. Safe from any thread; check it before a side
    effect that no fencing token can guard.
*/
milliseconds EtcdLeaderSelector::remainingValidity() const
{
    return d_func()->sync->remainingValidity();
}

/*!
    \property EtcdLeaderSelector::leader
    The election's leader as this selector last saw it while a term ran (its id, without the
    token suffix); empty while nobody leads, and before the first term.
*/
QString EtcdLeaderSelector::leader() const
{
    return d_func()->leaderSeen;
}

/*! How many terms this selector won, ended, and ended by stepping down. */
EtcdElectionCounters EtcdLeaderSelector::counters() const
{
    return d_func()->counters;
}

/*!
    Sends \a txn guarded by fencingToken(): it commits (succeeded() is true) only while the
    term that token belongs to still holds the LEADER key. Call it in this object's thread.
*/
EtcdTxnReply *EtcdLeaderSelector::guardedTxn(const EtcdTxn &txn)
{
    return txnOn(client(), fencingToken().guard(txn));
}

/*!
    For the body (or any thread but this object's): sends \a txn guarded by the fencing token
    as it is now, and waits at most \a timeout for etcd's answer. Returns true when it
    committed. Otherwise \a status (when given) says why: the term is over
    (FailedPrecondition: at once, without a round trip, once the engine decided the term's
    lease is gone), etcd refused or could not be reached, or no answer came in time
    (DeadlineExceeded; the write may still commit, but only while the term holds). The
    transaction is sent from the calling thread, and gRPC's completion thread hands etcd's
    answer straight back to it: a busy owner thread delays neither. Refused, returning false,
    in this object's thread.
*/
bool EtcdLeaderSelector::commitGuarded(const EtcdTxn &txn, milliseconds timeout, EtcdStatus *status)
{
    Q_D(EtcdLeaderSelector);
    if (refuseOwnThread(this, "EtcdLeaderSelector::commitGuarded()", status))
        return false;
    // The caller's term, not a later one; sent from here, its answer handed back here.
    return commitGuardedFromWorker(
        d->door, d->sync->isLeader(), fencingToken(), txn, timeout, status, tr("the term is over"));
}

/*!
    Blocks a worker thread until this term is in the running and returns \c true;
    returns \c false when it ended without getting there, when \a timeout passed, and in
    this object's thread (refused).
*/
bool EtcdLeaderSelector::waitForStarted(milliseconds timeout)
{
    if (refuseOwnThread(this, "waitForStarted()"))
        return false;
    bool ok = false;
    // Its own reference: a selector destroyed meanwhile ends the wait (finish()) and frees d.
    const std::shared_ptr<TermSync> sync = d_func()->sync;
    sync->waitFor(timeout, [&ok](TermSync::Phase phase, bool started) {
        ok = started;
        return started || phase == TermSync::Phase::Idle;
    });
    return ok;
}

/*!
    For callers: blocks until the current term is over (this node led and finished, or
    close() ended its candidacy), at most \a timeout. Returns true when the term is over;
    false on timeout, when no term was started, and in this object's thread (refused).
*/
bool EtcdLeaderSelector::waitOnLeadershipComplete(milliseconds timeout)
{
    Q_D(EtcdLeaderSelector);
    if (refuseOwnThread(this, "waitOnLeadershipComplete()"))
        return false;
    const std::shared_ptr<TermSync> sync = d->sync; // outlives a selector destroyed meanwhile
    if (sync->termCount() == 0) {
        qCWarning(lcEtcdElection, "waitOnLeadershipComplete() before start()");
        return false;
    }
    return sync->waitFor(
        timeout, [](TermSync::Phase phase, bool) { return phase == TermSync::Phase::Idle; });
}

/*!
    For the body: blocks until the term is asked to end (resign(), close(), or leadership
    lost), at most \a timeout. Returns true when released, false on timeout. Takes no lock
    that close() needs, so it is the right place to park a body that leads "until shutdown".
*/
bool EtcdLeaderSelector::waitUntilFinished(milliseconds timeout)
{
    if (refuseOwnThread(this, "waitUntilFinished()"))
        return false;
    const std::shared_ptr<TermSync> sync = d_func()->sync; // as in waitForStarted()
    return sync->waitFor(
        timeout, [](TermSync::Phase phase, bool) { return phase != TermSync::Phase::Running; });
}

/*!
    Starts a term: registers this node as a participant and runs for election. Returns
    false, with the reason in errors() and failed() on the next loop turn, when the input is
    bad or the selector is closed, and false with FailedPrecondition while a term is in
    flight (only after termFinished() may it run again).
*/
bool EtcdLeaderSelector::start()
{
    Q_D(EtcdLeaderSelector);
    EtcdStatus problem;
    if (d->state != State::Idle && d->state != State::Closed) {
        problem = EtcdStatus(
            Etcd::ErrorCode::FailedPrecondition, tr("previous call to start() not complete"));
    } else if (isClosed()) {
        problem = EtcdStatus(Etcd::ErrorCode::FailedPrecondition, tr("the selector is closed"));
    } else if (d->path.isEmpty() || d->path == "/") {
        problem = EtcdStatus(Etcd::ErrorCode::InvalidArgument, tr("empty election path"));
    } else if (const auto ttlProblem = leaseTtlProblem(d->options.ttl)) {
        problem = *ttlProblem;
    } else if (!client()) {
        problem = EtcdStatus(Etcd::ErrorCode::NotConnected, tr("no client"));
    }
    if (!problem.isOk()) {
        recordError(problem);
        postQueued(this, [this, problem] { Q_EMIT failed(problem); });
        return false;
    }
    if (!d->setState(State::Campaigning))
        return true;
    d->beginTerm();
    return true;
}

/*!
    Ends this node's part in the current term: a leader asks its body to stop and hands
    off once it returns (at once without a body); a candidate withdraws.
*/
void EtcdLeaderSelector::resign()
{
    Q_D(EtcdLeaderSelector);
    d->endTerm(EtcdLeaderSelectorPrivate::End::Resigned, {});
}

/*!
    Ends the current term as resign() does and closes the selector for good; closed() follows
    once the leases are revoked. Never blocks.
*/
void EtcdLeaderSelector::close()
{
    Q_D(EtcdLeaderSelector);
    if (isClosed())
        return;
    d->closing = true;
    markClosed();
    if (d->inTerm())
        return d->endTerm(EtcdLeaderSelectorPrivate::End::Closed, {});
    if (d->state == State::Relinquishing) {
        d->bodyThread.request_stop(); // the term finishes as it was going to, then closes
        return;
    }
    d->setState(State::Closed);
    d->seat.reset();
    d->closeGrants(); // a grant of an earlier term may still be in flight
}

/*!
    Reads who runs in the election at \a electionPath on \a client, and who leads: an
    advisory snapshot for dashboards and logs, never for control flow (both ranges are read
    in one transaction, so the snapshot is at least consistent).
*/
EtcdParticipantsReply *EtcdLeaderSelector::participants(
    EtcdClient *client, const QByteArray &electionPath)
{
    return Etcd::electionParticipants(client, electionPath);
}

/*!
    \enum EtcdLeaderSelector::State
    \value Idle not started
    \value Campaigning a candidate, waiting for the leadership key
    \value Leading holding the leadership; the body runs (or the signals-only form leads)
    \value Relinquishing the term is ending: the body was asked to stop, the key is deleted
    \value Closed close() was called
*/

/*!
    \typedef EtcdLeaderSelector::TakeLeadership
    The body of a term: it runs on a worker thread with the selector and a stop token that
    is requested when the term ends (resign, close, or lost leadership); the term ends when
    it returns.
*/

/*!
    \typedef EtcdLeaderSelector::RelinquishLeadership
    Runs when a term that led ends, before its lease is revoked (which deletes the leadership
    key): on the body's thread right after the body returned, or in the selector's thread
    when no body was running.
*/

/*!
    \class EtcdLeaderSelectorOptions
    \inmodule EtcdQt
    \brief Options of an EtcdLeaderSelector (and EtcdLeaderLatch).
*/

/*!
    \variable EtcdLeaderSelectorOptions::ttl
    \brief the TTL of the leadership lease and of the participation lease.
*/

/*!
    \variable EtcdLeaderSelectorOptions::clientId
    \brief this candidate's id; empty picks "LeaderSelector:<7 random characters>".
*/

/*!
    \variable EtcdLeaderSelectorOptions::interruptOnLeaseLoss
    \brief whether the body's stop is requested when leadership is lost.
*/

/*!
    \variable EtcdLeaderSelectorOptions::participation
    \brief how the participation key (the candidate's presence) heals.
*/

/*!
    \class EtcdElectionCounters
    \inmodule EtcdQt
    \brief How many terms a candidate won and how they ended.
*/

/*!
    \variable EtcdElectionCounters::acquired
    \brief the number of terms won.
*/

/*!
    \variable EtcdElectionCounters::relinquished
    \brief the number of terms ended, however they ended.
*/

/*!
    \variable EtcdElectionCounters::steppedDown
    \brief the number of those terms that ended because leadership was lost.
*/
