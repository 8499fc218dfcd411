// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include <EtcdQt/etcdleaseevent.h>

#include <QtCore/qdebug.h>

/*!
    \class EtcdLeaseEvent
    \inmodule EtcdQt
    \brief What happened to a recipe's lease: Suspended (renewals stopped getting through; the
    lease may still be alive), Expired (it is gone), Restored (healed under a new lease) or
    Failed (healing stopped for good, or ownership was taken meanwhile).
*/

/*! Renewals of \a leaseId stopped getting through (\a cause); the lease may still live. */
EtcdLeaseEvent EtcdLeaseEvent::suspended(qint64 leaseId, const EtcdStatus &cause)
{
    return EtcdLeaseEvent {Type::Suspended, leaseId, -1, cause};
}

/*! \a leaseId is gone (\a cause): etcd lost it, or no renewal was acknowledged for a TTL. */
EtcdLeaseEvent EtcdLeaseEvent::expired(qint64 leaseId, const EtcdStatus &cause)
{
    return EtcdLeaseEvent {Type::Expired, leaseId, -1, cause};
}

/*! Healed: what \a oldLeaseId held is held again under \a newLeaseId. */
EtcdLeaseEvent EtcdLeaseEvent::restored(qint64 oldLeaseId, qint64 newLeaseId)
{
    return EtcdLeaseEvent {Type::Restored, oldLeaseId, newLeaseId, {}};
}

/*! Healing of \a leaseId stopped for good (\a cause): gave up, or ownership was taken. */
EtcdLeaseEvent EtcdLeaseEvent::failed(qint64 leaseId, const EtcdStatus &cause)
{
    return EtcdLeaseEvent {Type::Failed, leaseId, -1, cause};
}

/*! Returns the type in lower case ("suspended", "expired", "restored", "failed"). */
QString EtcdLeaseEvent::typeName() const
{
    switch (type) {
    case Type::Suspended:
        return QStringLiteral("suspended");
    case Type::Expired:
        return QStringLiteral("expired");
    case Type::Restored:
        return QStringLiteral("restored");
    case Type::Failed:
        return QStringLiteral("failed");
    }
    return {};
}

QDebug operator<<(QDebug debug, const EtcdLeaseEvent &event)
{
    QDebugStateSaver saver(debug);
    debug.nospace() << "EtcdLeaseEvent(" << event.typeName() << ", " << event.leaseId;
    if (event.type == EtcdLeaseEvent::Type::Restored)
        debug << " -> " << event.newLeaseId;
    else if (!event.cause.isOk())
        debug << ", " << event.cause;
    return debug << ')';
}

/*!
    \enum EtcdLeaseEvent::Type
    \value Suspended renewals stopped getting through; the lease may still be alive
    \value Expired the lease is gone
    \value Restored what the lease held is held again under a new lease
    \value Failed healing stopped for good, or the ownership was taken meanwhile
*/

/*!
    \variable EtcdLeaseEvent::type
    \brief what happened.
*/

/*!
    \variable EtcdLeaseEvent::leaseId
    \brief the lease the event is about (for Restored: the old lease).
*/

/*!
    \variable EtcdLeaseEvent::newLeaseId
    \brief the new lease of a Restored event; -1 otherwise.
*/

/*!
    \variable EtcdLeaseEvent::cause
    \brief why it happened (empty for Restored).
*/

/*!
    \property EtcdLeaseEvent::type
    \brief what happened, for QML; the member of the same name.
*/

/*!
    \property EtcdLeaseEvent::leaseId
    \brief the lease concerned, for QML; the member of the same name.
*/

/*!
    \property EtcdLeaseEvent::newLeaseId
    \brief the new lease of a Restored event, for QML; the member of the same name.
*/

/*!
    \property EtcdLeaseEvent::cause
    \brief why it happened, for QML; the member of the same name.
*/

/*!
    \fn bool EtcdLeaseEvent::operator==(const EtcdLeaseEvent &, const EtcdLeaseEvent &)
    Returns \c true if both events are equal in every member.
*/

/*!
    \fn QDebug operator<<(QDebug debug, const EtcdLeaseEvent &event)
    \relates EtcdLeaseEvent
    Writes \a event to \a debug and returns \a debug.
*/
