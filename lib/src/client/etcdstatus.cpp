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
