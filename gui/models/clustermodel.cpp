// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "clustermodel.h"

#include "modelstyle.h"

#include <QtCore/qlocale.h>

namespace Inspector {

ClusterModel::ClusterModel(QObject *parent) : QAbstractTableModel(parent) { }

// Members come and go rarely and are few: the same members in the same order change their
// cells in place (selection and scrolling stay); anything else resets.
void ClusterModel::setMembers(const QList<MemberHealth> &members)
{
    const bool same = members.size() == m_rows.size()
        && std::equal(members.cbegin(), members.cend(), m_rows.cbegin(),
            [](const MemberHealth &a, const MemberHealth &b) {
                return a.member.id == b.member.id;
            });
    if (!same) {
        beginResetModel();
        m_rows = members;
        endResetModel();
        return;
    }
    m_rows = members;
    if (!m_rows.isEmpty())
        Q_EMIT dataChanged(index(0, 0), index(int(m_rows.size()) - 1, ColumnCount - 1));
}

int ClusterModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int ClusterModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString ClusterModel::sizeText(qint64 bytes)
{
    return QLocale().formattedDataSize(bytes, 1, QLocale::DataSizeTraditionalFormat);
}

QString ClusterModel::roleText(const MemberHealth &m) const
{
    QString role = m.member.learner ? tr("learner") : m.leader ? tr("leader") : tr("follower");
    if (m.connected)
        role = tr("%1, connected").arg(role);
    return role;
}

QString ClusterModel::text(const MemberHealth &m, int column) const
{
    const bool seen = m.status.memberId != 0; // answered at least once
    switch (column) {
    case NameColumn:
        return m.member.name.isEmpty() ? tr("(not started)") : m.member.name;
    case RoleColumn:
        return roleText(m);
    case HealthColumn:
        return ClusterPoller::stateText(m.state);
    case DbSizeColumn:
        return seen ? sizeText(m.status.dbSize) : QString();
    case RaftIndexColumn:
        return seen ? QString::number(m.status.raftIndex) : QString();
    case RaftTermColumn:
        return seen ? QString::number(m.status.raftTerm) : QString();
    case VersionColumn:
        return m.status.version;
    case AlarmsColumn:
        return m.status.errors.join(QStringLiteral("; "));
    case ClientUrlsColumn:
        return m.member.clientUrls.join(QStringLiteral(", "));
    case PeerUrlsColumn:
        return m.member.peerUrls.join(QStringLiteral(", "));
    case IdColumn:
        return QString::number(m.member.id, 16);
    }
    return {};
}

QVariant ClusterModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows.size())
        return {};
    const MemberHealth &m = m_rows.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        return text(m, index.column());
    case Qt::ToolTipRole:
        if (index.column() == HealthColumn && m.state == MemberHealth::State::Down)
            return ModelStyle::plainToolTip(m.error);
        return ModelStyle::plainToolTip(text(m, index.column()));
    case Qt::FontRole:
        return m.leader || m.connected ? ModelStyle::bold() : QVariant();
    case Qt::ForegroundRole:
        if (m.state == MemberHealth::State::Down || m.state == MemberHealth::State::Alarmed)
            return ModelStyle::anomaly();
        return m.state == MemberHealth::State::Unknown ? ModelStyle::muted() : QVariant();
    case Qt::TextAlignmentRole:
        if (index.column() >= DbSizeColumn && index.column() <= RaftTermColumn)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    default:
        return {};
    }
}

QVariant ClusterModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("Member");
    case RoleColumn:
        return tr("Role");
    case HealthColumn:
        return tr("Health");
    case DbSizeColumn:
        return tr("DB size");
    case RaftIndexColumn:
        return tr("Raft index");
    case RaftTermColumn:
        return tr("Raft term");
    case VersionColumn:
        return tr("Version");
    case AlarmsColumn:
        return tr("Alarms");
    case ClientUrlsColumn:
        return tr("Client URLs");
    case PeerUrlsColumn:
        return tr("Peer URLs");
    case IdColumn:
        return tr("ID");
    }
    return {};
}

} // namespace Inspector
