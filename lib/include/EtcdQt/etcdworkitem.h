// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdfencing.h>

#include <QtCore/qbytearray.h>
#include <QtCore/qlist.h>
#include <QtCore/qmetatype.h>

// One delivery of a work-queue item to one consumer: its id (the name it keeps through every
// area of the queue), its value, which delivery this is (1 for the first), and the claim that
// proves the delivery is still this consumer's: the key "<q>/claims/<id>", the consumer's lease
// and the claim's create revision, which a later delivery of the same item never shares.
struct ETCDQT_EXPORT EtcdWorkItem
{
    Q_GADGET
    Q_PROPERTY(QByteArray id MEMBER id)
    Q_PROPERTY(QByteArray value MEMBER value)
    Q_PROPERTY(int attempt MEMBER attempt)
    Q_PROPERTY(EtcdFencingToken claim MEMBER claim)
    Q_PROPERTY(bool valid READ isValid)
public:
    QByteArray id {};
    QByteArray value {};
    int attempt = 0;
    EtcdFencingToken claim {};
    [[nodiscard]] bool isValid() const noexcept { return !id.isEmpty() && claim.isValid(); }
};

// An item moved to the dead-letter queue after too many deliveries.
struct ETCDQT_EXPORT EtcdDeadLetter
{
    Q_GADGET
    Q_PROPERTY(QByteArray id MEMBER id)
    Q_PROPERTY(QByteArray value MEMBER value)
    Q_PROPERTY(int attempts MEMBER attempts)
public:
    QByteArray id {};
    QByteArray value {};
    int attempts = 0;
};

Q_DECLARE_METATYPE(EtcdWorkItem)
Q_DECLARE_METATYPE(EtcdDeadLetter)
