// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdqtglobal.h>

#include <QtCore/qbytearray.h>
#include <QtCore/qlist.h>
#include <QtCore/qmetatype.h>
#include <QtCore/qstringlist.h>

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

struct ETCDQT_EXPORT EtcdServerStatus
{
    Q_GADGET
    Q_PROPERTY(QString version MEMBER version)
    Q_PROPERTY(qint64 dbSize MEMBER dbSize)
    Q_PROPERTY(quint64 memberId MEMBER memberId)
    Q_PROPERTY(quint64 leaderId MEMBER leaderId)
    Q_PROPERTY(quint64 raftIndex MEMBER raftIndex)
    Q_PROPERTY(quint64 raftTerm MEMBER raftTerm)
public:
    QString version;
    qint64 dbSize = 0;
    quint64 memberId = 0;
    quint64 leaderId = 0;
    quint64 raftIndex = 0;
    quint64 raftTerm = 0;

    [[nodiscard]] bool isLeader() const noexcept { return memberId != 0 && memberId == leaderId; }
};

/*
 * Options of a range (get) request. An empty rangeEnd with prefix == false reads one key.
 */
struct EtcdRangeOptions
{
    bool prefix = false;
    QByteArray rangeEnd {};
    qint64 limit = 0;
    qint64 revision = 0;
    Etcd::SortOrder sortOrder = Etcd::SortOrder::None;
    Etcd::SortTarget sortTarget = Etcd::SortTarget::Key;
    bool keysOnly = false;
    bool countOnly = false;
    bool serializable = false;
};

struct EtcdPutOptions
{
    qint64 lease = 0;
    bool prevKv = false;
};

struct EtcdDeleteOptions
{
    bool prefix = false;
    QByteArray rangeEnd {};
    bool prevKv = false;
};

ETCDQT_EXPORT QDebug operator<<(QDebug debug, const EtcdKeyValue &kv);
