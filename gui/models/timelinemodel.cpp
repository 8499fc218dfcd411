// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "timelinemodel.h"

#include "modelstyle.h"
#include "recipetext.h"

#include <algorithm>

namespace Inspector {

namespace {
QByteArray identity(const HandOff &h)
{
    return h.election + '\0' + QByteArray::number(h.revision);
}

bool byRevision(const HandOff &a, const HandOff &b)
{
    return a.revision < b.revision;
}
} // namespace

TimelineModel::TimelineModel(QObject *parent)
    : QAbstractTableModel(parent), m_now(&QDateTime::currentDateTime)
{ }

void TimelineModel::append(const QList<HandOff> &handOffs)
{
    QList<HandOff> fresh;
    for (const HandOff &h : handOffs) {
        if (!m_seen.contains(identity(h))) {
            m_seen.insert(identity(h));
            fresh.append(h);
        }
    }
    std::stable_sort(fresh.begin(), fresh.end(), byRevision);
    // Each run of the batch that falls between the same two existing rows is one insertion.
    for (qsizetype i = 0; i < fresh.size();) {
        const qsizetype at
            = std::upper_bound(m_rows.cbegin(), m_rows.cend(), fresh.at(i), byRevision)
            - m_rows.cbegin();
        qsizetype end = i + 1;
        while (end < fresh.size()
            && (at == m_rows.size() || m_rows.at(at).revision > fresh.at(end).revision))
            ++end;
        insertRun(at, fresh.sliced(i, end - i));
        i = end;
    }
    if (!fresh.isEmpty())
        refreshFlapping();
}

void TimelineModel::insertRun(qsizetype at, const QList<HandOff> &run)
{
    beginInsertRows({}, int(at), int(at + run.size() - 1));
    m_rows.insert(at, run.size(), HandOff());
    std::copy(run.cbegin(), run.cend(), m_rows.begin() + at);
    for (const HandOff &h : run)
        ++m_counts[h.election];
    endInsertRows();
}

void TimelineModel::setClock(std::function<QDateTime()> now)
{
    m_now = now ? std::move(now) : std::function<QDateTime()>(&QDateTime::currentDateTime);
    refreshFlapping();
}

void TimelineModel::refreshFlapping()
{
    const QList<QByteArray> now = flappingElections(m_now());
    const QSet<QByteArray> next(now.cbegin(), now.cend());
    if (next == m_flapping)
        return;
    m_flapping = next;
    if (!m_rows.isEmpty())
        Q_EMIT dataChanged(
            index(0, 0), index(rowCount() - 1, ColumnCount - 1), {Qt::BackgroundRole});
    Q_EMIT flappingChanged(now);
}

QList<QByteArray> TimelineModel::flappingElections(const QDateTime &now) const
{
    const QDateTime since = now.addSecs(-kFlappingWindowSecs);
    QHash<QByteArray, int> recent;
    for (const HandOff &h : m_rows) {
        if (h.time >= since && h.time <= now)
            ++recent[h.election];
    }
    QList<QByteArray> flapping;
    for (auto it = recent.cbegin(); it != recent.cend(); ++it) {
        if (it.value() >= kFlappingHandOffs)
            flapping.append(it.key());
    }
    std::sort(flapping.begin(), flapping.end());
    return flapping;
}

QList<QByteArray> TimelineModel::flapping() const
{
    QList<QByteArray> elections(m_flapping.cbegin(), m_flapping.cend());
    std::sort(elections.begin(), elections.end());
    return elections;
}

int TimelineModel::handOffCount(const QByteArray &election) const
{
    return m_counts.value(election);
}

int TimelineModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int TimelineModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant TimelineModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const HandOff &h = m_rows.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        switch (Column(index.column())) {
        case TimeColumn:
            // Today's hand-offs by their time alone; older ones with the day (the tooltip
            // and the log keep the full date).
            return h.time.toString(h.time.date() == QDate::currentDate()
                    ? QStringLiteral("hh:mm:ss")
                    : QStringLiteral("MM-dd hh:mm:ss"));
        case ElectionColumn:
            return QString::fromUtf8(h.election);
        case FromColumn:
            return h.from.isEmpty() ? tr("nobody") : h.from;
        case ToColumn:
            return h.to.isEmpty() ? tr("nobody") : h.to;
        case TermColumn:
            return h.termToken != 0 ? QVariant(h.termToken) : QVariant(RecipeText::none());
        case RevisionColumn:
            return h.revision;
        case SourceColumn:
            return h.backfilled ? tr("history") : tr("live");
        case ColumnCount:
            break;
        }
        return {};
    case Qt::BackgroundRole:
        return m_flapping.contains(h.election) ? ModelStyle::highlight() : QVariant();
    case Qt::ForegroundRole:
        return h.backfilled ? ModelStyle::muted() : QVariant();
    case Qt::FontRole:
        return h.backfilled ? ModelStyle::italic() : QVariant();
    case Qt::ToolTipRole:
        if (!m_flapping.contains(h.election))
            return {};
        // One arg() for both: a path holding "%2" must not take the count's place.
        return ModelStyle::plainToolTip(
            tr("%1 changed leader %2 or more times in 15 minutes")
                .arg(QString::fromUtf8(h.election), QString::number(kFlappingHandOffs)));
    case PathRole:
        return h.election;
    case RevisionRole:
        return h.revision;
    case BackfilledRole:
        return h.backfilled;
    default:
        return {};
    }
}

QVariant TimelineModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (Column(section)) {
    case TimeColumn:
        return tr("Time");
    case ElectionColumn:
        return tr("Election");
    case FromColumn:
        return tr("From");
    case ToColumn:
        return tr("To");
    case TermColumn:
        return tr("Term token");
    case RevisionColumn:
        return tr("Revision");
    case SourceColumn:
        return tr("Source");
    case ColumnCount:
        break;
    }
    return {};
}

} // namespace Inspector
