// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// The recipe-level event log ("reporter-1 acquired /locks/db, token 1234"): append-only, and
// capped so a long session's memory stays bounded; the oldest rows go first.
#pragma once

#include "modelroles.h"
#include "recipeevent.h"

#include <QtCore/qabstractitemmodel.h>

namespace Inspector {

class EventLogModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        TimeColumn,
        RevisionColumn,
        EventColumn,
        RecipeColumn,
        ActorColumn,
        DetailsColumn,
        ColumnCount
    };
    static constexpr int kDefaultCap = 10'000;

    explicit EventLogModel(QObject *parent = nullptr);

    void append(const QList<RecipeEvent> &events);
    void setCap(int cap); // at least 1; drops the oldest rows beyond it at once
    [[nodiscard]] int cap() const { return m_cap; }
    [[nodiscard]] const RecipeEvent &eventAt(int row) const { return m_rows.at(row).event; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(
        int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row
    {
        RecipeEvent event;
        QString searchText; // path, actor and text, case-folded once (see EventFilterProxy)
    };

    void dropOldest(qsizetype count);

    QList<Row> m_rows; // oldest first
    int m_cap = kDefaultCap;
};

} // namespace Inspector
