// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// The tree pages' filter (recipes, leases, raw keys): a QSortFilterProxyModel that answers
// hasChildren() from the source while no filter is set. QTreeView asks it of every row when
// it lays out, and the base class builds a mapping of each row's children to answer: at
// 92,000 recipes that was most of the Recipes page's first showing (~90 ms) and a mapping
// kept per row. Unfiltered, every child is accepted, so the source's answer is the same.
#pragma once

#include <QtCore/qsortfilterproxymodel.h>

namespace Inspector {

class TreeFilterProxy : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit TreeFilterProxy(QObject *parent = nullptr);

    bool hasChildren(const QModelIndex &parent = {}) const override;
};

} // namespace Inspector
