// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// The event log's filters: a search box, event types and "hide history". Filtering runs per
// row on every append, so it compares against text the log case-folded once
// (SearchTextRole) instead of compiling a regular expression or folding per row.
#pragma once

#include <QtCore/qset.h>
#include <QtCore/qsortfilterproxymodel.h>

namespace Inspector {

class EventFilterProxy : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit EventFilterProxy(QObject *parent = nullptr);

    void setText(const QString &text); // case-insensitive substring of path, actor or text
    [[nodiscard]] QString text() const { return m_text; }
    void setTypes(const QSet<int> &types); // ints of RecipeEvent::Type; empty: every type
    [[nodiscard]] QSet<int> types() const { return m_types; }
    void setHideBackfilled(bool hide);
    [[nodiscard]] bool hideBackfilled() const { return m_hideBackfilled; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    QString m_text;
    QString m_needle; // m_text case-folded
    QSet<int> m_types;
    quint64 m_typeMask = 0; // m_types as bits; 0: every type
    bool m_hideBackfilled = false;
};

} // namespace Inspector
