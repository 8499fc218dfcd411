// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "treefilterproxy.h"

namespace Inspector {

TreeFilterProxy::TreeFilterProxy(QObject *parent) : QSortFilterProxyModel(parent)
{
    setFilterCaseSensitivity(Qt::CaseInsensitive);
    setFilterKeyColumn(-1);
}

void TreeFilterProxy::setFilterText(const QString &text)
{
    setRecursiveFilteringEnabled(!text.isEmpty());
    setFilterFixedString(text);
}

bool TreeFilterProxy::hasChildren(const QModelIndex &parent) const
{
    // A filter hides rows (and columns would, if filterAcceptsColumn were overridden): then
    // only the mapping knows.
    if (!filterRegularExpression().pattern().isEmpty() || !sourceModel())
        return QSortFilterProxyModel::hasChildren(parent);
    const QModelIndex source = mapToSource(parent);
    if (parent.isValid() && !source.isValid())
        return false;
    return sourceModel()->hasChildren(source);
}

} // namespace Inspector
