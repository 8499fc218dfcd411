// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include <EtcdQt/etcdstatus.h>

#include <QtCore/qdebug.h>
#include <QtCore/qmetaobject.h>

/*!
    \class EtcdStatus
    \inmodule EtcdQt
    \brief The outcome of an etcd request or recipe step: an Etcd::ErrorCode and a message.

    Codes 0 to 16 are gRPC's status codes; 100 and up name etcd conditions that recipes act on
    (a lease that is gone, a compacted revision); 200 and up are the client's own. etcd's
    messages are kept as they came; isOk() is true only for Etcd::ErrorCode::Ok.
*/

/*!
    \enum Etcd::ErrorCode
    \value Ok success
    \value Cancelled the request was cancelled (abort, disconnect, client destroyed)
    \value Unknown an error without a more specific code
    \value InvalidArgument bad input, rejected by the client or by etcd
    \value DeadlineExceeded the deadline passed before etcd answered
    \value NotFound not found
    \value AlreadyExists already exists
    \value PermissionDenied the authenticated user may not do this
    \value ResourceExhausted a server or client limit was hit
    \value FailedPrecondition the system is not in a state to do this
    \value Aborted aborted
    \value OutOfRange out of range
    \value Unimplemented the server does not offer this call
    \value Internal an internal server error
    \value Unavailable no endpoint could be reached
    \value DataLoss data loss
    \value Unauthenticated missing or bad credentials
    \value LeaseNotFound etcd has no such lease (expired or revoked)
    \value LeaseExpired a lease ran out without renewal
    \value Compacted the revision asked for has been compacted
    \value RequestTooLarge the request exceeds etcd's --max-request-bytes
    \value InvalidAuthToken the auth token expired or is unknown
    \value NoLeader the cluster has no raft leader right now
    \value FutureRevision the revision asked for does not exist yet
    \value NotConnected the client is disconnected
    \value TlsError the TLS handshake or certificate check failed
    \value WrongThread the call was made from a thread that does not own the object
*/

/*! Constructs a status with \a code and \a message. */
EtcdStatus::EtcdStatus(Etcd::ErrorCode code, const QString &message)
    : m_code(code), m_message(message)
{ }

/*! Returns "Code: message" (or just "Ok"), for logs. */
QString EtcdStatus::toString() const
{
    const char *name = QMetaEnum::fromType<Etcd::ErrorCode>().valueToKey(int(m_code));
    QString out = name ? QString::fromLatin1(name) : QString::number(int(m_code));
    if (!m_message.isEmpty())
        out += QLatin1String(": ") + m_message;
    return out;
}

QDebug operator<<(QDebug debug, const EtcdStatus &status)
{
    QDebugStateSaver saver(debug);
    debug.nospace().noquote() << "EtcdStatus(" << status.toString() << ')';
    return debug;
}

/*!
    \fn EtcdStatus::EtcdStatus()
    Constructs a status of Etcd::ErrorCode::Ok with no message.
*/

/*!
    \fn Etcd::ErrorCode EtcdStatus::code() const
    Returns the error code; Etcd::ErrorCode::Ok on success.
*/

/*!
    \fn QString EtcdStatus::message() const
    Returns the message that came with the code (etcd's own text where etcd answered).
*/

/*!
    \fn bool EtcdStatus::isOk() const
    Returns \c true if the code is Etcd::ErrorCode::Ok.
*/

/*!
    \property EtcdStatus::code
    \brief the error code, for QML and QMetaType users; see code().
*/

/*!
    \property EtcdStatus::message
    \brief the message that came with the code; see message().
*/

/*!
    \property EtcdStatus::ok
    \brief whether the code is Etcd::ErrorCode::Ok; see isOk().
*/

/*!
    \fn bool EtcdStatus::operator==(const EtcdStatus &a, const EtcdStatus &b)
    Returns \c true if \a a and \a b have the same code and the same message.
*/

/*!
    \fn bool EtcdStatus::operator==(const EtcdStatus &s, Etcd::ErrorCode code)
    Returns \c true if the code of \a s is \a code, whatever its message.
*/

/*!
    \fn QDebug operator<<(QDebug debug, const EtcdStatus &status)
    \relates EtcdStatus
    Writes \a status to \a debug as toString() does, and returns \a debug.
*/

/*!
    \enum Etcd::SortOrder
    The order of the keys a range read returns.
    \value None etcd's own order (by key)
    \value Ascending ascending by the EtcdRangeOptions::sortTarget
    \value Descending descending by the EtcdRangeOptions::sortTarget
*/

/*!
    \enum Etcd::SortTarget
    What a sorted range read sorts by.
    \value Key the key bytes
    \value Version the key's version
    \value CreateRevision the revision that created the key
    \value ModRevision the revision of the key's last change
    \value Value the value bytes
*/

/*!
    \enum Etcd::CompareResult
    How an EtcdCompare compares the key's field with the given operand.
    \value Equal the field equals the operand
    \value Greater the field is greater than the operand
    \value Less the field is less than the operand
    \value NotEqual the field differs from the operand
*/

/*!
    \enum Etcd::CompareTarget
    Which field of a key an EtcdCompare looks at.
    \value Version the key's version (0 while the key does not exist)
    \value CreateRevision the revision that created the key
    \value ModRevision the revision of the key's last change
    \value Value the value bytes
    \value Lease the id of the lease the key is attached to (0: none)
*/

/*!
    \enum Etcd::CompactionMode
    How EtcdClient::compact() waits.
    \value Logical etcd answers once the compaction is recorded; old revisions become
           unreadable at once and are freed in the background
    \value Physical etcd answers once the old revisions are removed from its backend
*/

/*!
    \enum Etcd::LeaseKeys
    Whether a lease's time-to-live read lists the keys attached to the lease.
    \value Omit only the TTLs
    \value Include the TTLs and the attached keys
*/
