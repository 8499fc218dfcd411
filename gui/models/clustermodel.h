// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// The cluster view's rows: one per member, in the member list's order, with its raft role,
// health, database size, raft index and term, version, alarms and URLs. The member the
// inspector is connected to is marked; a member that is down keeps the figures last seen.
#pragma once

#include "clusterpoller.h"

#include <QtCore/qabstractitemmodel.h>

namespace Inspector {

class ClusterModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        NameColumn,
        RoleColumn, // leader, follower or learner; "connected" for the session's member
        HealthColumn,
        DbSizeColumn,
        RaftIndexColumn,
        RaftTermColumn,
        VersionColumn,
        AlarmsColumn,
        ClientUrlsColumn,
        PeerUrlsColumn,
        IdColumn,
        ColumnCount
    };

    explicit ClusterModel(QObject *parent = nullptr);

    void setMembers(const QList<MemberHealth> &members);
    [[nodiscard]] const QList<MemberHealth> &members() const { return m_rows; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(
        int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    static QString sizeText(qint64 bytes);

private:
    [[nodiscard]] QString text(const MemberHealth &m, int column) const;
    [[nodiscard]] QString roleText(const MemberHealth &m) const;

    QList<MemberHealth> m_rows;
};

} // namespace Inspector
