// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "etcdreply_p.h"

#include <EtcdQt/etcdreplies.h>

#include <QtCore/qcoreapplication.h>
#include <QtCore/qtimer.h>

/*!
    \class EtcdReply
    \inmodule EtcdQt
    \brief The result of one etcd request, delivered once.

    Every one-shot request of EtcdClient returns an EtcdReply (or a typed subclass). Guarantees:
    \list
    \li finished() is emitted exactly once, in the reply's thread;
    \li never synchronously from the call that created the reply, so connecting right after
        the call is always in time, even for requests rejected before they were sent;
    \li after finished() the reply deletes itself with deleteLater() unless setAutoDelete(false)
        was called.
    \endlist
    Replies are children of their client: destroying the client finishes every outstanding
    reply with Etcd::ErrorCode::Cancelled.
*/

/*!
    \property EtcdReply::finished
    \brief whether finished() was emitted; see isFinished().
*/

/*!
    \fn void EtcdReply::finished(const EtcdStatus &status)
    Emitted once when the request completed with \a status, or failed, or was aborted.
*/

/*! For subclasses: constructs an unfinished reply, a child of \a parent (the client). */
EtcdReply::EtcdReply(QObject *parent) : QObject(parent), d_ptr(new EtcdReplyPrivate(this)) { }

/*!
    Destroys the reply. A request still in flight is cancelled; finished() is not emitted.
*/
EtcdReply::~EtcdReply()
{
    Q_D(EtcdReply);
    if (d->call)
        d->call->cancel();
    if (d->onDone)
        d->onDone(this);
}

/*! Returns whether finished() has been emitted. */
bool EtcdReply::isFinished() const
{
    return d_func()->finished;
}

/*! Returns the final status; Ok until the reply has finished. */
EtcdStatus EtcdReply::status() const
{
    return d_func()->status;
}

/*! Returns the store revision from the response header (0 when the request failed). */
qint64 EtcdReply::revision() const
{
    return d_func()->data.revision;
}

/*! Returns the id of the member that answered. */
quint64 EtcdReply::memberId() const
{
    return d_func()->data.memberId;
}

/*! Returns the raft term from the response header. */
quint64 EtcdReply::raftTerm() const
{
    return d_func()->data.raftTerm;
}

/*!
    \property EtcdReply::autoDelete
    Whether the reply deletes itself after finished(). Default true.
*/
bool EtcdReply::autoDelete() const
{
    return d_func()->autoDelete;
}

void EtcdReply::setAutoDelete(bool autoDelete)
{
    d_func()->autoDelete = autoDelete;
}

/*!
    Cancels the request. finished() is emitted at once with Etcd::ErrorCode::Cancelled unless
    the reply had already finished. The request may still have taken effect on the server.
*/
void EtcdReply::abort()
{
    Q_D(EtcdReply);
    if (d->finished)
        return;
    if (d->call)
        d->call->cancel();
    d->finish(EtcdStatus(
        Etcd::ErrorCode::Cancelled, QCoreApplication::translate("EtcdReply", "request aborted")));
}

void EtcdReplyPrivate::finish(const EtcdStatus &result, Etcd::Internal::ReplyData &&payload)
{
    Q_Q(EtcdReply);
    if (finished)
        return;
    finished = true;
    status = result;
    data = std::move(payload);
    call.reset();
    if (auto done = std::exchange(onDone, nullptr))
        done(q);
    Q_EMIT q->finished(status);
    if (autoDelete)
        q->deleteLater();
}

void EtcdReplyPrivate::finishLater(const EtcdStatus &result)
{
    Q_Q(EtcdReply);
    QTimer::singleShot(0, q, [this, result] { finish(result); });
}

/*!
    \class EtcdRangeReply
    \inmodule EtcdQt
    \brief The key-values a get() read.
*/

/*! Returns the key-values read, with the client's key prefix removed. */
QList<EtcdKeyValue> EtcdRangeReply::keyValues() const
{
    return EtcdReplyPrivate::get(this)->data.keyValues;
}

/*! Returns the number of keys in the range (not only those returned when a limit applies). */
qint64 EtcdRangeReply::count() const
{
    return EtcdReplyPrivate::get(this)->data.count;
}

/*! Returns whether a limit cut the result short. */
bool EtcdRangeReply::hasMore() const
{
    return EtcdReplyPrivate::get(this)->data.more;
}

/*!
    \class EtcdPutReply
    \inmodule EtcdQt
    \brief The outcome of a put(); the previous key-value when EtcdPutOptions::prevKv was set.
*/

/*! Returns whether the key existed before and its previous key-value was asked for. */
bool EtcdPutReply::hasPrevKeyValue() const
{
    return EtcdReplyPrivate::get(this)->data.hasPrevKeyValue;
}

/*! Returns the key-value the put replaced. */
EtcdKeyValue EtcdPutReply::prevKeyValue() const
{
    return EtcdReplyPrivate::get(this)->data.prevKeyValue;
}

/*!
    \class EtcdDeleteReply
    \inmodule EtcdQt
    \brief The outcome of remove().
*/

/*! Returns the number of keys deleted. */
qint64 EtcdDeleteReply::deleted() const
{
    return EtcdReplyPrivate::get(this)->data.count;
}

/*! Returns the deleted key-values when EtcdDeleteOptions::prevKv was set. */
QList<EtcdKeyValue> EtcdDeleteReply::prevKeyValues() const
{
    return EtcdReplyPrivate::get(this)->data.keyValues;
}

/*!
    \class EtcdTxnReply
    \inmodule EtcdQt
    \brief The outcome of a transaction: which branch ran and each operation's result.
*/

/*! Returns true when every compare held and the success branch ran. */
bool EtcdTxnReply::succeeded() const
{
    return EtcdReplyPrivate::get(this)->data.succeeded;
}

/*! Returns one result per operation of the branch that ran, in order. */
QList<EtcdTxnOpResult> EtcdTxnReply::results() const
{
    return EtcdReplyPrivate::get(this)->data.txnResults;
}

/*!
    \class EtcdLeaseGrantReply
    \inmodule EtcdQt
    \brief A granted lease: its id and the TTL etcd chose.
*/

/*! Returns the lease id. */
qint64 EtcdLeaseGrantReply::leaseId() const
{
    return EtcdReplyPrivate::get(this)->data.leaseId;
}

/*! Returns the TTL etcd granted (it may raise a TTL below its minimum). */
std::chrono::seconds EtcdLeaseGrantReply::ttl() const
{
    return std::chrono::seconds(EtcdReplyPrivate::get(this)->data.ttl);
}

/*!
    \class EtcdLeaseTimeToLiveReply
    \inmodule EtcdQt
    \brief A lease's remaining time, granted TTL and (optionally) attached keys.
*/

/*! Returns the lease id asked about. */
qint64 EtcdLeaseTimeToLiveReply::leaseId() const
{
    return EtcdReplyPrivate::get(this)->data.leaseId;
}

/*! Returns the remaining TTL; -1 s when the lease does not exist (any more). */
std::chrono::seconds EtcdLeaseTimeToLiveReply::ttl() const
{
    return std::chrono::seconds(EtcdReplyPrivate::get(this)->data.ttl);
}

/*! Returns the TTL the lease was granted with. */
std::chrono::seconds EtcdLeaseTimeToLiveReply::grantedTtl() const
{
    return std::chrono::seconds(EtcdReplyPrivate::get(this)->data.grantedTtl);
}

/*! Returns the keys attached to the lease, prefix removed (asked with Etcd::LeaseKeys::Include). */
QList<QByteArray> EtcdLeaseTimeToLiveReply::keys() const
{
    return EtcdReplyPrivate::get(this)->data.keys;
}

/*!
    \class EtcdLeaseListReply
    \inmodule EtcdQt
    \brief Every lease the cluster holds.
*/

/*! Returns the ids of all leases in the cluster. */
QList<qint64> EtcdLeaseListReply::leaseIds() const
{
    return EtcdReplyPrivate::get(this)->data.leaseIds;
}

/*!
    \class EtcdMemberListReply
    \inmodule EtcdQt
    \brief The cluster's members.
*/

/*! Returns the members of the cluster. */
QList<EtcdMember> EtcdMemberListReply::members() const
{
    return EtcdReplyPrivate::get(this)->data.members;
}

/*!
    \class EtcdServerStatusReply
    \inmodule EtcdQt
    \brief The status of the member that answered: version, size, raft leader and term.
*/

/*! Returns the member's status. */
EtcdServerStatus EtcdServerStatusReply::serverStatus() const
{
    return EtcdReplyPrivate::get(this)->data.server;
}

/*!
    \class EtcdLockReply
    \inmodule EtcdQt
    \brief The key etcd's lock service created for an acquired lock.
*/

/*! Returns the ownership key; pass it to EtcdClient::unlock(). */
QByteArray EtcdLockReply::key() const
{
    return EtcdReplyPrivate::get(this)->data.lockKey;
}

/*!
    \class EtcdEmptyReply
    \inmodule EtcdQt
    \brief The outcome of a request whose response carries only a header.
*/
