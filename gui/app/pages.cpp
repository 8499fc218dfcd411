// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "pages.h"

#include "termschart.h"
#include "timelinemodel.h"

#include "eventfilterproxy.h"
#include "recipeevent.h"

#include <QtCore/qcoreapplication.h>
#include <QtCore/qtimer.h>
#include <QtGui/qkeysequence.h>
#include <QtWidgets/qboxlayout.h>
#include <QtWidgets/qcheckbox.h>
#include <QtWidgets/qcombobox.h>
#include <QtWidgets/qheaderview.h>
#include <QtWidgets/qlabel.h>
#include <QtWidgets/qlineedit.h>
#include <QtWidgets/qscrollbar.h>
#include <QtWidgets/qsplitter.h>
#include <QtWidgets/qtableview.h>
#include <QtWidgets/qtextbrowser.h>
#include <QtWidgets/qtreeview.h>

namespace Inspector {

namespace {
constexpr int kExpandBelow = 100;

// Starts and stops a timer (its parent) with the showing of the widget it watches.
class ShownTimer : public QObject
{
public:
    explicit ShownTimer(QTimer *timer) : QObject(timer), m_timer(timer) { }
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::Show)
            m_timer->start();
        else if (event->type() == QEvent::Hide)
            m_timer->stop();
        return QObject::eventFilter(watched, event);
    }

private:
    QTimer *m_timer;
};

QLineEdit *filterBox(QWidget *parent)
{
    auto *edit = new QLineEdit(parent);
    edit->setClearButtonEnabled(true);
    // The shortcut as this platform and keyboard spell it (Strg+F on a German one).
    edit->setPlaceholderText(
        QCoreApplication::translate("Inspector::Pages", "Filter (%1)")
            .arg(QKeySequence(QKeySequence::Find).toString(QKeySequence::NativeText)));
    return edit;
}

QAbstractItemView *itemView(bool tree, QWidget *parent)
{
    if (tree) {
        auto *t = new QTreeView(parent);
        t->setUniformRowHeights(true); // 10,000 rows stay cheap to lay out
        t->setAlternatingRowColors(true);
        t->setSortingEnabled(true);
        t->sortByColumn(-1, Qt::AscendingOrder); // model order until a header is clicked
        t->header()->setStretchLastSection(true);
        return t;
    }
    auto *t = new QTableView(parent);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->setAlternatingRowColors(true);
    t->verticalHeader()->hide();
    t->verticalHeader()->setDefaultSectionSize(t->fontMetrics().height() + 6);
    t->horizontalHeader()->setStretchLastSection(true);
    return t;
}
} // namespace

void runWhileShown(QTimer *timer, QWidget *widget)
{
    widget->installEventFilter(new ShownTimer(timer));
    if (widget->isVisible())
        timer->start();
}

FilteredPage::FilteredPage(QAbstractItemModel *model, bool tree, QWidget *parent)
    : QWidget(parent), m_breadcrumb(new QLabel(this)), m_filter(filterBox(this)),
      m_proxy(new TreeFilterProxy(this)), m_view(itemView(tree, this))
{
    m_breadcrumb->setTextFormat(Qt::PlainText); // a prefix is etcd's text, not markup
    m_breadcrumb->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    m_breadcrumb->hide();
    m_proxy->setSourceModel(model);
    m_view->setModel(m_proxy);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_breadcrumb);
    layout->addWidget(m_filter);
    layout->addWidget(m_view);
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &TreeFilterProxy::setFilterText);
}

namespace {
void applyWidths(QAbstractItemView *view, QHeaderView *header, const QList<int> &characters)
{
    const int unit = view->fontMetrics().averageCharWidth();
    for (int c = 0; c < characters.size(); ++c)
        header->resizeSection(c, characters.at(c) * unit);
}

QHeaderView *headerOf(QAbstractItemView *view)
{
    if (auto *tree = qobject_cast<QTreeView *>(view))
        return tree->header();
    return static_cast<QTableView *>(view)->horizontalHeader();
}
} // namespace

void FilteredPage::setColumnWidths(const QList<int> &characters)
{
    applyWidths(m_view, headerOf(m_view), characters);
}

void LogPage::setColumnWidths(const QList<int> &characters)
{
    applyWidths(m_view, m_view->horizontalHeader(), characters);
}

// A small cluster is read at a glance with every row open; a big one stays folded
// (expanding 10,000 rows would cost more than it shows).
void FilteredPage::expandWhileSmall()
{
    auto *tree = qobject_cast<QTreeView *>(m_view);
    if (!tree)
        return;
    connect(m_proxy, &QAbstractItemModel::rowsInserted, this,
        [this, tree](const QModelIndex &parent, int first, int last) {
            if (parent.isValid() || m_proxy->rowCount() > kExpandBelow)
                return;
            for (int row = first; row <= last; ++row)
                tree->expand(m_proxy->index(row, 0));
        });
}

QModelIndex FilteredPage::currentSourceIndex() const
{
    const QModelIndex current = m_view->currentIndex();
    return current.isValid() ? m_proxy->mapToSource(current) : QModelIndex();
}

RecipesPage::RecipesPage(QAbstractItemModel *model, QWidget *parent)
    : FilteredPage(model, true, parent), m_details(new QTextBrowser(this))
{
    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(m_view);
    splitter->addWidget(m_details);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({700, 300});
    layout()->addWidget(splitter);
    expandWhileSmall();
    m_details->setOpenLinks(false);
    m_details->setPlaceholderText(
        tr("Select a recipe to see who holds it and what it would take to end that."));
    connect(m_view->selectionModel(), &QItemSelectionModel::currentChanged, this,
        &RecipesPage::selectionMoved);
}

void RecipesPage::showDetails(const QString &html)
{
    m_details->setHtml(html);
}

TimelinePage::TimelinePage(TimelineModel *model, QWidget *parent)
    : FilteredPage(model, false, parent), m_banner(new QLabel(this)),
      m_chart(new TermsChart(model, this)), m_asTable(new QCheckBox(tr("Show as ta&ble"), this))
{
    m_banner->setWordWrap(true);
    m_banner->setStyleSheet(QStringLiteral(
        "QLabel { background: #b71c1c; color: white; padding: 6px; font-weight: bold; }"));
    m_banner->hide();
    auto *box = static_cast<QVBoxLayout *>(layout());
    box->insertWidget(0, m_banner);
    box->insertWidget(3, m_asTable); // after the banner, breadcrumb and filter
    box->insertWidget(4, m_chart, 1);
    m_asTable->setToolTip(tr("The chart: Ctrl+wheel or +/- zooms, wheel, drag or arrows pan, "
                             "Home fits every term, End follows the present."));
    connect(m_asTable, &QCheckBox::toggled, this, &TimelinePage::showAsTable);
    connect(m_filter, &QLineEdit::textChanged, m_chart, &TermsChart::setFilter);
    showAsTable(false);
}

void TimelinePage::showAsTable(bool table)
{
    m_asTable->setChecked(table);
    m_chart->setVisible(!table);
    m_view->setVisible(table);
}

bool TimelinePage::showsTable() const
{
    return m_asTable->isChecked();
}

// Once, when the first rows arrive: each column but the last as wide as its content, within
// a bound (a long value would push the rest out of sight); the user's widths stay after that.
void FilteredPage::fitColumnsOnce()
{
    if (m_fitted || m_proxy->rowCount() == 0)
        return;
    m_fitted = true;
    QHeaderView *header = headerOf(m_view);
    // The first column names the row and gets the most room; the rest share what is left
    // of a 1100-pixel window (the recipes' token, lease and TTL stay in view).
    const int unit = m_view->fontMetrics().averageCharWidth();
    for (int c = 0; c + 1 < header->count(); ++c) {
        const int hint = std::max(header->sectionSizeHint(c), m_view->sizeHintForColumn(c));
        header->resizeSection(c, std::min(hint + 8, unit * (c == 0 ? 40 : 26)));
    }
}

void FilteredPage::setBreadcrumb(const QString &text)
{
    m_breadcrumb->setText(text);
    m_breadcrumb->setVisible(!text.isEmpty());
}

void TimelinePage::showFlapping(const QStringList &elections)
{
    m_banner->setVisible(!elections.isEmpty());
    if (!elections.isEmpty())
        m_banner->setText(tr("Flapping: %1 (4 or more new leaders within 15 minutes)")
                              .arg(elections.join(QStringLiteral(", "))));
}

namespace {
using T = RecipeEvent::Type;
// The type filter's groups: what an operator asks the log ("show me the locks").
const QList<QList<T>> kGroups = {
    {},
    {T::LeaderElected, T::LeaderLost, T::CandidateJoined, T::CandidateLeft, T::Flapping},
    {T::Acquired, T::Released, T::Queued},
    {T::BarrierSet, T::BarrierLifted, T::MemberArrived, T::BarrierTripped},
    {T::NumberChanged},
    {T::KeyAppeared, T::KeyVanished},
    {T::InstanceRegistered, T::InstanceUpdated, T::InstanceGone},
    {T::Anomaly, T::Flapping, T::Connection},
};
} // namespace

LogPage::LogPage(QAbstractItemModel *log, QWidget *parent)
    : QWidget(parent), m_filter(filterBox(this)), m_types(new QComboBox(this)),
      m_history(new QCheckBox(tr("Show h&istory"), this)),
      m_follow(new QCheckBox(tr("F&ollow"), this)), m_proxy(new EventFilterProxy(this)),
      m_view(static_cast<QTableView *>(itemView(false, this)))
{
    m_types->addItems({tr("All events"), tr("Leadership"), tr("Locks and semaphores"),
        tr("Barriers"), tr("Counters and latches"), tr("Transient keys"), tr("Services"),
        tr("Anomalies and alerts")});
    m_types->setToolTip(tr("Which kind of event to show"));
    m_history->setChecked(true);
    m_follow->setChecked(true);
    m_proxy->setSourceModel(log);
    m_view->setModel(m_proxy);
    auto *bar = new QHBoxLayout;
    bar->addWidget(m_filter, 1);
    bar->addWidget(m_types);
    bar->addWidget(m_history);
    bar->addWidget(m_follow);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(bar);
    layout->addWidget(m_view);
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &EventFilterProxy::setText);
    connect(m_types, &QComboBox::currentIndexChanged, this, &LogPage::typeChosen);
    connect(m_history, &QCheckBox::toggled, m_proxy,
        [this](bool on) { m_proxy->setHideBackfilled(!on); });
    connect(m_proxy, &QAbstractItemModel::rowsInserted, this, [this] {
        if (m_follow->isChecked())
            m_view->scrollToBottom();
    });
}

void LogPage::typeChosen(int index)
{
    QSet<int> types;
    for (T t : kGroups.value(index))
        types.insert(int(t));
    m_proxy->setTypes(types);
}

} // namespace Inspector
