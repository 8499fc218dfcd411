// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdstatus.h>

#include <QtCore/qabstractitemmodel.h>
#include <QtCore/qbytearray.h>
#include <QtCore/qstring.h>

#include <memory>

class EtcdClient;
class EtcdParticipantsModelPrivate;

// The candidates of one election, kept live by a watch: a model for views and dashboards.
class ETCDQT_EXPORT EtcdParticipantsModel : public QAbstractListModel
{
    Q_OBJECT
    Q_PROPERTY(QString leader READ leader NOTIFY leaderChanged)
    Q_PROPERTY(int count READ rowCount NOTIFY countChanged)
public:
    enum Role { ClientIdRole = Qt::UserRole + 1, IsLeaderRole };
    Q_ENUM(Role)

    EtcdParticipantsModel(
        EtcdClient *client, const QByteArray &electionPath, QObject *parent = nullptr);
    ~EtcdParticipantsModel() override;

    [[nodiscard]] QString leader() const;
    [[nodiscard]] int rowCount(const QModelIndex &parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex &index, int role) const override;
    [[nodiscard]] QHash<int, QByteArray> roleNames() const override;

public Q_SLOTS:
    void start();

Q_SIGNALS:
    void started();
    void leaderChanged(const QString &leaderId);
    void countChanged();
    void failed(const EtcdStatus &reason);

private:
    Q_DECLARE_PRIVATE(EtcdParticipantsModel)
    std::unique_ptr<EtcdParticipantsModelPrivate> const d_ptr;
};
