// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// The Overview: one card per recipe, grouped by the path they live under, drawn with QPainter
// so that the whole cluster can be taken in at a glance. Candidates and queues are chips in
// create-revision order with their owners highlighted, and a hand-off slides the highlight
// from the old owner's chip to the new one's (or fades in where the departed owner stood); every
// lease-bound chip has a TTL ring that drains with the lease clock, amber under half, red when due.
// Groups collapse (a click on their header, or Space), arrows move between cards and headers, Enter
// or a double click opens a card's recipe in the Recipes view.
#pragma once

#include "overviewface.h"

#include <QtCore/qelapsedtimer.h>
#include <QtCore/qhash.h>
#include <QtCore/qset.h>
#include <QtCore/qtimer.h>
#include <QtWidgets/qabstractscrollarea.h>

#include <optional>

namespace Inspector {

class LeaseClock;

class OverviewPage : public QAbstractScrollArea
{
    Q_OBJECT
public:
    static constexpr int kSlideMs = 350; // how long a hand-off's highlight takes to move
    static constexpr int kDrainMs = 250; // how often the TTL rings are redrawn
    // A group first seen with more cards than this starts folded: a few hundred recipes read
    // as a list of groups, each opened when wanted.
    static constexpr int kFoldAbove = 24;

    explicit OverviewPage(QWidget *parent = nullptr);

    // animate: hand-offs since the last view slide their highlight (not when catching up on
    // changes made while the page was hidden, which would replay old news).
    void setView(const Etcd::Decode::View &view, bool animate = true);
    void setLeaseClock(const LeaseClock *clock) { m_clock = clock; }

    [[nodiscard]] int cardCount() const { return int(m_faces.size()); }
    [[nodiscard]] QByteArray currentPath() const; // the focused card's, empty on a header
    [[nodiscard]] QByteArray currentGroup() const; // the focused header's or card's group
    bool setCurrentPath(const QByteArray &path);
    [[nodiscard]] bool isCollapsed(const QByteArray &group) const;
    void setCollapsed(const QByteArray &group, bool collapsed);
    // For tests: who the highlight rests on (or is sliding to), and a chip's TTL ring fill.
    [[nodiscard]] QString highlightedOwner(const QByteArray &path) const;
    [[nodiscard]] std::optional<double> ringFill(const QByteArray &path, const QString &who) const;
    // A hand-off's highlight is moving (or, with nowhere to move from, fading in).
    [[nodiscard]] bool isAnimating(const QByteArray &path) const;

Q_SIGNALS:
    void recipeActivated(const QByteArray &path);

protected:
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    bool viewportEvent(QEvent *event) override;
    void scrollContentsBy(int dx, int dy) override;

private:
    // What the keyboard moves over: a group's header or one of its cards.
    struct Item
    {
        int group = -1;
        int card = -1; // -1: the header
        QRect rect; // in content coordinates
    };
    struct Group
    {
        QByteArray prefix;
        QList<int> cards;
    };
    struct Slide
    {
        int from = -1;
        int to = -1;
        qint64 startMs = 0;
    };

    void relayout();
    void startSlides(const QList<FaceCache::Change> &changes);
    void moveCurrent(int item);
    void ensureVisible(const QRect &rect);
    void activate(int item);
    void toggle(int group);
    [[nodiscard]] int itemAt(const QPoint &viewportPoint) const;
    [[nodiscard]] int cardIndex(const QByteArray &path) const;
    [[nodiscard]] QRect cardRect(const QByteArray &path) const;
    [[nodiscard]] int columns() const;
    [[nodiscard]] QSize cardSize() const;
    [[nodiscard]] qint64 nowMs() const;
    [[nodiscard]] std::optional<double> fillOf(const CardChip &chip) const;
    [[nodiscard]] double slideProgress(const Slide &s) const;
    void paintItem(QPainter &p, const Item &item, const QRect &rect) const;
    void paintHeader(QPainter &p, const Group &g, const QRect &rect, bool current) const;
    void paintCard(QPainter &p, int card, const QRect &rect, bool current) const;
    QList<QRect> chipRects(const CardFace &face, const QRect &body) const;
    void paintChip(QPainter &p, const CardChip &chip, const QRect &rect, bool lit) const;
    void paintRing(QPainter &p, const QRectF &rect, std::optional<double> fill) const;

    QByteArray m_prefix; // the inspected prefix
    FaceCache m_faces; // the cards', by path; each face made when first drawn
    QList<Group> m_groups;
    QList<Item> m_items; // in reading order: each group's header, then its cards
    QList<int> m_itemOfCard; // card -> its item, -1 while its group is folded
    QSet<QByteArray> m_collapsed;
    QSet<QByteArray> m_knownGroups; // seen before: folded or not as the user left it
    QHash<QByteArray, Slide> m_slides;
    int m_current = -1; // into m_items
    QByteArray m_currentPath; // kept across updates: the focus stays on its card
    QByteArray m_currentGroup;
    int m_contentHeight = 0;
    const LeaseClock *m_clock = nullptr;
    QTimer m_frame; // while a highlight slides
    QTimer m_drain; // TTL rings
    QElapsedTimer m_clockStart;
};

} // namespace Inspector
