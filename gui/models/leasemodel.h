// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// Leases as a tree: lease -> the keys attached to it -> the recipe and role each key plays,
// so "what ends if this lease goes" reads off one row. Kept current by diffing, as
// RecipeModel is; TTLs are read from the LeaseClock when painted.
#pragma once

#include "leasegroups.h"
#include "modelroles.h"

#include <recipeview.h>

#include "twolevelmodel.h"

#include <QtCore/qabstractitemmodel.h>

#include <functional>
#include <memory>
#include <vector>

namespace Inspector {

class LeaseClock;
struct LeaseNode;

class LeaseModel : public TwoLevelModel<LeaseNode>
{
    Q_OBJECT
public:
    enum Column {
        LeaseColumn, // lease id / attached key
        TtlColumn,
        GrantedColumn,
        KeysColumn, // number of keys / the owning recipe's path
        RoleColumn, // - / kind and role of the key
        AnomaliesColumn,
        ColumnCount
    };

    explicit LeaseModel(QObject *parent = nullptr);
    ~LeaseModel() override;

    void setView(const Etcd::Decode::View &view); // setGroups(), grouped here
    // The view's leases as leaseGroupsOf() made them (on InspectorSession's builder thread).
    void setGroups(const QByteArray &prefix, const QList<LeaseGroup> &groups);
    void setLeaseClock(const LeaseClock *clock); // not owned; may be null
    void setNow(std::function<qint64()> nowMs); // monotonic ms, the LeaseClock's time base
    void refreshTtl(); // one dataChanged per parent, TtlColumn only
    void refreshLeaseColumns(); // after the clock took new answers: TTL, grant, anomalies

    [[nodiscard]] QList<qint64> leases() const; // ascending
    [[nodiscard]] QModelIndex indexOfLease(qint64 lease) const;

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(
        int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    using Attached = LeaseAttached;
    using Node = LeaseNode;
    class TopEdit;
    class ChildEdit;

    QVariant leaseData(const Node &node, int column, int role) const;
    QVariant keyData(const Node &node, const Attached &key, int column, int role) const;
    [[nodiscard]] unsigned anomaliesOf(qint64 lease) const;

    const LeaseClock *m_clock = nullptr;
    QByteArray m_prefix; // the view's: keys and paths below it are shown without it
    std::function<qint64()> m_now;
};

} // namespace Inspector
