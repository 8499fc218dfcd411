// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "etcdqt_internal_p.h"
#include "leaseops_p.h"
#include "leaseview_p.h"
#include "pendinggrants_p.h"
#include "recipelayer_p.h"

#include <EtcdQt/etcdclient.h>
#include <EtcdQt/etcdcodec.h>
#include <EtcdQt/etcdkeepalive.h>
#include <EtcdQt/etcdleasedkeys.h>
#include <EtcdQt/etcdreplies.h>

#include <QtCore/qpointer.h>
#include <QtCore/qtimer.h>

using namespace Etcd::Internal;
using namespace std::chrono;

/*!
    \class EtcdLeasedKeys
    \inmodule EtcdQt
    \brief Keys on one lease that exist exactly while the object lives: grant, put, renew and
    revoke in one object.

    start() grants a lease of ttl(), puts every key-value under it (in order, each a separate
    put: the keys do not appear atomically), then renews the lease on the client's keep-alive
    stream. If a put fails on the way in, the lease is revoked at once, not stranded for its
    TTL, and failed() is emitted. close(), or destroying the object, stops renewing and
    revokes the lease, so the keys go now. The lease is not healed: if it expires,
    keepAliveFailed() says so (the keys are gone). See EtcdTransientKeyValue for a key that
    heals.

    Etcd::putWithKeepAlive() and Etcd::putValuesWithKeepAlive() construct and start one.
*/

/*! \fn void EtcdLeasedKeys::established(qint64 leaseId)
    Emitted when every key was written under \a leaseId and renewal began.
*/
/*! \fn void EtcdLeasedKeys::failed(const EtcdStatus &reason)
    Emitted when the keys could not be written; no lease is left behind. \a reason says why.
*/
/*! \fn void EtcdLeasedKeys::keepAliveFailed(const EtcdStatus &reason)
    Emitted when renewal stopped while the object was still open (the lease expired or the
    client disconnected). Never emitted for close(). \a reason says why.
*/

class EtcdLeasedKeysPrivate
{
    Q_DECLARE_PUBLIC(EtcdLeasedKeys)
public:
    using State = EtcdLeasedKeys::State;

    bool setState(State next);
    void putNext(int index);
    void fail(const EtcdStatus &reason);
    void renew();

    EtcdLeasedKeys *q_ptr = nullptr;
    EtcdKeyValueList keyValues;
    seconds ttl {0};
    qint64 leaseId = -1;
    State state = State::Inactive;
    std::unique_ptr<PendingGrants> grants; // the grant in flight, whose lease close() revokes
    std::unique_ptr<EtcdKeepAlive> keepAlive;
    LeaseView view; // remainingValidity() from any thread: the engine ends its deadline
};

bool EtcdLeasedKeysPrivate::setState(State next)
{
    Q_Q(EtcdLeasedKeys);
    if (std::exchange(state, next) == next)
        return true;
    QPointer<EtcdLeasedKeys> guard(q);
    Q_EMIT q->stateChanged(next);
    return bool(guard);
}

void EtcdLeasedKeysPrivate::putNext(int index)
{
    Q_Q(EtcdLeasedKeys);
    if (state != State::Establishing)
        return; // closed meanwhile (close() revoked the lease)
    if (index == keyValues.size())
        return renew();
    EtcdClient *client = q->client();
    if (!client)
        return fail(EtcdStatus(Etcd::ErrorCode::NotConnected, EtcdLeasedKeys::tr("no client")));
    EtcdPutOptions options;
    options.lease = leaseId;
    const auto &[key, value] = keyValues.at(index);
    QObject::connect(client->put(key, value, options), &EtcdReply::finished, q,
        [this, index](const EtcdStatus &s) {
            if (s.isOk())
                putNext(index + 1);
            else if (state == State::Establishing)
                fail(s);
        });
}

void EtcdLeasedKeysPrivate::renew()
{
    Q_Q(EtcdLeasedKeys);
    KeepAliveFollower follow;
    follow.failed = [this, q](const EtcdStatus &why) {
        QPointer<EtcdLeasedKeys> guard(q);
        q->setActive(false); // the keys are gone with the lease
        if (guard && !setState(State::Failed))
            return;
        q->reportConnectionState(EtcdRecipe::ConnectionState::Lost);
        if (guard)
            q->recordError(why);
        if (guard)
            Q_EMIT q->leaseLost(why);
        if (guard)
            Q_EMIT q->keepAliveFailed(why);
    };
    keepAlive = RecipeLayer::followKeepAlive(q, leaseId, ttl, std::move(follow));
    view.set(leaseStateOf(*keepAlive));
    if (setState(State::Alive))
        Q_EMIT q->established(leaseId);
}

void EtcdLeasedKeysPrivate::fail(const EtcdStatus &reason)
{
    Q_Q(EtcdLeasedKeys);
    revokeLeaseQuietly(q->client(), leaseId); // not stranded for its TTL
    q->setActive(false);
    QPointer<EtcdLeasedKeys> guard(q);
    q->recordError(reason);
    if (guard && setState(State::Failed))
        Q_EMIT q->failed(reason);
}

/*!
    Constructs, without I/O, the \a keyValues to keep on one lease of \a ttl on \a client. The
    object is a child of \a parent.
*/
EtcdLeasedKeys::EtcdLeasedKeys(
    EtcdClient *client, const EtcdKeyValueList &keyValues, seconds ttl, QObject *parent)
    : EtcdRecipe(client, QStringLiteral("LeasedKeys"), parent), d_ptr(new EtcdLeasedKeysPrivate)
{
    Q_D(EtcdLeasedKeys);
    d->q_ptr = this;
    d->keyValues = keyValues;
    d->ttl = ttl;
    d->grants = std::make_unique<PendingGrants>(this);
}

/*! Stops renewing and revokes the lease. */
EtcdLeasedKeys::~EtcdLeasedKeys()
{
    Q_D(EtcdLeasedKeys);
    d->view.clear();
    d->keepAlive.reset();
    if (d->state == State::Alive || d->state == State::Establishing)
        revokeLeaseQuietly(client(), d->leaseId);
}

/*! The keys and values written, in order. */
EtcdKeyValueList EtcdLeasedKeys::keyValues() const
{
    return d_func()->keyValues;
}

/*! The lease's TTL. */
seconds EtcdLeasedKeys::ttl() const
{
    return d_func()->ttl;
}

/*! \property EtcdLeasedKeys::leaseId
    The lease the keys are bound to; -1 before the grant. */
qint64 EtcdLeasedKeys::leaseId() const
{
    return d_func()->leaseId;
}

/*! \property EtcdLeasedKeys::state
    Where the keys are in their lifecycle. */
EtcdLeasedKeys::State EtcdLeasedKeys::state() const
{
    return d_func()->state;
}

/*!
    See EtcdKeepAlive::remainingValidity(); zero before the keys are written and after
    close(). Safe to call from any thread: the lease's end is decided in the client's engine
    thread, so a worker reads zero from then on whatever the owner thread is doing.
*/
milliseconds EtcdLeasedKeys::remainingValidity() const
{
    return d_func()->view.remaining();
}

/*!
    Grants, puts and starts renewing; established() or failed() follows (InvalidArgument
    when there are no keys, a key is empty, or the TTL is not positive or above etcd's
    maximum of 9,000,000,000 s).
*/
void EtcdLeasedKeys::start()
{
    Q_D(EtcdLeasedKeys);
    if (d->state != State::Inactive)
        return;
    QString problem;
    if (const auto ttlProblem = leaseTtlProblem(d->ttl))
        problem = ttlProblem->message();
    else if (d->keyValues.isEmpty())
        problem = tr("no keys");
    for (const auto &kv : std::as_const(d->keyValues)) {
        if (kv.first.isEmpty())
            problem = tr("empty key");
    }
    d->state = State::Establishing;
    if (!problem.isEmpty()) {
        QTimer::singleShot(0, this, [d, problem] {
            if (d->state == State::Establishing) // not closed meanwhile
                d->fail(EtcdStatus(Etcd::ErrorCode::InvalidArgument, problem));
        });
        return;
    }
    setActive(true);
    Q_EMIT stateChanged(State::Establishing);
    // Closed meanwhile: the grant revokes its own lease, and closed() waits for that.
    d->grants->grant(d->ttl, milliseconds(0), [d](const EtcdStatus &s, qint64 id) {
        if (!s.isOk())
            return d->fail(s);
        d->leaseId = id;
        Q_EMIT d->q_func()->leaseIdChanged(id);
        d->putNext(0);
    });
}

/*! Stops renewing and revokes the lease: the keys are deleted now. Idempotent. */
void EtcdLeasedKeys::close()
{
    Q_D(EtcdLeasedKeys);
    if (d->state == State::Closed)
        return;
    d->view.clear();
    d->keepAlive.reset();
    EtcdReply *revoke = nullptr;
    if (d->state == State::Alive || d->state == State::Establishing)
        revoke = revokeLeaseQuietly(client(), d->leaseId);
    markClosed();
    d->grants->close({revoke});
    d->setState(State::Closed);
}

namespace Etcd {

/*!
    \relates EtcdLeasedKeys
    Starts keeping every key of \a keyValues on one lease of \a ttl on \a client. The returned
    object (child of \a parent) owns the keys: close or destroy it to delete them.
*/
EtcdLeasedKeys *putValuesWithKeepAlive(
    EtcdClient *client, const EtcdKeyValueList &keyValues, seconds ttl, QObject *parent)
{
    auto *keys = new EtcdLeasedKeys(client, keyValues, ttl, parent);
    keys->start();
    return keys;
}

/*!
    \relates EtcdLeasedKeys
    Starts keeping \a key with the bytes \a value on a lease of \a ttl. The object is a child of
    \a parent. It runs on \a client.
*/
EtcdLeasedKeys *putWithKeepAlive(EtcdClient *client, const QByteArray &key, const QByteArray &value,
    seconds ttl, QObject *parent)
{
    return putValuesWithKeepAlive(client, {{key, value}}, ttl, parent);
}

/*! \relates EtcdLeasedKeys
    Starts keeping \a key with \a text (UTF-8) on a lease of \a ttl. */
EtcdLeasedKeys *putWithKeepAlive(
    EtcdClient *client, const QByteArray &key, const QString &text, seconds ttl, QObject *parent)
{
    return putWithKeepAlive(client, key, text.toUtf8(), ttl, parent);
}

/*! \relates EtcdLeasedKeys
    Starts keeping \a key with the UTF-8 \a text on a lease of \a ttl. */
EtcdLeasedKeys *putWithKeepAlive(
    EtcdClient *client, const QByteArray &key, const char *text, seconds ttl, QObject *parent)
{
    return putWithKeepAlive(client, key, QByteArray(text), ttl, parent);
}

/*! \relates EtcdLeasedKeys
    Starts keeping \a key with \a value as 4 big-endian bytes on a lease of \a ttl. */
EtcdLeasedKeys *putWithKeepAlive(
    EtcdClient *client, const QByteArray &key, qint32 value, seconds ttl, QObject *parent)
{
    return putWithKeepAlive(client, key, encodeInt32(value), ttl, parent);
}

/*! \relates EtcdLeasedKeys
    Starts keeping \a key with \a value as 8 big-endian bytes on a lease of \a ttl. */
EtcdLeasedKeys *putWithKeepAlive(
    EtcdClient *client, const QByteArray &key, qint64 value, seconds ttl, QObject *parent)
{
    return putWithKeepAlive(client, key, encodeInt64(value), ttl, parent);
}

} // namespace Etcd

/*!
    \enum EtcdLeasedKeys::State
    \value Inactive not started
    \value Establishing the lease is granted and the keys written
    \value Alive the keys exist and their lease is renewed
    \value Failed it ended for good (see failed())
    \value Closed close() was called; the lease is revoked and the keys are gone
*/

/*!
    \typedef EtcdKeyValueList
    \relates EtcdLeasedKeys
    A list of key and value pairs, written in order, one put each (not atomically).
*/
