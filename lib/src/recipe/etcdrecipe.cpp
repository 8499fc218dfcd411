// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "clientcalls_p.h"
#include "etcdqt_internal_p.h"
#include "handoff_p.h"
#include "mailbox_p.h"
#include "recipelayer_p.h"

#include <EtcdQt/etcdclient.h>
#include <EtcdQt/etcdrecipe.h>
#include <EtcdQt/etcdreplies.h>

#include <QtCore/qpointer.h>

/*!
    \class EtcdRecipe
    \inmodule EtcdQt
    \brief The base of every stateful recipe: connection state, kept background errors,
    health, and ping().

    connectionState is passive: it is derived only from the recipe's own watch and lease
    events, never by polling. It starts Connected (never re-entered), moves to Suspended when
    a stream stops getting through, to Reconnected when it is live again or a lease was
    restored, and to Lost at once when a lease expired (before any healing), healing failed,
    or ownership was lost. Lost is not sticky. Background failures never throw: they are kept
    in errors() and announced with errorOccurred().
*/

/*!
    \fn void EtcdRecipe::connectionStateChanged(EtcdRecipe::ConnectionState state,
        EtcdRecipe::ConnectionState previous)
    Emitted when the connection state moved from \a previous to \a state.
*/

/*!
    \fn void EtcdRecipe::closed()
    Emitted after close() once etcd answered the revoke of the recipe's lease (or at once
    when it held none). Quit on this signal, not right after close(): a revoke cut off by
    the end of the process leaves the lease to run out its TTL.
*/

/*!
    \fn void EtcdRecipe::errorOccurred(const QString &context, const EtcdStatus &status)
    Emitted when a background operation of the recipe named \a context failed with \a status.
*/

class EtcdRecipePrivate
{
public:
    QPointer<EtcdClient> client;
    QString context;
    EtcdRecipe::ConnectionState state = EtcdRecipe::ConnectionState::Connected;
    QList<EtcdStatus> errors;
    bool active = false;
    bool closed = false;
    // For posts from worker threads (the blocking forms' helpers, handoff_p.h): closed when
    // the recipe is destroyed, so a post that comes later is dropped, not sent to freed memory.
    Etcd::Internal::MailboxPtr workers;
};

/*!
    Constructs a recipe on \a client; \a errorContext names it in errorOccurred(). The object is a
    child of \a parent.
*/
EtcdRecipe::EtcdRecipe(EtcdClient *client, const QString &errorContext, QObject *parent)
    : QObject(parent), d_ptr(new EtcdRecipePrivate)
{
    d_ptr->client = client;
    d_ptr->context = errorContext;
    d_ptr->workers = std::make_shared<Etcd::Internal::Mailbox>(this);
}

EtcdRecipe::~EtcdRecipe()
{
    d_func()->workers->close();
}

Etcd::Internal::MailboxPtr Etcd::Internal::RecipeLayer::workerMailbox(QObject *recipe)
{
    if (auto *r = qobject_cast<EtcdRecipe *>(recipe))
        return r->d_func()->workers;
    return std::make_shared<Mailbox>(recipe); // not a recipe: no lifetime of its own to follow
}

Etcd::Internal::MailboxPtr Etcd::Internal::workerMailboxOf(QObject *recipe)
{
    return RecipeLayer::workerMailbox(recipe);
}

/*! The client the recipe talks through (null once it was destroyed). */
EtcdClient *EtcdRecipe::client() const
{
    return d_func()->client;
}

/*! \property EtcdRecipe::connectionState
    How the recipe's own streams and lease are doing. */
EtcdRecipe::ConnectionState EtcdRecipe::connectionState() const
{
    return d_func()->state;
}

/*! \property EtcdRecipe::active
    Whether the recipe was started and is not closed or failed. */
bool EtcdRecipe::isActive() const
{
    return d_func()->active;
}

/*! Passive health, no RPC: returns \c true while not Lost and not closed. */
bool EtcdRecipe::isHealthy() const
{
    return d_func()->state != ConnectionState::Lost && !d_func()->closed;
}

/*! Background failures recorded so far, oldest first. */
QList<EtcdStatus> EtcdRecipe::errors() const
{
    return d_func()->errors;
}

/*! Forgets the recorded background failures. */
void EtcdRecipe::clearErrors()
{
    d_func()->errors.clear();
}

/*!
    One RPC that tells whether etcd answers: a count-only read of the key
    "health-check-probe", as etcd-recipes does. The reply's status says the outcome
    (Etcd::ErrorCode::NotConnected once the client was destroyed).
*/
EtcdReply *EtcdRecipe::ping()
{
    EtcdRangeOptions options;
    options.countOnly = true;
    return Etcd::Internal::getOn(
        d_func()->client, QByteArrayLiteral("health-check-probe"), options);
}

/*! For recipes: sets the \l active property to \a active. */
void EtcdRecipe::setActive(bool active)
{
    Q_D(EtcdRecipe);
    if (std::exchange(d->active, active) != active)
        Q_EMIT activeChanged();
}

/*! For recipes: close() was called; the recipe is no longer active or healthy. */
void EtcdRecipe::markClosed()
{
    d_func()->closed = true;
    setActive(false);
}

// closed() once `revoke` finished (now, on the next loop turn, when there is none): an
// application that quits on closed() leaves no lease behind.
void EtcdRecipe::emitClosedAfter(EtcdReply *revoke)
{
    if (revoke)
        connect(revoke, &EtcdReply::finished, this, &EtcdRecipe::closed);
    else
        QMetaObject::invokeMethod(this, &EtcdRecipe::closed, Qt::QueuedConnection);
}

/*! For recipes: returns whether close() was called. */
bool EtcdRecipe::isClosed() const
{
    return d_func()->closed;
}

/*! For recipes: logs \a status, keeps it in errors() and emits errorOccurred(). */
void EtcdRecipe::recordError(const EtcdStatus &status)
{
    qCWarning(lcEtcdRecipe).noquote() << d_func()->context << status.toString();
    keepError(status);
}

/*! For recipes: recordError() without logging \a status again (already logged). */
void EtcdRecipe::keepError(const EtcdStatus &status)
{
    Q_D(EtcdRecipe);
    d->errors.append(status);
    Q_EMIT errorOccurred(d->context, status);
}

/*!
    For recipes: moves the connection state as \a event says (etcd-recipes' mapping: Suspended
    to Suspended, Restored to Reconnected, Expired and Failed to Lost).
*/
void EtcdRecipe::reportLeaseEvent(const EtcdLeaseEvent &event)
{
    switch (event.type) {
    case EtcdLeaseEvent::Type::Suspended:
        reportConnectionState(ConnectionState::Suspended);
        break;
    case EtcdLeaseEvent::Type::Restored:
        reportConnectionState(ConnectionState::Reconnected);
        break;
    case EtcdLeaseEvent::Type::Expired:
    case EtcdLeaseEvent::Type::Failed:
        reportConnectionState(ConnectionState::Lost);
        break;
    }
}

/*! For recipes: moves the connection state to \a state; equal states are dropped. */
void EtcdRecipe::reportConnectionState(ConnectionState state)
{
    Q_D(EtcdRecipe);
    const ConnectionState previous = std::exchange(d->state, state);
    if (previous != state)
        Q_EMIT connectionStateChanged(state, previous);
}

/*!
    \enum EtcdRecipe::ConnectionState
    \value Connected the initial state: nothing went wrong yet (never re-entered)
    \value Suspended a stream the recipe depends on stopped getting through; its lease may
           still be alive
    \value Reconnected the stream is live again, or the lease was restored
    \value Lost a lease expired, healing failed or an ownership was lost; not sticky: a
           recipe that heals moves on to Reconnected
*/

/*!
    \fn EtcdRecipe::~EtcdRecipe()
    Destroys the recipe. Subclasses close (resign, unlock, revoke) without waiting for etcd.
*/

/*!
    \fn void EtcdRecipe::leaseLost(const EtcdStatus &reason)
    Emitted when a lease the recipe depends on is gone, with \a reason, before any healing
    and before the role signal that follows it (leadershipLost(), lockLost(), ...).
*/

/*!
    \fn void EtcdRecipe::emitClosedAfter(EtcdReply *revoke)
    For recipes: emits closed() once \a revoke finished, or on the next event loop turn when
    \a revoke is null, so an application that quits on closed() leaves no lease behind.
*/
