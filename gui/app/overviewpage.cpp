// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "overviewpage.h"

#include "leaseclock.h"
#include "modelclock.h"
#include "modelstyle.h"

#include <QtCore/qdatetime.h>
#include <QtGui/qevent.h>
#include <QtGui/qpainter.h>
#include <QtGui/qpainterpath.h>
#include <QtWidgets/qscrollbar.h>
#include <QtWidgets/qtooltip.h>

#include <cmath>

namespace Inspector {

namespace {
constexpr int kGap = 10;
constexpr int kPad = 8;
constexpr int kRadius = 6;
constexpr int kChipRows = 2;
constexpr int kChipGap = 4; // between chips, and between their rows
const QColor kAmber(0xf0, 0xa0, 0x20);
const QColor kRed(0xe0, 0x3c, 0x3c);
const QColor kGreen(0x3c, 0xa0, 0x5a);

double easeOut(double t)
{
    return 1.0 - std::pow(1.0 - t, 3.0);
}
} // namespace

OverviewPage::OverviewPage(QWidget *parent) : QAbstractScrollArea(parent)
{
    setObjectName(QStringLiteral("overview"));
    setFocusPolicy(Qt::StrongFocus);
    viewport()->setAttribute(Qt::WA_OpaquePaintEvent);
    m_frame.setInterval(16);
    connect(&m_frame, &QTimer::timeout, this, [this] {
        for (auto it = m_slides.begin(); it != m_slides.end();)
            it = slideProgress(*it) >= 1.0 ? m_slides.erase(it) : std::next(it);
        if (m_slides.isEmpty())
            m_frame.stop();
        viewport()->update();
    });
    m_drain.setInterval(kDrainMs);
    connect(&m_drain, &QTimer::timeout, viewport(), qOverload<>(&QWidget::update));
    m_drain.start();
    m_clockStart.start();
}

void OverviewPage::setView(const Etcd::Decode::View &view, bool animate)
{
    const QList<CardFace> before = m_faces;
    m_prefix = view.prefix;
    const qint64 wallNow
        = view.wallClockMs > 0 ? view.wallClockMs : QDateTime::currentMSecsSinceEpoch();
    m_faces.clear();
    m_byPath.clear();
    for (const Etcd::Decode::Recipe &r : view.recipes) {
        m_byPath.insert(r.path, int(m_faces.size()));
        m_faces.append(faceOf(r, wallNow));
    }
    if (animate)
        startSlides(before);
    relayout();
}

// A card whose owner moved to another chip slides its highlight there. Faces keep their chips
// in create-revision order, so the old owner's chip, if still there, is where it was.
void OverviewPage::startSlides(const QList<CardFace> &before)
{
    QHash<QByteArray, const CardFace *> old;
    for (const CardFace &f : before)
        old.insert(f.path, &f);
    for (const CardFace &f : std::as_const(m_faces)) {
        const CardFace *was = old.value(f.path);
        const int to = f.ownerChip();
        if (!was || to < 0 || was->ownerLabel() == f.ownerLabel())
            continue;
        int from = -1;
        for (int i = 0; i < f.chips.size(); ++i) {
            if (f.chips[i].label == was->ownerLabel())
                from = i;
        }
        // The old owner's chip is gone (a leader that left): the highlight comes in where it
        // stood, and when that is where the new owner now stands, it fades in there.
        if (from < 0)
            from = std::min(was->ownerChip(), int(f.chips.size()) - 1);
        if (from >= 0) {
            m_slides.insert(f.path, Slide {from, to, m_clockStart.elapsed()});
            m_frame.start();
        }
    }
}

double OverviewPage::slideProgress(const Slide &s) const
{
    return std::clamp(double(m_clockStart.elapsed() - s.startMs) / kSlideMs, 0.0, 1.0);
}

QSize OverviewPage::cardSize() const
{
    const QFontMetrics fm(font());
    // Kind and title, the chip rows, the footer.
    const int chipRow = fm.height() + 4 + kChipGap;
    return {std::max(240, fm.averageCharWidth() * 30),
        2 * kPad + 3 * fm.height() + kPad + kChipRows * chipRow + kPad / 2};
}

int OverviewPage::columns() const
{
    const int width = viewport()->width() - kGap;
    return std::max(1, width / (cardSize().width() + kGap));
}

void OverviewPage::relayout()
{
    m_groups.clear();
    QHash<QByteArray, int> groupIndex;
    for (int i = 0; i < m_faces.size(); ++i) {
        const QByteArray g = groupOf(m_faces[i].path);
        if (!groupIndex.contains(g)) {
            groupIndex.insert(g, int(m_groups.size()));
            m_groups.append(Group {g, {}});
        }
        m_groups[groupIndex.value(g)].cards.append(i);
    }
    for (const Group &g : std::as_const(m_groups)) {
        if (!m_knownGroups.contains(g.prefix) && g.cards.size() > kFoldAbove)
            m_collapsed.insert(g.prefix);
        m_knownGroups.insert(g.prefix);
    }
    const QSize card = cardSize();
    const int headerHeight = QFontMetrics(font()).height() + kPad;
    const int cols = columns();
    const int width = cols * (card.width() + kGap) - kGap;
    m_items.clear();
    int y = kGap;
    for (int g = 0; g < m_groups.size(); ++g) {
        m_items.append(Item {g, -1, QRect(kGap, y, width, headerHeight)});
        y += headerHeight + kGap / 2;
        if (m_collapsed.contains(m_groups[g].prefix))
            continue;
        const QList<int> &cards = m_groups[g].cards;
        for (int i = 0; i < cards.size(); ++i) {
            const int x = kGap + (i % cols) * (card.width() + kGap);
            const int row = i / cols;
            m_items.append(
                Item {g, cards[i], QRect(QPoint(x, y + row * (card.height() + kGap)), card)});
        }
        y += int((cards.size() + cols - 1) / cols) * (card.height() + kGap);
    }
    m_contentHeight = y;
    // The focus stays on the same card (or header) across updates, wherever it moved.
    m_current = -1;
    for (int i = 0; i < m_items.size(); ++i) {
        const Item &it = m_items[i];
        const bool isCard = it.card >= 0;
        if ((isCard && !m_currentPath.isEmpty() && m_faces[it.card].path == m_currentPath)
            || (!isCard && m_currentPath.isEmpty() && m_groups[it.group].prefix == m_currentGroup))
            m_current = i;
    }
    verticalScrollBar()->setRange(0, std::max(0, m_contentHeight - viewport()->height()));
    verticalScrollBar()->setPageStep(viewport()->height());
    verticalScrollBar()->setSingleStep(card.height() / 4);
    viewport()->update();
}

int OverviewPage::cardIndex(const QByteArray &path) const
{
    return m_byPath.value(path, -1);
}

QByteArray OverviewPage::currentPath() const
{
    return m_currentPath;
}

QByteArray OverviewPage::currentGroup() const
{
    return m_currentGroup;
}

bool OverviewPage::setCurrentPath(const QByteArray &path)
{
    for (int i = 0; i < m_items.size(); ++i) {
        if (m_items[i].card >= 0 && m_faces[m_items[i].card].path == path) {
            moveCurrent(i);
            return true;
        }
    }
    return false;
}

bool OverviewPage::isCollapsed(const QByteArray &group) const
{
    return m_collapsed.contains(group);
}

void OverviewPage::setCollapsed(const QByteArray &group, bool collapsed)
{
    if (collapsed == m_collapsed.contains(group))
        return;
    if (collapsed) {
        m_collapsed.insert(group);
        if (groupOf(m_currentPath) == group) // the focus goes to the header it folded into
            m_currentPath.clear();
    } else {
        m_collapsed.remove(group);
    }
    relayout();
}

QString OverviewPage::highlightedOwner(const QByteArray &path) const
{
    const int i = cardIndex(path);
    return i < 0 ? QString() : m_faces[i].ownerLabel();
}

bool OverviewPage::isAnimating(const QByteArray &path) const
{
    return m_slides.contains(path);
}

qint64 OverviewPage::nowMs() const
{
    return monotonicMs();
}

// The share of its grant a lease has left by the lease clock; the decoder's seconds left when
// the clock has not asked yet. nullopt: not known at all (drawn as an empty ring).
std::optional<double> OverviewPage::fillOf(const CardChip &chip) const
{
    if (chip.lease == 0)
        return std::nullopt;
    if (m_clock) {
        const auto sample = m_clock->sample(chip.lease);
        const auto left = m_clock->remainingMs(chip.lease, nowMs());
        if (sample && left && sample->grantedSeconds > 0)
            return std::clamp(double(*left) / double(sample->grantedSeconds * 1000), 0.0, 1.0);
    }
    return std::nullopt;
}

std::optional<double> OverviewPage::ringFill(const QByteArray &path, const QString &who) const
{
    const int i = cardIndex(path);
    if (i < 0)
        return std::nullopt;
    for (const CardChip &c : m_faces[i].chips) {
        if (c.label == who)
            return fillOf(c);
    }
    return std::nullopt;
}

void OverviewPage::resizeEvent(QResizeEvent *event)
{
    QAbstractScrollArea::resizeEvent(event);
    relayout();
}

void OverviewPage::scrollContentsBy(int, int)
{
    viewport()->update();
}

void OverviewPage::moveCurrent(int item)
{
    if (item < 0 || item >= m_items.size())
        return;
    m_current = item;
    const Item &it = m_items[item];
    m_currentGroup = m_groups[it.group].prefix;
    m_currentPath = it.card >= 0 ? m_faces[it.card].path : QByteArray();
    ensureVisible(it.rect);
    viewport()->update();
}

void OverviewPage::ensureVisible(const QRect &rect)
{
    QScrollBar *bar = verticalScrollBar();
    if (rect.top() - kGap < bar->value())
        bar->setValue(rect.top() - kGap);
    else if (rect.bottom() + kGap > bar->value() + viewport()->height())
        bar->setValue(rect.bottom() + kGap - viewport()->height());
}

void OverviewPage::activate(int item)
{
    if (item < 0 || item >= m_items.size())
        return;
    const Item &it = m_items[item];
    if (it.card < 0)
        toggle(it.group);
    else
        Q_EMIT recipeActivated(m_faces[it.card].path);
}

void OverviewPage::toggle(int group)
{
    const QByteArray prefix = m_groups[group].prefix;
    m_currentGroup = prefix;
    m_currentPath.clear();
    setCollapsed(prefix, !m_collapsed.contains(prefix));
    for (int i = 0; i < m_items.size(); ++i) {
        if (m_items[i].card < 0 && m_groups[m_items[i].group].prefix == prefix)
            moveCurrent(i);
    }
}

void OverviewPage::keyPressEvent(QKeyEvent *event)
{
    const int cols = columns();
    const int at = m_current;
    const bool onCard = at >= 0 && m_items[at].card >= 0;
    switch (event->key()) {
    case Qt::Key_Right:
    case Qt::Key_Down:
    case Qt::Key_Left:
    case Qt::Key_Up: {
        const bool forward = event->key() == Qt::Key_Right || event->key() == Qt::Key_Down;
        const bool vertical = event->key() == Qt::Key_Up || event->key() == Qt::Key_Down;
        // Up and down move a row of cards within a group, else to the next item.
        int step = 1;
        if (vertical && onCard) {
            const int target = at + (forward ? cols : -cols);
            if (target >= 0 && target < m_items.size() && m_items[target].card >= 0
                && m_items[target].group == m_items[at].group)
                step = cols;
        }
        moveCurrent(
            at < 0 ? 0 : std::clamp(at + (forward ? step : -step), 0, int(m_items.size()) - 1));
        return;
    }
    case Qt::Key_Home:
        return moveCurrent(0);
    case Qt::Key_End:
        return moveCurrent(int(m_items.size()) - 1);
    case Qt::Key_Space:
        if (at >= 0)
            toggle(m_items[at].group);
        return;
    case Qt::Key_Return:
    case Qt::Key_Enter:
        return activate(at);
    default:
        QAbstractScrollArea::keyPressEvent(event);
    }
}

int OverviewPage::itemAt(const QPoint &viewportPoint) const
{
    const QPoint p = viewportPoint + QPoint(0, verticalScrollBar()->value());
    for (int i = 0; i < m_items.size(); ++i) {
        if (m_items[i].rect.contains(p))
            return i;
    }
    return -1;
}

void OverviewPage::mousePressEvent(QMouseEvent *event)
{
    const int item = itemAt(event->position().toPoint());
    if (item < 0)
        return;
    moveCurrent(item);
    if (m_items[item].card < 0)
        toggle(m_items[item].group);
}

void OverviewPage::mouseDoubleClickEvent(QMouseEvent *event)
{
    const int item = itemAt(event->position().toPoint());
    if (item >= 0 && m_items[item].card >= 0)
        activate(item);
}

// The full path in a tool tip: cards show only its last segment.
bool OverviewPage::viewportEvent(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        const auto *help = static_cast<QHelpEvent *>(event);
        const int item = itemAt(help->pos());
        if (item >= 0) {
            const Item &it = m_items[item];
            const QString text = it.card >= 0
                ? QString::fromUtf8(m_faces[it.card].path) + u'\n' + m_faces[it.card].footer
                : QString::fromUtf8(m_groups[it.group].prefix);
            QToolTip::showText(help->globalPos(), ModelStyle::plainToolTip(text), viewport());
        } else {
            QToolTip::hideText();
        }
        return true;
    }
    return QAbstractScrollArea::viewportEvent(event);
}

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
        p.drawRoundedRect(QRectF(rect).adjusted(1, 1, -1, -1), kRadius, kRadius);
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
    p.drawText(rect.adjusted(kPad, 0, -kPad, 0), Qt::AlignVCenter | Qt::AlignLeft,
        QFontMetrics(bold).elidedText(text, Qt::ElideMiddle, rect.width() - 2 * kPad));
    p.setFont(font());
}

void OverviewPage::paintCard(QPainter &p, int card, const QRect &rect, bool current) const
{
    const CardFace &f = m_faces[card];
    const QPalette &pal = palette();
    const QFontMetrics fm(font());
    p.setPen(QPen(current && hasFocus() ? pal.color(QPalette::Highlight) : pal.color(QPalette::Mid),
        current ? 2 : 1));
    p.setBrush(pal.base());
    p.drawRoundedRect(QRectF(rect).adjusted(0.5, 0.5, -0.5, -0.5), kRadius, kRadius);
    const QRect inner = rect.adjusted(kPad, kPad, -kPad, -kPad);
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
    QRect body(inner.left(), inner.top() + 2 * line + kPad / 2, inner.width(),
        kChipRows * (line + 4 + kChipGap));
    if (!f.bigNumber.isEmpty()) {
        QFont big = font();
        big.setPointSizeF(font().pointSizeF() * 1.6);
        big.setBold(true);
        p.setFont(big);
        const int w = QFontMetrics(big).horizontalAdvance(f.bigNumber) + kPad;
        p.drawText(QRect(body.left(), body.top(), w, body.height()),
            Qt::AlignLeft | Qt::AlignVCenter, f.bigNumber);
        p.setFont(font());
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(QRect(body.left() + w, body.top(), body.width() - w, body.height()),
            Qt::AlignLeft | Qt::AlignVCenter, f.bigNumberCaption);
        body.setLeft(body.left() + w + fm.horizontalAdvance(f.bigNumberCaption) + kPad);
    }
    if (f.gauge) {
        const QRect bar(inner.left(), body.bottom() - line / 2, inner.width(), line / 2);
        p.setPen(Qt::NoPen);
        p.setBrush(pal.color(QPalette::Midlight));
        p.drawRoundedRect(bar, 3, 3);
        const double used = f.gauge->total > 0 ? double(f.gauge->used) / f.gauge->total : 0.0;
        p.setBrush(used >= 1.0 ? kAmber : kGreen);
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
        footer.setRight(footer.right() - fm.horizontalAdvance(more) - kPad);
    }
    p.drawText(footer, Qt::AlignLeft, fm.elidedText(f.footer, Qt::ElideRight, footer.width()));
}

// Chips flow left to right over at most kChipRows rows of the body; what does not fit is
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
        if (row >= kChipRows)
            break;
        rects.append(QRect(x, body.top() + row * (h + kChipGap), w, h));
        x += w + kChipGap;
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
    const QColor colour = *fill <= 0.1 ? kRed : *fill < 0.5 ? kAmber : kGreen;
    p.setPen(QPen(colour, 2.5, Qt::SolidLine, Qt::FlatCap));
    p.drawArc(rect, 90 * 16, -int(std::lround(*fill * 360 * 16)));
}

} // namespace Inspector
