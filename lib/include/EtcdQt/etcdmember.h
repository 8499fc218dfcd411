// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdqtglobal.h>

#include <QtCore/qmetatype.h>
#include <QtCore/qstring.h>
#include <QtCore/qstringlist.h>

struct ETCDQT_EXPORT EtcdMember
{
    Q_GADGET
    Q_PROPERTY(quint64 id MEMBER id)
    Q_PROPERTY(QString name MEMBER name)
    Q_PROPERTY(QStringList peerUrls MEMBER peerUrls)
    Q_PROPERTY(QStringList clientUrls MEMBER clientUrls)
    Q_PROPERTY(bool learner MEMBER learner)
public:
    quint64 id = 0;
    QString name;
    QStringList peerUrls;
    QStringList clientUrls;
    bool learner = false;

    friend bool operator==(const EtcdMember &, const EtcdMember &) = default;
};
