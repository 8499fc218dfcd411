// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// The timeline as a picture: one row per election, each term a bar over wall-clock time (who
// led when, gaps where nobody did), live. Every hand-off the model holds is a term of its own,
// however short (at least a couple of pixels wide). Ctrl+wheel or +/- zoom, wheel, drag or
// the arrow keys pan, Home fits every term, End follows the present again. Hand-offs rebuilt
// from etcd's history have no wall-clock time (etcd keeps none): they stay in the table.
#pragma once

#include <QtCore/qdatetime.h>
#include <QtCore/qhash.h>
#include <QtCore/qtimer.h>
#include <QtWidgets/qwidget.h>

namespace Inspector {

class TimelineModel;

class TermsChart : public QWidget
{
    Q_OBJECT
public:
    struct Term
    {
        QString owner;
        QDateTime start;
        QDateTime end; // invalid: still leading
        qint64 token = 0;
    };

    explicit TermsChart(TimelineModel *model, QWidget *parent = nullptr);

    void setFilter(const QString &text); // elections whose path contains it
    void setClock(std::function<QDateTime()> now); // for tests; default: the wall clock
    void zoomBy(double factor); // > 1 zooms out
    void fit(); // every term in view
    void follow(); // the present at the right edge, moving with it
    [[nodiscard]] bool isFollowing() const { return m_following; }
    [[nodiscard]] qint64 spanMs() const;

    [[nodiscard]] QList<QByteArray> elections() const; // the rows shown, top to bottom
    [[nodiscard]] QList<Term> terms(const QByteArray &election) const;
    [[nodiscard]] QRectF barRect(const QByteArray &election, int term) const;

protected:
    void paintEvent(QPaintEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    bool event(QEvent *event) override;

private:
    void rebuild();
    void panBy(qint64 ms);
    [[nodiscard]] QDateTime now() const;
    [[nodiscard]] QDateTime viewEnd() const;
    [[nodiscard]] QRect plotArea() const;
    [[nodiscard]] int rowHeight() const;
    [[nodiscard]] double xOf(const QDateTime &t, const QRect &plot) const;
    [[nodiscard]] qint64 tickMs() const;
    void paintAxis(QPainter &p, const QRect &plot) const;
    void paintRow(QPainter &p, int row, const QByteArray &election, const QRect &plot) const;

    TimelineModel *m_model;
    QList<QByteArray> m_shown;
    QHash<QByteArray, QList<Term>> m_terms;
    // The earliest hand-off drawn: the automatic span reaches back to it (asked at every bar
    // drawn, so found once per rebuild).
    QDateTime m_firstStart;
    QString m_filter;
    std::function<QDateTime()> m_now;
    qint64 m_spanMs = 5 * 60 * 1000;
    bool m_autoSpan = true; // until the user zooms: every term since the first in view
    QDateTime m_end; // the right edge when not following
    bool m_following = true;
    QPoint m_dragFrom;
    QTimer m_tick;
};

} // namespace Inspector
