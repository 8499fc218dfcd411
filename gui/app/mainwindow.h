// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// The inspector's window: eight views of one InspectorSession (an overview of cards, recipes,
// leases, timeline, event log, raw keys, the cluster's members, and charts), the connection state
// in the status bar, and the write actions, which exist only when started with --read-only=false
// and always show their blast radius first. With --sandbox it also owns the private etcd and demo
// workload it shows.
#pragma once

#include "inspectorsession.h"
#include "launchoptions.h"
#include "recipeactions.h"

#include <QtWidgets/qmainwindow.h>

class QLabel;
class QMessageBox;
class QTabWidget;

namespace Inspector {

class ChartsPage;
class ClusterModel;
class ClusterPoller;
class EventLogModel;
class LeaseModel;
class LogPage;
class OverviewPage;
class RawKeyModel;
class RecipeModel;
class RecipesPage;
class FilteredPage;
class Sandbox;
class TimelineModel;
class TimelinePage;

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    enum Page {
        OverviewView,
        RecipesView,
        LeasesView,
        TimelineView,
        LogView,
        RawView,
        ClusterView,
        ChartsView
    };

    explicit MainWindow(const LaunchOptions &options, QWidget *parent = nullptr);
    ~MainWindow() override;

    void connectTo(const InspectorSession::Options &options);
    bool saveScreenshots(const QString &directory); // one PNG per view

    // For tests and the screenshot mode.
    [[nodiscard]] InspectorSession *session() const { return m_session; }
    [[nodiscard]] QTabWidget *tabs() const { return m_tabs; }
    [[nodiscard]] RecipeModel *recipeModel() const { return m_recipes; }
    [[nodiscard]] LeaseModel *leaseModel() const { return m_leases; }
    [[nodiscard]] TimelineModel *timelineModel() const { return m_timeline; }
    [[nodiscard]] EventLogModel *eventLog() const { return m_log; }
    [[nodiscard]] ClusterModel *clusterModel() const { return m_cluster; }
    [[nodiscard]] RecipesPage *recipesPage() const { return m_recipesPage; }
    [[nodiscard]] OverviewPage *overviewPage() const { return m_overview; }
    [[nodiscard]] ChartsPage *chartsPage() const { return m_charts; }
    void showRecipe(const QByteArray &path); // the Recipes view, that recipe selected
    [[nodiscard]] QMessageBox *pendingConfirmation() const { return m_confirm; }
    [[nodiscard]] QLabel *connectionLabel() const { return m_connection; }
    [[nodiscard]] Sandbox *sandbox() const { return m_sandbox; } // with --sandbox only
    void requestAction(const RecipeAction &action); // shows the blast radius, then performs

Q_SIGNALS:
    void actionFinished(bool succeeded, const QString &message);

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void buildMenus();
    void buildStatusBar();
    QAction *addPageAction(QMenu *menu, const QString &text, int page, const QKeySequence &key);
    void wireSession();
    void pageChanged();
    void fitPageOnShow();
    [[nodiscard]] QList<FilteredPage *> prefixedPages() const;
    void watchCluster();
    void onViewUpdated();
    void onConnectionState(EtcdClient::State state);
    void updateStatus();
    void updateDetails();
    void updateActions();
    void tick();
    void repaintLeaseCells();
    void openConnectDialog();
    void startSandbox();
    void focusFilter();
    void showShortcuts();
    void triggerStepDown();
    void triggerRelease();
    void triggerLift();
    void triggerRevoke();
    void perform(const RecipeAction &action);
    void restoreLayout();
    [[nodiscard]] const Etcd::Decode::Recipe *selectedRecipe() const;
    [[nodiscard]] qint64 selectedLease() const;

    LaunchOptions m_launch;
    InspectorSession *m_session;
    Sandbox *m_sandbox = nullptr;
    RecipeModel *m_recipes;
    LeaseModel *m_leases;
    TimelineModel *m_timeline;
    EventLogModel *m_log;
    RawKeyModel *m_raw;
    ClusterModel *m_cluster;
    ClusterPoller *m_clusterPoller = nullptr; // the session's: made anew with each connection
    QTabWidget *m_tabs;
    OverviewPage *m_overview;
    ChartsPage *m_charts;
    RecipesPage *m_recipesPage;
    FilteredPage *m_leasesPage;
    TimelinePage *m_timelinePage;
    LogPage *m_logPage;
    FilteredPage *m_rawPage;
    FilteredPage *m_clusterPage;
    QLabel *m_connection;
    QLabel *m_phase;
    QLabel *m_counts;
    QLabel *m_mode;
    QMessageBox *m_confirm = nullptr;
    QList<QAction *> m_writeActions;
    QAction *m_stepDown = nullptr;
    QAction *m_release = nullptr;
    QAction *m_lift = nullptr;
    QAction *m_revoke = nullptr;
    QAction *m_dark = nullptr;
};

} // namespace Inspector
