// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "etcdqt_internal_p.h"
#include "leaseops_p.h"
#include "leaseview_p.h"
#include "pendinggrants_p.h"
#include "recipelayer_p.h"
#include "recipemetrics_p.h"
#include "sparelease_p.h"
#include "standbyleases_p.h"

#include <EtcdQt/etcdclient.h>
#include <EtcdQt/etcdkeepalive.h>
#include <EtcdQt/etcdselfhealingkeepalive.h>

#include <QtCore/qelapsedtimer.h>
#include <QtCore/qpointer.h>
#include <QtCore/qtimer.h>

using namespace Etcd::Internal;
using namespace std::chrono;

/*!
    \class EtcdSelfHealingKeepAlive
    \inmodule EtcdQt
    \brief A lease that is re-granted when it expires, with the keys it owns re-established.

    The machinery under every recipe whose lease means presence (transient keys, barrier
    keys, service registrations, election participation). start() grants a lease of ttl() and
    runs the establish hook with it; the hook writes (or compare-and-sets) the keys it owns
    under that lease id and answers \c true, or \c false to say the keys are taken and must
    not be reclaimed. The lease is then renewed on the client's keep-alive stream, from the
    client's engine thread.

    When the lease expires (etcd lost it, or no renewal was acknowledged for a TTL) the
    object emits leaseEvent(Expired) and leaseLost(), moves to Lost, and heals: it grants a
    new lease, bounded by EtcdLeaseResilience::healOperationTimeout, runs the hook again with
    it, and emits leaseEvent(Restored) with both ids. Attempts are paced by
    EtcdLeaseResilience::retryPolicy; with EtcdRetryPolicy::never() an expired lease stays
    expired. A hook that declines (or throws, or does not answer within the heal timeout)
    ends it with leaseEvent(Failed): ownership is restored only where it is still free, never
    reclaimed.

    A lease that expired on the client's clock alone (no renewal acknowledged for a TTL) may
    still be etcd's: a new leader or a restarted etcd restores leases. Its keys are then still
    there, and the heal takes them over as its own; the old lease is revoked only after that
    (or when healing ends, or on close()), so watchers never see the keys go.

    The lease a heal takes is usually granted already: while this object is alive, its client
    keeps one standby lease of ttl(), shared by every self-healing lease of that TTL on the
    client and renewed with them; it is revoked with the last of them (see Leases and loss).

    The establish hook runs in this object's thread and answers through its callback, so it
    may issue RPCs; everything here is asynchronous. Signals are emitted in this object's
    thread. close() cancels any heal in flight and revokes the current lease, so the owned
    keys go at once instead of after the TTL.
*/

/*! \fn void EtcdSelfHealingKeepAlive::established(qint64 leaseId)
    Emitted when the first lease, \a leaseId, was granted and the hook established its keys.
*/
/*! \fn void EtcdSelfHealingKeepAlive::leaseEvent(const EtcdLeaseEvent &event)
    Emitted for every Suspended, Expired, Restored and Failed \a event.
*/
/*!
    \fn void EtcdSelfHealingKeepAlive::failed(const EtcdStatus &reason)
    Emitted when it ended for good: start() failed, the hook declined, or healing gave up. \a reason
    says why.
*/

namespace {
// The hook's run on the spare at a key's deletion, before etcd said whether the lease is gone
// (LeaseView::restoresKeys()): the heal, if it is; if not, the hook runs once more on the
// lease that lives, which moves the key back, and the spare goes. At namespace scope: clang
// cannot default-construct a nested class with member initializers inside its enclosing class
// (std::optional::emplace() refused it).
struct EarlyHeal
{
    enum class Verdict { Pending, Gone, Alive };
    struct Answer
    {
        bool granted = true; // false: the spare's grant failed, the hook never wrote
        bool owned = false;
        EtcdStatus why;
    };
    qint64 id = -1;
    QElapsedTimer since; // the spare is renewed only once it is the heal's
    std::chrono::milliseconds ageAtStart {0}; // the spare's, when the early heal took it
    Verdict verdict = Verdict::Pending;
    std::optional<Answer> answer;
};
} // namespace

class EtcdSelfHealingKeepAlivePrivate
{
    Q_DECLARE_PUBLIC(EtcdSelfHealingKeepAlive)
public:
    using State = EtcdSelfHealingKeepAlive::State;

    EtcdSelfHealingKeepAlivePrivate(EtcdSelfHealingKeepAlive *q, seconds t,
        EtcdSelfHealingKeepAlive::EstablishHook h, const EtcdLeaseResilience &r)
        : q_ptr(q), ttl(t), hook(std::move(h)), resilience(r), grants(q), spare(grants)
    {
        healTimer.setSingleShot(true);
    }

    bool setState(State next);
    void attempt(); // grant, then establish
    void reportHeal(EtcdMetrics::Heal event) const;
    void onGranted(const EtcdStatus &status, qint64 leaseId);
    void onEstablished(quint64 epoch, qint64 leaseId, bool owned, const EtcdStatus &why);
    void renew(qint64 leaseId);
    void onExpired(const EtcdStatus &reason);
    void scheduleHeal(const EtcdStatus &cause);
    void fail(const EtcdStatus &reason, bool asLeaseEvent);
    bool emitLeaseEvent(const EtcdLeaseEvent &event);
    void setLeaseId(qint64 id);
    bool closeQuietly(QList<EtcdReply *> *revokes = nullptr);
    bool onLossSuspected(qint64 id);
    bool healEarly();
    void settleEarly();
    void reestablish(qint64 spareId);
    void onLossDecided(qint64 id, bool gone, const EtcdStatus &why);
    bool healOnSpare();
    // A spare is not renewed until a heal takes it: past half its TTL it is not counted on.
    [[nodiscard]] milliseconds spareMaxAge() const { return duration_cast<milliseconds>(ttl) / 2; }
    void rerunAfterGrant(qint64 id);
    void revokeAbandoned();

    EtcdSelfHealingKeepAlive *q_ptr;
    seconds ttl;
    EtcdSelfHealingKeepAlive::EstablishHook hook;
    EtcdLeaseResilience resilience;
    State state = State::Inactive;
    qint64 leaseId = -1;
    qint64 lostLeaseId = -1; // the expired lease a heal replaces
    // The lease given up on our clock, which etcd may still hold with our keys: revoked once
    // the heal moved them (or it ends), so that they never vanish in between.
    qint64 abandonedLeaseId = -1;
    std::unique_ptr<EtcdKeepAlive> keepAlive;
    std::shared_ptr<LeaseView> view = std::make_shared<LeaseView>(); // for remainingValidity()
    QTimer healTimer;
    QElapsedTimer outage;
    int healAttempts = 0;
    quint64 epoch = 0; // bumped by close(): answers of older establish hooks are dropped
    // A lease granted but not yet established (the hook runs): close() revokes it too.
    qint64 pendingLeaseId = -1;
    PendingGrants grants; // close() revokes a grant in flight when it answers
    // Granted ahead when a key on the current lease was seen deleted: the heal that follows
    // etcd's word that the lease is gone has only its CAS left to do.
    SpareLease spare;
    // Keeps the client's standby lease of our TTL, from which the spare is taken (issue 18).
    std::unique_ptr<StandbyLeases::Want> standby;
    // The hook's run on the spare at a key's deletion (EarlyHeal, above).
    std::optional<EarlyHeal> early;
};

std::shared_ptr<LeaseView> Etcd::Internal::leaseViewOf(const EtcdSelfHealingKeepAlive &lease)
{
    return lease.d_func()->view;
}

bool EtcdSelfHealingKeepAlivePrivate::setState(State next)
{
    Q_Q(EtcdSelfHealingKeepAlive);
    if (std::exchange(state, next) == next)
        return true;
    QPointer<EtcdSelfHealingKeepAlive> guard(q);
    Q_EMIT q->stateChanged(next);
    return bool(guard);
}

void EtcdSelfHealingKeepAlivePrivate::setLeaseId(qint64 id)
{
    Q_Q(EtcdSelfHealingKeepAlive);
    if (std::exchange(leaseId, id) != id)
        Q_EMIT q->currentLeaseIdChanged(id);
}

bool EtcdSelfHealingKeepAlivePrivate::emitLeaseEvent(const EtcdLeaseEvent &event)
{
    Q_Q(EtcdSelfHealingKeepAlive);
    QPointer<EtcdSelfHealingKeepAlive> guard(q);
    qCInfo(lcEtcdLease) << event;
    if (event.type == EtcdLeaseEvent::Type::Restored)
        reportHeal(EtcdMetrics::Heal::Restored);
    else if (event.type == EtcdLeaseEvent::Type::Failed)
        reportHeal(EtcdMetrics::Heal::Failed);
    q->reportLeaseEvent(event);
    if (guard && event.type != EtcdLeaseEvent::Type::Restored)
        q->recordError(event.cause);
    if (guard)
        Q_EMIT q->leaseEvent(event);
    return bool(guard);
}

void EtcdSelfHealingKeepAlivePrivate::reportHeal(EtcdMetrics::Heal event) const
{
    metricsOf(q_func()->client())->report([event](EtcdMetrics &m) { m.recordHeal(event); });
}

void EtcdSelfHealingKeepAlivePrivate::attempt()
{
    if (state != State::Establishing)
        reportHeal(EtcdMetrics::Heal::Attempted);
    if (early) { // the lease is gone: what the hook did on the spare is the heal
        early->verdict = EarlyHeal::Verdict::Gone;
        return settleEarly();
    }
    if (healOnSpare())
        return;
    grants.grant(ttl, resilience.healOperationTimeout,
        [this](const EtcdStatus &s, qint64 id) { onGranted(s, id); });
}

// Never after close(): a grant answered later revokes its lease (PendingGrants).
void EtcdSelfHealingKeepAlivePrivate::onGranted(const EtcdStatus &status, qint64 id)
{
    Q_Q(EtcdSelfHealingKeepAlive);
    if (!status.isOk()) {
        if (state == State::Establishing)
            return fail(status, false);
        QPointer<EtcdSelfHealingKeepAlive> guard(q);
        q->recordError(status); // one failed heal attempt; the policy decides what follows
        return guard ? scheduleHeal(status) : void();
    }
    pendingLeaseId = id;
    runEstablishHook(hook, id, resilience.healOperationTimeout, q,
        [this, e = epoch, id](
            bool owned, const EtcdStatus &why) { onEstablished(e, id, owned, why); });
}

void EtcdSelfHealingKeepAlivePrivate::onEstablished(
    quint64 e, qint64 id, bool owned, const EtcdStatus &why)
{
    Q_Q(EtcdSelfHealingKeepAlive);
    if (e != epoch)
        return; // close() revoked it
    if (spare.tookEarly(id) && !owned)
        return rerunAfterGrant(id);
    if (spare.tookEarly(id))
        spare.release();
    if (early && early->id == id && early->verdict != EarlyHeal::Verdict::Gone) {
        early->answer = EarlyHeal::Answer {true, owned, why};
        return settleEarly(); // it waits for etcd's word on the lease, if that has not come
    }
    if (early && early->id == id)
        early.reset(); // the heal: on as any other
    pendingLeaseId = -1;
    if (!owned) {
        revokeLeaseQuietly(q->client(), id);
        return fail(why, state != State::Establishing);
    }
    const bool initial = state == State::Establishing;
    QPointer<EtcdSelfHealingKeepAlive> guard(q);
    setLeaseId(id); // a handler may delete us
    if (!guard)
        return;
    renew(id);
    revokeAbandoned(); // the hook moved our keys onto `id`
    healAttempts = 0;
    if (!setState(State::Alive))
        return;
    if (initial) {
        // Not before: the first grant would share its round trip with the standby's.
        standby = StandbyLeases::want(q->client(), ttl);
        Q_EMIT q->established(id);
        return;
    }
    emitLeaseEvent(EtcdLeaseEvent::restored(lostLeaseId, id));
}

void EtcdSelfHealingKeepAlivePrivate::renew(qint64 id)
{
    Q_Q(EtcdSelfHealingKeepAlive);
    KeepAliveFollower follow;
    follow.suspended = [this, id](const EtcdStatus &reason) {
        if (setState(State::Suspended))
            emitLeaseEvent(EtcdLeaseEvent::suspended(id, reason));
    };
    follow.resumed = [this] {
        Q_Q(EtcdSelfHealingKeepAlive);
        if (setState(State::Alive))
            q->reportConnectionState(EtcdRecipe::ConnectionState::Reconnected);
    };
    follow.expired = [this](const EtcdStatus &reason) { onExpired(reason); };
    follow.revokesAbandonedLease = true; // after the heal moved the keys (revokeAbandoned())
    // Renewal stopped without an expiry: the client went away. Nothing can heal without it.
    follow.abandoned = [this](const EtcdStatus &reason) {
        lostLeaseId = leaseId;
        fail(reason, true);
    };
    // No sink: this recipe's connection state follows its lease events (emitLeaseEvent()),
    // each after its own state moved, as its users see them.
    keepAlive = RecipeLayer::followKeepAlive(q->client(), q, id, ttl, std::move(follow));
    view->set(leaseStateOf(*keepAlive));
}

void EtcdSelfHealingKeepAlivePrivate::onExpired(const EtcdStatus &reason)
{
    Q_Q(EtcdSelfHealingKeepAlive);
    keepAlive.release()->deleteLater(); // we are inside its signal
    lostLeaseId = leaseId;
    if (reason.code() == Etcd::ErrorCode::LeaseExpired) // our clock's verdict, not etcd's
        abandonedLeaseId = leaseId;
    healAttempts = 0;
    outage.start();
    // etcd said the lease is gone: it is reachable and the keys are free now, so the first heal
    // leaves before anyone hears of the loss (its answer comes on a later turn, after Expired);
    // waiting would only let someone else take them. The policy paces the attempts after it.
    const bool healNow = reason.code() == Etcd::ErrorCode::LeaseNotFound
        && resilience.retryPolicy.nextDelay(1, milliseconds(0)).has_value();
    if (healNow) {
        ++healAttempts;
        attempt();
    }
    QPointer<EtcdSelfHealingKeepAlive> guard(q);
    if (!emitLeaseEvent(EtcdLeaseEvent::expired(lostLeaseId, reason)))
        return;
    Q_EMIT q->leaseLost(reason);
    if (!guard)
        return;
    if (!healNow)
        return scheduleHeal(reason);
    if (setState(State::Healing))
        qCInfo(lcEtcdLease) << "healing lease" << lostLeaseId << "at once: etcd no longer has it";
}

void EtcdSelfHealingKeepAlivePrivate::scheduleHeal(const EtcdStatus &cause)
{
    const auto delay = resilience.retryPolicy.nextDelay(
        ++healAttempts, milliseconds(outage.isValid() ? outage.elapsed() : 0));
    if (!delay) {
        if (resilience.retryPolicy.kind() == EtcdRetryPolicy::Kind::Never) {
            revokeAbandoned(); // nothing will move the keys: they go, as reported
            setState(State::Expired); // healing disabled: expired is the end
            return;
        }
        return fail(cause, true);
    }
    if (!setState(State::Healing))
        return;
    qCInfo(lcEtcdLease) << "healing lease" << lostLeaseId << "attempt" << healAttempts << "in"
                        << delay->count() << "ms";
    healTimer.start(timerDelay(*delay));
}

void EtcdSelfHealingKeepAlivePrivate::fail(const EtcdStatus &reason, bool asLeaseEvent)
{
    Q_Q(EtcdSelfHealingKeepAlive);
    healTimer.stop();
    revokeAbandoned();
    early.reset(); // its lease, if granted, is pendingLeaseId: close() revokes it
    spare.drop();
    standby.reset(); // no more heals to serve
    if (keepAlive)
        keepAlive.release()->deleteLater(); // we may be inside its signal
    q->setActive(false);
    if (!setState(State::Failed))
        return;
    if (asLeaseEvent && !emitLeaseEvent(EtcdLeaseEvent::failed(lostLeaseId, reason)))
        return;
    if (!asLeaseEvent)
        q->recordError(reason);
    Q_EMIT q->failed(reason);
}

// A key on the lease in use was deleted: a revoke or an expiry shows so first. A lease is
// granted now, while OwnedKey asks etcd whether this one is gone; a recipe whose keys are
// written again either way runs its hook on it at once. True when it does.
bool EtcdSelfHealingKeepAlivePrivate::onLossSuspected(qint64 id)
{
    if (id != leaseId || (state != State::Alive && state != State::Suspended))
        return false;
    spare.prepare(ttl, resilience.healOperationTimeout);
    return view->restoresKeys() && healEarly();
}

// The hook's write leaves right behind the spare's grant, so a revoke heals in about the
// round trip etcd takes to say the lease is gone instead of that round trip and one more.
// A write that overtakes the grant runs again after it (onEstablished()).
bool EtcdSelfHealingKeepAlivePrivate::healEarly()
{
    if (early)
        return true; // another key of the lease: the hook writes them all
    if (!resilience.retryPolicy.nextDelay(1, milliseconds(0))) // healing is off
        return false;
    const milliseconds age = spare.age();
    const auto id = spare.take(spareMaxAge());
    if (!id)
        return false;
    early.emplace();
    early->id = *id;
    early->since.start();
    early->ageAtStart = age;
    onGranted(EtcdStatus(), *id); // the hook runs; its answer waits for etcd's word
    return true;
}

// Once both the hook's answer and etcd's word on the lease are in.
void EtcdSelfHealingKeepAlivePrivate::settleEarly()
{
    Q_Q(EtcdSelfHealingKeepAlive);
    if (!early || !early->answer || early->verdict == EarlyHeal::Verdict::Pending)
        return;
    const EarlyHeal done = *std::exchange(early, std::nullopt);
    if (done.verdict == EarlyHeal::Verdict::Alive)
        return reestablish(done.id);
    if (done.ageAtStart + milliseconds(done.since.elapsed()) >= spareMaxAge()) {
        // Too old to count on (etcd's word was slow): a heal of its own, as without a spare.
        pendingLeaseId = -1;
        revokeLeaseQuietly(q->client(), done.id);
        return attempt();
    }
    // The heal's answer, on a later turn: users hear Expired before Restored.
    QTimer::singleShot(0, q, [this, e = epoch, done] {
        if (e != epoch)
            return;
        if (!done.answer->granted)
            return onGranted(done.answer->why, done.id); // a failed attempt, as any other
        onEstablished(e, done.id, done.answer->owned, done.answer->why);
    });
}

// The lease lives: someone else deleted the key. The hook writes it again on this lease
// (moving it off the spare, where the early heal put it); the spare is revoked after.
void EtcdSelfHealingKeepAlivePrivate::reestablish(qint64 spareId)
{
    Q_Q(EtcdSelfHealingKeepAlive);
    const qint64 id = leaseId;
    qCInfo(lcEtcdLease) << "lease" << id << "lives: writing its deleted keys again on it";
    runEstablishHook(hook, id, resilience.healOperationTimeout, q,
        [this, e = epoch, id, spareId](bool owned, const EtcdStatus &why) {
            Q_Q(EtcdSelfHealingKeepAlive);
            if (e != epoch)
                return;
            if (pendingLeaseId == spareId)
                pendingLeaseId = -1;
            revokeLeaseQuietly(q->client(), spareId);
            if (owned || id != leaseId || !keepAlive)
                return; // written again; or the lease went meanwhile, and heals
            revokeLeaseQuietly(q->client(), id); // the key is someone else's now
            lostLeaseId = id;
            fail(why, true);
        });
}

// etcd's answer to OwnedKey: the lease is gone (expired here and now, as a keep-alive answer
// would have said at the next renewal), or it lives (the key was deleted by someone else).
void EtcdSelfHealingKeepAlivePrivate::onLossDecided(qint64 id, bool gone, const EtcdStatus &why)
{
    if (!gone && early && id == leaseId) {
        early->verdict = EarlyHeal::Verdict::Alive;
        return settleEarly();
    }
    if (!gone)
        return spare.drop();
    if (id != leaseId || !keepAlive || (state != State::Alive && state != State::Suspended))
        return;
    // Not asked (the question failed), with the key written on the spare already: the heal
    // keeps the spare, and this lease, alive or not, holds nothing of ours any more.
    const bool unasked = !why.isOk() && why.code() != Etcd::ErrorCode::LeaseNotFound;
    if (unasked)
        revokeLeaseQuietly(q_func()->client(), id);
    const EtcdStatus reason = why.code() == Etcd::ErrorCode::LeaseNotFound ? why
        : unasked ? EtcdStatus(Etcd::ErrorCode::LeaseNotFound,
              EtcdSelfHealingKeepAlive::tr("lease %1 given up: etcd could not be "
                                           "asked about it (%2)")
                  .arg(id)
                  .arg(why.message()))
                  : EtcdStatus(Etcd::ErrorCode::LeaseNotFound,
                      EtcdSelfHealingKeepAlive::tr("etcd no longer has lease %1").arg(id));
    leaseStateOf(*keepAlive)->lose(reason); // ownership ends for every reader, as the hub does
    keepAlive->disconnect(); // its own word of the loss, if it comes, is this one
    onExpired(reason);
}

// The heal runs on the lease granted ahead when there is one young enough to count on,
// whether or not etcd answered its grant yet.
bool EtcdSelfHealingKeepAlivePrivate::healOnSpare()
{
    const auto id = spare.take(spareMaxAge());
    if (!id)
        return false;
    onGranted(EtcdStatus(), *id);
    return true;
}

// The hook declined a lease taken before etcd answered its grant: its CAS may have overtaken
// the grant and found no such lease. It runs once more after the grant's answer; a key that
// someone else holds declines again.
void EtcdSelfHealingKeepAlivePrivate::rerunAfterGrant(qint64 id)
{
    qCDebug(lcEtcdLease) << "lease" << id << "unknown to etcd yet: writing again after its grant";
    spare.whenAnswered([this, e = epoch, id](const EtcdStatus &granted) {
        spare.release();
        if (e != epoch)
            return;
        if (!granted.isOk())
            pendingLeaseId = -1; // there is no such lease: nothing for close() to revoke
        if (!granted.isOk() && early && early->id == id && !early->answer) {
            early->answer = EarlyHeal::Answer {false, false, granted};
            return settleEarly();
        }
        onGranted(granted, id); // a failed grant is a failed heal attempt, as any other
    });
}

// Everything close() does but signal; false when it was closed already.
void EtcdSelfHealingKeepAlivePrivate::revokeAbandoned()
{
    if (abandonedLeaseId > 0)
        revokeAbandonedLease(q_func()->client(), std::exchange(abandonedLeaseId, -1));
}

bool EtcdSelfHealingKeepAlivePrivate::closeQuietly(QList<EtcdReply *> *revokes)
{
    Q_Q(EtcdSelfHealingKeepAlive);
    if (state == State::Closed)
        return false;
    ++epoch;
    healTimer.stop();
    revokeAbandoned();
    early.reset();
    keepAlive.reset();
    view->clear();
    EtcdReply *r = nullptr;
    if (state == State::Alive || state == State::Suspended)
        r = revokeLeaseQuietly(q->client(), leaseId);
    EtcdReply *pendingRevoke = nullptr;
    if (pendingLeaseId > 0) // granted, still being established (a heal sent before Expired)
        pendingRevoke = revokeLeaseQuietly(q->client(), std::exchange(pendingLeaseId, -1));
    grants.abandon(); // a grant in flight revokes its lease when it answers (a spare's too)
    EtcdReply *spareRevoke = spare.closeAndRevoke();
    EtcdReply *standbyRevoke = standby ? standby->release() : nullptr;
    standby.reset();
    if (revokes)
        *revokes = {r, pendingRevoke, spareRevoke, standbyRevoke};
    q->markClosed();
    state = State::Closed;
    return true;
}

/*!
    Constructs a self-healing lease of \a ttl on \a client that runs \a establish with every new
    lease, healing as \a resilience says. No I/O happens before start(). The object is a child of
    \a parent.
*/
EtcdSelfHealingKeepAlive::EtcdSelfHealingKeepAlive(EtcdClient *client, seconds ttl,
    EstablishHook establish, const EtcdLeaseResilience &resilience, QObject *parent)
    : EtcdRecipe(client, QStringLiteral("SelfHealingKeepAlive"), parent),
      d_ptr(new EtcdSelfHealingKeepAlivePrivate(this, ttl, std::move(establish), resilience))
{
    Q_D(EtcdSelfHealingKeepAlive);
    connect(&d->healTimer, &QTimer::timeout, this, [d] { d->attempt(); });
    d->view->listen({[d](qint64 id) { return d->onLossSuspected(id); },
        [d](qint64 id, bool gone, const EtcdStatus &why) { d->onLossDecided(id, gone, why); }});
}

/*! Closes: cancels any heal and revokes the current lease. */
EtcdSelfHealingKeepAlive::~EtcdSelfHealingKeepAlive()
{
    Q_D(EtcdSelfHealingKeepAlive);
    d->view->listen({}); // an OwnedKey deleted later may still hold the view
    d->closeQuietly();
}

/*! The TTL every lease is granted with. */
seconds EtcdSelfHealingKeepAlive::ttl() const
{
    return d_func()->ttl;
}

/*! \property EtcdSelfHealingKeepAlive::currentLeaseId
    The lease in use; -1 before the first. */
qint64 EtcdSelfHealingKeepAlive::currentLeaseId() const
{
    return d_func()->leaseId;
}

/*! \property EtcdSelfHealingKeepAlive::state
    Where the lease is in its lifecycle. */
EtcdSelfHealingKeepAlive::State EtcdSelfHealingKeepAlive::state() const
{
    return d_func()->state;
}

/*! Returns \c true while the lease is established and renewed (or merely suspended);
    \c false while a heal is in flight, after failure and after close(). */
bool EtcdSelfHealingKeepAlive::isHealthy() const
{
    const State s = d_func()->state;
    return (s == State::Alive || s == State::Suspended) && EtcdRecipe::isHealthy();
}

/*!
    Time left before the current lease's deadline, counted on a monotonic clock from the last
    acknowledged renewal: a budget for work that must not outlive the lease. A mitigation, not
    a guarantee: etcd may expire the lease earlier (a revoke, a leader change), and a paused
    process learns nothing until it runs again. Zero when no lease is being renewed.
*/
milliseconds EtcdSelfHealingKeepAlive::remainingValidity() const
{
    return d_func()->view->remaining(); // the engine's deadline: safe from any thread
}

/*!
    Grants the first lease and runs the establish hook. established() follows, or failed()
    (InvalidArgument: TTL not positive or above etcd's maximum of 9,000,000,000 s, or no
    hook; etcd unreachable; the hook declined: the lease is revoked).
*/
void EtcdSelfHealingKeepAlive::start()
{
    Q_D(EtcdSelfHealingKeepAlive);
    if (d->state != State::Inactive)
        return;
    const auto refuse = [this, d](const QString &why) {
        d->state = State::Establishing; // fail() moves on from here
        QTimer::singleShot(0, this, [d, why] {
            if (d->state == State::Establishing) // not closed meanwhile
                d->fail(EtcdStatus(Etcd::ErrorCode::InvalidArgument, why), false);
        });
    };
    if (const auto problem = leaseTtlProblem(d->ttl))
        return refuse(problem->message());
    if (!d->hook)
        return refuse(tr("no establish hook"));
    setActive(true);
    d->setState(State::Establishing);
    d->attempt();
}

/*!
    Stops renewing, cancels any heal in flight and revokes the current lease (best effort:
    a failed revoke is logged; the TTL bounds it). Idempotent; no lease event follows.
*/
void EtcdSelfHealingKeepAlive::close()
{
    Q_D(EtcdSelfHealingKeepAlive);
    QList<EtcdReply *> revokes;
    if (!d->closeQuietly(&revokes))
        return;
    d->grants.close(revokes); // and after the grant in flight, if any
    Q_EMIT stateChanged(State::Closed);
}

/*!
    \enum EtcdSelfHealingKeepAlive::State
    \value Inactive not started
    \value Establishing the first lease is granted and the hook establishes its keys
    \value Alive the lease is renewed
    \value Suspended renewals stopped getting through; the lease may still be alive
    \value Healing the lease expired; a new one is granted and the hook runs again
    \value Expired the lease expired and healing is disabled
    \value Failed it ended for good (see failed())
    \value Closed close() was called
*/

/*!
    \typedef EtcdSelfHealingKeepAlive::EstablishDone
    The callable an establish hook calls once, with \c true when it wrote (or found as its
    own) every key it owns under the new lease, \c false when one is taken.
*/

/*!
    \typedef EtcdSelfHealingKeepAlive::EstablishHook
    The hook that writes the keys under each lease granted: it receives the lease id and an
    EstablishDone to call, from the owner thread, when it is done.
*/
