// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include <EtcdQt/etcdclient.h>
#include <EtcdQt/etcdreplies.h>
#include <EtcdQt/etcdselfhealingkeepalive.h>
#include <EtcdQt/etcdtransientkeyvalue.h>

#include <QtCore/qpointer.h>
#include <QtCore/qtimer.h>

using namespace std::chrono;

/*!
    \class EtcdTransientKeyValue
    \inmodule EtcdQt
    \brief A key that exists while the object is active, bound to a self-healing lease.

    start() writes value() at key() under a lease of ttl() and keeps it renewed. When the
    lease expires the key is gone (etcd deleted it); the object reports leaseEvent(Expired)
    and leaseLost(), then heals: a new lease, the same value put again (a plain put, as
    etcd-recipes does: a transient key is presence, nobody competes for it), and
    leaseEvent(Restored). Watchers see the key removed and added again. close() revokes the
    lease, so the key goes at once. The constructor does no I/O.

    EtcdTypedTransientKeyValue<Codec> writes a typed value with one of the codecs of
    etcdcodec.h and forwards to this class, which carries the signals.
*/

/*! \fn void EtcdTransientKeyValue::started()
    Emitted once the key was written and its lease is being renewed.
*/

class EtcdTransientKeyValuePrivate
{
public:
    QByteArray key;
    QByteArray value;
    std::unique_ptr<EtcdSelfHealingKeepAlive> lease;
};

/*!
    Constructs a transient \a key holding \a value on \a client, with a lease of \a ttl healed
    as \a resilience says. Call start().
*/
EtcdTransientKeyValue::EtcdTransientKeyValue(EtcdClient *client, const QByteArray &key,
    const QByteArray &value, seconds ttl, const EtcdLeaseResilience &resilience, QObject *parent)
    : EtcdRecipe(
        client, QStringLiteral("TransientKeyValue[%1]").arg(QString::fromUtf8(key)), parent),
      d_ptr(new EtcdTransientKeyValuePrivate {key, value, nullptr})
{
    Q_D(EtcdTransientKeyValue);
    QPointer<EtcdClient> c(client);
    auto establish = [c, key, value](qint64 leaseId, std::function<void(bool)> done) {
        if (!c)
            return done(false);
        EtcdPutOptions options;
        options.lease = leaseId;
        QObject::connect(c->put(key, value, options), &EtcdReply::finished, c,
            [done](const EtcdStatus &s) { done(s.isOk()); });
    };
    d->lease = std::make_unique<EtcdSelfHealingKeepAlive>(client, ttl, establish, resilience);
    EtcdSelfHealingKeepAlive *l = d->lease.get();
    connect(l, &EtcdSelfHealingKeepAlive::established, this, [this] { Q_EMIT started(); });
    connect(l, &EtcdSelfHealingKeepAlive::currentLeaseIdChanged, this,
        &EtcdTransientKeyValue::leaseIdChanged);
    connect(l, &EtcdSelfHealingKeepAlive::leaseEvent, this, [this](const EtcdLeaseEvent &e) {
        QPointer<EtcdTransientKeyValue> guard(this);
        reportLeaseEvent(e);
        if (guard)
            Q_EMIT leaseEvent(e);
    });
    // The lease records its events' causes and failed heal attempts: keep them here too.
    connect(l, &EtcdRecipe::errorOccurred, this,
        [this](const QString &, const EtcdStatus &s) { keepError(s); });
    connect(l, &EtcdSelfHealingKeepAlive::connectionStateChanged, this,
        [this](ConnectionState s) { reportConnectionState(s); });
    connect(l, &EtcdSelfHealingKeepAlive::leaseLost, this, &EtcdTransientKeyValue::leaseLost);
    connect(l, &EtcdRecipe::closed, this, &EtcdRecipe::closed);
    connect(l, &EtcdSelfHealingKeepAlive::failed, this, [this](const EtcdStatus &why) {
        setActive(false);
        Q_EMIT failed(why);
    });
}

/*! Closes: the lease is revoked and the key goes with it. */
EtcdTransientKeyValue::~EtcdTransientKeyValue() = default;

/*! \property EtcdTransientKeyValue::key The key (under the client's key prefix). */
QByteArray EtcdTransientKeyValue::key() const
{
    return d_func()->key;
}

/*! \property EtcdTransientKeyValue::value The bytes written at key(). */
QByteArray EtcdTransientKeyValue::value() const
{
    return d_func()->value;
}

/*! The TTL of every lease it is bound to. */
seconds EtcdTransientKeyValue::ttl() const
{
    return d_func()->lease->ttl();
}

/*! \property EtcdTransientKeyValue::leaseId The current lease; -1 before start(). */
qint64 EtcdTransientKeyValue::leaseId() const
{
    return d_func()->lease->currentLeaseId();
}

/*! True while the key is written and its lease renewed. */
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
    Writes the key under a new lease; started() follows, or failed() (empty key, TTL not
    positive, etcd unreachable).
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

/*! Revokes the lease, so the key is deleted now. Idempotent. */
void EtcdTransientKeyValue::close()
{
    Q_D(EtcdTransientKeyValue);
    d->lease->close();
    markClosed();
}
