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
    m_prefix = view.prefix;
    const qint64 wallNow
        = view.wallClockMs > 0 ? view.wallClockMs : QDateTime::currentMSecsSinceEpoch();
    QList<FaceCache::Change> changes;
    const bool samePaths = m_faces.setView(view, wallNow, animate ? &changes : nullptr);
    startSlides(changes);
    // The same cards as before (most views: a few keys changed in place) keep their places:
    // only their faces are drawn again (a relayout of 8,400 cards cost 3 ms a view).
    if (samePaths)
        viewport()->update();
    else
        relayout();
}

// A card whose owner moved to another chip slides its highlight there. Faces keep their chips
// in create-revision order, so the old owner's chip, if still there, is where it was.
void OverviewPage::startSlides(const QList<FaceCache::Change> &changes)
{
    for (const FaceCache::Change &c : changes) {
        const CardFace &f = c.after;
        const CardFace &was = c.before;
        const int to = f.ownerChip();
        if (to < 0 || was.ownerLabel() == f.ownerLabel())
            continue;
        int from = -1;
        for (int i = 0; i < f.chips.size(); ++i) {
            if (f.chips[i].label == was.ownerLabel())
                from = i;
        }
        // The old owner's chip is gone (a leader that left): the highlight comes in where it
        // stood, and when that is where the new owner now stands, it fades in there.
        if (from < 0)
            from = std::min(was.ownerChip(), int(f.chips.size()) - 1);
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
    int group = -1; // the last card's: paths by order, so mostly the next card's too
    for (int i = 0; i < m_faces.size(); ++i) {
        const QByteArrayView g = groupViewOf(m_faces.path(i));
        if (group < 0 || g != m_groups[group].prefix) {
            const QByteArray prefix = g.toByteArray();
            group = groupIndex.value(prefix, int(m_groups.size()));
            if (group == m_groups.size()) {
                groupIndex.insert(prefix, group);
                m_groups.append(Group {prefix, {}});
            }
        }
        m_groups[group].cards.append(i);
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
        if ((isCard && !m_currentPath.isEmpty() && m_faces.path(it.card) == m_currentPath)
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
    return int(m_faces.indexOf(path));
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
        if (m_items[i].card >= 0 && m_faces.path(m_items[i].card) == path) {
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
    return i < 0 ? QString() : m_faces.face(i).ownerLabel();
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
    for (const CardChip &c : m_faces.face(i).chips) {
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
    m_currentPath = it.card >= 0 ? m_faces.path(it.card) : QByteArray();
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
        Q_EMIT recipeActivated(m_faces.path(it.card));
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
                ? QString::fromUtf8(m_faces.path(it.card)) + u'\n' + m_faces.face(it.card).footer
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
