// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// The Charts view (Qt Charts): hand-offs per minute per election, the median wait for and
// hold of each lock, watch events per second, and the leases in view by granted TTL. Drawn
// from what the other views keep (no extra request to etcd), every two seconds while shown.
#pragma once

#include "inspectorstats.h"

#include <QtCore/qtimer.h>
#include <QtWidgets/qwidget.h>

class QChart;
class QChartView;

namespace Inspector {

class EventLogModel;
class LeaseModel;
class TimelineModel;

class ChartsPage : public QWidget
{
    Q_OBJECT
public:
    static constexpr int kMinutes = 30; // the hand-offs chart's window
    static constexpr int kSeconds = 120; // the events/s chart's window
    static constexpr int kRefreshMs = 2000;
    static constexpr int kCharts = 4;

    ChartsPage(TimelineModel *timeline, EventLogModel *log, LeaseModel *leases,
        const LeaseClock *clock, QWidget *parent = nullptr);

    void noteWatchEvents(int count);
    void refresh();
    // Makes at once the charts not made yet (they come one per turn of the event loop), for a
    // picture of the whole page.
    void finishCharts();
    [[nodiscard]] int chartsMade() const { return int(m_views.size()); }

    // What the charts show, for tests.
    [[nodiscard]] const QHash<QByteArray, QList<int>> &handOffsShown() const { return m_handOffs; }
    [[nodiscard]] const QList<Stats::LockTimes> &lockTimesShown() const { return m_locks; }
    [[nodiscard]] const QList<int> &eventRateShown() const { return m_rate; }
    [[nodiscard]] const QList<Stats::TtlBucket> &bucketsShown() const { return m_buckets; }

protected:
    void showEvent(QShowEvent *event) override;

private:
    void addNextChart();
    QChartView *addChart(const QString &title, int row, int column);
    void draw(int chart);
    void drawHandOffs();
    void drawLocks();
    void drawRate();
    void drawBuckets();
    void applyTheme(QChart *chart);

    TimelineModel *m_timeline;
    EventLogModel *m_log;
    LeaseModel *m_leases;
    const LeaseClock *m_clock;
    Stats::EventRate m_eventRate {kSeconds};
    QList<QChartView *> m_views; // hand-offs, locks, rate, buckets
    QHash<QByteArray, QList<int>> m_handOffs;
    QList<Stats::LockTimes> m_locks;
    QList<int> m_rate;
    QList<Stats::TtlBucket> m_buckets;
    QTimer m_refresh;
};

} // namespace Inspector
