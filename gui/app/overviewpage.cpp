// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "overviewpage.h"
#include "pages.h"

#include "overviewmetrics.h"

#include "leaseclock.h"
#include "modelclock.h"
#include "modelstyle.h"

#include <QtCore/qdatetime.h>
#include <QtGui/qevent.h>
#include <QtWidgets/qscrollbar.h>
#include <QtWidgets/qtooltip.h>

namespace Inspector {

namespace Metrics = OverviewMetrics; // not a using-directive: this file may share a unity TU

OverviewPage::OverviewPage(QWidget *parent) : QAbstractScrollArea(parent)
{
    setObjectName(QStringLiteral("overview"));
    setFocusPolicy(Qt::StrongFocus);
    viewport()->setAttribute(Qt::WA_OpaquePaintEvent);
    // 30 frames a second, and only the sliding cards that can be seen are drawn again: with
    // thousands of recipes a few hand-offs a second kept the whole page repainting.
    m_frame.setInterval(33);
    connect(&m_frame, &QTimer::timeout, this, [this] {
        const QRect seen(
            0, verticalScrollBar()->value(), viewport()->width(), viewport()->height());
        for (auto it = m_slides.begin(); it != m_slides.end();) {
            const QRect card = cardRect(it.key());
            if (card.intersects(seen))
                viewport()->update(card.translated(0, -seen.top()));
            it = slideProgress(*it) >= 1.0 ? m_slides.erase(it) : std::next(it);
        }
        if (m_slides.isEmpty())
            m_frame.stop();
    });
    m_drain.setInterval(kDrainMs);
    connect(&m_drain, &QTimer::timeout, viewport(), qOverload<>(&QWidget::update));
    runWhileShown(&m_drain, this);
    m_clockStart.start();
}

void OverviewPage::setView(const Etcd::Decode::View &view, bool animate)
{
    const QList<CardFace> before = m_faces;
    m_prefix = view.prefix;
    const qint64 wallNow
        = view.wallClockMs > 0 ? view.wallClockMs : QDateTime::currentMSecsSinceEpoch();
    m_faces = m_faceCache.facesOf(view, wallNow);
    if (animate)
        startSlides(before);
    // The same cards as before (most views: a few keys changed in place) keep their places:
    // only their faces are drawn again (a relayout of 8,400 cards cost 3 ms a view).
    if (samePaths(before, m_faces))
        viewport()->update();
    else
        relayout();
}

bool OverviewPage::samePaths(const QList<CardFace> &a, const QList<CardFace> &b)
{
    return a.size() == b.size()
        && std::equal(a.cbegin(), a.cend(), b.cbegin(),
            [](const CardFace &x, const CardFace &y) { return x.path == y.path; });
}

// A card whose owner moved to another chip slides its highlight there. Faces keep their chips
// in create-revision order, so the old owner's chip, if still there, is where it was.
// Both lists are by path: the old face of each card is found by walking them together.
void OverviewPage::startSlides(const QList<CardFace> &before)
{
    qsizetype b = 0;
    for (const CardFace &f : std::as_const(m_faces)) {
        while (b < before.size() && before[b].path < f.path)
            ++b;
        if (b == before.size() || before[b].path != f.path)
            continue; // a new card
        const CardFace *was = &before[b];
        const int to = f.ownerChip();
        if (to < 0 || was->chips.constData() == f.chips.constData() // the very same face
            || was->ownerLabel() == f.ownerLabel())
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
    const int chipRow = fm.height() + 4 + Metrics::kChipGap;
    return {std::max(240, fm.averageCharWidth() * 30),
        2 * Metrics::kPad + 3 * fm.height() + Metrics::kPad + Metrics::kChipRows * chipRow
            + Metrics::kPad / 2};
}

int OverviewPage::columns() const
{
    const int width = viewport()->width() - Metrics::kGap;
    return std::max(1, width / (cardSize().width() + Metrics::kGap));
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
    const int headerHeight = QFontMetrics(font()).height() + Metrics::kPad;
    const int cols = columns();
    const int width = cols * (card.width() + Metrics::kGap) - Metrics::kGap;
    m_items.clear();
    m_itemOfCard.fill(-1, m_faces.size());
    int y = Metrics::kGap;
    for (int g = 0; g < m_groups.size(); ++g) {
        m_items.append(Item {g, -1, QRect(Metrics::kGap, y, width, headerHeight)});
        y += headerHeight + Metrics::kGap / 2;
        if (m_collapsed.contains(m_groups[g].prefix))
            continue;
        const QList<int> &cards = m_groups[g].cards;
        for (int i = 0; i < cards.size(); ++i) {
            const int x = Metrics::kGap + (i % cols) * (card.width() + Metrics::kGap);
            const int row = i / cols;
            m_itemOfCard[cards[i]] = int(m_items.size());
            m_items.append(Item {
                g, cards[i], QRect(QPoint(x, y + row * (card.height() + Metrics::kGap)), card)});
        }
        y += int((cards.size() + cols - 1) / cols) * (card.height() + Metrics::kGap);
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
    // Cards are in the view's order, by path.
    const auto at = std::lower_bound(m_faces.cbegin(), m_faces.cend(), path,
        [](const CardFace &f, const QByteArray &p) { return f.path < p; });
    return at != m_faces.cend() && at->path == path ? int(at - m_faces.cbegin()) : -1;
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

// In content coordinates; empty while its group is folded.
QRect OverviewPage::cardRect(const QByteArray &path) const
{
    const int card = cardIndex(path);
    const int item = card < 0 ? -1 : m_itemOfCard.value(card, -1);
    return item < 0 ? QRect() : m_items[item].rect;
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
    if (rect.top() - Metrics::kGap < bar->value())
        bar->setValue(rect.top() - Metrics::kGap);
    else if (rect.bottom() + Metrics::kGap > bar->value() + viewport()->height())
        bar->setValue(rect.bottom() + Metrics::kGap - viewport()->height());
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

} // namespace Inspector
