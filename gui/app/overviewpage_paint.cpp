// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// The Overview's drawing: group headers, cards, chips, TTL rings and the sliding highlight.
#include "overviewmetrics.h"
#include "overviewpage.h"

#include <QtGui/qpainter.h>
#include <QtWidgets/qscrollbar.h>

#include <cmath>

namespace Inspector {

namespace Metrics = OverviewMetrics; // not a using-directive: this file may share a unity TU

namespace {
double easeOut(double t)
{
    return 1.0 - std::pow(1.0 - t, 3.0);
}
} // namespace

void OverviewPage::paintEvent(QPaintEvent *)
{
    QPainter p(viewport());
    p.fillRect(viewport()->rect(), palette().window());
    p.setRenderHint(QPainter::Antialiasing);
    const int top = verticalScrollBar()->value();
    const QRect visible(0, top, viewport()->width(), viewport()->height());
    if (m_faces.isEmpty()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(viewport()->rect(), Qt::AlignCenter, tr("No recipes under this prefix yet."));
        return;
    }
    for (int i = 0; i < m_items.size(); ++i) {
        const Item &it = m_items[i];
        if (!it.rect.intersects(visible))
            continue;
        const QRect r = it.rect.translated(0, -top);
        if (it.card < 0)
            paintHeader(p, m_groups[it.group], r, i == m_current);
        else
            paintCard(p, it.card, r, i == m_current);
    }
}

void OverviewPage::paintHeader(QPainter &p, const Group &g, const QRect &rect, bool current) const
{
    const bool collapsed = m_collapsed.contains(g.prefix);
    if (current && hasFocus()) {
        p.setPen(QPen(palette().color(QPalette::Highlight), 2));
        p.setBrush(Qt::NoBrush);
        p.drawRoundedRect(QRectF(rect).adjusted(1, 1, -1, -1), Metrics::kRadius, Metrics::kRadius);
    }
    QFont bold = font();
    bold.setBold(true);
    p.setFont(bold);
    p.setPen(palette().color(QPalette::WindowText));
    const QString arrow = collapsed ? QStringLiteral("▸ ") : QStringLiteral("▾ ");
    // The inspected prefix is shown once, on its own group; the others say what is below it.
    const bool below = m_prefix.size() > 1 && g.prefix.startsWith(m_prefix) && g.prefix != m_prefix;
    const QString where = below
        ? QStringLiteral("…/") + QString::fromUtf8(g.prefix.mid(m_prefix.size()))
        : QString::fromUtf8(g.prefix);
    const QString text
        = arrow + where + QStringLiteral("  ") + tr("%n recipe(s)", nullptr, int(g.cards.size()));
    p.drawText(rect.adjusted(Metrics::kPad, 0, -Metrics::kPad, 0), Qt::AlignVCenter | Qt::AlignLeft,
        QFontMetrics(bold).elidedText(text, Qt::ElideMiddle, rect.width() - 2 * Metrics::kPad));
    p.setFont(font());
}

void OverviewPage::paintCard(QPainter &p, int card, const QRect &rect, bool current) const
{
    const CardFace &f = m_faces.face(card);
    const QPalette &pal = palette();
    const QFontMetrics fm(font());
    p.setPen(QPen(current && hasFocus() ? pal.color(QPalette::Highlight) : pal.color(QPalette::Mid),
        current ? 2 : 1));
    p.setBrush(pal.base());
    p.drawRoundedRect(
        QRectF(rect).adjusted(0.5, 0.5, -0.5, -0.5), Metrics::kRadius, Metrics::kRadius);
    const QRect inner = rect.adjusted(Metrics::kPad, Metrics::kPad, -Metrics::kPad, -Metrics::kPad);
    const int line = fm.height();
    // Kind (muted) and token on the first line, the name in bold on the second.
    p.setPen(pal.color(QPalette::PlaceholderText));
    p.drawText(QRect(inner.left(), inner.top(), inner.width(), line), Qt::AlignLeft, f.kind);
    p.drawText(QRect(inner.left(), inner.top(), inner.width(), line), Qt::AlignRight, f.token);
    QFont bold = font();
    bold.setBold(true);
    p.setFont(bold);
    p.setPen(pal.color(QPalette::Text));
    p.drawText(QRect(inner.left(), inner.top() + line, inner.width(), line), Qt::AlignLeft,
        QFontMetrics(bold).elidedText(f.title, Qt::ElideMiddle, inner.width()));
    p.setFont(font());
    QRect body(inner.left(), inner.top() + 2 * line + Metrics::kPad / 2, inner.width(),
        Metrics::kChipRows * (line + 4 + Metrics::kChipGap));
    if (!f.bigNumber.isEmpty()) {
        QFont big = font();
        big.setPointSizeF(font().pointSizeF() * 1.6);
        big.setBold(true);
        p.setFont(big);
        const int w = QFontMetrics(big).horizontalAdvance(f.bigNumber) + Metrics::kPad;
        p.drawText(QRect(body.left(), body.top(), w, body.height()),
            Qt::AlignLeft | Qt::AlignVCenter, f.bigNumber);
        p.setFont(font());
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(QRect(body.left() + w, body.top(), body.width() - w, body.height()),
            Qt::AlignLeft | Qt::AlignVCenter, f.bigNumberCaption);
        body.setLeft(body.left() + w + fm.horizontalAdvance(f.bigNumberCaption) + Metrics::kPad);
    }
    if (f.gauge) {
        const QRect bar(inner.left(), body.bottom() - line / 2, inner.width(), line / 2);
        p.setPen(Qt::NoPen);
        p.setBrush(pal.color(QPalette::Midlight));
        p.drawRoundedRect(bar, 3, 3);
        const double used = f.gauge->total > 0 ? double(f.gauge->used) / f.gauge->total : 0.0;
        p.setBrush(used >= 1.0 ? Metrics::kAmber : Metrics::kGreen);
        p.drawRoundedRect(
            QRect(bar.topLeft(), QSize(int(bar.width() * std::min(used, 1.0)), bar.height())), 3,
            3);
        body.setBottom(bar.top() - 2);
    }
    const QList<QRect> chips = chipRects(f, body);
    const auto slide = m_slides.constFind(f.path);
    const bool sliding
        = slide != m_slides.cend() && slide->from < chips.size() && slide->to < chips.size();
    if (sliding) { // the highlight between the old owner's chip and the new one's
        const double t = easeOut(slideProgress(*slide));
        const QRectF a = chips[slide->from], b = chips[slide->to];
        const QRectF at(a.x() + (b.x() - a.x()) * t, a.y() + (b.y() - a.y()) * t,
            a.width() + (b.width() - a.width()) * t, a.height());
        QColor lit = pal.color(QPalette::Highlight);
        if (slide->from == slide->to) // nowhere to move from: it fades in
            lit.setAlphaF(0.25 + 0.75 * t);
        p.setPen(Qt::NoPen);
        p.setBrush(lit);
        p.drawRoundedRect(at, at.height() / 2, at.height() / 2);
    }
    for (int i = 0; i < chips.size(); ++i)
        paintChip(p, f.chips[i], chips[i], f.chips[i].owns && !(sliding && i == slide->to));
    // The footer's line: the summary, and how many chips did not fit at its right.
    QRect footer(inner.left(), inner.bottom() - line, inner.width(), line);
    p.setPen(pal.color(QPalette::PlaceholderText));
    if (chips.size() < f.chips.size()) {
        const QString more = tr("+%1 more").arg(f.chips.size() - chips.size());
        p.drawText(footer, Qt::AlignRight, more);
        footer.setRight(footer.right() - fm.horizontalAdvance(more) - Metrics::kPad);
    }
    p.drawText(footer, Qt::AlignLeft, fm.elidedText(f.footer, Qt::ElideRight, footer.width()));
}

// Chips flow left to right over at most Metrics::kChipRows rows of the body; what does not fit is
// counted ("+3 more").
QList<QRect> OverviewPage::chipRects(const CardFace &face, const QRect &body) const
{
    const QFontMetrics fm(font());
    const int h = fm.height() + 4;
    const int maxWidth = body.width() * 2 / 3;
    QList<QRect> rects;
    int x = body.left();
    int row = 0;
    for (const CardChip &c : face.chips) {
        const int ring = c.lease != 0 ? h : 0;
        const QString text = c.side.isEmpty() ? c.label : c.side + u' ' + c.label;
        const int w = std::min(maxWidth, fm.horizontalAdvance(text) + ring + 12);
        if (x + w > body.right() && x > body.left()) {
            ++row;
            x = body.left();
        }
        if (row >= Metrics::kChipRows)
            break;
        rects.append(QRect(x, body.top() + row * (h + Metrics::kChipGap), w, h));
        x += w + Metrics::kChipGap;
    }
    return rects;
}

void OverviewPage::paintChip(QPainter &p, const CardChip &chip, const QRect &rect, bool lit) const
{
    const QPalette &pal = palette();
    p.setPen(lit ? Qt::NoPen : QPen(pal.color(QPalette::Mid)));
    p.setBrush(lit ? pal.color(QPalette::Highlight) : pal.color(QPalette::AlternateBase));
    if (lit || !chip.owns) // a chip the highlight is sliding onto is drawn by the slide
        p.drawRoundedRect(
            QRectF(rect).adjusted(0.5, 0.5, -0.5, -0.5), rect.height() / 2.0, rect.height() / 2.0);
    QRect text = rect.adjusted(6, 0, -6, 0);
    if (chip.lease != 0) {
        const QRectF ring(rect.left() + 3, rect.top() + 3, rect.height() - 6, rect.height() - 6);
        paintRing(p, ring, fillOf(chip));
        text.setLeft(int(ring.right()) + 4);
    }
    const QColor ink = chip.owns ? pal.color(QPalette::HighlightedText)
        : chip.waits             ? pal.color(QPalette::PlaceholderText)
                                 : pal.color(QPalette::Text);
    p.setPen(ink);
    const QString label = chip.side.isEmpty() ? chip.label : chip.side + u' ' + chip.label;
    p.drawText(text, Qt::AlignVCenter | Qt::AlignLeft,
        QFontMetrics(font()).elidedText(label, Qt::ElideRight, text.width()));
}

// A lease's TTL as a ring that drains clockwise from twelve o'clock: green, amber under half
// its grant, red at a tenth; an outline only while the lease clock has no answer.
void OverviewPage::paintRing(QPainter &p, const QRectF &rect, std::optional<double> fill) const
{
    p.setBrush(Qt::NoBrush);
    p.setPen(QPen(palette().color(QPalette::Mid), 2));
    p.drawEllipse(rect);
    if (!fill)
        return;
    const QColor colour = *fill <= 0.1 ? Metrics::kRed
        : *fill < 0.5                  ? Metrics::kAmber
                                       : Metrics::kGreen;
    p.setPen(QPen(colour, 2.5, Qt::SolidLine, Qt::FlatCap));
    p.drawArc(rect, 90 * 16, -int(std::lround(*fill * 360 * 16)));
}

} // namespace Inspector
