// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "etcdqt_internal_p.h"
#include "recipepaths_p.h"
#include "recipereplies_p.h"

#include <EtcdQt/etcddoublebarrier.h>

using namespace Etcd::Internal;
using namespace std::chrono;

/*!
    \class EtcdDoubleBarrier
    \inmodule EtcdQt
    \brief Phase synchronisation: memberCount() members enter together and leave together.

    etcd-recipes' DistributedDoubleBarrier: two EtcdCountedBarrier rounds, at
    "<path>/enter" and "<path>/leave", so the keys are "<path>/enter/ready",
    "<path>/enter/waiting/<clientId>:<7>" and the same under "<path>/leave". enter() returns
    when all members entered, leave() when all left. Unlike the reference, where the double
    barrier is only Closeable, this is a recipe like the others: its TTL and resilience apply
    to both rounds, its errors() and connection state include theirs, and the clientId of
    its options goes into both rounds' tokens.
*/

/*! \fn void EtcdDoubleBarrier::entered()
    Emitted when all members entered after startEnter().
*/
/*! \fn void EtcdDoubleBarrier::left()
    Emitted when all members left after startLeave().
*/

class EtcdDoubleBarrierPrivate
{
public:
    QByteArray path;
    EtcdCountedBarrier *enter = nullptr;
    EtcdCountedBarrier *leave = nullptr;
};

/*!
    Constructs the double barrier for \a memberCount members at \a path on \a client, as
    \a options say. No I/O until a member enters. The object is a child of \a parent.
*/
EtcdDoubleBarrier::EtcdDoubleBarrier(EtcdClient *client, const QByteArray &path, int memberCount,
    const EtcdCountedBarrierOptions &options, QObject *parent)
    : EtcdRecipe(client,
        QStringLiteral("DistributedDoubleBarrier[%1]").arg(QString::fromUtf8(path)), parent),
      d_ptr(new EtcdDoubleBarrierPrivate {path, nullptr, nullptr})
{
    Q_D(EtcdDoubleBarrier);
    const auto phase = [&](const char *name) {
        auto *b = new EtcdCountedBarrier(client,
            path.isEmpty() ? QByteArray() : RecipePaths::doubleBarrierPhase(path, name),
            memberCount, options, this);
        connect(b, &EtcdRecipe::errorOccurred, this,
            [this](const QString &, const EtcdStatus &s) { keepError(s); });
        connect(b, &EtcdRecipe::connectionStateChanged, this,
            [this](ConnectionState s) { reportConnectionState(s); });
        connect(b, &EtcdCountedBarrier::failed, this, &EtcdDoubleBarrier::failed);
        return b;
    };
    d->enter = phase("enter");
    d->leave = phase("leave");
    connect(d->enter, &EtcdCountedBarrier::tripped, this, &EtcdDoubleBarrier::entered);
    connect(d->leave, &EtcdCountedBarrier::tripped, this, &EtcdDoubleBarrier::left);
    connect(d->enter, &EtcdCountedBarrier::waiterCountChanged, this,
        &EtcdDoubleBarrier::enterWaiterCountChanged);
    connect(d->leave, &EtcdCountedBarrier::waiterCountChanged, this,
        &EtcdDoubleBarrier::leaveWaiterCountChanged);
}

/*! Closes both rounds. */
EtcdDoubleBarrier::~EtcdDoubleBarrier()
{
    close();
}

/*! \property EtcdDoubleBarrier::path
    The barrier's path (under the client's key prefix). */
QByteArray EtcdDoubleBarrier::path() const
{
    return d_func()->path;
}

/*! \property EtcdDoubleBarrier::memberCount
    How many members each phase waits for. */
int EtcdDoubleBarrier::memberCount() const
{
    return d_func()->enter->memberCount();
}

/*! \property EtcdDoubleBarrier::enterWaiterCount
    Members seen waiting to enter (advisory). */
int EtcdDoubleBarrier::enterWaiterCount() const
{
    return d_func()->enter->waiterCount();
}

/*! \property EtcdDoubleBarrier::leaveWaiterCount
    Members seen waiting to leave (advisory). */
int EtcdDoubleBarrier::leaveWaiterCount() const
{
    return d_func()->leave->waiterCount();
}

/*! Blocks a worker thread until all members entered; returns \c true then, \c false on close(). */
bool EtcdDoubleBarrier::enter()
{
    return d_func()->enter->waitOnBarrier();
}

/*! As enter(), false when \a timeout passed first (this member is then not counted). */
bool EtcdDoubleBarrier::enter(milliseconds timeout)
{
    return d_func()->enter->waitOnBarrier(timeout);
}

/*! Blocks a worker thread until all members left; returns \c true then, \c false on close(). */
bool EtcdDoubleBarrier::leave()
{
    return d_func()->leave->waitOnBarrier();
}

/*! As leave(), false when \a timeout passed first. */
bool EtcdDoubleBarrier::leave(milliseconds timeout)
{
    return d_func()->leave->waitOnBarrier(timeout);
}

/*! Enters without blocking; entered() follows. */
void EtcdDoubleBarrier::startEnter()
{
    d_func()->enter->arrive();
}

/*! Leaves without blocking; left() follows. */
void EtcdDoubleBarrier::startLeave()
{
    d_func()->leave->arrive();
}

/*!
    Closes both rounds: waiting members leave them, blocked calls return false, and closed()
    follows once their leases are revoked.
*/
void EtcdDoubleBarrier::close()
{
    Q_D(EtcdDoubleBarrier);
    if (isClosed())
        return;
    markClosed();
    auto pending = std::make_shared<int>(2);
    for (EtcdCountedBarrier *phase : {d->enter, d->leave}) {
        connect(phase, &EtcdRecipe::closed, this, [this, pending] {
            if (--*pending == 0)
                Q_EMIT closed();
        });
        phase->close();
    }
}

/*!
    \fn void EtcdDoubleBarrier::failed(const EtcdStatus &reason)
    Emitted when the barrier failed for good with \a reason (forwarded from either of its
    counted barriers).
*/
