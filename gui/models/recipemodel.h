// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// The recipes of the current view as a tree: one row per recipe, its entries (leader and
// candidates, holder and queue, members...) as children. Kept current by diffing each new
// view against the rows shown, so a watch's small changes move only the rows they touch.
#pragma once

#include "modelroles.h"

#include <recipeview.h>

#include "twolevelmodel.h"

#include <QtCore/qabstractitemmodel.h>

#include <functional>
#include <memory>
#include <vector>

namespace Inspector {

class LeaseClock;
struct RecipeNode;

class RecipeModel : public TwoLevelModel<RecipeNode>
{
    Q_OBJECT
public:
    enum Column {
        RecipeColumn, // recipe path and kind / entry role
        OwnerColumn, // recipe summary / entry owner
        KeyColumn,
        TokenColumn, // create revision: the fencing or term token
        LeaseColumn,
        TtlColumn,
        NotesColumn, // lease anomalies, then the decoder's notes
        ColumnCount
    };

    explicit RecipeModel(QObject *parent = nullptr);
    ~RecipeModel() override;

    void setView(const Etcd::Decode::View &view);
    void setLeaseClock(const LeaseClock *clock); // not owned; may be null
    void setNow(std::function<qint64()> nowMs); // monotonic ms, the LeaseClock's time base
    // Wall-clock ms since the epoch, what queue items' ages are measured against (their
    // names carry their producer's clock).
    void setWallClock(std::function<qint64()> nowMs);
    void refreshTtl(); // one dataChanged per parent, TtlColumn only
    void refreshLeaseColumns(); // after the clock took new answers: TTL, notes and colours

    [[nodiscard]] QModelIndex indexOfPath(const QByteArray &path) const;

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(
        int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    using Node = RecipeNode;
    class TopEdit;
    class ChildEdit;

    QVariant recipeData(const Node &node, int column, int role) const;
    QVariant entryData(const Etcd::Decode::Entry &entry, int column, int role) const;
    [[nodiscard]] unsigned anomaliesOf(qint64 lease) const;

    const LeaseClock *m_clock = nullptr;
    QByteArray m_prefix; // the view's: paths and keys below it are shown without it
    std::function<qint64()> m_now;
    std::function<qint64()> m_wallNow;
};

} // namespace Inspector
