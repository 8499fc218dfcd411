// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "etcdleaderselector_p.h"
#include "etcdqt_internal_p.h"
#include "leaseops_p.h"
#include "recipelayer_p.h"
#include "recipepaths_p.h"
#include "sharedstate_p.h"

#include <EtcdQt/etcdleaderlatch.h>

#include <QtCore/qpointer.h>
#include <QtCore/qthread.h>
#include <QtCore/qtimer.h>

using namespace Etcd::Internal;
using namespace std::chrono;

/*!
    \class EtcdLeaderLatch
    \inmodule EtcdQt
    \brief Leadership as a role: held from the moment it is won until close().

    The Curator-style shape of the election, wire-compatible with etcd-recipes' LeaderLatch
    (same keys as EtcdLeaderSelector, so latches, selectors and observers on one path share
    one election). start() joins the election (one-shot); hasLeadership says whether this
    node leads; await() blocks a worker thread until it does. elected() and relinquished()
    are emitted in that order for every term.

    When leadership is lost (see EtcdLeaderSelector, "Losing the lease") the latch reports
    leadershipLost() and relinquished(), then contests again with a fresh term: a latch that
    survives a partition may lead again, or find a successor and follow. hasLeadership is the
    truth. Unlike etcd-recipes' latch, it reports its connection state (Lost on step-down) and
    close() releases a parked await(), which then returns false: a shutdown path that closes
    the latch and joins the awaiting thread does not deadlock.

    close() is one-shot and terminal: it resigns, revokes the leases, and emits closed().
*/

/*! \fn void EtcdLeaderLatch::elected()
    Emitted when this node became the leader ("isLeader").
*/
/*! \fn void EtcdLeaderLatch::relinquished()
    Emitted when this node stopped leading, by close() or by losing the lease ("notLeader").
*/
/*! \fn void EtcdLeaderLatch::leaderChanged(const QString &leaderId)
    Emitted when the election's leader changed to \a leaderId (empty: nobody leads).
*/
/*! \fn void EtcdLeaderLatch::leadershipLost(const EtcdStatus &reason)
    Emitted, before relinquished(), when leadership was lost for \a reason.
*/

class EtcdLeaderLatchPrivate
{
    Q_DECLARE_PUBLIC(EtcdLeaderLatch)
public:
    void contest();
    void onTermFinished();
    void setLeader(bool leading);

    EtcdLeaderLatch *q_ptr = nullptr;
    std::unique_ptr<EtcdLeaderSelector> selector;
    QTimer retry;
    qint64 retryDelayMs = 0;
    bool started = false;
    bool termFailed = false;

    // Wakes await() on other threads; whether it leads is the selector's (engine's) word.
    struct Wake
    {
        bool elected = false;
        bool closed = false;
    };
    // Shared with await(): a latch destroyed while a worker waits closes it and frees d.
    std::shared_ptr<SharedState<Wake>> wake = std::make_shared<SharedState<Wake>>();
};

void EtcdLeaderLatchPrivate::setLeader(bool value)
{
    wake->update([value](Wake &w) { w.elected = value; });
}

void EtcdLeaderLatchPrivate::contest()
{
    termFailed = false;
    selector->start();
}

// A term ended: contest again at once after a step-down; after a failure (etcd unreachable)
// back off, up to half a TTL, so an outage is not hammered.
void EtcdLeaderLatchPrivate::onTermFinished()
{
    Q_Q(EtcdLeaderLatch);
    if (q->isClosed())
        return;
    if (!termFailed) {
        retryDelayMs = 0;
        return contest();
    }
    // In qint64: half of a long TTL in milliseconds does not fit an int (QTimer's type).
    const qint64 halfTtlMs = std::max<qint64>(selector->ttl().count() * 500, 250);
    retryDelayMs = std::clamp<qint64>(qint64(retryDelayMs) * 2, 250, halfTtlMs);
    retry.start(timerDelay(milliseconds(retryDelayMs)));
}

/*!
    Constructs a latch for the election at \a electionPath on \a client with \a options.
    No I/O happens until start(). The object is a child of \a parent.
*/
EtcdLeaderLatch::EtcdLeaderLatch(EtcdClient *client, const QByteArray &electionPath,
    const EtcdLeaderSelectorOptions &options, QObject *parent)
    : EtcdRecipe(
        client, QStringLiteral("LeaderLatch[%1]").arg(QString::fromUtf8(electionPath)), parent),
      d_ptr(new EtcdLeaderLatchPrivate)
{
    Q_D(EtcdLeaderLatch);
    d->q_ptr = this;
    EtcdLeaderSelectorOptions o = options;
    if (o.clientId.isEmpty())
        o.clientId = QStringLiteral("LeaderLatch:") + QString::fromLatin1(RecipePaths::randomId(7));
    d->selector = std::make_unique<EtcdLeaderSelector>(client, electionPath, o);
    EtcdLeaderSelector *s = d->selector.get();
    d->retry.setSingleShot(true);
    connect(&d->retry, &QTimer::timeout, this, [d] { d->contest(); });
    connect(s, &EtcdLeaderSelector::elected, this, [this, d] {
        d->setLeader(true);
        Q_EMIT leadershipChanged();
        Q_EMIT elected();
    });
    connect(s, &EtcdLeaderSelector::leadershipLost, this, &EtcdLeaderLatch::leadershipLost);
    connect(s, &EtcdLeaderSelector::leaderChanged, this, &EtcdLeaderLatch::leaderChanged);
    connect(s, &EtcdLeaderSelector::relinquished, this, [this, d] {
        d->setLeader(false);
        Q_EMIT leadershipChanged();
        Q_EMIT relinquished();
    });
    connect(s, &EtcdLeaderSelector::failed, this, [d] { d->termFailed = true; });
    connect(s, &EtcdLeaderSelector::termFinished, this, [d] { d->onTermFinished(); });
    RecipeLayer::adopt(this, s);
}

/*! Closes the latch (see close()). */
EtcdLeaderLatch::~EtcdLeaderLatch()
{
    d_func()->wake->update([](EtcdLeaderLatchPrivate::Wake &w) { w.closed = true; });
}

/*! \property EtcdLeaderLatch::electionPath
    The election this latch runs in. */
QByteArray EtcdLeaderLatch::electionPath() const
{
    return d_func()->selector->electionPath();
}

/*! \property EtcdLeaderLatch::clientId
    The id this latch runs under. */
QString EtcdLeaderLatch::clientId() const
{
    return d_func()->selector->clientId();
}

/*!
    \property EtcdLeaderLatch::hasLeadership
    Whether this node leads now, as the client's engine thread decided it (see
    EtcdLeaderSelector: a lost lease turns it false there, whatever this object's thread is
    doing; leadershipChanged() follows here). Safe from any thread; advisory: the lease can be
    lost the next moment, so work that must not run twice goes through guardedTxn().
*/
bool EtcdLeaderLatch::hasLeadership() const
{
    return d_func()->selector->isLeader();
}

/*! See EtcdLeaderSelector::remainingValidity(). Safe from any thread. */
milliseconds EtcdLeaderLatch::remainingValidity() const
{
    return d_func()->selector->remainingValidity();
}

/*!
    \property EtcdLeaderLatch::leader
    The election's leader as this latch last saw it; see EtcdLeaderSelector::leader.
*/
QString EtcdLeaderLatch::leader() const
{
    return d_func()->selector->leader();
}

/*! \property EtcdLeaderLatch::fencingToken
    See EtcdLeaderSelector::fencingToken. */
EtcdFencingToken EtcdLeaderLatch::fencingToken() const
{
    return d_func()->selector->fencingToken();
}

/*! Terms won, ended, and ended by stepping down, over the latch's life. */
EtcdElectionCounters EtcdLeaderLatch::counters() const
{
    return d_func()->selector->counters();
}

/*! Returns \c true while the latch is open and not Lost. */
bool EtcdLeaderLatch::isHealthy() const
{
    return !isClosed() && connectionState() != ConnectionState::Lost;
}

/*! See EtcdLeaderSelector::guardedTxn(); \a txn commits only while this term leads. */
EtcdTxnReply *EtcdLeaderLatch::guardedTxn(const EtcdTxn &txn)
{
    return d_func()->selector->guardedTxn(txn);
}

/*!
    Blocks a worker thread until this node leads (true), the latch is closed (false), or
    \a timeout passed (false). Refused, returning false, in the latch's own thread.
*/
bool EtcdLeaderLatch::await(milliseconds timeout)
{
    Q_D(EtcdLeaderLatch);
    if (QThread::currentThread() == thread()) {
        qCWarning(lcEtcdElection,
            "EtcdLeaderLatch::await() in the latch's own thread would block "
            "the events it waits for; refused");
        return false;
    }
    using Wake = EtcdLeaderLatchPrivate::Wake;
    // d is not touched after the wait: the latch may be gone by then (its destructor closes
    // the wake), so the wait and the engine's word are held by reference of their own.
    const std::shared_ptr<SharedState<Wake>> wake = d->wake;
    const std::shared_ptr<const TermSync> term
        = EtcdLeaderSelectorPrivate::syncOf(d->selector.get());
    const bool closed = wake->waitFor(
        timeout, [](const Wake &w) { return w.elected || w.closed; },
        [](const Wake &w) { return w.closed; });
    return !closed && term->isLeader(); // the engine's word, not this thread's
}

/*!
    Joins the election. One-shot: returns false (and records why) on a second call, after
    close(), or when the TTL is not one etcd grants (not positive, or above its maximum of
    9,000,000,000 s: InvalidArgument).
*/
bool EtcdLeaderLatch::start()
{
    Q_D(EtcdLeaderLatch);
    if (d->started || isClosed()) {
        recordError(EtcdStatus(Etcd::ErrorCode::FailedPrecondition,
            isClosed() ? tr("the latch is closed") : tr("start() already called")));
        return false;
    }
    // Refused here, not by the selector's grant: a failed term would only be contested again.
    if (const auto problem = leaseTtlProblem(d->selector->ttl())) {
        recordError(*problem);
        return false;
    }
    d->started = true;
    setActive(true);
    return d->selector->start();
}

/*!
    Leaves the election for good: a leader hands off, any await() returns false, and
    closed() follows once the leases are revoked. Never blocks.
*/
void EtcdLeaderLatch::close()
{
    Q_D(EtcdLeaderLatch);
    if (isClosed())
        return;
    markClosed();
    d->retry.stop();
    d->wake->update([](EtcdLeaderLatchPrivate::Wake &w) { w.closed = true; });
    d->selector->close();
}
