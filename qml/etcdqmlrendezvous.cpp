// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "etcdqmlrendezvous.h"
#include "etcdqmlconvert_p.h"

#include <EtcdQt/etcdcountedbarrier.h>
#include <EtcdQt/etcddoublebarrier.h>

/*!
    \class EtcdQmlRendezvous
    \internal
    The base of CountedBarrier and DoubleBarrier: \c memberCount members meet at \c path;
    below 1 is refused with InvalidArgument.
*/

EtcdQmlRendezvous::EtcdQmlRendezvous(QObject *parent) : EtcdQmlPathRecipe(2000, parent) { }

EtcdQmlRendezvous::~EtcdQmlRendezvous() = default;

void EtcdQmlRendezvous::setMemberCount(int count)
{
    changeSetting(m_memberCount, count, &EtcdQmlRendezvous::memberCountChanged);
}

QString EtcdQmlRendezvous::invalidSetting() const
{
    if (m_memberCount < 1)
        return tr("memberCount must be at least 1, not %1").arg(m_memberCount);
    return EtcdQmlPathRecipe::invalidSetting();
}

EtcdCountedBarrierOptions EtcdQmlRendezvous::options() const
{
    EtcdCountedBarrierOptions options;
    options.ttl = Etcd::Qml::ttlFromMilliseconds(ttl());
    options.clientId = clientId();
    return options;
}

/*!
    \qmltype CountedBarrier
    \inqmlmodule EtcdQt
    \brief An N-party rendezvous at \c path (EtcdCountedBarrier, etcd-recipes'
    DistributedBarrierWithCount), usable while \c active.

    arrive() parks this member at the barrier (\c waiting turns true) until \c memberCount
    members, in any process, have arrived: then tripped() is emitted in every one of them.
    An arrival that cannot take part (etcd unreachable) ends with arrivalFailed(code,
    message) instead. \c waiterCount is how many members this item last saw parked
    (advisory; 0 while it waits for nothing). A parked member is kept under a lease of
    \c ttl milliseconds (default 2000, rounded up to whole seconds) that heals while it
    waits; switching \c active off leaves the barrier. \c memberCount below 1 or a \c ttl
    of 0 or less is refused with \c EtcdError.InvalidArgument, and nothing starts.
    \c clientId goes into the member's keys (empty: "DistributedBarrierWithCount:<7
    random>").
*/

EtcdQmlCountedBarrier::EtcdQmlCountedBarrier(QObject *parent) : EtcdQmlRendezvous(parent) { }

EtcdQmlCountedBarrier::~EtcdQmlCountedBarrier() = default;

/*! \qmlmethod bool CountedBarrier::arrive()
    Arrives at the barrier; tripped() or arrivalFailed() follows. Returns \c false when
    not running. */
bool EtcdQmlCountedBarrier::arrive()
{
    auto *barrier = currentAs<EtcdCountedBarrier>();
    if (!barrier)
        return false;
    if (m_arrivals++ == 0)
        Q_EMIT waitingChanged();
    barrier->arrive();
    return true;
}

QObject *EtcdQmlCountedBarrier::startRecipe(EtcdClient *client)
{
    auto *barrier = new EtcdCountedBarrier(client, path().toUtf8(), memberCount(), options());
    followRecipe(barrier);
    connect(barrier, &EtcdCountedBarrier::waiterCountChanged, this,
        &EtcdQmlCountedBarrier::setWaiterCount);
    connect(barrier, &EtcdCountedBarrier::tripped, this, [this] {
        arrivalEnded();
        Q_EMIT tripped();
    });
    connect(barrier, &EtcdCountedBarrier::failed, this, [this](const EtcdStatus &reason) {
        arrivalEnded();
        Q_EMIT arrivalFailed(int(reason.code()), reason.message());
    });
    takeClientId(barrier->clientId());
    return barrier;
}

void EtcdQmlCountedBarrier::recipeStopped()
{
    // close() left the barrier: the arrivals in flight end unanswered.
    const bool wasWaiting = m_arrivals > 0;
    m_arrivals = 0;
    if (wasWaiting)
        Q_EMIT waitingChanged();
    setWaiterCount(0);
}

void EtcdQmlCountedBarrier::arrivalEnded()
{
    if (m_arrivals > 0 && --m_arrivals == 0)
        Q_EMIT waitingChanged();
}

void EtcdQmlCountedBarrier::setWaiterCount(int count)
{
    if (count == m_waiterCount)
        return;
    m_waiterCount = count;
    Q_EMIT waiterCountChanged();
}

/*!
    \qmltype DoubleBarrier
    \inqmlmodule EtcdQt
    \brief Phase synchronisation at \c path (EtcdDoubleBarrier, etcd-recipes'
    DistributedDoubleBarrier): \c memberCount members enter together and leave together.

    While \c active: enter() moves \c phase from \c DoubleBarrier.Outside to
    \c DoubleBarrier.Entering until all members entered, then entered() is emitted and
    \c phase is \c DoubleBarrier.Inside; leave() moves it to \c DoubleBarrier.Leaving until
    all members left, then left() is emitted and \c phase is \c DoubleBarrier.Outside again.
    An arrival that cannot take part ends with arrivalFailed(code, message) and \c phase
    goes back where it was. \c enterWaiterCount and \c leaveWaiterCount are the members this
    item last saw waiting at each round (advisory). \c ttl and \c memberCount are as for
    CountedBarrier, and \c clientId goes into both rounds' keys (empty: each round picks
    one). Switching \c active off leaves both rounds and sets \c phase to
    \c DoubleBarrier.Outside.
*/

EtcdQmlDoubleBarrier::EtcdQmlDoubleBarrier(QObject *parent) : EtcdQmlRendezvous(parent) { }

EtcdQmlDoubleBarrier::~EtcdQmlDoubleBarrier() = default;

/*! \qmlmethod bool DoubleBarrier::enter()
    Enters; entered() follows. Returns \c false when not running or not
    \c DoubleBarrier.Outside. */
bool EtcdQmlDoubleBarrier::enter()
{
    auto *barrier = currentAs<EtcdDoubleBarrier>();
    if (!barrier || m_phase != Outside)
        return false;
    setPhase(Entering);
    barrier->startEnter();
    return true;
}

/*! \qmlmethod bool DoubleBarrier::leave()
    Leaves; left() follows. Returns \c false when not running or not
    \c DoubleBarrier.Inside. */
bool EtcdQmlDoubleBarrier::leave()
{
    auto *barrier = currentAs<EtcdDoubleBarrier>();
    if (!barrier || m_phase != Inside)
        return false;
    setPhase(Leaving);
    barrier->startLeave();
    return true;
}

QObject *EtcdQmlDoubleBarrier::startRecipe(EtcdClient *client)
{
    auto *barrier = new EtcdDoubleBarrier(client, path().toUtf8(), memberCount(), options());
    followRecipe(barrier);
    connect(barrier, &EtcdDoubleBarrier::enterWaiterCountChanged, this,
        &EtcdQmlDoubleBarrier::setEnterWaiterCount);
    connect(barrier, &EtcdDoubleBarrier::leaveWaiterCountChanged, this,
        &EtcdQmlDoubleBarrier::setLeaveWaiterCount);
    connect(barrier, &EtcdDoubleBarrier::entered, this, [this] {
        setPhase(Inside);
        Q_EMIT entered();
    });
    connect(barrier, &EtcdDoubleBarrier::left, this, [this] {
        setPhase(Outside);
        Q_EMIT left();
    });
    connect(barrier, &EtcdDoubleBarrier::failed, this, [this](const EtcdStatus &reason) {
        if (m_phase == Entering)
            setPhase(Outside);
        else if (m_phase == Leaving)
            setPhase(Inside);
        Q_EMIT arrivalFailed(int(reason.code()), reason.message());
    });
    return barrier;
}

void EtcdQmlDoubleBarrier::recipeStopped()
{
    setPhase(Outside);
    setEnterWaiterCount(0);
    setLeaveWaiterCount(0);
}

void EtcdQmlDoubleBarrier::setPhase(Phase phase)
{
    if (phase == m_phase)
        return;
    m_phase = phase;
    Q_EMIT phaseChanged();
}

void EtcdQmlDoubleBarrier::setEnterWaiterCount(int count)
{
    if (count == m_enterWaiterCount)
        return;
    m_enterWaiterCount = count;
    Q_EMIT enterWaiterCountChanged();
}

void EtcdQmlDoubleBarrier::setLeaveWaiterCount(int count)
{
    if (count == m_leaveWaiterCount)
        return;
    m_leaveWaiterCount = count;
    Q_EMIT leaveWaiterCountChanged();
}
