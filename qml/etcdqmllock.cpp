// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "etcdqmllock.h"
#include "etcdqmlconvert_p.h"

#include <EtcdQt/etcdbarrier.h>
#include <EtcdQt/etcdleaseevent.h>
#include <EtcdQt/etcdmutex.h>
#include <EtcdQt/etcdrecipereplies.h>

/*!
    \qmltype DistributedLock
    \inqmlmodule EtcdQt
    \brief Acquires the lock at \c path when \c active turns true and holds it until
    \c active turns false (EtcdMutex, etcd's concurrency.Mutex layout).

    \c held says whether the lock is ours now; \c fencingToken (\c key, \c leaseId,
    \c revision, \c valid) identifies the hold. A hold whose lease is lost is never healed:
    \c lockLost(code, message) is emitted, \c held turns false and stays so until \c active
    is switched off and on again. Switching \c active off unlocks (or abandons the wait).
*/

EtcdQmlDistributedLock::EtcdQmlDistributedLock(QObject *parent) : EtcdQmlRecipe(parent) { }

EtcdQmlDistributedLock::~EtcdQmlDistributedLock() = default;

QString EtcdQmlDistributedLock::path() const
{
    return m_path;
}

void EtcdQmlDistributedLock::setPath(const QString &path)
{
    if (path == m_path)
        return;
    m_path = path;
    Q_EMIT pathChanged();
    restart();
}

/*! \qmlproperty int DistributedLock::ttl
    Of each hold's lease, in milliseconds (rounded up to whole seconds for etcd); default
    10000. 0 or less is refused: errorOccurred(code, message) with
    \c EtcdError.InvalidArgument, and nothing starts. */
int EtcdQmlDistributedLock::ttl() const
{
    return m_ttl;
}

void EtcdQmlDistributedLock::setTtl(int ms)
{
    if (ms == m_ttl)
        return;
    m_ttl = ms;
    Q_EMIT ttlChanged();
    restart();
}

bool EtcdQmlDistributedLock::isHeld() const
{
    return m_held;
}

EtcdQmlFencingToken EtcdQmlDistributedLock::fencingToken() const
{
    return m_fencingToken;
}

bool EtcdQmlDistributedLock::isConfigured() const
{
    return !m_path.isEmpty();
}

QString EtcdQmlDistributedLock::invalidSetting() const
{
    return Etcd::Qml::ttlProblem(m_ttl);
}

QObject *EtcdQmlDistributedLock::startRecipe(EtcdClient *client)
{
    EtcdMutexOptions options;
    options.ttl = Etcd::Qml::ttlFromMilliseconds(m_ttl);
    auto *mutex = new EtcdMutex(client, m_path.toUtf8(), options);
    followRecipe(mutex);
    connect(mutex, &EtcdMutex::acquired, this, [this, mutex] {
        m_fencingToken = EtcdQmlFencingToken(mutex->fencingToken());
        setHeld(true);
        Q_EMIT acquired();
    });
    connect(mutex, &EtcdMutex::lockLost, this, [this](const EtcdStatus &reason) {
        m_fencingToken = {};
        setHeld(false);
        Q_EMIT lockLost(int(reason.code()), reason.message());
    });
    if (!mutex->acquire()) {
        delete mutex;
        qCWarning(lcEtcdQml, "DistributedLock: acquiring %s was refused", qUtf8Printable(m_path));
        return nullptr;
    }
    return mutex;
}

void EtcdQmlDistributedLock::recipeStopped()
{
    // close() released the hold (the key's deletion is on its way).
    const bool wasHeld = m_held;
    m_fencingToken = {};
    setHeld(false);
    if (wasHeld)
        Q_EMIT released();
}

void EtcdQmlDistributedLock::setHeld(bool held)
{
    if (held == m_held)
        return;
    m_held = held;
    Q_EMIT heldChanged();
}

/*!
    \qmltype Barrier
    \inqmlmodule EtcdQt
    \brief A distributed barrier at \c path (EtcdBarrier), usable while \c active.

    setBarrier() and removeBarrier() answer with setFinished(result) and
    removeFinished(result); startWaiting() begins a wait that ends with lifted(), or with
    waitFailed(code, message) when etcd could not be read or watched. A barrier this item set
    is kept under a lease of \c ttl milliseconds (\c leaseId, a decimal string; empty while it
    holds none) and removed when \c active turns false (its lease is revoked). \c ttl is
    rounded up to whole seconds; 0 or less is refused (errorOccurred with
    \c EtcdError.InvalidArgument) and nothing starts. \c clientId is
    written into the barrier's value (empty: "DistributedBarrier:<7 random>").
*/

EtcdQmlBarrier::EtcdQmlBarrier(QObject *parent) : EtcdQmlRecipe(parent) { }

EtcdQmlBarrier::~EtcdQmlBarrier() = default;

QString EtcdQmlBarrier::path() const
{
    return m_path;
}

void EtcdQmlBarrier::setPath(const QString &path)
{
    if (path == m_path)
        return;
    m_path = path;
    Q_EMIT pathChanged();
    restart();
}

QString EtcdQmlBarrier::clientId() const
{
    return m_clientId;
}

void EtcdQmlBarrier::setClientId(const QString &clientId)
{
    if (clientId == m_clientId)
        return;
    m_clientId = clientId;
    Q_EMIT clientIdChanged();
    restart();
}

int EtcdQmlBarrier::ttl() const
{
    return m_ttl;
}

void EtcdQmlBarrier::setTtl(int ms)
{
    if (ms == m_ttl)
        return;
    m_ttl = ms;
    Q_EMIT ttlChanged();
    restart();
}

bool EtcdQmlBarrier::waitOnMissingBarriers() const
{
    return m_waitOnMissingBarriers;
}

void EtcdQmlBarrier::setWaitOnMissingBarriers(bool wait)
{
    if (wait == m_waitOnMissingBarriers)
        return;
    m_waitOnMissingBarriers = wait;
    Q_EMIT waitOnMissingBarriersChanged();
    restart();
}

EtcdQmlBarrier::State EtcdQmlBarrier::state() const
{
    return m_state;
}

int EtcdQmlBarrier::waiterCount() const
{
    return m_waiterCount;
}

/*! \qmlproperty string Barrier::leaseId
    The lease holding the barrier this item set, in decimal; empty when it holds none. */
QString EtcdQmlBarrier::leaseId() const
{
    return Etcd::Qml::leaseIdToString(m_leaseId);
}

/*! \qmlmethod bool Barrier::setBarrier()
    Sets the barrier unless someone has; returns \c false when not active. */
bool EtcdQmlBarrier::setBarrier()
{
    auto *barrier = currentAs<EtcdBarrier>();
    if (!barrier)
        return false;
    EtcdBoolReply *reply = barrier->setBarrier();
    connect(reply, &EtcdReply::finished, this, [this, reply](const EtcdStatus &status) {
        if (!status.isOk())
            setError(status);
        Q_EMIT setFinished(status.isOk() && reply->result());
    });
    return true;
}

/*! \qmlmethod bool Barrier::removeBarrier()
    Removes the barrier, whoever set it; returns \c false when not active. */
bool EtcdQmlBarrier::removeBarrier()
{
    auto *barrier = currentAs<EtcdBarrier>();
    if (!barrier)
        return false;
    EtcdBoolReply *reply = barrier->removeBarrier();
    connect(reply, &EtcdReply::finished, this, [this, reply](const EtcdStatus &status) {
        if (!status.isOk())
            setError(status);
        Q_EMIT removeFinished(status.isOk() && reply->result());
    });
    return true;
}

/*! \qmlmethod bool Barrier::startWaiting()
    Begins a wait; lifted() follows when the barrier goes. Returns \c false when not active. */
bool EtcdQmlBarrier::startWaiting()
{
    auto *barrier = currentAs<EtcdBarrier>();
    if (!barrier)
        return false;
    barrier->startWaiting();
    return true;
}

bool EtcdQmlBarrier::isConfigured() const
{
    return !m_path.isEmpty();
}

QString EtcdQmlBarrier::invalidSetting() const
{
    return Etcd::Qml::ttlProblem(m_ttl);
}

QObject *EtcdQmlBarrier::startRecipe(EtcdClient *client)
{
    EtcdBarrierOptions options;
    options.ttl = Etcd::Qml::ttlFromMilliseconds(m_ttl);
    options.waitOnMissingBarriers = m_waitOnMissingBarriers;
    options.clientId = m_clientId;
    auto *barrier = new EtcdBarrier(client, m_path.toUtf8(), options);
    followRecipe(barrier);
    connect(barrier, &EtcdBarrier::stateChanged, this,
        [this](EtcdBarrier::State state) { setState(State(int(state))); });
    connect(barrier, &EtcdBarrier::waiterCountChanged, this, &EtcdQmlBarrier::setWaiterCount);
    connect(barrier, &EtcdBarrier::leaseIdChanged, this, &EtcdQmlBarrier::setLeaseId);
    connect(barrier, &EtcdBarrier::lifted, this, &EtcdQmlBarrier::lifted);
    connect(barrier, &EtcdBarrier::waitFailed, this, [this](const EtcdStatus &reason) {
        Q_EMIT waitFailed(int(reason.code()), reason.message());
    });
    connect(barrier, &EtcdBarrier::leaseEvent, this,
        [this](const EtcdLeaseEvent &event) { Q_EMIT leaseEvent(EtcdQmlLeaseEvent(event)); });
    connect(barrier, &EtcdBarrier::barrierLost, this, [this](const EtcdStatus &reason) {
        Q_EMIT barrierLost(int(reason.code()), reason.message());
    });
    connect(barrier, &EtcdBarrier::failed, this, &EtcdQmlBarrier::setError);
    setState(State(int(barrier->state())));
    setLeaseId(barrier->leaseId());
    return barrier;
}

void EtcdQmlBarrier::recipeStopped()
{
    setState(Unset);
    setWaiterCount(0);
    setLeaseId(-1);
}

void EtcdQmlBarrier::setLeaseId(qint64 leaseId)
{
    if (leaseId == m_leaseId)
        return;
    m_leaseId = leaseId;
    Q_EMIT leaseIdChanged();
}

void EtcdQmlBarrier::setState(State state)
{
    if (state == m_state)
        return;
    m_state = state;
    Q_EMIT stateChanged();
}

void EtcdQmlBarrier::setWaiterCount(int count)
{
    if (count == m_waiterCount)
        return;
    m_waiterCount = count;
    Q_EMIT waiterCountChanged();
}
