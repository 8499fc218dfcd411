// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "barrierarrival_p.h"
#include "etcdqt_internal_p.h"
#include "handover_p.h"
#include "leaseops_p.h"
#include "recipepaths_p.h"
#include "recipereplies_p.h"

#include <EtcdQt/etcdcountedbarrier.h>
#include <EtcdQt/etcdleaseevent.h>

#include <QtCore/qpointer.h>

#include <atomic>
#include <map>
#include <set>

using namespace Etcd::Internal;
using namespace std::chrono;

/*!
    \class EtcdCountedBarrier
    \inmodule EtcdQt
    \brief An N-party rendezvous: every member waits until memberCount() have arrived.

    etcd-recipes' DistributedBarrierWithCount, byte for byte. The first member of a round
    creates "<path>/ready" (value "<clientId>:<7>", no lease). Each member registers
    "<path>/waiting/<clientId>:<7>" (the same token) on a lease of ttl() that heals while it
    waits, counts the waiting keys, and watches "<path>/" from the revision it counted at.
    The member that sees memberCount() waiting keys deletes "ready", which releases all the
    others. Every member leaves the barrier on every exit (tripped, timed out, closed): its
    lease is revoked and its waiting key deleted.

    A member whose lease expires while it waits re-registers when the lease heals, so the
    barrier can still trip. There is no gatekeeper: any member, here or in a Kotlin process,
    may complete the round.

    While a member's watch or lease is cut off from etcd, connectionState() is Suspended;
    when the watch resumes, Reconnected. An expired lease makes it Lost until the lease heals.

    waitOnBarrier() blocks a worker thread; arrive() is the non-blocking form, answered by
    tripped(). Each call is one member arriving.
*/

/*! \fn void EtcdCountedBarrier::tripped()
    Emitted when all members of an arrive() call's round have arrived.
*/
/*!
    \fn void EtcdCountedBarrier::failed(const EtcdStatus &reason)
    Emitted when an arrive() call could not take part (etcd unreachable, bad input). \a reason says
    why.
*/

class EtcdCountedBarrierPrivate
{
    Q_DECLARE_PUBLIC(EtcdCountedBarrier)
public:
    EtcdCountedBarrierPrivate(EtcdCountedBarrier *q, const QByteArray &path, int memberCount,
        const EtcdCountedBarrierOptions &o)
        : q_ptr(q), path(path), memberCount(memberCount), options(o)
    {
        if (options.clientId.isEmpty())
            options.clientId = QStringLiteral("DistributedBarrierWithCount:")
                + QString::fromLatin1(RecipePaths::randomId(7));
    }

    [[nodiscard]] EtcdStatus badInput() const;
    void begin(int id, std::function<void(bool)> done);
    void end(int id, bool tripped);
    void leaveCounted(int id);
    void setWaiterCount(int n);

    EtcdCountedBarrier *q_ptr;
    QByteArray path;
    int memberCount;
    EtcdCountedBarrierOptions options;
    std::map<int, std::unique_ptr<BarrierArrival>> arrivals;
    std::map<int, std::function<void(bool)>> answers;
    int waiterCount = 0;
    EtcdStatus lastError; // of any arrival, for failed()
    std::set<BarrierArrival *> leaving; // ended, their leases being revoked
    int nextOwnId = -1; // arrive() counts down, worker waits count up
    std::atomic<int> nextWorkerId {1};
};

EtcdStatus EtcdCountedBarrierPrivate::badInput() const
{
    if (path.isEmpty())
        return EtcdStatus(Etcd::ErrorCode::InvalidArgument, EtcdRecipe::tr("empty barrier path"));
    if (memberCount <= 0)
        return EtcdStatus(
            Etcd::ErrorCode::InvalidArgument, EtcdRecipe::tr("member count must be positive"));
    if (const auto problem = leaseTtlProblem(options.ttl))
        return *problem;
    return {};
}

void EtcdCountedBarrierPrivate::begin(int id, std::function<void(bool)> done)
{
    Q_Q(EtcdCountedBarrier);
    if (q->isClosed())
        return done(false);
    answers.emplace(id, std::move(done));
    BarrierArrival::Options o {path, memberCount, RecipePaths::uniqueToken(options.clientId),
        options.ttl, options.resilience};
    auto arrival = std::make_unique<BarrierArrival>(q->client(), o, q, RecipeLayer::partSinkOf(q));
    BarrierArrival *a = arrival.get();
    QObject::connect(a, &BarrierArrival::finished, q, [this, id](bool t) { end(id, t); });
    QObject::connect(
        a, &BarrierArrival::waiterCountChanged, q, [this](int n) { setWaiterCount(n); });
    QObject::connect(a, &BarrierArrival::errorOccurred, q, [this](const EtcdStatus &s) {
        lastError = s;
        q_func()->recordError(s);
    });
    QObject::connect(a, &BarrierArrival::leaseEvent, q,
        [this](const EtcdLeaseEvent &e) { q_func()->reportLeaseEvent(e); });
    arrivals.emplace(id, std::move(arrival));
    a->start();
}

// The wait is answered once the member has left the barrier (its lease revoked, so its key
// is gone), as the reference returns only after its cleanup.
void EtcdCountedBarrierPrivate::end(int id, bool tripped)
{
    Q_Q(EtcdCountedBarrier);
    std::function<void(bool)> done;
    if (const auto answer = answers.find(id); answer != answers.end()) {
        done = std::move(answer->second);
        answers.erase(answer);
    }
    if (answers.empty())
        setWaiterCount(0);
    const auto a = arrivals.find(id);
    if (a == arrivals.end()) {
        if (done)
            done(tripped);
        return;
    }
    BarrierArrival *arrival = a->second.release();
    arrivals.erase(a);
    QObject::disconnect(arrival, nullptr, q, nullptr);
    leaving.insert(arrival);
    QObject::connect(arrival, &BarrierArrival::cleanedUp, q, [this, arrival, done, tripped] {
        arrival->deleteLater(); // it is the sender
        leaving.erase(arrival);
        if (done)
            done(tripped);
        if (leaving.empty() && q_func()->isClosed())
            Q_EMIT q_func()->closed();
    });
    arrival->leave(); // no-op when it ended itself
}

// A timed-out wait: the arrival finds out whether its round tripped meanwhile, and its
// finished() ends the wait with that answer.
void EtcdCountedBarrierPrivate::leaveCounted(int id)
{
    if (const auto a = arrivals.find(id); a != arrivals.end())
        a->second->leaveCounted();
}

void EtcdCountedBarrierPrivate::setWaiterCount(int n)
{
    Q_Q(EtcdCountedBarrier);
    if (std::exchange(waiterCount, n) != n)
        Q_EMIT q->waiterCountChanged(n);
}

/*!
    Constructs a barrier for \a memberCount members at \a path on \a client, as \a options
    say. No I/O until a member arrives. The object is a child of \a parent.
*/
EtcdCountedBarrier::EtcdCountedBarrier(EtcdClient *client, const QByteArray &path, int memberCount,
    const EtcdCountedBarrierOptions &options, QObject *parent)
    : EtcdRecipe(client,
        QStringLiteral("DistributedBarrierWithCount[%1]").arg(QString::fromUtf8(path)), parent),
      d_ptr(new EtcdCountedBarrierPrivate(this, path, memberCount, options))
{ }

/*! Closes: every waiting member leaves the barrier. */
EtcdCountedBarrier::~EtcdCountedBarrier()
{
    close();
}

/*! \property EtcdCountedBarrier::path
    The barrier's path (under the client's key prefix). */
QByteArray EtcdCountedBarrier::path() const
{
    return d_func()->path;
}

/*! \property EtcdCountedBarrier::memberCount
    How many members trip the barrier. */
int EtcdCountedBarrier::memberCount() const
{
    return d_func()->memberCount;
}

/*! \property EtcdCountedBarrier::clientId
    Written into this object's tokens, "<clientId>:<7>". */
QString EtcdCountedBarrier::clientId() const
{
    return d_func()->options.clientId;
}

/*! The TTL of each waiting member's lease. */
seconds EtcdCountedBarrier::ttl() const
{
    return d_func()->options.ttl;
}

/*!
    \property EtcdCountedBarrier::waiterCount
    Members waiting at the barrier when this object last counted (advisory); 0 when none of
    its members waits.
*/
int EtcdCountedBarrier::waiterCount() const
{
    return d_func()->waiterCount;
}

/*!
    Arrives and blocks a worker thread until all members arrived; returns \c true then,
    \c false on close().
*/
bool EtcdCountedBarrier::waitOnBarrier()
{
    return waitOnBarrier(kWaitForever);
}

/*!
    Arrives and blocks a worker thread until all members arrived (true), or \a timeout passed
    or close() was called (false; this member has left the barrier). Refused, returning
    false, in this object's thread; false with the reason in errors() on bad input.

    A timed-out member leaves by deleting its key and reading the round's marker in one
    transaction: if a round that counted it tripped before that, the answer is true. The
    reference answers false there, and a member that then arrives again starts a round of
    its own that the others, already released, never join.
*/
bool EtcdCountedBarrier::waitOnBarrier(milliseconds timeout)
{
    Q_D(EtcdCountedBarrier);
    if (refuseOwnThread(this, "EtcdCountedBarrier::waitOnBarrier()"))
        return false;
    if (const EtcdStatus bad = d->badInput(); !bad.isOk()) {
        postQueued(this, [this, bad] { recordError(bad); });
        return false;
    }
    const int id = d->nextWorkerId++;
    return waitCancellable(
        this, timeout,
        [d, id](Answer<bool> answer) { d->begin(id, [answer](bool v) { answer(v); }); },
        [d, id] { d->leaveCounted(id); });
}

/*! Arrives without blocking: tripped() follows when all members arrived. */
void EtcdCountedBarrier::arrive()
{
    Q_D(EtcdCountedBarrier);
    if (const EtcdStatus bad = d->badInput(); !bad.isOk()) {
        recordError(bad);
        Q_EMIT failed(bad);
        return;
    }
    QPointer<EtcdCountedBarrier> self(this);
    d->begin(d->nextOwnId--, [self](bool tripped) {
        if (self && tripped)
            Q_EMIT self->tripped();
        else if (self && !self->isClosed())
            Q_EMIT self->failed(self->d_func()->lastError);
    });
}

/*!
    Every waiting member of this object leaves the barrier, and its waits return false;
    closed() follows once their leases are revoked. Idempotent.
*/
void EtcdCountedBarrier::close()
{
    Q_D(EtcdCountedBarrier);
    if (isClosed())
        return;
    markClosed();
    while (!d->answers.empty())
        d->end(d->answers.begin()->first, false);
    if (d->leaving.empty()) // else closed() comes when the last lease is revoked
        emitClosedAfter(nullptr);
}

/*!
    \class EtcdCountedBarrierOptions
    \inmodule EtcdQt
    \brief Options of an EtcdCountedBarrier (and of both halves of an EtcdDoubleBarrier).
*/

/*!
    \variable EtcdCountedBarrierOptions::ttl
    \brief the TTL of each waiting member's lease.
*/

/*!
    \variable EtcdCountedBarrierOptions::clientId
    \brief this member's id; empty picks "DistributedBarrierWithCount:<7 random characters>".
*/

/*!
    \variable EtcdCountedBarrierOptions::resilience
    \brief how a waiting member's lease heals.
*/
