// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

// Value types QML reads from the recipe types: typed (so qmllint checks their use), with
// lease ids as decimal strings because they use more bits than a JS number holds.

#include <QtCore/qobject.h>
#include <QtCore/qstring.h>
#include <QtQml/qqml.h>

class EtcdLeaseEvent;
struct EtcdFencingToken;

// EtcdFencingToken: the key, lease and create revision of one ownership (lock, leadership).
class EtcdQmlFencingToken
{
    Q_GADGET
    QML_VALUE_TYPE(fencingToken)
    Q_PROPERTY(QString key MEMBER key)
    Q_PROPERTY(QString leaseId MEMBER leaseId)
    Q_PROPERTY(double revision MEMBER revision)
    Q_PROPERTY(bool valid READ isValid)
public:
    EtcdQmlFencingToken() = default;
    explicit EtcdQmlFencingToken(const EtcdFencingToken &token);

    [[nodiscard]] bool isValid() const { return revision > 0; }

    QString key;
    QString leaseId; // decimal; empty: none
    double revision = 0; // the create revision (exact up to 2^53); 0: no ownership

    friend bool operator==(const EtcdQmlFencingToken &, const EtcdQmlFencingToken &) = default;
};

// EtcdLeaseEvent: type is a LeaseEvent value (Suspended, Expired, Restored, Failed).
class EtcdQmlLeaseEvent
{
    Q_GADGET
    QML_VALUE_TYPE(etcdLeaseEvent)
    Q_PROPERTY(int type MEMBER type)
    Q_PROPERTY(QString typeName MEMBER typeName)
    Q_PROPERTY(QString leaseId MEMBER leaseId)
    Q_PROPERTY(QString newLeaseId MEMBER newLeaseId)
    Q_PROPERTY(int code MEMBER code)
    Q_PROPERTY(QString message MEMBER message)
public:
    EtcdQmlLeaseEvent() = default;
    explicit EtcdQmlLeaseEvent(const EtcdLeaseEvent &event);

    int type = 0;
    QString typeName;
    QString leaseId; // the lease the event is about (Restored: the old one)
    QString newLeaseId; // Restored only
    int code = 0; // the cause's Etcd::ErrorCode
    QString message; // the cause in words
};
