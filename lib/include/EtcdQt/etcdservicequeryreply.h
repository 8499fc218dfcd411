// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdreply.h>
#include <EtcdQt/etcdserviceinstance.h>

#include <QtCore/qlist.h>
#include <QtCore/qstringlist.h>

// The answer of a one-shot read of the service registry: the names of the services, or the
// instances of one, as etcd held them at revision().
class ETCDQT_EXPORT EtcdServiceQueryReply final : public EtcdReply
{
    Q_OBJECT

public:
    explicit EtcdServiceQueryReply(QObject *parent = nullptr);

    [[nodiscard]] QStringList names() const;
    [[nodiscard]] QList<EtcdServiceInstance> instances() const;
    [[nodiscard]] qint64 revision() const;
    // Instances whose JSON did not parse: left out of instances(), named here by key.
    [[nodiscard]] QList<QByteArray> undecodableKeys() const;

private:
    friend struct EtcdServiceQueryReplyAccess;
    QStringList m_names;
    QList<EtcdServiceInstance> m_instances;
    QList<QByteArray> m_undecodable;
    qint64 m_revision = 0;
};
