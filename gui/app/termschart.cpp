// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "termschart.h"
#include "pages.h"

#include "modelstyle.h"
#include "timelinemodel.h"

#include <QtGui/qevent.h>
#include <QtGui/qpainter.h>
#include <QtWidgets/qtooltip.h>

#include <algorithm>

namespace Inspector {

namespace {
constexpr qint64 kMinSpanMs = 2'000;
constexpr qint64 kAutoMinSpanMs = 30'000; // a fresh session: half a minute, then it widens
constexpr qint64 kAutoMaxSpanMs = 15 * 60'000;
constexpr qint64 kMaxSpanMs = 24LL * 3600 * 1000;
constexpr double kMinBarPx = 2.0; // a term of a few milliseconds is still a bar
constexpr int kPad = 6;

// A colour per owner that stays the same from run to run (a hash of the name, not Qt's
// per-process seeded qHash), readable on light and dark backgrounds alike.
QColor ownerColour(const QString &owner)
{
    quint32 h = 2166136261u;
    for (QChar c : owner)
        h = (h ^ c.unicode()) * 16777619u;
    return QColor::fromHsl(int(h % 360), 150, 120);
}
} // namespace

TermsChart::TermsChart(TimelineModel *model, QWidget *parent)
    : QWidget(parent), m_model(model), m_now([] { return QDateTime::currentDateTime(); })
{
    setObjectName(QStringLiteral("termsChart"));
    setFocusPolicy(Qt::StrongFocus);
    setMinimumHeight(120);
    connect(model, &QAbstractItemModel::rowsInserted, this, &TermsChart::rebuild);
    connect(model, &QAbstractItemModel::modelReset, this, &TermsChart::rebuild);
    m_tick.setInterval(1000); // open terms grow, and the present moves on (while shown)
    connect(&m_tick, &QTimer::timeout, this, qOverload<>(&QWidget::update));
    runWhileShown(&m_tick, this);
    rebuild();
}

void TermsChart::setFilter(const QString &text)
{
    m_filter = text;
    rebuild();
}

void TermsChart::setClock(std::function<QDateTime()> now)
{
    m_now = std::move(now);
    update();
}

QDateTime TermsChart::now() const
{
    return m_now();
}

// Terms from the hand-offs in revision order: each one naming a new leader starts a term and
// ends the one before; one naming nobody ends it. Hand-offs without a time are skipped.
void TermsChart::rebuild()
{
    m_terms.clear();
    m_firstStart = {};
    for (int row = 0; row < m_model->rowCount(); ++row) {
        const HandOff &h = m_model->handOffAt(row);
        if (!h.time.isValid())
            continue;
        QList<Term> &terms = m_terms[h.election];
        if (!terms.isEmpty() && !terms.last().end.isValid())
            terms.last().end = h.time;
        if (h.to.isEmpty())
            continue;
        terms.append(Term {h.to, h.time, {}, h.termToken});
        if (!m_firstStart.isValid() || h.time < m_firstStart)
            m_firstStart = h.time;
    }
    m_shown.clear();
    for (auto it = m_terms.cbegin(); it != m_terms.cend(); ++it) {
        if (m_filter.isEmpty()
            || QString::fromUtf8(it.key()).contains(m_filter, Qt::CaseInsensitive))
            m_shown.append(it.key());
    }
    std::sort(m_shown.begin(), m_shown.end());
    setMinimumHeight(std::max(120, int(m_shown.size() + 2) * rowHeight()));
    update();
}

QList<QByteArray> TermsChart::elections() const
{
    return m_shown;
}

QList<TermsChart::Term> TermsChart::terms(const QByteArray &election) const
{
    return m_terms.value(election);
}

int TermsChart::rowHeight() const
{
    return fontMetrics().height() + 2 * kPad;
}

QRect TermsChart::plotArea() const
{
    const int gutter = std::min(width() / 3, fontMetrics().averageCharWidth() * 28);
    return rect().adjusted(gutter, kPad, -kPad, -(fontMetrics().height() + 2 * kPad));
}

QDateTime TermsChart::viewEnd() const
{
    return m_following ? now() : m_end;
}

double TermsChart::xOf(const QDateTime &t, const QRect &plot) const
{
    const qint64 fromEnd = viewEnd().msecsTo(t); // <= 0 inside the view
    return plot.right() + double(fromEnd) * plot.width() / double(spanMs());
}

QRectF TermsChart::barRect(const QByteArray &election, int term) const
{
    const int row = int(m_shown.indexOf(election));
    const QList<Term> terms = m_terms.value(election);
    if (row < 0 || term < 0 || term >= terms.size())
        return {};
    const QRect plot = plotArea();
    const Term &t = terms[term];
    const double x0 = xOf(t.start, plot);
    const double x1 = std::max(x0 + kMinBarPx, xOf(t.end.isValid() ? t.end : now(), plot));
    const int y = plot.top() + row * rowHeight();
    return QRectF(x0, y + kPad / 2.0, x1 - x0, rowHeight() - kPad);
}

// Until the user zooms, the view spans every term since the first (a quarter more), within
// half a minute and a quarter of an hour.
qint64 TermsChart::spanMs() const
{
    if (!m_autoSpan)
        return m_spanMs;
    const qint64 since = m_firstStart.isValid() ? m_firstStart.msecsTo(now()) : 0;
    return std::clamp(since * 5 / 4, kAutoMinSpanMs, kAutoMaxSpanMs);
}

void TermsChart::zoomBy(double factor)
{
    m_spanMs = spanMs();
    m_autoSpan = false;
    if (!m_following) { // zoom about the middle of the view
        const qint64 middle = m_spanMs / 2;
        m_end = m_end.addMSecs(-middle + qint64(middle * factor));
    }
    m_spanMs = std::clamp(qint64(m_spanMs * factor), kMinSpanMs, kMaxSpanMs);
    update();
}

void TermsChart::fit()
{
    if (!m_firstStart.isValid())
        return;
    m_following = true;
    m_autoSpan = false;
    m_spanMs = std::clamp(m_firstStart.msecsTo(now()) * 11 / 10 + 1000, kMinSpanMs, kMaxSpanMs);
    update();
}

void TermsChart::follow()
{
    m_following = true;
    update();
}

void TermsChart::panBy(qint64 ms)
{
    m_spanMs = spanMs(); // a view moved by hand keeps its width
    m_autoSpan = false;
    m_end = viewEnd().addMSecs(ms);
    m_following = m_end < now();
    if (m_following)
        m_end = {};
    update();
}

void TermsChart::wheelEvent(QWheelEvent *event)
{
    const int steps = event->angleDelta().y() / 120;
    if (steps == 0)
        return;
    if (event->modifiers() & Qt::ControlModifier)
        zoomBy(steps > 0 ? 0.8 : 1.25);
    else
        panBy(-steps * spanMs() / 10);
    event->accept();
}

void TermsChart::keyPressEvent(QKeyEvent *event)
{
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        return zoomBy(0.8);
    case Qt::Key_Minus:
        return zoomBy(1.25);
    case Qt::Key_Left:
        return panBy(-spanMs() / 10);
    case Qt::Key_Right:
        return panBy(spanMs() / 10);
    case Qt::Key_Home:
        return fit();
    case Qt::Key_End:
        return follow();
    default:
        QWidget::keyPressEvent(event);
    }
}

void TermsChart::mousePressEvent(QMouseEvent *event)
{
    m_dragFrom = event->position().toPoint();
}

void TermsChart::mouseMoveEvent(QMouseEvent *event)
{
    if (!(event->buttons() & Qt::LeftButton))
        return;
    const QPoint at = event->position().toPoint();
    const int dx = at.x() - m_dragFrom.x();
    m_dragFrom = at;
    const int w = std::max(1, plotArea().width());
    panBy(-qint64(dx) * spanMs() / w);
}

// Who led, from when to when, under the pointer.
bool TermsChart::event(QEvent *event)
{
    if (event->type() != QEvent::ToolTip)
        return QWidget::event(event);
    const auto *help = static_cast<QHelpEvent *>(event);
    for (const QByteArray &election : std::as_const(m_shown)) {
        const QList<Term> terms = m_terms.value(election);
        for (int i = 0; i < terms.size(); ++i) {
            if (!barRect(election, i).contains(help->pos()))
                continue;
            const Term &t = terms[i];
            const QString until
                = t.end.isValid() ? t.end.toString(QStringLiteral("HH:mm:ss.zzz")) : tr("now");
            QToolTip::showText(help->globalPos(),
                ModelStyle::plainToolTip(
                    tr("%1 led %2 from %3 until %4, term token %5")
                        .arg(t.owner, QString::fromUtf8(election),
                            t.start.toString(QStringLiteral("HH:mm:ss.zzz")), until)
                        .arg(t.token)),
                this);
            return true;
        }
    }
    QToolTip::hideText();
    return true;
}

// A tick interval that gives about 6-10 labels across the view.
qint64 TermsChart::tickMs() const
{
    static const qint64 steps[] = {1'000, 2'000, 5'000, 10'000, 15'000, 30'000, 60'000, 120'000,
        300'000, 600'000, 900'000, 1'800'000, 3'600'000, 7'200'000, 10'800'000, 21'600'000};
    for (qint64 s : steps) {
        if (spanMs() / s <= 10)
            return s;
    }
    return 43'200'000;
}

void TermsChart::paintAxis(QPainter &p, const QRect &plot) const
{
    const qint64 step = tickMs();
    const QDateTime end = viewEnd();
    const qint64 endMs = end.toMSecsSinceEpoch();
    const QString format = step < 60'000 ? QStringLiteral("HH:mm:ss") : QStringLiteral("HH:mm");
    p.setPen(palette().color(QPalette::Mid));
    p.drawLine(plot.bottomLeft(), plot.bottomRight());
    for (qint64 t = (endMs - spanMs()) / step * step + step; t <= endMs; t += step) {
        const QDateTime at = QDateTime::fromMSecsSinceEpoch(t);
        const int x = int(xOf(at, plot));
        p.setPen(palette().color(QPalette::Midlight));
        p.drawLine(x, plot.top(), x, plot.bottom());
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(QRect(x - 40, plot.bottom() + 2, 80, fontMetrics().height() + kPad),
            Qt::AlignHCenter | Qt::AlignTop, at.toString(format));
    }
}

void TermsChart::paintRow(QPainter &p, int row, const QByteArray &election, const QRect &plot) const
{
    const int y = plot.top() + row * rowHeight();
    const QRect label(0, y, plot.left() - kPad, rowHeight());
    p.setPen(palette().color(QPalette::WindowText));
    p.drawText(label.adjusted(kPad, 0, 0, 0), Qt::AlignVCenter | Qt::AlignLeft,
        fontMetrics().elidedText(QString::fromUtf8(election), Qt::ElideLeft, label.width() - kPad));
    const QList<Term> terms = m_terms.value(election);
    for (int i = 0; i < terms.size(); ++i) {
        QRectF bar = barRect(election, i);
        if (bar.right() < plot.left() || bar.left() > plot.right())
            continue;
        bar = bar.intersected(QRectF(plot));
        p.setPen(Qt::NoPen);
        p.setBrush(ownerColour(terms[i].owner));
        p.drawRoundedRect(bar, 3, 3);
        const QString name
            = fontMetrics().elidedText(terms[i].owner, Qt::ElideRight, int(bar.width()) - 6);
        if (bar.width() > 30 && !name.isEmpty()) {
            p.setPen(Qt::white);
            p.drawText(bar.adjusted(3, 0, -3, 0), Qt::AlignVCenter | Qt::AlignLeft, name);
        }
    }
}

void TermsChart::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    p.setRenderHint(QPainter::Antialiasing);
    const QRect plot = plotArea();
    if (m_shown.isEmpty()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap,
            tr("No hand-off seen live yet. Hand-offs rebuilt from etcd's history have no time: "
               "the table lists them."));
        return;
    }
    paintAxis(p, plot);
    p.save();
    p.setClipRect(rect().adjusted(0, 0, 0, -(fontMetrics().height() + 2 * kPad)));
    for (int row = 0; row < m_shown.size(); ++row)
        paintRow(p, row, m_shown[row], plot);
    p.restore();
    if (m_following) { // the present
        p.setPen(QPen(ModelStyle::anomaly().value<QBrush>().color(), 1, Qt::DashLine));
        p.drawLine(plot.right(), plot.top(), plot.right(), plot.bottom());
    }
}

} // namespace Inspector
