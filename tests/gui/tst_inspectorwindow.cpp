// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// The inspector's window, offscreen, against a real etcd with a live workload in this
// process (a leader latch pair, three contenders for a mutex, a barrier, a counter and a
// transient key): every view fills, a hand-off reaches the timeline, screenshots of each view
// land under the build tree (tests/gui/screenshots/<variant>/), the German UI has no English
// left in the main views, actions show their blast radius and are fenced, read-only means
// read-only, shortcuts switch views, the layout is remembered.
#include "../integration/testutil.h"

#include <etcdtestserver.h>

#include <connectdialog.h>
#include <eventlogmodel.h>
#include <leasemodel.h>
#include <mainwindow.h>
#include <modelroles.h>
#include <pages.h>
#include <profiles.h>
#include <rawkeymodel.h>
#include <recipemodel.h>
#include <recipetext.h>
#include <sandbox.h>
#include <theme.h>
#include <timelinemodel.h>

#include <QtCore/qdir.h>
#include <QtCore/qfile.h>
#include <QtCore/qrandom.h>
#include <QtCore/qregularexpression.h>
#include <QtCore/qsettings.h>
#include <QtCore/qsortfilterproxymodel.h>
#include <QtCore/qtemporarydir.h>
#include <QtCore/qtranslator.h>
#include <QtWidgets/qabstractitemview.h>
#include <QtWidgets/qapplication.h>
#include <QtWidgets/qcombobox.h>
#include <QtWidgets/qdialogbuttonbox.h>
#include <QtWidgets/qheaderview.h>
#include <QtWidgets/qlabel.h>
#include <QtWidgets/qlineedit.h>
#include <QtWidgets/qmenubar.h>
#include <QtWidgets/qmessagebox.h>
#include <QtWidgets/qpushbutton.h>
#include <QtWidgets/qtabwidget.h>
#include <QtWidgets/qtextbrowser.h>
#include <QtWidgets/qtreeview.h>

#include <signal.h>

using namespace Inspector;
using namespace std::chrono_literals;
using Etcd::Decode::orphanedClaims;
using Etcd::Decode::Recipe;
using Etcd::Decode::Role;

namespace {
constexpr int kTtlMs = 2000;
constexpr int kWaitMs = 5 * kTtlMs;

QString screenshotDir(const QString &variant)
{
    return QDir(QCoreApplication::applicationDirPath())
        .filePath(QStringLiteral("screenshots/") + variant);
}

EtcdLeaderSelectorOptions latchOptions(const QString &id)
{
    EtcdLeaderSelectorOptions o;
    o.clientId = id;
    o.ttl = 2s;
    return o;
}

// Every text a person reads in the main views: tabs, menus, headers, status bar, filters.
QStringList visibleTexts(MainWindow &w)
{
    QStringList texts;
    for (int i = 0; i < w.tabs()->count(); ++i)
        texts << w.tabs()->tabText(i).remove(u'&');
    for (QAction *menu : w.menuBar()->actions()) {
        texts << menu->text().remove(u'&');
        if (menu->menu()) {
            for (QAction *a : menu->menu()->actions())
                texts << a->text().remove(u'&');
        }
    }
    for (QAbstractItemView *view : w.findChildren<QAbstractItemView *>()) {
        const QAbstractItemModel *m = view->model();
        if (!m || qobject_cast<QComboBox *>(view->parent()))
            continue;
        for (int c = 0; c < m->columnCount(); ++c)
            texts << m->headerData(c, Qt::Horizontal).toString();
    }
    for (QLineEdit *edit : w.findChildren<QLineEdit *>())
        texts << edit->placeholderText();
    for (QComboBox *box : w.findChildren<QComboBox *>()) {
        for (int i = 0; i < box->count(); ++i)
            texts << box->itemText(i);
    }
    for (QLabel *label : w.findChildren<QLabel *>())
        texts << label->text();
    texts.removeAll(QString());
    texts.removeIf([](const QString &t) { return t.trimmed().isEmpty(); });
    return texts;
}
} // namespace

class tst_InspectorWindow : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void viewsFillAndAHandOffReachesTheTimeline();
    void germanUiHasNoEnglishLeftovers();
    void stepDownShowsItsBlastRadiusAndIsFenced();
    void revokeFromTheLeasesView();
    void readOnlyMeansReadOnly();
    void shortcutsSwitchViews();
    void pagesFitTheirColumnsWhenFirstShown();
    void layoutAndThemeAreRemembered();
    void releaseLockAndLiftBarrier();
    void workQueueDetails();
    void profilesNeverStoreThePassword();
    void sandboxEndsWithTheWindow();
    void launchOptions_data();
    void launchOptions();

private:
    LaunchOptions options(bool readOnly = true) const
    {
        LaunchOptions o;
        o.session.endpoints = {m_server.clientUrl()};
        o.session.prefix = m_prefix;
        o.connectNow = true;
        o.readOnly = readOnly;
        return o;
    }
    static bool waitLive(MainWindow &w, int minRecipes)
    {
        return QTest::qWaitFor(
            [&] {
                return w.session()->phase() == InspectorSession::Phase::Live
                    && w.recipeModel()->rowCount() >= minRecipes;
            },
            kWaitMs);
    }
    // Every lease in view has had its TTL answered (what a screenshot should show).
    static bool waitTtls(MainWindow &w)
    {
        return QTest::qWaitFor(
            [&] {
                const QList<qint64> shown = w.leaseModel()->leases();
                return !shown.isEmpty()
                    && std::all_of(shown.cbegin(), shown.cend(), [&](qint64 lease) {
                           return w.session()->leaseClock().sample(lease).has_value();
                       });
            },
            kWaitMs);
    }
    const Recipe *recipe(MainWindow &w, const QByteArray &path) const
    {
        for (const Recipe &r : w.session()->view().recipes) {
            if (r.path == path)
                return &r;
        }
        return nullptr;
    }
    void select(MainWindow &w, const QByteArray &path);

    EtcdTestServer m_server;
    QTemporaryDir m_settings;
    QByteArray m_prefix;
    std::unique_ptr<EtcdClient> m_client;
    std::unique_ptr<EtcdClient> m_client2;
    std::vector<std::unique_ptr<EtcdClient>> m_lockClients;
    std::unique_ptr<EtcdLeaderLatch> m_leaderA;
    std::unique_ptr<EtcdLeaderLatch> m_leaderB;
    std::vector<std::unique_ptr<EtcdMutex>> m_mutexes;
    std::unique_ptr<EtcdBarrier> m_barrier;
    std::unique_ptr<EtcdTransientKeyValue> m_transient;
    std::vector<std::unique_ptr<EtcdTransientKeyValue>> m_instances;
};

void tst_InspectorWindow::initTestCase()
{
    // Tests never touch the user's settings.
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_settings.path());
    QCoreApplication::setOrganizationName(QStringLiteral("EtcdQtTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_inspectorwindow"));
    applyTheme(false);
    ETCDQT_START_OR_SKIP(m_server);
    m_prefix = "/window-" + QByteArray::number(QRandomGenerator::global()->generate(), 16) + '/';
    m_client = connectedClient(m_server.clientUrl());
    m_client2 = connectedClient(m_server.clientUrl());
    m_leaderA = std::make_unique<EtcdLeaderLatch>(
        m_client.get(), m_prefix + "election", latchOptions(QStringLiteral("reporter-1")));
    QVERIFY(m_leaderA->start());
    QTRY_VERIFY_WITH_TIMEOUT(m_leaderA->hasLeadership(), kWaitMs);
    m_leaderB = std::make_unique<EtcdLeaderLatch>(
        m_client2.get(), m_prefix + "election", latchOptions(QStringLiteral("reporter-2")));
    QVERIFY(m_leaderB->start());
    EtcdMutexOptions mo;
    mo.ttl = 2s;
    for (int i = 0; i < 3; ++i) {
        m_lockClients.push_back(connectedClient(m_server.clientUrl()));
        m_mutexes.push_back(
            std::make_unique<EtcdMutex>(m_lockClients.back().get(), m_prefix + "locks/db", mo));
        QSignalSpy acquired(m_mutexes.back().get(), &EtcdMutex::acquired);
        QVERIFY(m_mutexes.back()->acquire());
        if (i == 0)
            QVERIFY(acquired.wait(kWaitMs));
    }
    EtcdBarrierOptions bo;
    bo.ttl = 2s;
    m_barrier = std::make_unique<EtcdBarrier>(m_client.get(), m_prefix + "gate", bo);
    QVERIFY(await(m_barrier->setBarrier()).status.isOk());
    QVERIFY(await(m_client->put(m_prefix + "counter", QByteArray("\0\0\0\0\0\0\0\x2a", 8)))
                .status.isOk());
    m_transient = std::make_unique<EtcdTransientKeyValue>(
        m_client.get(), m_prefix + "services/api-1", R"({"port":8080})", 2s);
    m_transient->start();
    QVERIFY(await(m_client->put(m_prefix + "config/raw", "plain value")).status.isOk());
    // Two instances of a service, each its JSON on a lease of its own: etcd-recipes' layout,
    // as EtcdServiceRegistry writes it.
    for (int i = 1; i <= 2; ++i) {
        EtcdServiceInstance s = EtcdServiceInstance::create(
            QStringLiteral("billing"), QStringLiteral(R"({"version":"2.%1"})").arg(i));
        s.id = QStringLiteral("billing-%1").arg(i);
        s.address = QStringLiteral("10.1.0.%1").arg(i);
        s.port = 9000 + i;
        s.enabled = i == 1;
        m_instances.push_back(std::make_unique<EtcdTransientKeyValue>(
            m_client.get(), m_prefix + "discovery/names/billing/" + s.id.toUtf8(), s.toJson(), 2s));
        m_instances.back()->start();
    }
}

void tst_InspectorWindow::cleanupTestCase()
{
    m_transient.reset();
    m_instances.clear();
    m_barrier.reset();
    for (auto &m : m_mutexes)
        m->close();
    m_mutexes.clear();
    m_leaderA.reset();
    m_leaderB.reset();
}

void tst_InspectorWindow::select(MainWindow &w, const QByteArray &path)
{
    w.tabs()->setCurrentIndex(MainWindow::RecipesView);
    auto *view = w.recipesPage()->view();
    const QModelIndex source = w.recipeModel()->indexOfPath(path);
    QVERIFY(source.isValid());
    view->setCurrentIndex(w.recipesPage()->proxy()->mapFromSource(source));
}

void tst_InspectorWindow::viewsFillAndAHandOffReachesTheTimeline()
{
    MainWindow w(options());
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(waitLive(w, 5));
    QTRY_VERIFY_WITH_TIMEOUT(w.leaseModel()->rowCount() >= 5, kWaitMs);
    const QByteArray election = m_prefix + "election";
    QTRY_VERIFY_WITH_TIMEOUT(recipe(w, election) && recipe(w, election)->first(Role::Leader)
            && recipe(w, election)->first(Role::Leader)->owner == QLatin1String("reporter-1"),
        kWaitMs);
    QTRY_VERIFY_WITH_TIMEOUT(w.timelineModel()->rowCount() >= 1, kWaitMs); // from history

    QElapsedTimer sinceElected;
    connect(m_leaderB.get(), &EtcdLeaderLatch::elected, this, [&] { sinceElected.start(); });
    m_leaderA->close();
    QTRY_VERIFY_WITH_TIMEOUT(sinceElected.isValid(), kWaitMs);
    const auto shown = [&] {
        const int rows = w.timelineModel()->rowCount();
        return rows > 0
            && w.timelineModel()->index(rows - 1, TimelineModel::ToColumn).data()
            == QStringLiteral("reporter-2");
    };
    QVERIFY(QTest::qWaitFor(shown, kWaitMs));
    qInfo("hand-off in the timeline %lld ms after reporter-2 was elected", sinceElected.elapsed());
    QVERIFY(sinceElected.elapsed() < 1000);
    QTRY_VERIFY_WITH_TIMEOUT(w.eventLog()->rowCount() >= 1, kWaitMs);

    QVERIFY(waitTtls(w));
    const QByteArray billing = m_prefix + "discovery/names/billing";
    QTRY_VERIFY_WITH_TIMEOUT(
        recipe(w, billing) && recipe(w, billing)->entries.size() == 2, kWaitMs);
    const QModelIndex service = w.recipeModel()->indexOfPath(billing);
    const QString summary = service.siblingAtColumn(RecipeModel::OwnerColumn).data().toString();
    QVERIFY2(summary.startsWith(QStringLiteral("2 instance(s): "))
            && summary.contains(QStringLiteral("10.1.0.1:9001"))
            && summary.contains(QStringLiteral("10.1.0.2:9002")),
        qPrintable(summary));
    QStringList instances; // in registration order, which the two starts leave open
    for (int row = 0; row < 2; ++row) {
        instances.append(
            w.recipeModel()->index(row, RecipeModel::OwnerColumn, service).data().toString());
        QVERIFY(w.recipeModel()->index(row, RecipeModel::TtlColumn, service).data().toString()
            != RecipeText::none());
    }
    instances.sort();
    QCOMPARE(instances,
        (QStringList {QStringLiteral("billing-1 at 10.1.0.1:9001"),
            QStringLiteral("billing-2 at 10.1.0.2:9002 (disabled)")}));
    select(w, billing);
    QVERIFY(w.recipesPage()->details()->toPlainText().contains(QStringLiteral("billing-1")));
    select(w, m_prefix + "locks/db");
    QVERIFY(w.recipesPage()->details()->toPlainText().contains(QStringLiteral("locks/db")));
    w.tabs()->setCurrentIndex(MainWindow::TimelineView);
    QVERIFY(w.saveScreenshots(screenshotDir(QStringLiteral("en"))));
    for (const char *name :
        {"overview", "recipes", "leases", "timeline", "log", "raw", "cluster", "charts"}) {
        const QImage shot(QDir(screenshotDir(QStringLiteral("en")))
                              .filePath(QLatin1String(name) + QStringLiteral(".png")));
        QVERIFY2(!shot.isNull(), name);
        QCOMPARE(shot.size(), w.size() * w.devicePixelRatio());
    }
    applyTheme(true); // the window repaints once the palette change reaches it
    QTRY_VERIFY(w.palette().color(QPalette::Window).lightness() < 80);
    QVERIFY(w.saveScreenshots(screenshotDir(QStringLiteral("dark"))));
    // And on a large screen (issue 23: 1100x680 and 1600x1000), light and dark.
    const QSize small = w.size();
    w.resize(1600, 1000);
    QTRY_COMPARE(w.size(), QSize(1600, 1000));
    QVERIFY(w.saveScreenshots(screenshotDir(QStringLiteral("dark-1600"))));
    applyTheme(false);
    QTRY_VERIFY(w.palette().color(QPalette::Window).lightness() > 180);
    QVERIFY(w.saveScreenshots(screenshotDir(QStringLiteral("en-1600"))));
    w.resize(small);
    QTRY_VERIFY(w.palette().color(QPalette::Window).lightness() > 180);
}

void tst_InspectorWindow::germanUiHasNoEnglishLeftovers()
{
    MainWindow english(options());
    QVERIFY(waitLive(english, 5));
    const QStringList englishTexts = visibleTexts(english);

    QTranslator german;
    QVERIFY(german.load(QStringLiteral(":/i18n/etcdqt-inspector_de.qm")));
    QCoreApplication::installTranslator(&german);
    MainWindow w(options());
    w.show();
    QVERIFY(waitLive(w, 5));
    // Words that are the same in German (names, units, protocol terms), kept deliberately.
    const QStringList same = {QStringLiteral("Token"), QStringLiteral("TTL"),
        QStringLiteral("Lease"), QStringLiteral("Leases"), QStringLiteral("Key"),
        QStringLiteral("Version"), QStringLiteral("Timeline"), QStringLiteral("Cluster"),
        QStringLiteral("etcdqt inspector")};
    QStringList leftovers;
    const QStringList germanTexts = visibleTexts(w);
    for (const QString &t : germanTexts) {
        if (englishTexts.contains(t) && !same.contains(t) && !t.contains(u'/')
            && t.contains(QRegularExpression(QStringLiteral("[A-Za-z]{3,}"))))
            leftovers << t;
    }
    QVERIFY(waitTtls(w));
    QVERIFY(w.saveScreenshots(screenshotDir(QStringLiteral("de"))));
    w.resize(1600, 1000);
    QTRY_COMPARE(w.size(), QSize(1600, 1000));
    QVERIFY(w.saveScreenshots(screenshotDir(QStringLiteral("de-1600"))));
    QCoreApplication::removeTranslator(&german);
    QVERIFY2(leftovers.isEmpty(), qPrintable(leftovers.join(QStringLiteral(" | "))));
    QVERIFY(germanTexts.size() > 40);
}

void tst_InspectorWindow::stepDownShowsItsBlastRadiusAndIsFenced()
{
    // A fresh election of our own: the first one's leadership is another test's business.
    const QByteArray election = m_prefix + "stepdown";
    auto client = connectedClient(m_server.clientUrl());
    EtcdLeaderLatch leader(client.get(), election, latchOptions(QStringLiteral("worker-7")));
    QVERIFY(leader.start());
    QTRY_VERIFY_WITH_TIMEOUT(leader.hasLeadership(), kWaitMs);

    MainWindow w(options(false));
    w.show();
    QVERIFY(waitLive(w, 5));
    QTRY_VERIFY_WITH_TIMEOUT(
        recipe(w, election) && recipe(w, election)->first(Role::Leader), kWaitMs);
    select(w, election);
    QAction *stepDown = w.findChild<QAction *>(QStringLiteral("actionStepDown"));
    QVERIFY(stepDown);
    QTRY_VERIFY(stepDown->isEnabled());
    stepDown->trigger();
    QMessageBox *confirm = w.pendingConfirmation();
    QVERIFY(confirm);
    const QString radius = confirm->informativeText();
    QVERIFY2(
        radius.contains(QStringLiteral("worker-7")) && radius.contains(QStringLiteral("stepdown")),
        qPrintable(radius));
    QVERIFY(confirm->grab().save(
        QDir(screenshotDir(QStringLiteral("en"))).filePath(QStringLiteral("blast-radius.png"))));

    // Fencing: the term the operator saw ends before they confirm; a new term starts. The
    // delete is guarded by the old term's token, so the new leader is left alone.
    QSignalSpy lost(&leader, &EtcdLeaderLatch::leadershipLost);
    QSignalSpy finished(&w, &MainWindow::actionFinished);
    auto direct = await(m_client->remove(recipe(w, election)->first(Role::Leader)->key));
    QVERIFY(direct.status.isOk());
    QTRY_VERIFY_WITH_TIMEOUT(leader.hasLeadership(), kWaitMs); // it campaigns again: new term
    QPushButton *go = nullptr;
    for (QAbstractButton *b : confirm->buttons()) {
        if (confirm->buttonRole(b) == QMessageBox::AcceptRole)
            go = qobject_cast<QPushButton *>(b);
    }
    QVERIFY(go);
    go->click();
    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, kWaitMs);
    QCOMPARE(finished.at(0).at(0).toBool(), false);
    QVERIFY(finished.at(0).at(1).toString().contains(QStringLiteral("refused")));

    // Asked again on the current term, it ends it.
    QTRY_VERIFY_WITH_TIMEOUT(recipe(w, election) && recipe(w, election)->first(Role::Leader)
            && recipe(w, election)->first(Role::Leader)->createRevision
                == leader.fencingToken().revision,
        kWaitMs);
    select(w, election);
    lost.clear();
    stepDown->trigger();
    QVERIFY(w.pendingConfirmation());
    for (QAbstractButton *b : w.pendingConfirmation()->buttons()) {
        if (w.pendingConfirmation()->buttonRole(b) == QMessageBox::AcceptRole) {
            b->click();
            break;
        }
    }
    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 2, kWaitMs);
    QCOMPARE(finished.at(1).at(0).toBool(), true);
    QTRY_VERIFY_WITH_TIMEOUT(!lost.isEmpty(), kWaitMs);
    leader.close();
}

void tst_InspectorWindow::revokeFromTheLeasesView()
{
    auto client = connectedClient(m_server.clientUrl());
    EtcdTransientKeyValue doomed(
        client.get(), m_prefix + "services/doomed", "x", 2s, EtcdLeaseResilience {});
    doomed.start();
    MainWindow w(options(false));
    w.show();
    QVERIFY(waitLive(w, 5));
    QTRY_VERIFY_WITH_TIMEOUT(recipe(w, m_prefix + "services/doomed"), kWaitMs);
    const qint64 lease = recipe(w, m_prefix + "services/doomed")->entries.first().lease;
    w.tabs()->setCurrentIndex(MainWindow::LeasesView);
    auto *page = qobject_cast<FilteredPage *>(w.tabs()->currentWidget());
    QVERIFY(page);
    const QModelIndex source = w.leaseModel()->indexOfLease(lease);
    QVERIFY(source.isValid());
    page->view()->setCurrentIndex(page->proxy()->mapFromSource(source));
    QAction *revoke = w.findChild<QAction *>(QStringLiteral("actionRevoke"));
    QVERIFY(revoke && revoke->isEnabled());
    revoke->trigger();
    QVERIFY(w.pendingConfirmation());
    QVERIFY(w.pendingConfirmation()->informativeText().contains(QStringLiteral("doomed")));
    QSignalSpy finished(&w, &MainWindow::actionFinished);
    for (QAbstractButton *b : w.pendingConfirmation()->buttons()) {
        if (w.pendingConfirmation()->buttonRole(b) == QMessageBox::AcceptRole) {
            b->click();
            break;
        }
    }
    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, kWaitMs);
    QVERIFY(finished.at(0).at(0).toBool());
    doomed.close();
}

void tst_InspectorWindow::readOnlyMeansReadOnly()
{
    MainWindow w(options(true));
    w.show();
    QVERIFY(waitLive(w, 5));
    select(w, m_prefix + "locks/db");
    for (const char *name : {"actionStepDown", "actionRelease", "actionLift", "actionRevoke"}) {
        QAction *a = w.findChild<QAction *>(QLatin1String(name));
        QVERIFY2(a, name);
        QVERIFY2(!a->isEnabled(), name);
    }
    const Recipe *lock = recipe(w, m_prefix + "locks/db");
    QVERIFY(lock);
    w.requestAction(actionsFor(*lock).first());
    QVERIFY(!w.pendingConfirmation()); // nothing to confirm: nothing will be sent
}

void tst_InspectorWindow::shortcutsSwitchViews()
{
    MainWindow w(options());
    w.show();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    const std::pair<Qt::Key, int> keys[] = {{Qt::Key_1, MainWindow::OverviewView},
        {Qt::Key_3, MainWindow::LeasesView}, {Qt::Key_4, MainWindow::TimelineView},
        {Qt::Key_5, MainWindow::LogView}, {Qt::Key_6, MainWindow::RawView},
        {Qt::Key_7, MainWindow::ClusterView}, {Qt::Key_2, MainWindow::RecipesView}};
    for (const auto &[key, page] : keys) {
        QTest::keyClick(&w, key, Qt::ControlModifier);
        QCOMPARE(w.tabs()->currentIndex(), page);
    }
    QTest::keyClick(&w, Qt::Key_F, Qt::ControlModifier);
    QTRY_VERIFY(qobject_cast<QLineEdit *>(QApplication::focusWidget()));
    QTest::keyClicks(QApplication::focusWidget(), QStringLiteral("locks"));
    QTRY_VERIFY(w.recipesPage()->proxy()->rowCount() >= 1);
    QVERIFY(w.recipesPage()->proxy()->rowCount() < w.recipeModel()->rowCount());
}

// A page fits its columns to its rows when it is first shown, not while hidden: at 100,000
// keys, fitting the hidden pages made the first view 100 ms longer (bench/inspector_bench.cpp).
void tst_InspectorWindow::pagesFitTheirColumnsWhenFirstShown()
{
    MainWindow w(options());
    w.tabs()->setCurrentIndex(MainWindow::OverviewView); // not the page a last run left
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(waitLive(w, 5));
    auto *tree = qobject_cast<QTreeView *>(w.recipesPage()->view());
    QVERIFY(tree);
    QHeaderView *header = tree->header();
    const int unit = tree->fontMetrics().averageCharWidth();
    const int preset = unit * 30; // MainWindow's, for a first column not yet measured
    QCOMPARE(header->sectionSize(0), preset);
    w.tabs()->setCurrentIndex(MainWindow::RecipesView);
    const int content
        = std::max(header->sectionSizeHint(0), w.recipesPage()->view()->sizeHintForColumn(0));
    const int fitted = std::min(content + 8, unit * 40);
    QVERIFY(fitted != preset); // else the test could not tell
    QCOMPARE(header->sectionSize(0), fitted);
}

void tst_InspectorWindow::layoutAndThemeAreRemembered()
{
    {
        MainWindow w(options());
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.resize(900, 610);
        w.tabs()->setCurrentIndex(MainWindow::LogView);
        QAction *dark = w.findChild<QAction *>(QStringLiteral("actionDarkTheme"));
        QVERIFY(dark);
        dark->setChecked(true);
        w.close();
    }
    MainWindow again(options());
    QCOMPARE(again.tabs()->currentIndex(), int(MainWindow::LogView));
    QCOMPARE(again.size(), QSize(900, 610));
    QVERIFY(savedThemeIsDark());
    QAction *dark = again.findChild<QAction *>(QStringLiteral("actionDarkTheme"));
    QVERIFY(dark && dark->isChecked());
    dark->setChecked(false);
    QVERIFY(!savedThemeIsDark());
}

namespace {
void confirm(MainWindow &w)
{
    QMessageBox *box = w.pendingConfirmation();
    QVERIFY(box);
    for (QAbstractButton *b : box->buttons()) {
        if (box->buttonRole(b) == QMessageBox::AcceptRole)
            return b->click();
    }
    QFAIL("the confirmation offers no way to go ahead");
}
} // namespace

// The holder of locks/db is released from the window: the next contender in line gets it.
// The gate barrier is lifted: its key goes, and a waiter at the gate passes.
void tst_InspectorWindow::releaseLockAndLiftBarrier()
{
    MainWindow w(options(false));
    w.show();
    QVERIFY(waitLive(w, 5));
    const QByteArray lock = m_prefix + "locks/db";
    QTRY_VERIFY_WITH_TIMEOUT(recipe(w, lock) && recipe(w, lock)->count(Role::Waiter) >= 1, kWaitMs);
    const qint64 holderToken = recipe(w, lock)->first(Role::Holder)->createRevision;
    const QString next = recipe(w, lock)->first(Role::Waiter)->owner.isEmpty()
        ? QString::number(recipe(w, lock)->first(Role::Waiter)->lease, 16)
        : recipe(w, lock)->first(Role::Waiter)->owner;
    select(w, lock);
    QAction *release = w.findChild<QAction *>(QStringLiteral("actionRelease"));
    QVERIFY(release && release->isEnabled());
    release->trigger();
    QVERIFY(w.pendingConfirmation());
    QVERIFY2(w.pendingConfirmation()->informativeText().contains(next),
        qPrintable(w.pendingConfirmation()->informativeText()));
    QSignalSpy finished(&w, &MainWindow::actionFinished);
    confirm(w);
    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, kWaitMs);
    QVERIFY(finished.at(0).at(0).toBool());
    QTRY_VERIFY_WITH_TIMEOUT(recipe(w, lock) && recipe(w, lock)->first(Role::Holder)
            && recipe(w, lock)->first(Role::Holder)->createRevision > holderToken,
        kWaitMs);

    const QByteArray gate = m_prefix + "gate";
    QVERIFY(recipe(w, gate));
    select(w, gate);
    QAction *lift = w.findChild<QAction *>(QStringLiteral("actionLift"));
    QVERIFY(lift && lift->isEnabled());
    // Someone waits at the gate; lifting it lets them through.
    EtcdBarrier waiter(m_client2.get(), gate);
    QSignalSpy lifted(&waiter, &EtcdBarrier::lifted);
    waiter.startWaiting();
    QTRY_VERIFY_WITH_TIMEOUT(waiter.waiterCount() >= 1, kWaitMs);
    QVERIFY(lifted.isEmpty());
    lift->trigger();
    confirm(w);
    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 2, kWaitMs);
    QVERIFY(finished.at(1).at(0).toBool());
    QTRY_VERIFY_WITH_TIMEOUT(!recipe(w, gate), kWaitMs);
    QTRY_COMPARE_WITH_TIMEOUT(lifted.size(), 1, kWaitMs);
}

// A work queue as etcd-recipes' DistributedWorkQueue leaves it mid-flight, its keys written
// as the Kotlin library writes them: pending items, an item claimed by a live consumer (on a
// lease of its own), an orphaned claim, a dead letter after 5 attempts, a delayed item. The
// details pane names each, with the claim's TTL; a screenshot of it lands in the build tree
// (tests/gui/screenshots/en/work-queue.png).
void tst_InspectorWindow::workQueueDetails()
{
    const QByteArray w = m_prefix + "work";
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    const auto name = [](qint64 millis, const char *tag) {
        return QByteArray::number(millis).rightJustified(19, '0') + '-' + tag;
    };
    const QByteArray live = name(now - 4000, "cLm");
    const QByteArray orphan = name(now - 9000, "oRf");
    const QByteArray dead = name(now - 60'000, "dE4");
    auto lease = await(m_client->grantLease(60s));
    QVERIFY(lease.status.isOk());
    EtcdPutOptions onLease;
    onLease.lease = lease->leaseId();
    const QList<std::pair<QByteArray, QByteArray>> keys {
        {w + "/items/" + name(now - 2000, "aB3"), "resize photo 1811"},
        {w + "/items/" + name(now - 1000, "xY9"), "resize photo 1812"},
        {w + "/claimed/" + live, "resize photo 1809"},
        {w + "/attempts/" + live, QByteArray::fromHex("00000001")},
        {w + "/claimed/" + orphan, "resize photo 1808"},
        {w + "/attempts/" + orphan, QByteArray::fromHex("00000003")},
        {w + "/dlq/" + dead,
            "resize photo \x01"
            "corrupt"},
        {w + "/attempts/" + dead, QByteArray::fromHex("00000005")},
        {w + "/delayed/" + name(now + 600'000, "lAt"), "nightly report"}};
    for (const auto &[key, value] : keys)
        QVERIFY(await(m_client->put(key, value)).status.isOk());
    QVERIFY(await(m_client->put(w + "/claims/" + live, "DistributedWorkQueue:kOtLiN1", onLease))
                .status.isOk());

    MainWindow window(options());
    window.resize(1400, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(waitLive(window, 5));
    QTRY_VERIFY_WITH_TIMEOUT(recipe(window, w) && recipe(window, w)->entries.size() == 10, kWaitMs);
    QCOMPARE(recipe(window, w)->kind, Etcd::Decode::Kind::WorkQueue);
    QTRY_VERIFY_WITH_TIMEOUT(
        window.session()->leaseClock().sample(lease->leaseId()).has_value(), kWaitMs);
    select(window, w);
    auto *tree = qobject_cast<QTreeView *>(window.recipesPage()->view());
    QVERIFY(tree);
    tree->expand(tree->currentIndex());
    const QString details = window.recipesPage()->details()->toPlainText();
    QVERIFY2(
        details.contains(QStringLiteral("2 pending, 2 in flight, 1 dead, 1 delayed, 1 orphaned")),
        qPrintable(details));
    QVERIFY2(details.contains(
                 QStringLiteral("%1: consumer DistributedWorkQueue:kOtLiN1, attempt 1, "
                                "lease %2, TTL ")
                     .arg(QString::fromLatin1(live), QString::number(lease->leaseId(), 16))),
        qPrintable(details));
    QVERIFY(!details.contains(QStringLiteral("TTL ?")));
    QVERIFY(details.contains(
        QStringLiteral("%1: orphaned: reclaimable (attempt 3").arg(QString::fromLatin1(orphan))));
    QVERIFY(details.contains(QStringLiteral("%1: 5 attempt(s), resize photo \\x01corrupt")
                                 .arg(QString::fromLatin1(dead))));
    QVERIFY(details.contains(QStringLiteral("Delayed: 1")));
    QVERIFY(details.contains(QStringLiteral("Head: resize photo 1811")));
    const QString shot
        = QDir(screenshotDir(QStringLiteral("en"))).filePath(QStringLiteral("work-queue.png"));
    QVERIFY(QDir().mkpath(screenshotDir(QStringLiteral("en"))));
    QVERIFY(window.grab().save(shot));
    QVERIFY(await(m_client->revokeLease(lease->leaseId())).status.isOk());
    // The consumer's lease ends: its claim goes with it, and its item is orphaned too.
    QTRY_VERIFY_WITH_TIMEOUT(recipe(window, w) && orphanedClaims(*recipe(window, w)) == 2, kWaitMs);
    QTRY_VERIFY_WITH_TIMEOUT(window.recipesPage()->details()->toPlainText().contains(
                                 QStringLiteral("2 orphaned: reclaimable")),
        kWaitMs);
}

void tst_InspectorWindow::profilesNeverStoreThePassword()
{
    const QString secret
        = QStringLiteral("s3cret-pw-%1").arg(QRandomGenerator::global()->generate());
    ConnectDialog dialog;
    ConnectionProfile p;
    p.name = QStringLiteral("staging/eu");
    p.endpoints = QStringLiteral("https://etcd-1.example:2379,https://etcd-2.example:2379");
    p.prefix = QStringLiteral("/app/");
    p.user = QStringLiteral("operator");
    dialog.showProfile(p);
    const auto edits = dialog.findChildren<QLineEdit *>();
    QLineEdit *password = nullptr;
    for (QLineEdit *e : edits) {
        if (e->echoMode() == QLineEdit::Password)
            password = e;
    }
    QVERIFY(password);
    password->setText(secret);
    for (QPushButton *b : dialog.findChildren<QPushButton *>()) {
        if (b->text().remove(u'&') == QLatin1String("Save profile"))
            b->click();
    }
    const auto loaded = loadProfile(p.name);
    QVERIFY(loaded);
    QCOMPARE(loaded->endpoints, p.endpoints);
    QCOMPARE(loaded->user, p.user);
    QCOMPARE(dialog.options().password, secret); // in memory, for this connection only
    QSettings().sync();
    QFile file(QSettings().fileName());
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray stored = file.readAll();
    QVERIFY(stored.contains("etcd-1.example"));
    QVERIFY(!stored.contains(secret.toUtf8()));

    // Bad input is refused in the dialog, with the reason shown; it stays open.
    p.endpoints = QStringLiteral("etcd-1.example");
    dialog.showProfile(p);
    dialog.show();
    dialog.accept();
    QVERIFY(dialog.isVisible());
    QCOMPARE(dialog.result(), int(QDialog::Rejected));
    removeProfile(p.name);
    QVERIFY(!loadProfile(p.name));
}

// --sandbox: a private etcd and its workload, shown live; closing the window ends them all.
void tst_InspectorWindow::sandboxEndsWithTheWindow()
{
    LaunchOptions o;
    o.sandbox = true;
    MainWindow w(o);
    w.show();
    QTRY_VERIFY_WITH_TIMEOUT(w.sandbox() && w.sandbox()->isRunning(), 3 * kWaitMs);
    QVERIFY(QTest::qWaitFor(
        [&] {
            return w.session()->phase() == InspectorSession::Phase::Live
                && w.recipeModel()->rowCount() >= 5;
        },
        3 * kWaitMs));
    QVERIFY(w.recipeModel()->indexOfPath(Sandbox::prefix() + "/election").isValid());
    const QList<qint64> pids = w.sandbox()->processIds();
    const QString dir = w.sandbox()->directory();
    QVERIFY(pids.size() >= 5);
    w.close();
    for (qint64 pid : pids)
        QVERIFY2(::kill(pid_t(pid), 0) != 0, qPrintable(QString::number(pid)));
    QVERIFY(!QDir(dir).exists());
}

void tst_InspectorWindow::launchOptions_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("error"); // empty: accepted
    const QString ep = QStringLiteral("--endpoints=http://127.0.0.1:2379");
    QTest::newRow("defaults: read-only, nothing to connect to") << QStringList() << QString();
    QTest::newRow("endpoints") << QStringList {ep} << QString();
    QTest::newRow("writes on") << QStringList {ep, QStringLiteral("--read-only=false")}
                               << QString();
    QTest::newRow("read-only maybe")
        << QStringList {ep, QStringLiteral("--read-only=maybe")} << QStringLiteral("true or false");
    QTest::newRow("no port") << QStringList {QStringLiteral("--endpoints=http://127.0.0.1")}
                             << QStringLiteral("not of the form");
    QTest::newRow("empty prefix") << QStringList {ep, QStringLiteral("--prefix=")}
                                  << QStringLiteral("prefix must not be empty");
    QTest::newRow("unreadable key") << QStringList {ep, QStringLiteral("--cert=/etc/hostname"),
        QStringLiteral("--key=/no/such.key")}
                                    << QStringLiteral("cannot be read");
    QTest::newRow("blue theme") << QStringList {QStringLiteral("--theme=blue")}
                                << QStringLiteral("light or dark");
    QTest::newRow("sandbox and endpoints")
        << QStringList {ep, QStringLiteral("--sandbox")} << QStringLiteral("cannot be combined");
    QTest::newRow("unknown profile")
        << QStringList {QStringLiteral("--profile=nope")} << QStringLiteral("No saved profile");
    QTest::newRow("stray argument")
        << QStringList {QStringLiteral("oops")} << QStringLiteral("Unexpected argument");
}

void tst_InspectorWindow::launchOptions()
{
    QFETCH(QStringList, args);
    QFETCH(QString, error);
    LaunchOptions o;
    QString why;
    const bool ok
        = parseLaunchOptions(QStringList {QStringLiteral("etcdqt-inspector")} + args, &o, &why);
    QCOMPARE(ok, error.isEmpty());
    if (!ok) {
        QVERIFY2(why.contains(error), qPrintable(why));
        return;
    }
    QCOMPARE(o.readOnly, !args.contains(QStringLiteral("--read-only=false")));
    QCOMPARE(o.connectNow, !args.isEmpty());
}

QTEST_MAIN(tst_InspectorWindow)
#include "tst_inspectorwindow.moc"
