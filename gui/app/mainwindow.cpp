// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "mainwindow.h"

#include "chartspage.h"
#include "clustermodel.h"
#include "connectdialog.h"
#include "eventlogmodel.h"
#include "leasemodel.h"
#include "overviewpage.h"
#include "pages.h"
#include "profiles.h"
#include "rawkeymodel.h"
#include "recipemodel.h"
#include "sandbox.h"
#include "theme.h"
#include "timelinemodel.h"

#include <QtCore/qsettings.h>
#include <QtCore/qtimer.h>
#include <QtGui/qevent.h>
#include <QtGui/qtextdocument.h>
#include <QtWidgets/qabstractitemview.h>
#include <QtWidgets/qapplication.h>
#include <QtWidgets/qheaderview.h>
#include <QtWidgets/qlabel.h>
#include <QtWidgets/qlineedit.h>
#include <QtWidgets/qmenubar.h>
#include <QtWidgets/qmessagebox.h>
#include <QtWidgets/qstatusbar.h>
#include <QtWidgets/qtableview.h>
#include <QtWidgets/qtabwidget.h>

namespace Inspector {

MainWindow::MainWindow(const LaunchOptions &options, QWidget *parent)
    : QMainWindow(parent), m_launch(options), m_session(new InspectorSession(this)),
      m_recipes(new RecipeModel(this)), m_leases(new LeaseModel(this)),
      m_timeline(new TimelineModel(this)), m_log(new EventLogModel(this)),
      m_raw(new RawKeyModel(this)), m_cluster(new ClusterModel(this)), m_tabs(new QTabWidget(this)),
      m_overview(new OverviewPage(this)),
      m_charts(new ChartsPage(m_timeline, m_log, m_leases, &m_session->leaseClock(), this)),
      m_recipesPage(new RecipesPage(m_recipes, this)),
      m_leasesPage(new FilteredPage(m_leases, true, this)),
      m_timelinePage(new TimelinePage(m_timeline, this)), m_logPage(new LogPage(m_log, this)),
      m_rawPage(new FilteredPage(m_raw, false, this)),
      m_clusterPage(new FilteredPage(m_cluster, false, this)), m_connection(new QLabel(this)),
      m_phase(new QLabel(this)), m_counts(new QLabel(this)), m_mode(new QLabel(this))
{
    setObjectName(QStringLiteral("InspectorWindow"));
    setWindowTitle(tr("etcdqt inspector"));
    m_tabs->addTab(m_overview, tr("&Overview"));
    m_tabs->addTab(m_recipesPage, tr("&Recipes"));
    m_tabs->addTab(m_leasesPage, tr("&Leases"));
    m_tabs->addTab(m_timelinePage, tr("&Timeline"));
    m_tabs->addTab(m_logPage, tr("&Event log"));
    m_tabs->addTab(m_rawPage, tr("Ra&w keys"));
    m_tabs->addTab(m_clusterPage, tr("Cl&uster"));
    m_tabs->addTab(m_charts, tr("&Charts"));
    setCentralWidget(m_tabs);
    m_recipesPage->setColumnWidths({30, 28, 26, 7, 17, 8});
    m_leasesPage->setColumnWidths({40, 9, 10, 34, 24});
    m_leasesPage->expandWhileSmall();
    m_timelinePage->setColumnWidths({22, 30, 20, 20, 13, 10});
    m_logPage->setColumnWidths({16, 9, 20, 28, 24});
    m_rawPage->setColumnWidths({36, 40, 10, 10, 8});
    // A handful of rows whose texts change length as they tick: every column fits its content.
    if (auto *table = qobject_cast<QTableView *>(m_clusterPage->view()))
        table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_recipes->setLeaseClock(&m_session->leaseClock());
    m_overview->setLeaseClock(&m_session->leaseClock());
    m_leases->setLeaseClock(&m_session->leaseClock());
    buildMenus();
    buildStatusBar();
    wireSession();
    restoreLayout();
    auto *ticker = new QTimer(this);
    connect(ticker, &QTimer::timeout, this, &MainWindow::tick);
    ticker->start(1000); // TTL countdowns repaint; the models are not touched per second
    // Where to look: the sandbox, the command line or profile, or (nothing given, or a user
    // whose password is still unknown) the Connect dialog.
    if (options.sandbox)
        QTimer::singleShot(0, this, &MainWindow::startSandbox);
    else if (options.connectNow
        && (options.session.user.isEmpty() || !options.session.password.isEmpty()))
        QTimer::singleShot(0, this, [this] { connectTo(m_launch.session); });
    else if (options.screenshotDir.isEmpty())
        QTimer::singleShot(0, this, &MainWindow::openConnectDialog);
}

// The poller first: it holds the session's client, which the session's destruction cancels,
// and its answers would reach this half-destroyed window.
MainWindow::~MainWindow()
{
    delete std::exchange(m_clusterPoller, nullptr);
}

void MainWindow::buildMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Connect…"), QKeySequence::Open, this, &MainWindow::openConnectDialog);
    file->addAction(tr("&Reload"), QKeySequence::Refresh, m_session, &InspectorSession::reload);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    QMenu *view = menuBar()->addMenu(tr("&View"));
    addPageAction(view, tr("&Overview"), OverviewView, QKeySequence(Qt::CTRL | Qt::Key_1));
    addPageAction(view, tr("&Recipes"), RecipesView, QKeySequence(Qt::CTRL | Qt::Key_2));
    addPageAction(view, tr("&Leases"), LeasesView, QKeySequence(Qt::CTRL | Qt::Key_3));
    addPageAction(view, tr("&Timeline"), TimelineView, QKeySequence(Qt::CTRL | Qt::Key_4));
    addPageAction(view, tr("&Event log"), LogView, QKeySequence(Qt::CTRL | Qt::Key_5));
    addPageAction(view, tr("Ra&w keys"), RawView, QKeySequence(Qt::CTRL | Qt::Key_6));
    addPageAction(view, tr("Cl&uster"), ClusterView, QKeySequence(Qt::CTRL | Qt::Key_7));
    addPageAction(view, tr("&Charts"), ChartsView, QKeySequence(Qt::CTRL | Qt::Key_8));
    view->addSeparator();
    view->addAction(tr("&Find"), QKeySequence::Find, this, &MainWindow::focusFilter);
    m_dark = view->addAction(tr("&Dark theme"));
    m_dark->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_T));
    m_dark->setCheckable(true);
    m_dark->setObjectName(QStringLiteral("actionDarkTheme"));
    m_dark->setChecked(
        m_launch.theme.isEmpty() ? savedThemeIsDark() : m_launch.theme == QLatin1String("dark"));
    connect(m_dark, &QAction::toggled, this, [](bool dark) {
        applyTheme(dark);
        saveTheme(dark);
    });

    QMenu *actions = menuBar()->addMenu(tr("&Actions"));
    m_stepDown = actions->addAction(tr("Force &step-down…"),
        QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S), this, &MainWindow::triggerStepDown);
    m_release = actions->addAction(tr("&Release lock…"),
        QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_L), this, &MainWindow::triggerRelease);
    m_lift = actions->addAction(tr("&Lift barrier…"),
        QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_B), this, &MainWindow::triggerLift);
    m_revoke = actions->addAction(tr("Re&voke lease…"),
        QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R), this, &MainWindow::triggerRevoke);
    m_writeActions = {m_stepDown, m_release, m_lift, m_revoke};
    m_stepDown->setObjectName(QStringLiteral("actionStepDown"));
    m_release->setObjectName(QStringLiteral("actionRelease"));
    m_lift->setObjectName(QStringLiteral("actionLift"));
    m_revoke->setObjectName(QStringLiteral("actionRevoke"));

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(
        tr("&Keyboard shortcuts"), QKeySequence::HelpContents, this, &MainWindow::showShortcuts);
    updateActions();
}

QAction *MainWindow::addPageAction(
    QMenu *menu, const QString &text, int page, const QKeySequence &key)
{
    QAction *a = menu->addAction(text, key, this, [this, page] {
        m_tabs->setCurrentIndex(page);
        focusFilter();
    });
    return a;
}

void MainWindow::buildStatusBar()
{
    m_connection->setObjectName(QStringLiteral("connectionState"));
    m_connection->setMargin(2);
    m_mode->setText(m_launch.readOnly ? tr("Read-only") : tr("Writes enabled"));
    m_mode->setToolTip(m_launch.readOnly
            ? tr("Actions are off. Start with --read-only=false to enable them.")
            : tr("Revoke, step-down, release and lift are enabled; each asks first."));
    statusBar()->addWidget(m_phase, 1);
    statusBar()->addPermanentWidget(m_counts);
    statusBar()->addPermanentWidget(m_mode);
    statusBar()->addPermanentWidget(m_connection);
    onConnectionState(EtcdClient::State::Disconnected);
}

void MainWindow::wireSession()
{
    connect(m_session, &InspectorSession::viewUpdated, this, &MainWindow::onViewUpdated);
    connect(m_session, &InspectorSession::phaseChanged, this, &MainWindow::updateStatus);
    connect(
        m_session, &InspectorSession::connectionStateChanged, this, &MainWindow::onConnectionState);
    connect(m_session, &InspectorSession::eventsDerived, m_log, &EventLogModel::append);
    connect(m_session, &InspectorSession::handOffsDerived, this,
        [this](const QList<HandOff> &handOffs) {
            m_timeline->append(handOffs);
            tick();
        });
    // New TTL answers: the TTL, grant and anomaly cells are computed when painted, so a
    // repaint shows them. (A dataChanged per parent instead cost 260+ ms with 7,000 recipes:
    // bench/inspector_bench.cpp, call_ms.recipes_refresh_lease_columns.)
    connect(m_session, &InspectorSession::leasesReconciled, this, &MainWindow::repaintLeaseCells);
    connect(m_session, &InspectorSession::errorOccurred, this,
        [this](const QString &message) { statusBar()->showMessage(message, 10000); });
    connect(m_recipesPage, &RecipesPage::selectionMoved, this, [this] {
        updateDetails();
        updateActions();
    });
    connect(m_leasesPage->view()->selectionModel(), &QItemSelectionModel::currentChanged, this,
        &MainWindow::updateActions);
    connect(m_tabs, &QTabWidget::currentChanged, this, &MainWindow::updateActions);
    connect(m_overview, &OverviewPage::recipeActivated, this, &MainWindow::showRecipe);
    connect(m_tabs, &QTabWidget::currentChanged, this, &MainWindow::pageChanged);
    connect(
        m_session, &InspectorSession::watchEventsApplied, m_charts, &ChartsPage::noteWatchEvents);
}

// What only the page on show needs: the Overview catches up (without replaying hand-offs),
// and the cluster is polled only while its view shows.
void MainWindow::pageChanged()
{
    QWidget *page = m_tabs->currentWidget();
    if (page == m_overview)
        m_overview->setView(m_session->view(), false);
    fitPageOnShow();
    if (m_clusterPoller)
        m_clusterPoller->setActive(page == m_clusterPage);
}

void MainWindow::showRecipe(const QByteArray &path)
{
    const QModelIndex source = m_recipes->indexOfPath(path);
    if (!source.isValid())
        return;
    m_recipesPage->filter()->clear(); // a filter could hide it
    const QModelIndex shown = m_recipesPage->proxy()->mapFromSource(source);
    m_tabs->setCurrentIndex(RecipesView);
    m_recipesPage->view()->setCurrentIndex(shown);
    m_recipesPage->view()->scrollTo(shown);
    m_recipesPage->view()->setFocus(Qt::OtherFocusReason);
}

void MainWindow::connectTo(const InspectorSession::Options &options)
{
    // A connection that cannot start leaves the current one (and its cluster view) as it is.
    if (InspectorSession::validate(options).isEmpty())
        delete std::exchange(m_clusterPoller, nullptr); // it uses the client start() replaces
    if (m_session->start(options)) {
        watchCluster();
        const QByteArray &prefix = m_session->options().prefix;
        const QString under = prefix.size() > 1
            ? tr("Under %1 (shown as …/)").arg(QString::fromUtf8(prefix))
            : QString();
        for (FilteredPage *page : prefixedPages())
            page->setBreadcrumb(under);
    }
    updateStatus();
}

// The cluster view follows the session's connection: its member list comes through the
// session's client, and a new connection may be to another cluster altogether.
void MainWindow::watchCluster()
{
    m_cluster->setMembers({});
    m_clusterPoller = new ClusterPoller(m_session->client(), m_session->options(), this);
    connect(m_clusterPoller, &ClusterPoller::membersChanged, this,
        [this] { m_cluster->setMembers(m_clusterPoller->members()); });
    // Asked once now, then only while someone looks: member health has no events to follow,
    // and a busy GUI thread (a 10,000-key session) need not answer polls nobody reads.
    m_clusterPoller->setActive(m_tabs->currentWidget() == m_clusterPage);
    m_clusterPoller->askOnce();
}

// The page on show fits its columns to its first rows. Only that one: a hidden page's tree
// lays out every row to measure them (100 ms for three pages at 100,000 keys, on top of the
// first view's models), and it would measure the same rows when first shown.
void MainWindow::fitPageOnShow()
{
    for (FilteredPage *page : prefixedPages()) {
        if (page == m_tabs->currentWidget())
            page->fitColumnsOnce();
    }
}

// The pages whose rows show keys or paths below the session's prefix.
QList<FilteredPage *> MainWindow::prefixedPages() const
{
    return {m_recipesPage, m_leasesPage, m_rawPage};
}

void MainWindow::onViewUpdated()
{
    const Etcd::Decode::View &view = m_session->view();
    m_recipes->setView(view);
    // Cards are built for every recipe: only while they can be seen (a tab switch catches up).
    if (m_tabs->currentWidget() == m_overview)
        m_overview->setView(view);
    m_leases->setGroups(view.prefix, m_session->leaseGroups());
    m_raw->setView(view);
    fitPageOnShow();
    updateStatus();
    updateDetails();
    updateActions();
}

void MainWindow::onConnectionState(EtcdClient::State state)
{
    QString text;
    QString colour;
    switch (state) {
    case EtcdClient::State::Connected:
        text = tr("Connected");
        colour = QStringLiteral("#2e7d32");
        break;
    case EtcdClient::State::Connecting:
        text = tr("Connecting");
        colour = QStringLiteral("#f9a825");
        break;
    case EtcdClient::State::Reconnecting:
        text = tr("Reconnecting");
        colour = QStringLiteral("#ef6c00");
        break;
    case EtcdClient::State::Disconnected:
        text = tr("Disconnected");
        colour = QStringLiteral("#757575");
        break;
    }
    m_connection->setText(text);
    m_connection->setStyleSheet(
        QStringLiteral("QLabel { color: white; background: %1; padding: 1px 8px; border-radius: "
                       "6px; }")
            .arg(colour));
    updateStatus();
}

void MainWindow::updateStatus()
{
    const auto &view = m_session->view();
    m_phase->setText(m_session->phaseText());
    m_counts->setText(tr("%n recipe(s)", nullptr, int(view.recipes.size())) + QStringLiteral(" · ")
        + tr("%n lease(s)", nullptr, int(m_leases->leases().size())) + QStringLiteral(" · ")
        + tr("%n raw key(s)", nullptr, int(view.raw.size())));
    const QString where = m_session->options().endpoints.isEmpty()
        ? QString()
        : m_session->options().endpoints.first().toString();
    setWindowTitle(where.isEmpty()
            ? tr("etcdqt inspector")
            : tr("%1 %2 — etcdqt inspector")
                  .arg(where, QString::fromUtf8(m_session->options().prefix)));
}

// Once a second: countdowns repaint (their text is computed at paint time) and the
// flapping banner follows the 15-minute window.
void MainWindow::repaintLeaseCells()
{
    for (FilteredPage *page : {static_cast<FilteredPage *>(m_recipesPage), m_leasesPage})
        page->view()->viewport()->update();
}

void MainWindow::tick()
{
    repaintLeaseCells();
    QStringList flapping;
    for (const QByteArray &e : m_timeline->flappingElections(QDateTime::currentDateTime()))
        flapping.append(QString::fromUtf8(e));
    m_timelinePage->showFlapping(flapping);
}

void MainWindow::focusFilter()
{
    QWidget *page = m_tabs->currentWidget();
    if (auto *f = qobject_cast<FilteredPage *>(page))
        f->filter()->setFocus(Qt::ShortcutFocusReason);
    else if (auto *l = qobject_cast<LogPage *>(page))
        l->filter()->setFocus(Qt::ShortcutFocusReason);
}

void MainWindow::openConnectDialog()
{
    auto *dialog = new ConnectDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    const InspectorSession::Options &current
        = m_session->options().endpoints.isEmpty() ? m_launch.session : m_session->options();
    dialog->showProfile(profileFrom(m_launch.profile, current));
    connect(dialog, &QDialog::accepted, this, [this, dialog] { connectTo(dialog->options()); });
    dialog->open();
}

void MainWindow::startSandbox()
{
    m_sandbox = new Sandbox(this);
    connect(m_sandbox, &Sandbox::started, this, [this](const QUrl &endpoint) {
        InspectorSession::Options o;
        o.endpoints = {endpoint};
        o.prefix = Sandbox::prefix();
        connectTo(o);
        statusBar()->showMessage(tr("Sandbox: private etcd at %1").arg(endpoint.toString()), 8000);
    });
    connect(m_sandbox, &Sandbox::failed, this, [this](const QString &why) {
        statusBar()->showMessage(tr("Sandbox failed: %1").arg(why));
        QMessageBox::warning(this, tr("Sandbox"), Qt::convertFromPlainText(why)); // etcd's words
    });
    statusBar()->showMessage(tr("Starting the sandbox: a private etcd and its workload…"));
    m_sandbox->start();
}

void MainWindow::restoreLayout()
{
    QSettings s;
    if (!restoreGeometry(s.value(QStringLiteral("window/geometry")).toByteArray()))
        resize(1100, 680);
    restoreState(s.value(QStringLiteral("window/state")).toByteArray());
    m_tabs->setCurrentIndex(s.value(QStringLiteral("window/page"), 0).toInt());
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    QSettings s;
    s.setValue(QStringLiteral("window/geometry"), saveGeometry());
    s.setValue(QStringLiteral("window/state"), saveState());
    s.setValue(QStringLiteral("window/page"), m_tabs->currentIndex());
    m_session->stop();
    if (m_clusterPoller)
        m_clusterPoller->setActive(false);
    if (m_sandbox)
        m_sandbox->stop(); // the workload and its etcd end with the window
    event->accept();
}

void MainWindow::showShortcuts()
{
    QStringList rows;
    const auto add = [&rows](const QString &keys, const QString &what) {
        rows.append(QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>")
                        .arg(keys.toHtmlEscaped(), what.toHtmlEscaped()));
    };
    for (QMenu *menu : menuBar()->findChildren<QMenu *>()) {
        for (QAction *a : menu->actions()) {
            if (!a->shortcut().isEmpty())
                add(a->shortcut().toString(QKeySequence::NativeText),
                    a->text().remove(u'&').remove(QStringLiteral("…")));
        }
    }
    auto *box = new QMessageBox(QMessageBox::NoIcon, tr("Keyboard shortcuts"),
        QStringLiteral("<table cellspacing=6>%1</table>").arg(rows.join(QString())),
        QMessageBox::Close, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

} // namespace Inspector
