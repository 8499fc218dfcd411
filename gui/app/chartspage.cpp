// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "chartspage.h"
#include "pages.h"

#include "eventlogmodel.h"
#include "leasemodel.h"
#include "modelclock.h"
#include "recipetext.h"
#include "timelinemodel.h"

#include <QtCharts/qbarcategoryaxis.h>
#include <QtCharts/qbarseries.h>
#include <QtCharts/qbarset.h>
#include <QtCharts/qchart.h>
#include <QtCharts/qchartview.h>
#include <QtCharts/qhorizontalbarseries.h>
#include <QtCharts/qlineseries.h>
#include <QtCharts/qvalueaxis.h>
#include <QtCore/qdatetime.h>
#include <QtWidgets/qboxlayout.h>
#include <QtWidgets/qgridlayout.h>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace Inspector {

namespace {
constexpr int kElectionsDrawn = 6; // the busiest; a legend of dozens reads as noise
constexpr int kLocksDrawn = 8;

// The chart's axes go with its series: replaced whole on every redraw.
void resetAxes(QChart *chart)
{
    chart->removeAllSeries();
    for (QAbstractAxis *axis : chart->axes()) {
        chart->removeAxis(axis);
        delete axis;
    }
}

QValueAxis *valueAxis(
    QChart *chart, Qt::Alignment where, double min, double max, const QString &title)
{
    auto *axis = new QValueAxis(chart);
    axis->setRange(min, max);
    axis->setTitleText(title);
    // Whole numbers only, about five of them, one at 0: counts and ages read as integers.
    axis->setLabelFormat(QStringLiteral("%d"));
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setTickAnchor(0);
    axis->setTickInterval(std::max(1.0, std::ceil((max - min) / 5.0)));
    chart->addAxis(axis, where);
    return axis;
}
} // namespace

ChartsPage::ChartsPage(TimelineModel *timeline, EventLogModel *log, LeaseModel *leases,
    const LeaseClock *clock, QWidget *parent)
    : QWidget(parent), m_timeline(timeline), m_log(log), m_leases(leases), m_clock(clock)
{
    setObjectName(QStringLiteral("charts"));
    auto *grid = new QGridLayout(this);
    grid->setContentsMargins(4, 4, 4, 4);
    m_refresh.setInterval(kRefreshMs);
    connect(&m_refresh, &QTimer::timeout, this, &ChartsPage::refresh);
    runWhileShown(&m_refresh, this);
}

// The charts (four graphics scenes) are made the first time the page shows, and redrawn only
// while it shows: a hidden page costs the busy GUI thread nothing but the events/s count. They
// are made one per turn of the event loop: each scene's first layout and paint costs about 20 ms
// at 10,000 keys, and all four in one turn stalled the window for 75-110 ms.
void ChartsPage::addNextChart()
{
    const int i = int(m_views.size());
    if (i == kCharts)
        return;
    static const char *const titles[kCharts]
        = {QT_TR_NOOP("New leaders per minute"), QT_TR_NOOP("Lock wait and hold, median (ms)"),
            QT_TR_NOOP("Watch events per second"), QT_TR_NOOP("Leases by granted TTL")};
    addChart(tr(titles[i]), i / 2, i % 2);
    draw(i);
    if (i + 1 < kCharts)
        QTimer::singleShot(0, this, &ChartsPage::addNextChart);
}

void ChartsPage::finishCharts()
{
    while (m_views.size() < kCharts)
        addNextChart(); // each call queues the next as well: those find nothing left to add
}

QChartView *ChartsPage::addChart(const QString &title, int row, int column)
{
    auto *chart = new QChart;
    chart->setTitle(title);
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setAnimationOptions(QChart::NoAnimation); // redrawn every 2 s: no motion for that
    auto *view = new QChartView(chart, this);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumSize(280, 200);
    static_cast<QGridLayout *>(layout())->addWidget(view, row, column);
    m_views.append(view);
    return view;
}

void ChartsPage::noteWatchEvents(int count)
{
    m_eventRate.add(count, monotonicMs());
}

void ChartsPage::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    refresh();
    if (m_views.isEmpty())
        addNextChart();
}

void ChartsPage::refresh()
{
    QList<HandOff> handOffs;
    for (int row = 0; row < m_timeline->rowCount(); ++row)
        handOffs.append(m_timeline->handOffAt(row));
    m_handOffs = Stats::handOffsPerMinute(handOffs, QDateTime::currentDateTime(), kMinutes);
    QList<RecipeEvent> events;
    for (int row = 0; row < m_log->rowCount(); ++row)
        events.append(m_log->eventAt(row));
    m_locks = Stats::lockTimes(events);
    m_rate = m_eventRate.perSecond(monotonicMs());
    m_buckets = Stats::leasesByGrantedTtl(m_leases->leases(), *m_clock);
    for (int i = 0; i < m_views.size(); ++i)
        draw(i);
}

void ChartsPage::draw(int chart)
{
    applyTheme(m_views[chart]->chart());
    switch (chart) {
    case 0:
        return drawHandOffs();
    case 1:
        return drawLocks();
    case 2:
        return drawRate();
    default:
        return drawBuckets();
    }
}

// The charts follow the window's palette (Qt 6.4 has no colour-scheme API: the inspector's
// dark theme is a palette of its own).
void ChartsPage::applyTheme(QChart *chart)
{
    const bool dark = palette().color(QPalette::Window).lightness() < 128;
    const auto theme = dark ? QChart::ChartThemeDark : QChart::ChartThemeLight;
    if (chart->theme() != theme)
        chart->setTheme(theme);
}

void ChartsPage::drawHandOffs()
{
    QChart *chart = m_views[0]->chart();
    resetAxes(chart);
    QList<QByteArray> busiest = m_handOffs.keys();
    const auto total = [this](const QByteArray &e) {
        const QList<int> &c = m_handOffs[e];
        return std::accumulate(c.cbegin(), c.cend(), 0);
    };
    std::sort(busiest.begin(), busiest.end(), [&](const QByteArray &a, const QByteArray &b) {
        return total(a) != total(b) ? total(a) > total(b) : a < b;
    });
    busiest = busiest.mid(0, kElectionsDrawn);
    int most = 1;
    auto *x = valueAxis(chart, Qt::AlignBottom, -(kMinutes - 1), 0, tr("minutes ago"));
    for (const QByteArray &e : std::as_const(busiest)) {
        auto *series = new QLineSeries(chart);
        series->setName(RecipeText::lastSegment(e));
        const QList<int> &counts = m_handOffs[e];
        for (int i = 0; i < counts.size(); ++i) {
            series->append(i - (kMinutes - 1), counts[i]);
            most = std::max(most, counts[i]);
        }
        chart->addSeries(series);
        series->attachAxis(x);
    }
    auto *y = valueAxis(chart, Qt::AlignLeft, 0, most + 1, QString());
    for (QAbstractSeries *s : chart->series())
        s->attachAxis(y);
}

void ChartsPage::drawLocks()
{
    QChart *chart = m_views[1]->chart();
    resetAxes(chart);
    QList<Stats::LockTimes> locks = m_locks;
    std::sort(locks.begin(), locks.end(), [](const auto &a, const auto &b) {
        return a.holdsMs.size() + a.waitsMs.size() > b.holdsMs.size() + b.waitsMs.size();
    });
    locks = locks.mid(0, kLocksDrawn);
    auto *wait = new QBarSet(tr("wait"));
    auto *hold = new QBarSet(tr("hold"));
    QStringList names;
    qint64 most = 1;
    for (const Stats::LockTimes &t : std::as_const(locks)) {
        names.append(RecipeText::lastSegment(t.path));
        const qint64 w = Stats::median(t.waitsMs);
        const qint64 h = Stats::median(t.holdsMs);
        *wait << double(w);
        *hold << double(h);
        most = std::max({most, w, h});
    }
    auto *series = new QHorizontalBarSeries(chart);
    series->append(wait);
    series->append(hold);
    chart->addSeries(series);
    auto *categories = new QBarCategoryAxis(chart);
    categories->append(names);
    chart->addAxis(categories, Qt::AlignLeft);
    series->attachAxis(categories);
    series->attachAxis(valueAxis(chart, Qt::AlignBottom, 0, double(most) * 1.1, tr("ms")));
}

void ChartsPage::drawRate()
{
    QChart *chart = m_views[2]->chart();
    resetAxes(chart);
    auto *series = new QLineSeries(chart);
    series->setName(tr("events/s"));
    int most = 1;
    for (int i = 0; i < m_rate.size(); ++i) {
        series->append(i - (kSeconds - 1), m_rate[i]);
        most = std::max(most, m_rate[i]);
    }
    chart->addSeries(series);
    series->attachAxis(valueAxis(chart, Qt::AlignBottom, -(kSeconds - 1), 0, tr("seconds ago")));
    series->attachAxis(valueAxis(chart, Qt::AlignLeft, 0, most * 1.2, QString()));
    chart->legend()->hide();
}

void ChartsPage::drawBuckets()
{
    QChart *chart = m_views[3]->chart();
    resetAxes(chart);
    auto *set = new QBarSet(tr("leases"));
    QStringList labels;
    int most = 1;
    for (const Stats::TtlBucket &b : std::as_const(m_buckets)) {
        labels.append(b.upToSeconds == 0 ? tr("?", "granted TTL not known yet")
                : b.upToSeconds < 60     ? tr("%1 s").arg(b.upToSeconds)
                : b.upToSeconds < 3600   ? tr("%1 min").arg(b.upToSeconds / 60)
                : b.upToSeconds <= 86400 ? tr("%1 h").arg(b.upToSeconds / 3600)
                                         : tr("more"));
        *set << b.count;
        most = std::max(most, b.count);
    }
    auto *series = new QBarSeries(chart);
    series->append(set);
    chart->addSeries(series);
    auto *categories = new QBarCategoryAxis(chart);
    categories->append(labels);
    categories->setTitleText(tr("granted TTL, up to"));
    categories->setTruncateLabels(false); // at 1100 px wide, "1 min" read "1 …"
    chart->addAxis(categories, Qt::AlignBottom);
    series->attachAxis(categories);
    series->attachAxis(valueAxis(chart, Qt::AlignLeft, 0, most + 1, QString()));
    chart->legend()->hide();
}

} // namespace Inspector
