// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdqtglobal.h>

#include <QtCore/qmetatype.h>
#include <QtCore/qstring.h>

// One candidate registered in an election, and whether it held LEADER when read.
struct ETCDQT_EXPORT EtcdParticipant
{
    Q_GADGET
    Q_PROPERTY(QString clientId MEMBER clientId)
    Q_PROPERTY(bool isLeader MEMBER isLeader)
public:
    QString clientId {};
    bool isLeader = false;

    friend bool operator==(const EtcdParticipant &a, const EtcdParticipant &b) noexcept
    {
        return a.clientId == b.clientId && a.isLeader == b.isLeader;
    }
};
