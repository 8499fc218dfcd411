// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// The inspector's views: each a filter box over one item view, plus what that view needs
// (a detail pane for recipes, a flapping banner for the timeline, type filters for the log).
#pragma once

#include "treefilterproxy.h"

#include <QtWidgets/qwidget.h>

class QAbstractItemModel;
class QAbstractItemView;
class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QTextBrowser;
class QTreeView;
class QTableView;
class QTimer;

namespace Inspector {

// Runs `timer` only while `widget` shows (started on its show, stopped on its hide): a hidden
// page's periodic redraw costs the GUI thread nothing.
void runWhileShown(QTimer *timer, QWidget *widget);

class EventFilterProxy;
class TermsChart;
class TimelineModel;

// A filter box over a tree or table of one model (recursive filtering over all columns).
class FilteredPage : public QWidget
{
    Q_OBJECT
public:
    FilteredPage(QAbstractItemModel *model, bool tree, QWidget *parent = nullptr);

    [[nodiscard]] QAbstractItemView *view() const { return m_view; }
    [[nodiscard]] QLineEdit *filter() const { return m_filter; }
    [[nodiscard]] TreeFilterProxy *proxy() const { return m_proxy; }
    // The selected row in source-model terms (invalid when nothing is selected).
    [[nodiscard]] QModelIndex currentSourceIndex() const;
    // Initial widths in average characters, so they follow the font (the last one stretches).
    void setColumnWidths(const QList<int> &characters);
    // Trees only: open each top-level row as it arrives while there are few of them.
    void expandWhileSmall();
    // Says once, above the view, the prefix its rows share (empty: nothing shown).
    void setBreadcrumb(const QString &text);
    void fitColumnsOnce(); // each column as wide as its content, the first time rows show
    [[nodiscard]] QLabel *breadcrumb() const { return m_breadcrumb; }

protected:
    bool m_fitted = false;
    QLabel *m_breadcrumb;
    QLineEdit *m_filter;
    TreeFilterProxy *m_proxy;
    QAbstractItemView *m_view;
};

// Recipes: the tree on the left, what the selected recipe is and who holds it on the right.
class RecipesPage : public FilteredPage
{
    Q_OBJECT
public:
    RecipesPage(QAbstractItemModel *model, QWidget *parent = nullptr);
    void showDetails(const QString &html);
    [[nodiscard]] QTextBrowser *details() const { return m_details; }

Q_SIGNALS:
    void selectionMoved();

private:
    QTextBrowser *m_details;
};

// Terms as bars over time (the first mode), or the hand-offs as a table (the second).
class TimelinePage : public FilteredPage
{
    Q_OBJECT
public:
    TimelinePage(TimelineModel *model, QWidget *parent = nullptr);
    void showFlapping(const QStringList &elections); // empty hides the banner
    void showAsTable(bool table);
    [[nodiscard]] QLabel *banner() const { return m_banner; }
    [[nodiscard]] TermsChart *chart() const { return m_chart; }
    [[nodiscard]] bool showsTable() const;

private:
    QLabel *m_banner;
    TermsChart *m_chart;
    QCheckBox *m_asTable;
};

class LogPage : public QWidget
{
    Q_OBJECT
public:
    LogPage(QAbstractItemModel *log, QWidget *parent = nullptr);
    [[nodiscard]] QLineEdit *filter() const { return m_filter; }
    [[nodiscard]] EventFilterProxy *proxy() const { return m_proxy; }
    [[nodiscard]] QTableView *view() const { return m_view; }
    void setColumnWidths(const QList<int> &characters);

private:
    void typeChosen(int index);

    QLineEdit *m_filter;
    QComboBox *m_types;
    QCheckBox *m_history;
    QCheckBox *m_follow;
    EventFilterProxy *m_proxy;
    QTableView *m_view;
};

} // namespace Inspector
