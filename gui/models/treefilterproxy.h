// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// The tree pages' filter (recipes, leases, raw keys): a case-insensitive substring of any
// column, keeping the parents of the rows it matches. While no filter is set it costs nothing
// per row, which matters at 92,000 recipes:
// - hasChildren() is answered by the source. QTreeView asks it of every row when it lays out,
//   and the base class built a mapping of each row's children to answer (most of the Recipes
//   page's ~90 ms first showing, and a mapping kept per row). Unfiltered, every child is
//   accepted, so the source's answer is the same.
// - Recursive filtering is on only while filtering. On, every child's dataChanged made the
//   base class re-check the parent and emit dataChanged for it, and QTreeView looks a row up
//   by a linear search of its items: about a fifth of each view's cost in the GUI thread.
#pragma once

#include <QtCore/qsortfilterproxymodel.h>

namespace Inspector {

class TreeFilterProxy : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit TreeFilterProxy(QObject *parent = nullptr);

    void setFilterText(const QString &text); // empty: no filter
    bool hasChildren(const QModelIndex &parent = {}) const override;
};

} // namespace Inspector
