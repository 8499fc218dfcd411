// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdstatus.h>

#include <QtCore/qobject.h>

class ETCDQT_EXPORT EtcdLeaseEvent
{
    Q_GADGET
    Q_PROPERTY(Type type MEMBER type)
    Q_PROPERTY(qint64 leaseId MEMBER leaseId)
    Q_PROPERTY(qint64 newLeaseId MEMBER newLeaseId)
    Q_PROPERTY(EtcdStatus cause MEMBER cause)
public:
    enum class Type { Suspended, Expired, Restored, Failed };
    Q_ENUM(Type)

    static EtcdLeaseEvent suspended(qint64 leaseId, const EtcdStatus &cause);
    static EtcdLeaseEvent expired(qint64 leaseId, const EtcdStatus &cause);
    static EtcdLeaseEvent restored(qint64 oldLeaseId, qint64 newLeaseId);
    static EtcdLeaseEvent failed(qint64 leaseId, const EtcdStatus &cause);

    [[nodiscard]] QString typeName() const;

    Type type = Type::Suspended;
    qint64 leaseId = -1; // the lease the event is about (Restored: the old one)
    qint64 newLeaseId = -1; // Restored only
    EtcdStatus cause;

    friend bool operator==(const EtcdLeaseEvent &, const EtcdLeaseEvent &) = default;
};

ETCDQT_EXPORT QDebug operator<<(QDebug debug, const EtcdLeaseEvent &event);

Q_DECLARE_METATYPE(EtcdLeaseEvent)
