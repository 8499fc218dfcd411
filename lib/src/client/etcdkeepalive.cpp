// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "etcdclient_p.h"
#include "leaseops_p.h"

#include <EtcdQt/etcdkeepalive.h>

#include <QtCore/qelapsedtimer.h>
#include <QtCore/qmetaobject.h>
#include <QtCore/qpointer.h>
#include <QtCore/qtimer.h>

using namespace Etcd::Internal;
using namespace std::chrono;

/*!
    \class EtcdKeepAlive
    \inmodule EtcdQt
    \brief Keeps one lease alive on the client's single LeaseKeepAlive stream.

    Renewals go out at a third of the TTL from the client's engine thread, so a busy owner
    thread cannot let the lease lapse. Per lease it reports renewed() for every
    acknowledgement (only while something is connected to renewed(): without a listener,
    renewals never wake the owner's thread), suspended() once when the stream broke or went
    silent while the lease may still be alive, resumed() when renewals are acknowledged again,
    and expired() when etcd answered that the lease is gone or nothing was acknowledged for a
    whole TTL. An expired keep-alive stops; it never re-grants (that is a recipe's decision). A
    lease that expired on the client's clock alone is revoked once etcd answers again, so that
    a lease etcd kept (across its restart, or a partition shorter than etcd's count) releases
    its keys as it was reported to.

    While suspended, the stream reconnects with a growing backoff, but never waits longer than
    a third of what is left of the nearest lease (at least 100 ms): a network that comes back
    before the deadline is found in time to renew.

    remainingValidity() is the time left before the lease's deadline, on a monotonic clock:
    the time the last acknowledged renewal (or the grant) was sent, plus the TTL etcd
    answered, minus the client's EtcdClient::leaseSafetyMargin(). That is what a holder may
    still rely on: etcd counts from later, when the renewal reached it.
*/

/*!
    \fn void EtcdKeepAlive::renewed(qint64 ttlSeconds)
    Emitted when etcd acknowledged a renewal, with the TTL it granted (\a ttlSeconds).
*/

/*!
    \fn void EtcdKeepAlive::suspended(const EtcdStatus &reason)
    Emitted once when renewals stopped getting through, while the lease may still be alive.
    \a reason says why.
*/

/*!
    \fn void EtcdKeepAlive::resumed()
    Emitted when a renewal was acknowledged again after suspended().
*/

/*!
    \fn void EtcdKeepAlive::keepAliveFailed(const EtcdStatus &reason)
    Emitted when renewal stopped although nobody called stop(): after expired(), or when the client
    disconnected or could not start it. Never emitted for the owner's own stop(). \a reason says
    why.
*/

/*!
    \fn void EtcdKeepAlive::expired(const EtcdStatus &reason)
    Emitted once when the lease is gone (etcd answered TTL 0) or no renewal was acknowledged
    for a whole TTL. Renewals stop. \a reason says why.
*/

namespace {
// A lease this client gave up on its own clock (no renewal acknowledged within its TTL) may
// still be etcd's: a restarted or resumed etcd restores its leases with a fresh TTL, and a
// partition may heal before etcd's clock runs out. Its keys would then hold others back for up
// to a TTL after etcd is back, and the application, told the lease expired, would leave it
// behind. So it is revoked once etcd answers: retried with backoff while the client lives, for
// at most five minutes (found by the suite's lease accounting, issue 22 item 7).
struct AbandonedRevoke
{
    QPointer<EtcdClient> client;
    qint64 leaseId;
    milliseconds patience;
    QElapsedTimer since;
    milliseconds backoff {250};
    int rechecks = 0; // "not found" answers still to be asked again (a grant may be queued)
    milliseconds recheckAfter {100};

    static void attempt(const std::shared_ptr<AbandonedRevoke> &r)
    {
        if (!r->client)
            return;
        EtcdReply *reply = r->client->revokeLease(r->leaseId);
        QObject::connect(reply, &EtcdReply::finished, r->client, [r](const EtcdStatus &status) {
            if (status.code() == Etcd::ErrorCode::LeaseNotFound && r->rechecks > 0) {
                --r->rechecks;
                QTimer::singleShot(r->recheckAfter, r->client, [r] { attempt(r); });
                r->recheckAfter *= 2;
                return;
            }
            const bool settled = status.isOk() || status.code() == Etcd::ErrorCode::LeaseNotFound;
            if (settled || r->since.elapsed() + r->backoff.count() > r->patience.count()) {
                EtcdClientPrivate::get(r->client)->unresolvedGrants.remove(r->leaseId);
                qCDebug(lcEtcdLease)
                    << "abandoned lease" << r->leaseId << (settled ? "revoked" : "not revoked:")
                    << status << "rechecks left" << r->rechecks;
                return;
            }
            qCDebug(lcEtcdLease) << "abandoned lease" << r->leaseId << "not revoked yet:" << status;
            QTimer::singleShot(r->backoff, r->client, [r] { attempt(r); });
            r->backoff = std::min(r->backoff * 2, milliseconds(5000));
        });
    }
};

} // namespace

void Etcd::Internal::revokeAbandonedLease(
    EtcdClient *client, qint64 leaseId, int notFoundRechecks, milliseconds patience)
{
    if (!client || leaseId <= 0)
        return;
    auto r = std::make_shared<AbandonedRevoke>(AbandonedRevoke {
        client, leaseId, patience, QElapsedTimer(), milliseconds(250), notFoundRechecks});
    if (notFoundRechecks > 0)
        EtcdClientPrivate::get(client)->unresolvedGrants.insert(leaseId);
    r->since.start();
    AbandonedRevoke::attempt(r);
}

class EtcdKeepAlivePrivate final : public KeepAliveObserver
{
    Q_DECLARE_PUBLIC(EtcdKeepAlive)
public:
    EtcdKeepAlivePrivate(EtcdKeepAlive *q, EtcdClient *c, qint64 id, seconds t)
        : q_ptr(q), client(c), leaseId(id), ttl(t)
    { }

    void setState(EtcdKeepAlive::State next)
    {
        Q_Q(EtcdKeepAlive);
        if (std::exchange(state, next) != next)
            Q_EMIT q->stateChanged(next);
    }

    void leaseRenewed(qint64 ttlSeconds, SteadyTime) override // deadline: via LeaseShared
    {
        Q_Q(EtcdKeepAlive);
        const bool wasSuspended = state == EtcdKeepAlive::State::Suspended;
        setState(EtcdKeepAlive::State::Alive);
        Q_EMIT q->renewed(ttlSeconds);
        if (wasSuspended)
            Q_EMIT q->resumed();
    }
    void leaseSuspended(const EtcdStatus &reason) override
    {
        setState(EtcdKeepAlive::State::Suspended);
        Q_EMIT q_func()->suspended(reason);
    }
    void leaseExpired(const EtcdStatus &reason) override
    {
        link.close();
        shared->lose(reason); // the hub did already, in the engine thread
        const bool ourClock = reason.code() == Etcd::ErrorCode::LeaseExpired; // not etcd's word
        if (ourClock && !shared->ownerRevokesAbandoned.load())
            revokeAbandonedLease(client, leaseId);
        QPointer<EtcdKeepAlive> q = q_func(); // a handler may delete it
        setState(EtcdKeepAlive::State::Expired);
        if (q)
            Q_EMIT q->expired(reason);
        if (q)
            Q_EMIT q->keepAliveFailed(reason);
    }
    void leaseAbandoned(const EtcdStatus &reason) override
    {
        link.close();
        QPointer<EtcdKeepAlive> q = q_func();
        setState(EtcdKeepAlive::State::Failed);
        if (q)
            Q_EMIT q->keepAliveFailed(reason);
    }

    EtcdKeepAlive *q_ptr;
    QPointer<EtcdClient> client;
    qint64 leaseId;
    seconds ttl;
    EtcdKeepAlive::State state = EtcdKeepAlive::State::Inactive;
    std::shared_ptr<LeaseShared> shared = std::make_shared<LeaseShared>();
    EngineLink link;
};

std::shared_ptr<LeaseShared> Etcd::Internal::leaseStateOf(const EtcdKeepAlive &keepAlive)
{
    return keepAlive.d_func()->shared;
}

/*!
    Constructs a keep-alive for lease \a leaseId, granted with \a ttl on \a client. The object is a
    child of \a parent.
*/
EtcdKeepAlive::EtcdKeepAlive(EtcdClient *client, qint64 leaseId, seconds ttl, QObject *parent)
    : QObject(parent), d_ptr(new EtcdKeepAlivePrivate(this, client, leaseId, ttl))
{ }

void EtcdKeepAlive::connectNotify(const QMetaMethod &signal)
{
    if (signal == QMetaMethod::fromSignal(&EtcdKeepAlive::renewed))
        d_func()->shared->wantsRenewals.store(true);
}

void EtcdKeepAlive::disconnectNotify(const QMetaMethod &signal)
{
    // An invalid method means "all disconnected"; ask the object, it knows.
    if (!signal.isValid() || signal == QMetaMethod::fromSignal(&EtcdKeepAlive::renewed))
        d_func()->shared->wantsRenewals.store(
            isSignalConnected(QMetaMethod::fromSignal(&EtcdKeepAlive::renewed)));
}

/*! Destroys the object; renewals stop (the lease is not revoked). */
EtcdKeepAlive::~EtcdKeepAlive()
{
    stop();
}

/*! \property EtcdKeepAlive::leaseId
    The lease kept alive. */
qint64 EtcdKeepAlive::leaseId() const
{
    return d_func()->leaseId;
}

/*! \property EtcdKeepAlive::state
    Whether renewals are acknowledged. */
EtcdKeepAlive::State EtcdKeepAlive::state() const
{
    return d_func()->state;
}

/*! Returns the time left until the lease's deadline (0 when expired or not started). */
milliseconds EtcdKeepAlive::remainingValidity() const
{
    const auto left
        = duration_cast<milliseconds>(d_func()->shared->deadline() - steady_clock::now());
    return std::max(left, milliseconds(0));
}

/*!
    Starts renewing. Until the first acknowledgement the TTL counts from when this client
    asked for the lease (EtcdClient::grantLease()), or from now for a lease it did not grant. Fails
   with keepAliveFailed() (state Failed) on the next event-loop turn when the client is not
    connected or the lease id or TTL is not positive.
*/
void EtcdKeepAlive::start()
{
    Q_D(EtcdKeepAlive);
    if (d->link.isOpen())
        return;
    auto fail = [this](Etcd::ErrorCode code, const QString &why) {
        QTimer::singleShot(
            0, this, [this, s = EtcdStatus(code, why)] { d_func()->leaseAbandoned(s); });
    };
    if (!d->client || d->leaseId <= 0 || leaseTtlProblem(d->ttl))
        return fail(Etcd::ErrorCode::InvalidArgument,
            tr("lease id must be positive, and the TTL one etcd grants"));
    d->link.open(this);
    EtcdClientPrivate *c = EtcdClientPrivate::get(d->client);
    d->shared->setDeadline(c->takeGrant(d->leaseId) + d->ttl - c->leaseSafetyMargin);
    const bool posted
        = c->inEngine([id = d->link.id, lease = d->leaseId, ttl = d->ttl, mailbox = d->link.mailbox,
                          observer = d, shared = d->shared](Engine *e) {
              e->keepAlives()->add(id, lease, ttl, mailbox, observer, shared);
          });
    if (!posted) {
        d->link.close();
        return fail(Etcd::ErrorCode::NotConnected, tr("the client is not connected"));
    }
    d->setState(State::Alive);
}

/*! Stops renewing; the lease then lives out its TTL unless revoked. No signal follows. */
void EtcdKeepAlive::stop()
{
    Q_D(EtcdKeepAlive);
    if (!d->link.isOpen())
        return;
    d->link.close();
    if (d->client)
        EtcdClientPrivate::get(d->client)->inEngine(
            [id = d->link.id](Engine *e) { e->keepAlives()->remove(id); });
    d->setState(State::Stopped);
}

/*!
    \class EtcdScopedKeepAlive
    \inmodule EtcdQt
    \brief Renews a lease for exactly as long as the handle lives, however its scope ends.

    The scoped form of keep-alive: construction starts renewing \a leaseId (granted with
    \a ttl) on \a client, destruction stops it (the lease then lives out its TTL, or is revoked
    by whoever owns it). \a onKeepAliveFailed runs in the constructing thread when renewal
    stops while the handle still lives (the lease expired, etcd lost it, or the client
    disconnected); never because the handle was destroyed.
*/
EtcdScopedKeepAlive::EtcdScopedKeepAlive(
    EtcdClient *client, qint64 leaseId, seconds ttl, FailureHandler onKeepAliveFailed)
    : m_keepAlive(std::make_unique<EtcdKeepAlive>(client, leaseId, ttl))
{
    if (onKeepAliveFailed)
        QObject::connect(m_keepAlive.get(), &EtcdKeepAlive::keepAliveFailed, m_keepAlive.get(),
            std::move(onKeepAliveFailed));
    m_keepAlive->start();
}

/*! Stops renewing. No failure is reported for it. */
EtcdScopedKeepAlive::~EtcdScopedKeepAlive() = default; // ~EtcdKeepAlive stops silently

EtcdScopedKeepAlive::EtcdScopedKeepAlive(EtcdScopedKeepAlive &&other) noexcept = default;
EtcdScopedKeepAlive &EtcdScopedKeepAlive::operator=(EtcdScopedKeepAlive &&other) noexcept = default;

/*! The keep-alive underneath, for its state and signals; null after a move. */
EtcdKeepAlive *EtcdScopedKeepAlive::keepAlive() const
{
    return m_keepAlive.get();
}

/*!
    \typedef EtcdScopedKeepAlive::FailureHandler
    A callable that takes the EtcdStatus that stopped the renewal.
*/

// clang-format off
/*!
    \fn EtcdScopedKeepAlive::EtcdScopedKeepAlive(EtcdClient *client, qint64 leaseId, std::chrono::seconds ttl, EtcdScopedKeepAlive::FailureHandler onKeepAliveFailed)
    Starts renewing \a leaseId, granted with \a ttl, on \a client. \a onKeepAliveFailed, if set,
    runs in this thread when the renewal stops while the handle lives.
*/
// clang-format on

/*!
    \fn EtcdScopedKeepAlive::EtcdScopedKeepAlive(EtcdScopedKeepAlive &&other)
    Moves the renewal of \a other into this handle; \a other no longer renews.
*/

/*!
    \fn EtcdScopedKeepAlive &EtcdScopedKeepAlive::operator=(EtcdScopedKeepAlive &&other)
    Stops this handle's renewal and takes over the one of \a other.
*/

/*!
    \fn EtcdScopedKeepAlive::EtcdScopedKeepAlive(const EtcdScopedKeepAlive &)
    Deleted: one renewal has one owner.
*/

/*!
    \fn EtcdScopedKeepAlive &EtcdScopedKeepAlive::operator=(const EtcdScopedKeepAlive &)
    Deleted: one renewal has one owner.
*/

/*!
    \enum EtcdKeepAlive::State
    \value Inactive not started
    \value Alive renewals are acknowledged
    \value Suspended renewals stopped getting through; the lease may still be alive
    \value Expired the lease is gone (etcd answered TTL 0, or its local deadline passed)
    \value Failed renewal stopped for another reason (the client disconnected)
    \value Stopped stop() was called
*/

/*!
    \fn void EtcdKeepAlive::connectNotify(const QMetaMethod &signal)
    \reimp
*/

/*!
    \fn void EtcdKeepAlive::disconnectNotify(const QMetaMethod &signal)
    \reimp
*/
