// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// The Overview and the timeline picture against a real etcd (issue 23): a hand-off moves the
// election card's highlight to the new leader within a second, sliding there; a TTL ring's
// fill matches the lease's real countdown within 5 %; the keyboard reaches every card and
// folds groups; Enter opens the recipe in the Recipes view; a term shorter than the
// coalescing window is still a bar of its own.
#include "../integration/testutil.h"

#include <etcdtestserver.h>

#include <chartspage.h>
#include <leasemodel.h>
#include <mainwindow.h>
#include <overviewpage.h>
#include <pages.h>
#include <recipemodel.h>
#include <termschart.h>
#include <timelinemodel.h>

#include <QtCore/qdir.h>
#include <QtCore/qelapsedtimer.h>

#include <QtCharts/qchartview.h>
#include <QtCore/qrandom.h>
#include <QtCore/qsortfilterproxymodel.h>
#include <QtWidgets/qabstractitemview.h>
#include <QtWidgets/qtabwidget.h>
#include <numeric>

using namespace Inspector;
using namespace std::chrono_literals;
using namespace Qt::StringLiterals;

namespace {
constexpr int kTtlMs = 2000; // the recipes' leases: etcd's minimum
constexpr int kWaitMs = 5 * kTtlMs;
constexpr qint64 kRingLeaseS = 30; // the ring's lease: long, so a second is 3 % of it

EtcdLeaderSelectorOptions latchOptions(const QString &id)
{
    EtcdLeaderSelectorOptions o;
    o.clientId = id;
    o.ttl = std::chrono::seconds(kTtlMs / 1000);
    return o;
}
} // namespace

class tst_InspectorOverview : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        ETCDQT_START_OR_SKIP(m_server);
        m_prefix
            = "/overview-" + QByteArray::number(QRandomGenerator::global()->generate(), 16) + '/';
        for (auto *c : {&m_a, &m_b}) {
            *c = std::make_unique<EtcdClient>(QList<QUrl> {m_server.clientUrl()});
            (*c)->connectToEndpoints();
        }
        for (int i = 0; i < 3; ++i) // three groups of cards, for the keyboard
            QVERIFY_OK(await(m_a->put(m_prefix + "g" + QByteArray::number(i) + "/n",
                                 QByteArray("\0\0\0\0\0\0\0\x07", 8)))
                           .status);
        LaunchOptions o;
        o.session.endpoints = {m_server.clientUrl()};
        o.session.prefix = m_prefix;
        o.connectNow = true;
        m_window = std::make_unique<MainWindow>(o);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        m_window->tabs()->setCurrentIndex(MainWindow::OverviewView);
    }

    void cleanupTestCase() { m_window.reset(); }

    void handOffMovesTheHighlightWithinASecond()
    {
        const QByteArray path = m_prefix + "election";
        EtcdLeaderLatch first(m_a.get(), path, latchOptions(QStringLiteral("first")));
        QVERIFY(first.start());
        QTRY_VERIFY_WITH_TIMEOUT(first.hasLeadership(), kWaitMs);
        EtcdLeaderLatch second(m_b.get(), path, latchOptions(QStringLiteral("second")));
        QVERIFY(second.start());
        OverviewPage *overview = m_window->overviewPage();
        QTRY_COMPARE_WITH_TIMEOUT(
            overview->highlightedOwner(path), QStringLiteral("first"), kWaitMs);

        QElapsedTimer sinceElected;
        connect(&second, &EtcdLeaderLatch::elected, this, [&] { sinceElected.start(); });
        first.close();
        QTRY_VERIFY_WITH_TIMEOUT(sinceElected.isValid(), kWaitMs);
        QVERIFY(QTest::qWaitFor(
            [&] { return overview->highlightedOwner(path) == QLatin1String("second"); }, kWaitMs));
        qInfo("highlight on the new leader %lld ms after its election", sinceElected.elapsed());
        QVERIFY(sinceElected.elapsed() < 1000);
        // The hand-off is animated (the old leader's chip left with it: the highlight fades in
        // on the new one), and the animation ends.
        QVERIFY(overview->isAnimating(path));
        QTRY_VERIFY_WITH_TIMEOUT(!overview->isAnimating(path), 4 * OverviewPage::kSlideMs);
        second.close();
    }

    // A lease nobody renews drains by the wall clock: the ring's fill at any moment is the
    // share of its grant left, within 5 % (etcd's TTL answers are whole seconds: 3 % of it).
    void ttlRingFollowsTheLeaseClock()
    {
        QElapsedTimer sinceGrant;
        sinceGrant.start();
        const auto grant = await(m_a->grantLease(std::chrono::seconds(kRingLeaseS)));
        QVERIFY_OK(grant.status);
        const qint64 lease = grant->leaseId();
        EtcdPutOptions put;
        put.lease = lease;
        const QByteArray path = m_prefix + "ring";
        QVERIFY_OK(await(m_a->put(path, "ring", put)).status);
        OverviewPage *overview = m_window->overviewPage();
        QTRY_VERIFY_WITH_TIMEOUT(
            overview->ringFill(path, QStringLiteral("ring")).has_value(), kWaitMs);
        for (int i = 0; i < 4; ++i) {
            const double fill = *overview->ringFill(path, QStringLiteral("ring"));
            const double expected = 1.0 - double(sinceGrant.elapsed()) / (kRingLeaseS * 1000.0);
            qInfo("ring %.3f, lease clock by the test %.3f", fill, expected);
            QVERIFY2(
                std::abs(fill - expected) <= 0.05, qPrintable(QString::number(fill - expected)));
            QTest::qWait(700); // a few points along the drain, each checked as it is
        }
        QVERIFY_OK(await(m_a->revokeLease(lease)).status);
    }

    void keyboardReachesEveryCardAndFoldsGroups()
    {
        OverviewPage *overview = m_window->overviewPage();
        QTRY_VERIFY_WITH_TIMEOUT(overview->cardCount() >= 3, kWaitMs);
        overview->setFocus(Qt::OtherFocusReason);
        QTRY_VERIFY(overview->hasFocus());
        QTest::keyClick(overview, Qt::Key_Home);
        QSet<QByteArray> visited;
        QByteArray last;
        for (int i = 0; i < 4 * overview->cardCount() + 10; ++i) {
            if (!overview->currentPath().isEmpty())
                visited.insert(overview->currentPath());
            QTest::keyClick(overview, Qt::Key_Right);
        }
        QCOMPARE(int(visited.size()), overview->cardCount());
        // Space folds the current card's group, and again unfolds it.
        QVERIFY(overview->setCurrentPath(m_prefix + "g1/n"));
        const QByteArray group = m_prefix + "g1/";
        QTest::keyClick(overview, Qt::Key_Space);
        QVERIFY(overview->isCollapsed(group));
        QCOMPARE(overview->currentGroup(), group); // the focus went to the folded header
        QTest::keyClick(overview, Qt::Key_Space);
        QVERIFY(!overview->isCollapsed(group));
    }

    void enterOpensTheRecipe()
    {
        OverviewPage *overview = m_window->overviewPage();
        const QByteArray path = m_prefix + "g2/n";
        QTRY_VERIFY_WITH_TIMEOUT(overview->setCurrentPath(path), kWaitMs);
        overview->setFocus(Qt::OtherFocusReason);
        QTest::keyClick(overview, Qt::Key_Return);
        QCOMPARE(m_window->tabs()->currentIndex(), int(MainWindow::RecipesView));
        const QModelIndex current = m_window->recipesPage()->proxy()->mapToSource(
            m_window->recipesPage()->view()->currentIndex());
        QCOMPARE(current, m_window->recipeModel()->indexOfPath(path));
        m_window->tabs()->setCurrentIndex(MainWindow::OverviewView);
    }

    // Both candidates stay (a leader that resigned and queued again): the highlight slides
    // from the old leader's chip to the new one's, which keep their places.
    void highlightSlidesBetweenChipsThatStay()
    {
        using namespace Etcd::Decode;
        const auto entry = [](Role role, const QString &owner, qint64 revision) {
            Entry e;
            e.role = role;
            e.owner = owner;
            e.key = "/e/" + owner.toUtf8() + QByteArray::number(revision);
            e.createRevision = revision;
            return e;
        };
        const auto viewLedBy = [&](const QString &leader, qint64 term) {
            Recipe r;
            r.kind = Kind::Election;
            r.path = "/e";
            r.entries = {entry(Role::Leader, leader, term), entry(Role::Participant, u"a"_s, 10),
                entry(Role::Participant, u"b"_s, 11)};
            View v;
            v.prefix = "/";
            v.recipes = {r};
            return v;
        };
        OverviewPage page;
        page.resize(800, 400);
        page.setView(viewLedBy(u"a"_s, 12));
        QCOMPARE(page.highlightedOwner("/e"), u"a"_s);
        QVERIFY(!page.isAnimating("/e"));
        page.setView(viewLedBy(u"b"_s, 20));
        QCOMPARE(page.highlightedOwner("/e"), u"b"_s);
        QVERIFY(page.isAnimating("/e"));
        QTRY_VERIFY_WITH_TIMEOUT(!page.isAnimating("/e"), 4 * OverviewPage::kSlideMs);
        page.setView(viewLedBy(u"b"_s, 20)); // no hand-off, no animation
        QVERIFY(!page.isAnimating("/e"));
    }

    // Three writes in a few milliseconds, well inside one 100 ms coalescing window: a term
    // starts, ends, and the next begins. The views before and after show only the second
    // leader; the events show both terms, and each is a bar.
    void termShorterThanTheWindowIsItsOwnBar()
    {
        const QByteArray election = m_prefix + "blink";
        const QByteArray leader = election + "/LEADER";
        const auto grant = await(m_a->grantLease(10s));
        QVERIFY_OK(grant.status);
        EtcdPutOptions put;
        put.lease = grant->leaseId();
        QVERIFY_OK(await(m_a->put(leader, "brief:abcdefg", put)).status);
        QVERIFY_OK(await(m_a->remove(leader)).status);
        QVERIFY_OK(await(m_a->put(leader, "steady:hijklmn", put)).status);
        TimelinePage *page = nullptr;
        for (TimelinePage *p : m_window->findChildren<TimelinePage *>())
            page = p;
        QVERIFY(page);
        m_window->tabs()->setCurrentIndex(MainWindow::TimelineView);
        QVERIFY(!page->showsTable()); // the picture is the first mode
        TermsChart *chart = page->chart();
        QTRY_COMPARE_WITH_TIMEOUT(chart->terms(election).size(), 2, kWaitMs);
        const QList<TermsChart::Term> terms = chart->terms(election);
        QCOMPARE(terms[0].owner, u"brief"_s);
        QCOMPARE(terms[1].owner, u"steady"_s);
        QVERIFY(terms[0].end.isValid() && !terms[1].end.isValid());
        QVERIFY(terms[0].start.msecsTo(terms[0].end) < 100); // shorter than the window
        QVERIFY(chart->barRect(election, 0).width() >= 2.0);
        QVERIFY(chart->barRect(election, 0).right() <= chart->barRect(election, 1).left() + 2.0);
        page->showAsTable(true);
        QVERIFY(!chart->isVisible());
        page->showAsTable(false);
        m_window->tabs()->setCurrentIndex(MainWindow::OverviewView);
        QVERIFY_OK(await(m_a->revokeLease(grant->leaseId())).status);
    }

    // The Charts view draws what the session saw: this run's hand-offs in the current minute,
    // watch events per second, every lease in view in a TTL bucket. Its four charts come one
    // per turn of the event loop when it first shows (no single long stall).
    void chartsShowWhatTheSessionSaw()
    {
        ChartsPage *charts = m_window->chartsPage();
        QCOMPARE(charts->chartsMade(), 0); // not shown yet in this run
        m_window->tabs()->setCurrentIndex(MainWindow::ChartsView);
        QCOMPARE(charts->chartsMade(), 1);
        QCoreApplication::processEvents();
        QVERIFY(charts->chartsMade() < ChartsPage::kCharts);
        QTRY_COMPARE(charts->chartsMade(), ChartsPage::kCharts);
        QCOMPARE(charts->findChildren<QChartView *>().size(), ChartsPage::kCharts);
        const QByteArray election = m_prefix + "election"; // handed off by the first test
        QTRY_VERIFY_WITH_TIMEOUT(
            charts->handOffsShown().value(election).size() == ChartsPage::kMinutes, kWaitMs);
        const QList<int> perMinute = charts->handOffsShown().value(election);
        QVERIFY(std::accumulate(perMinute.cbegin(), perMinute.cend(), 0) >= 2); // first, second
        QVERIFY(perMinute.last() + perMinute.at(ChartsPage::kMinutes - 2) >= 1);
        const QList<int> rate = charts->eventRateShown();
        QVERIFY(std::accumulate(rate.cbegin(), rate.cend(), 0) > 0);
        int leases = 0;
        for (const auto &b : charts->bucketsShown())
            leases += b.count;
        QCOMPARE(leases, int(m_window->leaseModel()->leases().size()));
        m_window->tabs()->setCurrentIndex(MainWindow::OverviewView);
    }

    // 200 recipes in ten groups: every group is a header, the big one starts folded (and
    // opens with Space), the screenshot reads (tests/gui/screenshots/overview-200.png).
    void twoHundredRecipesStayReadable()
    {
        const QByteArray many = m_prefix + "many/";
        for (int g = 0; g < 9; ++g) {
            EtcdTxn txn;
            for (int i = 0; i < 16; ++i)
                txn.success.append(EtcdTxnOp::put(
                    many + "g" + QByteArray::number(g) + "/c" + QByteArray::number(i),
                    QByteArray("\0\0\0\0\0\0\0\x01", 8)));
            QVERIFY_OK(await(m_a->txn(txn)).status);
        }
        EtcdTxn big;
        for (int i = 0; i < OverviewPage::kFoldAbove + 32; ++i)
            big.success.append(EtcdTxnOp::put(
                many + "big/c" + QByteArray::number(i), QByteArray("\0\0\0\0\0\0\0\x02", 8)));
        QVERIFY_OK(await(m_a->txn(big)).status);
        OverviewPage *overview = m_window->overviewPage();
        QTRY_VERIFY_WITH_TIMEOUT(overview->cardCount() >= 200, kWaitMs);
        QVERIFY(overview->isCollapsed(many + "big/"));
        QVERIFY(!overview->isCollapsed(many + "g3/"));
        const QSize was = m_window->size();
        m_window->resize(1100, 680);
        QVERIFY(m_window->grab().save(QDir(QCoreApplication::applicationDirPath())
                                          .filePath(u"screenshots/overview-200.png"_s)));
        m_window->resize(was);
        overview->setCollapsed(many + "big/", false);
        QVERIFY(overview->setCurrentPath(many + "big/c7"));
        QTest::keyClick(overview, Qt::Key_Space);
        QVERIFY(overview->isCollapsed(many + "big/"));
        QVERIFY_OK(await(m_a->remove(many,
                             [] {
                                 EtcdDeleteOptions o;
                                 o.prefix = true;
                                 return o;
                             }()))
                       .status);
    }

private:
    EtcdTestServer m_server;
    QByteArray m_prefix;
    std::unique_ptr<EtcdClient> m_a;
    std::unique_ptr<EtcdClient> m_b;
    std::unique_ptr<MainWindow> m_window;
};

QTEST_MAIN(tst_InspectorOverview)
#include "tst_inspectoroverview.moc"
