// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "etcdqmlpermits.h"
#include "etcdqmlconvert_p.h"

#include <EtcdQt/etcdreadwritelock.h>
#include <EtcdQt/etcdsemaphore.h>

/*!
    \qmltype Semaphore
    \inqmlmodule EtcdQt
    \brief Takes one of the \c permits permits of the semaphore at \c path when \c active
    turns true and holds it until \c active turns false (EtcdSemaphore, etcd-recipes'
    DistributedSemaphore layout).

    At most \c permits items (in any process) hold a permit at once; the others wait, in the
    order they asked. \c held says whether this item holds one now; \c fencingToken (\c key,
    \c leaseId, \c revision, \c valid) identifies the hold; acquired() and released() mark
    its start and end. Each permit is on a lease of \c ttl milliseconds (default 10000,
    rounded up to whole seconds); a permit whose lease is lost is never healed:
    permitLost(code, message) is emitted and \c held stays false until \c active is switched
    off and on again. Switching \c active off gives the permit back (or abandons the wait).

    The first user of a path fixes its count: an item whose \c permits differs from the
    count in etcd reports \c EtcdError.FailedPrecondition through errorOccurred(code,
    message) and never holds. \c permits below 1, or a \c ttl of 0 or less, is refused with
    \c EtcdError.InvalidArgument, and nothing starts. \c clientId is written into the
    holder's key (empty: "DistributedSemaphore:<7 random>", readable once running).
*/

EtcdQmlSemaphore::EtcdQmlSemaphore(QObject *parent) : EtcdQmlHold(parent) { }

EtcdQmlSemaphore::~EtcdQmlSemaphore() = default;

/*! \qmlproperty int Semaphore::permits
    How many holders the semaphore admits at once; default 1. */
void EtcdQmlSemaphore::setPermits(int permits)
{
    changeSetting(m_permits, permits, &EtcdQmlSemaphore::permitsChanged);
}

QString EtcdQmlSemaphore::invalidSetting() const
{
    if (m_permits < 1)
        return tr("a semaphore needs at least 1 permit, not %1").arg(m_permits);
    return EtcdQmlHold::invalidSetting();
}

QObject *EtcdQmlSemaphore::startRecipe(EtcdClient *client)
{
    EtcdSemaphoreOptions options;
    options.ttl = Etcd::Qml::ttlFromMilliseconds(ttl());
    options.clientId = clientId();
    auto *semaphore = new EtcdSemaphore(client, path().toUtf8(), m_permits, options);
    followRecipe(semaphore);
    connect(semaphore, &EtcdSemaphore::acquired, this,
        [this, semaphore] { takeHold(semaphore->fencingToken()); });
    connect(semaphore, &EtcdSemaphore::permitLost, this, [this](const EtcdStatus &reason) {
        dropLostHold();
        Q_EMIT permitLost(int(reason.code()), reason.message());
    });
    if (!semaphore->acquire()) {
        delete semaphore;
        qCWarning(lcEtcdQml, "Semaphore: acquiring %s was refused", qUtf8Printable(path()));
        return nullptr;
    }
    takeClientId(semaphore->clientId());
    return semaphore;
}

/*!
    \qmltype ReadWriteLock
    \inqmlmodule EtcdQt
    \brief Takes the read-write lock at \c path in \c mode when \c active turns true and
    holds it until \c active turns false (EtcdReadWriteLock, etcd-recipes' layout).

    \c mode is \c ReadWriteLock.Read (shared: readers hold together, waiting only for writers
    that asked before them) or \c ReadWriteLock.Write (exclusive; the default). Changing it
    gives the hold back and asks again in the new mode. \c held, \c fencingToken, acquired()
    and released() are as for Semaphore; a hold whose lease of \c ttl milliseconds (default
    10000) is lost is never healed: lockLost(code, message) is emitted and \c held stays
    false until \c active is switched off and on again. A \c ttl of 0 or less is refused with
    \c EtcdError.InvalidArgument. \c clientId is written into the hold's key (empty:
    "DistributedReadWriteLock:<7 random>", readable once running).
*/

EtcdQmlReadWriteLock::EtcdQmlReadWriteLock(QObject *parent) : EtcdQmlHold(parent) { }

EtcdQmlReadWriteLock::~EtcdQmlReadWriteLock() = default;

/*! \qmlproperty enumeration ReadWriteLock::mode
    \c ReadWriteLock.Read or \c ReadWriteLock.Write (the default). */
void EtcdQmlReadWriteLock::setMode(Mode mode)
{
    changeSetting(m_mode, mode, &EtcdQmlReadWriteLock::modeChanged);
}

QObject *EtcdQmlReadWriteLock::startRecipe(EtcdClient *client)
{
    EtcdReadWriteLockOptions options;
    options.ttl = Etcd::Qml::ttlFromMilliseconds(ttl());
    options.clientId = clientId();
    auto *lock = new EtcdReadWriteLock(client, path().toUtf8(), options);
    followRecipe(lock);
    connect(
        lock, &EtcdReadWriteLock::acquired, this, [this, lock] { takeHold(lock->fencingToken()); });
    connect(lock, &EtcdReadWriteLock::lockLost, this,
        [this](EtcdReadWriteLock::Mode, const EtcdStatus &reason) {
            dropLostHold();
            Q_EMIT lockLost(int(reason.code()), reason.message());
        });
    const auto mode
        = m_mode == Read ? EtcdReadWriteLock::Mode::Read : EtcdReadWriteLock::Mode::Write;
    if (!lock->acquire(mode)) {
        delete lock;
        qCWarning(lcEtcdQml, "ReadWriteLock: acquiring %s was refused", qUtf8Printable(path()));
        return nullptr;
    }
    takeClientId(lock->clientId());
    return lock;
}
