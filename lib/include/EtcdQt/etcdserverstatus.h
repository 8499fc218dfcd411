// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdqtglobal.h>

#include <QtCore/qmetatype.h>
#include <QtCore/qstring.h>
#include <QtCore/qstringlist.h>

struct ETCDQT_EXPORT EtcdServerStatus
{
    Q_GADGET
    Q_PROPERTY(QString version MEMBER version)
    Q_PROPERTY(qint64 dbSize MEMBER dbSize)
    Q_PROPERTY(quint64 memberId MEMBER memberId)
    Q_PROPERTY(quint64 leaderId MEMBER leaderId)
    Q_PROPERTY(quint64 raftIndex MEMBER raftIndex)
    Q_PROPERTY(quint64 raftTerm MEMBER raftTerm)
    Q_PROPERTY(QStringList errors MEMBER errors)
public:
    QString version;
    qint64 dbSize = 0;
    quint64 memberId = 0;
    quint64 leaderId = 0;
    quint64 raftIndex = 0;
    quint64 raftTerm = 0;
    QStringList errors; // the member's alarms and health problems, as etcd words them

    [[nodiscard]] bool isLeader() const noexcept { return memberId != 0 && memberId == leaderId; }
};
