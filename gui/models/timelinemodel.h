// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// Leadership hand-offs of every election, by revision. History replayed after the live watch
// started arrives older than rows already shown, so rows are inserted where they belong, and
// a hand-off seen both live and in history is shown once. Elections that flap (the
// etcd-mixin rule: 4 or more leader changes in 15 minutes) are highlighted.
#pragma once

#include "modelroles.h"
#include "recipeevent.h"

#include <QtCore/qabstractitemmodel.h>
#include <QtCore/qhash.h>
#include <QtCore/qset.h>

#include <functional>

namespace Inspector {

class TimelineModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        TimeColumn,
        ElectionColumn,
        FromColumn,
        ToColumn,
        TermColumn,
        RevisionColumn,
        SourceColumn, // live or history
        ColumnCount
    };
    static constexpr int kFlappingHandOffs = 4;
    static constexpr qint64 kFlappingWindowSecs = 15 * 60;

    explicit TimelineModel(QObject *parent = nullptr);

    void append(const QList<HandOff> &handOffs);
    // The wall clock the highlight is judged by (HandOff::time is wall time); default: now.
    void setClock(std::function<QDateTime()> now);
    void refreshFlapping(); // judge the window again: highlights fade 15 minutes on

    [[nodiscard]] QList<QByteArray> flappingElections(const QDateTime &now) const; // sorted
    [[nodiscard]] QList<QByteArray> flapping() const; // as of the last append or refresh
    [[nodiscard]] int handOffCount(const QByteArray &election) const;
    [[nodiscard]] const HandOff &handOffAt(int row) const { return m_rows.at(row); }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(
        int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

Q_SIGNALS:
    void flappingChanged(const QList<QByteArray> &elections);

private:
    void insertRun(qsizetype at, const QList<HandOff> &run);

    QList<HandOff> m_rows; // by revision; equal revisions in arrival order
    QHash<QByteArray, int> m_counts; // hand-offs per election
    QSet<QByteArray> m_seen; // election + revision: one hand-off, seen live or replayed
    QSet<QByteArray> m_flapping;
    std::function<QDateTime()> m_now;
};

} // namespace Inspector
