// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "clientcalls_p.h"
#include "leaseops_p.h"
#include "leaseview_p.h"
#include "ownedkey_p.h"
#include "recipereplies_p.h"

#include <EtcdQt/etcdclient.h>
#include <EtcdQt/etcdreplies.h>
#include <EtcdQt/etcdselfhealingkeepalive.h>
#include <EtcdQt/etcdtransientkeyvalue.h>

#include <QtCore/qpointer.h>
#include <QtCore/qtimer.h>

#include <optional>

using namespace Etcd::Internal;
using namespace std::chrono;

/*!
    \class EtcdTransientKeyValue
    \inmodule EtcdQt
    \brief A key that exists while the object is active, bound to a self-healing lease.

    start() writes value() at key() under a lease of ttl() and keeps it renewed. When the
    lease expires the key is gone (etcd deleted it); the object reports leaseEvent(Expired)
    and leaseLost(), then heals: a new lease, the same value written again, and
    leaseEvent(Restored). Watchers see the key removed and added again. close() revokes the
    lease, so the key goes at once. The constructor does no I/O.

    Every write is a create-if-absent transaction, never a blind put: ownership is restored
    where it is still free, never taken (the spec's "every heal is a CAS"; etcd-recipes puts
    blindly here). If someone else wrote key() meanwhile, with another lease or none, the key
    is left as they wrote it and the object ends with leaseEvent(Failed) and failed()
    (FailedPrecondition, naming the holder's lease); start() on a key someone holds fails the
    same way. The one key it does take over is its own, still on the lease it replaces: a
    partition can end the local deadline before etcd's.

    While the key is written, the object follows it. Deleted by someone else while the lease
    lives, it is written again the same way (it is free). Written over by someone else, it is
    theirs: the object ends with leaseEvent(Failed) and failed() (FailedPrecondition), their
    value untouched, its lease revoked. From the moment the client's engine thread sees the
    change, remainingValidity() reads zero, however busy the owner thread is.

    EtcdTypedTransientKeyValue<Codec> writes a typed value with one of the codecs of
    etcdcodec.h and forwards to this class, which carries the signals.
*/

/*! \fn void EtcdTransientKeyValue::started()
    Emitted once the key was written and its lease is being renewed.
*/

class EtcdTransientKeyValuePrivate
{
public:
    void establish(EtcdTransientKeyValue *q, qint64 leaseId, std::function<void(bool)> done);
    void claimed(const EtcdStatus &s, bool owned, qint64 holder, qint64 leaseId);
    void followOwnKey(
        EtcdTransientKeyValue *q, qint64 writtenAt, qint64 leaseId, qint64 previousLeaseId = -1);
    void stopFollowingOwnKey();
    void onOwnKeyLost(EtcdTransientKeyValue *q, OwnedKey::Loss how, const EtcdStatus &why);
    void reclaim(EtcdTransientKeyValue *q, qint64 leaseId, int delayMs);
    void giveUp(EtcdTransientKeyValue *q, const EtcdStatus &why);
    [[nodiscard]] EtcdStatus explained(const EtcdStatus &status) const;

    QByteArray key;
    QByteArray value;
    std::unique_ptr<EtcdSelfHealingKeepAlive> lease;
    qint64 writtenUnder = -1; // the lease the key was last written under
    std::optional<EtcdStatus> taken; // why the last claim lost: who holds the key
    std::unique_ptr<OwnedKey> ownKey; // follows the key while it is ours
    QMetaObject::Connection closedForward; // the lease's closed() is this object's
    bool gaveUp = false; // the key became someone else's: the lease is closed already
};

// Creates the key under the new lease, or moves it from the lease it replaces.
void EtcdTransientKeyValuePrivate::establish(
    EtcdTransientKeyValue *q, qint64 leaseId, std::function<void(bool)> done)
{
    // The follower of the last write goes now: this write moves the key onto `leaseId`, and
    // it would take that for someone else's (the claim itself tells whether the key was
    // still ours). One asking etcd about its lease lives on until the answer (retire()).
    stopFollowingOwnKey();
    // An early heal and the move back that may follow write the key on two leases of ours,
    // and the second write may reach the first one's follower before its own answer here.
    auto answered = [this, q, leaseId, done, previous = writtenUnder](
                        const EtcdStatus &s, bool owned, qint64 holder, qint64 at) {
        claimed(s, owned, holder, leaseId);
        if (owned)
            followOwnKey(q, at, leaseId, previous);
        done(owned);
    };
    claimKey(q->client(), key, value, leaseId, writtenUnder, lease.get(), answered);
}

void EtcdTransientKeyValuePrivate::claimed(
    const EtcdStatus &s, bool owned, qint64 holder, qint64 leaseId)
{
    if (owned)
        writtenUnder = leaseId;
    else if (s.isOk())
        taken = EtcdStatus(Etcd::ErrorCode::FailedPrecondition,
            (holder > 0 ? EtcdTransientKeyValue::tr("%1 is held by lease %2; not reclaimed")
                              .arg(QString::fromUtf8(key))
                              .arg(holder)
                        : EtcdTransientKeyValue::tr("%1 was written without a lease by "
                                                    "someone else; not reclaimed")
                              .arg(QString::fromUtf8(key))));
}

// From its write on, any change of the key is someone else's or its lease's end. The engine
// thread's guard makes remainingValidity() 0 at the first change, before this thread hears.
void EtcdTransientKeyValuePrivate::followOwnKey(
    EtcdTransientKeyValue *q, qint64 writtenAt, qint64 leaseId, qint64 previousLeaseId)
{
    stopFollowingOwnKey();
    ownKey = std::make_unique<OwnedKey>(q->client(), key, writtenAt, leaseId, leaseViewOf(*lease));
    ownKey->alsoOwnWritesOn(previousLeaseId);
    QObject::connect(ownKey.get(), &OwnedKey::lost, q,
        [this, q, k = ownKey.get()](OwnedKey::Loss how, const EtcdStatus &why) {
            // Deleted while the lease may live: the lease writes it again (see the constructor).
            if (how == OwnedKey::Loss::Removed && k->keeperRestores())
                how = OwnedKey::Loss::LeaseEnded;
            onOwnKeyLost(q, how, why);
        });
    QObject::connect(ownKey.get(), &OwnedKey::errorOccurred, q,
        [q](const EtcdStatus &why) { q->recordError(why); });
    ownKey->start();
}

void EtcdTransientKeyValuePrivate::stopFollowingOwnKey()
{
    if (!ownKey)
        return;
    // An answer still on its way must not reach a later write's follower; etcd's word on the
    // lease, asked at a deletion, still reaches the lease. May be the sender.
    ownKey.release()->retire();
}

// With its lease: the lease's Expired and heal follow. Deleted by someone while the lease
// lives: written again, as it is free (a transient key exists while its object is active,
// as Curator's PersistentNode). Written over: someone else's now; healing ends, untouched.
void EtcdTransientKeyValuePrivate::onOwnKeyLost(
    EtcdTransientKeyValue *q, OwnedKey::Loss how, const EtcdStatus &why)
{
    stopFollowingOwnKey();
    if (how == OwnedKey::Loss::LeaseEnded || q->isClosed())
        return;
    qCInfo(lcEtcdLease).noquote() << why.message();
    if (how == OwnedKey::Loss::Removed)
        return reclaim(q, lease->currentLeaseId(), 0);
    taken = EtcdStatus(Etcd::ErrorCode::FailedPrecondition, why.message());
    giveUp(q, *taken);
}

// Create-if-absent under the lease it still has; an RPC failure tries again while that lease
// is current (its loss heals through the lease instead).
void EtcdTransientKeyValuePrivate::reclaim(EtcdTransientKeyValue *q, qint64 leaseId, int delayMs)
{
    auto answered
        = [this, q, leaseId, delayMs](const EtcdStatus &s, bool owned, qint64 holder, qint64 at) {
              if (q->isClosed() || lease->currentLeaseId() != leaseId)
                  return;
              claimed(s, owned, holder, leaseId);
              if (owned)
                  return followOwnKey(q, at, leaseId);
              if (s.isOk())
                  return giveUp(q, *taken);
              q->recordError(s);
              reclaim(q, leaseId, backoffMs(delayMs, 100, lease->ttl()));
          };
    QTimer::singleShot(delayMs, q, [this, q, leaseId, answered] {
        if (!q->isClosed() && lease->currentLeaseId() == leaseId)
            claimKey(q->client(), key, value, leaseId, leaseId, q, answered);
    });
}

// The key is someone else's: this object stops (its lease revoked, their key untouched).
void EtcdTransientKeyValuePrivate::giveUp(EtcdTransientKeyValue *q, const EtcdStatus &why)
{
    const qint64 leaseId = lease->currentLeaseId();
    QObject::disconnect(closedForward); // the lease closes, not this object
    gaveUp = true;
    lease->close();
    q->setActive(false);
    QPointer<EtcdTransientKeyValue> guard(q);
    const EtcdLeaseEvent event = EtcdLeaseEvent::failed(leaseId, why);
    q->recordError(why);
    if (guard)
        q->reportLeaseEvent(event);
    if (guard)
        Q_EMIT q->leaseEvent(event);
    if (guard)
        Q_EMIT q->failed(why);
}

// The lease says only that the hook declined; the claim knows who holds the key.
EtcdStatus EtcdTransientKeyValuePrivate::explained(const EtcdStatus &status) const
{
    return taken && status.code() == Etcd::ErrorCode::FailedPrecondition ? *taken : status;
}

/*!
    Constructs a transient \a key holding \a value on \a client, with a lease of \a ttl healed
    as \a resilience says. Call start(). The object is a child of \a parent.
*/
EtcdTransientKeyValue::EtcdTransientKeyValue(EtcdClient *client, const QByteArray &key,
    const QByteArray &value, seconds ttl, const EtcdLeaseResilience &resilience, QObject *parent)
    : EtcdRecipe(
        client, QStringLiteral("TransientKeyValue[%1]").arg(QString::fromUtf8(key)), parent),
      d_ptr(new EtcdTransientKeyValuePrivate)
{
    Q_D(EtcdTransientKeyValue);
    d->key = key;
    d->value = value;
    auto establish = [this, d](qint64 leaseId, std::function<void(bool)> done) {
        d->establish(this, leaseId, std::move(done));
    };
    d->lease = std::make_unique<EtcdSelfHealingKeepAlive>(client, ttl, establish, resilience);
    // Deleted, the key is written again whether its lease lives or not: the lease writes it
    // on a spare lease at once (a heal in about one round trip), and moves it back if its
    // lease lived.
    leaseViewOf(*d->lease)->setRestoresKeys(true);
    EtcdSelfHealingKeepAlive *l = d->lease.get();
    connect(l, &EtcdSelfHealingKeepAlive::established, this, [this] { Q_EMIT started(); });
    connect(l, &EtcdSelfHealingKeepAlive::currentLeaseIdChanged, this,
        &EtcdTransientKeyValue::leaseIdChanged);
    connect(l, &EtcdSelfHealingKeepAlive::leaseEvent, this, [this, d](EtcdLeaseEvent e) {
        QPointer<EtcdTransientKeyValue> guard(this);
        if (e.type == EtcdLeaseEvent::Type::Failed)
            e.cause = d->explained(e.cause);
        reportLeaseEvent(e);
        if (guard)
            Q_EMIT leaseEvent(e);
    });
    // The lease records its events' causes and failed heal attempts: keep them here too.
    connect(l, &EtcdRecipe::errorOccurred, this,
        [this, d](const QString &, const EtcdStatus &s) { keepError(d->explained(s)); });
    connect(l, &EtcdSelfHealingKeepAlive::connectionStateChanged, this,
        [this](ConnectionState s) { reportConnectionState(s); });
    connect(l, &EtcdSelfHealingKeepAlive::leaseLost, this, &EtcdTransientKeyValue::leaseLost);
    d->closedForward = connect(l, &EtcdRecipe::closed, this, &EtcdRecipe::closed);
    connect(l, &EtcdSelfHealingKeepAlive::failed, this, [this, d](const EtcdStatus &why) {
        setActive(false);
        Q_EMIT failed(d->explained(why));
    });
}

/*! Closes: the lease is revoked and the key goes with it. */
EtcdTransientKeyValue::~EtcdTransientKeyValue() = default;

/*! \property EtcdTransientKeyValue::key
    The key (under the client's key prefix). */
QByteArray EtcdTransientKeyValue::key() const
{
    return d_func()->key;
}

/*! \property EtcdTransientKeyValue::value
    The bytes written at key(), and by every heal; see setValue(). */
QByteArray EtcdTransientKeyValue::value() const
{
    return d_func()->value;
}

/*! The TTL of every lease it is bound to. */
seconds EtcdTransientKeyValue::ttl() const
{
    return d_func()->lease->ttl();
}

/*! \property EtcdTransientKeyValue::leaseId
    The current lease; -1 before start(). */
qint64 EtcdTransientKeyValue::leaseId() const
{
    return d_func()->lease->currentLeaseId();
}

/*! Returns \c true while the key is written and its lease renewed. */
bool EtcdTransientKeyValue::isHealthy() const
{
    return d_func()->lease->isHealthy() && EtcdRecipe::isHealthy();
}

/*! See EtcdSelfHealingKeepAlive::remainingValidity(). */
milliseconds EtcdTransientKeyValue::remainingValidity() const
{
    return d_func()->lease->remainingValidity();
}

/*!
    Writes the key under a new lease; started() follows, or failed() (InvalidArgument: empty
    key, TTL not positive or above etcd's maximum of 9,000,000,000 s; FailedPrecondition: the
    key is held by someone else; etcd unreachable).
*/
void EtcdTransientKeyValue::start()
{
    Q_D(EtcdTransientKeyValue);
    if (isActive() || isClosed())
        return;
    if (d->key.isEmpty()) {
        QTimer::singleShot(0, this, [this] {
            const EtcdStatus why(Etcd::ErrorCode::InvalidArgument, tr("empty key"));
            recordError(why);
            Q_EMIT failed(why);
        });
        return;
    }
    setActive(true);
    d->lease->start();
}

/*!
    Changes the bytes kept at key() to \a value: written now under the current lease when the
    key is written (a transaction that commits only while the key is still on that lease),
    and by every later heal. The reply's result() is true when etcd holds \a value now,
    false when the key is not written at this moment (before started(), during a heal): the
    next write writes \a value. Fails with FailedPrecondition after close() or failed(), and
    when the key was no longer on this object's lease (someone else's now: failed() follows).
    Of updates sent one after another, each commits in the order etcd receives them.
*/
EtcdBoolReply *EtcdTransientKeyValue::setValue(const QByteArray &value)
{
    Q_D(EtcdTransientKeyValue);
    if (isClosed() || d->gaveUp)
        return RecipeReplies::failedBool(
            this, EtcdStatus(Etcd::ErrorCode::FailedPrecondition, tr("closed")));
    if (std::exchange(d->value, value) != value)
        Q_EMIT valueChanged();
    EtcdBoolReply *reply = RecipeReplies::boolReply(this);
    // The lease the key is on: during an early heal the spare's, before it is current.
    const qint64 leaseId = d->writtenUnder;
    if (!isActive() || !d->ownKey) {
        RecipeReplies::finishLater(reply, false);
        return reply;
    }
    EtcdPutOptions put;
    put.lease = leaseId;
    const EtcdTxn txn {{EtcdCompare::lease(d->key, Etcd::CompareResult::Equal, leaseId)},
        {EtcdTxnOp::put(d->key, value, put)}, {}};
    EtcdTxnReply *t = txnOn(client(), txn);
    connect(t, &EtcdReply::finished, reply, [this, reply, t](const EtcdStatus &s) {
        if (s.isOk() && !t->succeeded())
            return RecipeReplies::finish(reply,
                EtcdStatus(Etcd::ErrorCode::FailedPrecondition,
                    tr("%1 is no longer on this object's lease").arg(QString::fromUtf8(key()))));
        RecipeReplies::finish(reply, s, s.isOk(), t->revision());
    });
    return reply;
}

/*! Revokes the lease, so the key is deleted now. Idempotent. */
void EtcdTransientKeyValue::close()
{
    Q_D(EtcdTransientKeyValue);
    d->stopFollowingOwnKey();
    if (d->gaveUp && !isClosed()) // its lease closed (and revoked) already
        QTimer::singleShot(0, this, [this] { Q_EMIT closed(); });
    d->lease->close();
    markClosed();
}

/*!
    \fn void EtcdTransientKeyValue::leaseEvent(const EtcdLeaseEvent &event)
    Emitted for every Suspended, Expired, Restored and Failed \a event of the key's lease.
*/

/*!
    \fn void EtcdTransientKeyValue::failed(const EtcdStatus &reason)
    Emitted when the object ended for good with \a reason: start() failed, healing gave up,
    or someone else wrote the key (FailedPrecondition).
*/

/*!
    \class EtcdTypedTransientKeyValue
    \inmodule EtcdQt
    \brief An EtcdTransientKeyValue whose value is encoded by \c Codec (EtcdTextCodec,
    EtcdJsonCodec, EtcdInt32Codec, EtcdInt64Codec, EtcdBytesCodec).
*/

/*!
    \typedef EtcdTypedTransientKeyValue::Value
    The codec's value type.
*/

// clang-format off
/*!
    \fn template <class Codec> EtcdTypedTransientKeyValue<Codec>::EtcdTypedTransientKeyValue(EtcdClient *client, const QByteArray &key, const Value &value, std::chrono::seconds ttl, const EtcdLeaseResilience &resilience)
    Constructs a transient \a key with \a value, encoded by the codec, on \a client, its lease
    granted with \a ttl and healed as \a resilience says. start() writes it.
*/
// clang-format on

// clang-format off
/*!
    \fn template <class Codec> EtcdTransientKeyValue *EtcdTypedTransientKeyValue<Codec>::untyped() const
    Returns the object underneath, for its state and signals.
*/
// clang-format on

/*!
    \fn template <class Codec> std::optional<Value> EtcdTypedTransientKeyValue<Codec>::value() const
    Returns the value decoded, or nothing when the bytes do not decode.
*/

/*!
    \fn template <class Codec> void EtcdTypedTransientKeyValue<Codec>::start()
    Writes the key; see EtcdTransientKeyValue::start().
*/

/*!
    \fn template <class Codec> void EtcdTypedTransientKeyValue<Codec>::close()
    Deletes the key and revokes its lease; see EtcdTransientKeyValue::close().
*/
