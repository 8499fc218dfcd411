// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdqtglobal.h>

#include <QtCore/qbytearray.h>
#include <QtCore/qmetatype.h>

class QDebug;

struct ETCDQT_EXPORT EtcdKeyValue
{
    Q_GADGET
    Q_PROPERTY(QByteArray key MEMBER key)
    Q_PROPERTY(QByteArray value MEMBER value)
    Q_PROPERTY(qint64 createRevision MEMBER createRevision)
    Q_PROPERTY(qint64 modRevision MEMBER modRevision)
    Q_PROPERTY(qint64 version MEMBER version)
    Q_PROPERTY(qint64 lease MEMBER lease)
public:
    QByteArray key;
    QByteArray value;
    qint64 createRevision = 0;
    qint64 modRevision = 0;
    qint64 version = 0;
    qint64 lease = 0;

    friend bool operator==(const EtcdKeyValue &, const EtcdKeyValue &) = default;
};

ETCDQT_EXPORT QDebug operator<<(QDebug debug, const EtcdKeyValue &kv);

// Kept for the includes written when these types shared this header.
#include <EtcdQt/etcddeleteoptions.h>
#include <EtcdQt/etcdmember.h>
#include <EtcdQt/etcdputoptions.h>
#include <EtcdQt/etcdrangeoptions.h>
#include <EtcdQt/etcdserverstatus.h>

#include <QtCore/qlist.h>
#include <QtCore/qstringlist.h>
