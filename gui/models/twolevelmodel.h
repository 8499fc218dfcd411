// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// The shape RecipeModel and LeaseModel share: top rows held as nodes in display order, each
// with child rows (a recipe's entries, a lease's keys). A child's index carries its parent
// node; a top row's carries none. Node needs `int row` and `int childCount() const`.
// The overrides stay in the models (one line each, calling these): a virtual function of a
// template is instantiated wherever the class is, and the nodes are complete only in the
// models' .cpp files.
#pragma once

#include <QtCore/qabstractitemmodel.h>

#include <memory>
#include <vector>

namespace Inspector {

template <class Node>
class TwoLevelModel : public QAbstractItemModel
{
public:
    using QAbstractItemModel::QAbstractItemModel;

protected:
    [[nodiscard]] QModelIndex indexIn(int row, int column, const QModelIndex &parent) const
    {
        if (!hasIndex(row, column, parent))
            return {};
        if (!parent.isValid())
            return createIndex(row, column, nullptr);
        return createIndex(row, column, m_nodes[parent.row()].get());
    }

    [[nodiscard]] QModelIndex parentOf(const QModelIndex &child) const
    {
        const Node *node = child.isValid() ? nodeOf(child) : nullptr;
        return node ? createIndex(node->row, 0, nullptr) : QModelIndex();
    }

    [[nodiscard]] int rowsUnder(const QModelIndex &parent) const
    {
        if (!parent.isValid())
            return int(m_nodes.size());
        if (parent.column() != 0 || nodeOf(parent))
            return 0; // only the first column of a top row has children
        return m_nodes[parent.row()]->childCount();
    }

    [[nodiscard]] Node *nodeOf(const QModelIndex &index) const
    {
        return static_cast<Node *>(index.internalPointer());
    }

    void renumberFrom(qsizetype row)
    {
        for (qsizetype r = row; r < qsizetype(m_nodes.size()); ++r)
            m_nodes[r]->row = int(r);
    }

    // One dataChanged for the top rows and one per parent with children, not one per row.
    void emitPerParent(int firstColumn, int lastColumn, const QList<int> &roles)
    {
        if (m_nodes.empty())
            return;
        Q_EMIT this->dataChanged(index(0, firstColumn), index(rowCount() - 1, lastColumn), roles);
        for (const auto &node : m_nodes) {
            const int children = node->childCount();
            if (children == 0)
                continue;
            const QModelIndex parent = createIndex(node->row, 0, nullptr);
            Q_EMIT this->dataChanged(
                indexIn(0, firstColumn, parent), indexIn(children - 1, lastColumn, parent), roles);
        }
    }

    std::vector<std::unique_ptr<Node>> m_nodes; // top rows in display order
};

} // namespace Inspector
