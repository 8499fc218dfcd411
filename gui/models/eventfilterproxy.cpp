// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "eventfilterproxy.h"

#include "modelroles.h"

namespace Inspector {

EventFilterProxy::EventFilterProxy(QObject *parent) : QSortFilterProxyModel(parent) { }

void EventFilterProxy::setText(const QString &text)
{
    if (text == m_text)
        return;
    m_text = text;
    m_needle = text.toCaseFolded();
    invalidateFilter();
}

void EventFilterProxy::setTypes(const QSet<int> &types)
{
    if (types == m_types)
        return;
    m_types = types;
    m_typeMask = 0;
    for (int type : types) {
        if (type >= 0 && type < 64) // RecipeEvent::Type has far fewer values
            m_typeMask |= quint64(1) << type;
    }
    invalidateFilter();
}

void EventFilterProxy::setHideBackfilled(bool hide)
{
    if (hide == m_hideBackfilled)
        return;
    m_hideBackfilled = hide;
    invalidateFilter();
}

bool EventFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    const QModelIndex index = sourceModel()->index(sourceRow, 0, sourceParent);
    if (m_typeMask != 0) {
        const int type = index.data(TypeRole).toInt();
        if (type < 0 || type >= 64 || !(m_typeMask & (quint64(1) << type)))
            return false;
    }
    if (m_hideBackfilled && index.data(BackfilledRole).toBool())
        return false;
    return m_needle.isEmpty() || index.data(SearchTextRole).toString().contains(m_needle);
}

} // namespace Inspector
