// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "eventlogmodel.h"

#include "modelstyle.h"

#include <algorithm>

namespace Inspector {

EventLogModel::EventLogModel(QObject *parent) : QAbstractTableModel(parent) { }

void EventLogModel::append(const QList<RecipeEvent> &events)
{
    // A batch larger than the cap would only be dropped again: keep its newest part.
    const qsizetype incoming = std::min<qsizetype>(events.size(), m_cap);
    if (incoming == 0)
        return;
    dropOldest(m_rows.size() + incoming - m_cap);
    const qsizetype first = m_rows.size();
    beginInsertRows({}, int(first), int(first + incoming - 1));
    m_rows.reserve(first + incoming);
    for (qsizetype i = events.size() - incoming; i < events.size(); ++i) {
        const RecipeEvent &e = events.at(i);
        const QString search = QString::fromUtf8(e.path) + u'\n' + e.actor + u'\n' + e.text;
        m_rows.append({e, search.toCaseFolded()});
    }
    endInsertRows();
}

void EventLogModel::setCap(int cap)
{
    m_cap = std::max(cap, 1);
    dropOldest(m_rows.size() - m_cap);
}

void EventLogModel::dropOldest(qsizetype count)
{
    if (count <= 0)
        return;
    beginRemoveRows({}, 0, int(count - 1));
    m_rows.remove(0, count); // QList drops from the front without moving the rest
    endRemoveRows();
}

int EventLogModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int EventLogModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant EventLogModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &row = m_rows.at(index.row());
    const RecipeEvent &e = row.event;
    const bool alarm
        = e.type == RecipeEvent::Type::Anomaly || e.type == RecipeEvent::Type::Flapping;
    switch (role) {
    case Qt::DisplayRole:
        switch (Column(index.column())) {
        case TimeColumn:
            return e.time.toString(QStringLiteral("hh:mm:ss.zzz"));
        case RevisionColumn:
            return e.revision;
        case EventColumn:
            return typeName(e.type);
        case RecipeColumn:
            return QString::fromUtf8(e.path);
        case ActorColumn:
            return e.actor;
        case DetailsColumn:
            return e.text;
        case ColumnCount:
            break;
        }
        return {};
    case Qt::ToolTipRole:
        return ModelStyle::plainToolTip(e.text);
    case Qt::ForegroundRole:
        if (alarm)
            return ModelStyle::anomaly();
        return e.backfilled ? ModelStyle::muted() : QVariant();
    case Qt::FontRole:
        return e.backfilled ? ModelStyle::italic() : QVariant();
    case TypeRole:
        return int(e.type);
    case KindRole:
        return int(e.kind);
    case PathRole:
        return e.path;
    case BackfilledRole:
        return e.backfilled;
    case RevisionRole:
        return e.revision;
    case SearchTextRole:
        return row.searchText;
    default:
        return {};
    }
}

QVariant EventLogModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (Column(section)) {
    case TimeColumn:
        return tr("Time");
    case RevisionColumn:
        return tr("Revision");
    case EventColumn:
        return tr("Event");
    case RecipeColumn:
        return tr("Recipe");
    case ActorColumn:
        return tr("Actor");
    case DetailsColumn:
        return tr("Details");
    case ColumnCount:
        break;
    }
    return {};
}

} // namespace Inspector
