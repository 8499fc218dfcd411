// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdparticipant.h>
#include <EtcdQt/etcdreply.h>

#include <QtCore/qbytearray.h>
#include <QtCore/qlist.h>
#include <QtCore/qstring.h>

class EtcdClient;

class ETCDQT_EXPORT EtcdParticipantsReply final : public EtcdReply
{
    Q_OBJECT
public:
    explicit EtcdParticipantsReply(QObject *parent = nullptr);
    [[nodiscard]] QList<EtcdParticipant> participants() const;
    [[nodiscard]] QString leader() const;

private:
    friend struct EtcdParticipantsReplyAccess;
    QList<EtcdParticipant> m_participants;
    QString m_leader;
};

namespace Etcd {
ETCDQT_EXPORT EtcdParticipantsReply *electionParticipants(
    EtcdClient *client, const QByteArray &electionPath);
}
