// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// What one recipe's card in the Overview shows, decided apart from how it is drawn: its
// people as chips in a stable order (candidates and lock queues in create-revision order, so a
// hand-off moves the highlight from one chip to another instead of renaming the first), which
// of them own it, a gauge (permits used of total), a big number (a counter, a queue's depth)
// and a one-line summary.
#pragma once

#include <recipeview.h>

#include <QtCore/qhash.h>
#include <QtCore/qlist.h>
#include <QtCore/qstring.h>

#include <memory>
#include <optional>
#include <vector>

namespace Inspector {

struct CardChip
{
    QString label; // who: a client id, a service instance, a lease
    qint64 lease = 0; // 0: not lease-bound (no TTL ring)
    qint64 decodedTtl = -1; // the decoder's seconds left, when the lease clock has none yet
    bool owns = false; // leader, holder, setter, an in-flight claim: drawn highlighted
    bool waits = false; // queued behind an owner: drawn muted
    QString side; // "R"/"W" (read-write lock), "in"/"out" (double barrier); else empty
};

struct CardGauge
{
    qint64 used = 0;
    qint64 total = 0;
    QString text; // "2 of 3 permits"
};

struct CardFace
{
    QByteArray path;
    QString title; // the path's last segment
    QString kind; // "election", "mutex", …
    QList<CardChip> chips;
    std::optional<CardGauge> gauge;
    QString bigNumber; // a counter's value, a queue's depth; empty for the others
    QString bigNumberCaption; // what the number counts
    QString footer; // the recipe's summary
    QString token; // the owner's term or fencing token, "term 1234"; empty without an owner

    // The first chip that owns the recipe, -1 when none does: where the highlight is.
    [[nodiscard]] int ownerChip() const;
    [[nodiscard]] QString ownerLabel() const; // that chip's label, empty for none
};

CardFace faceOf(const Etcd::Decode::Recipe &recipe, qint64 wallNowMs = 0);

// The faces of a view's recipes, each made when first asked for: the cards on screen are a
// few dozen, and with 92,000 recipes (100,000 keys) making every face took the GUI thread
// 91 ms on the first view and 33-45 ms on each later one (bench/inspector_bench.cpp). A face
// made for the last view is kept for a recipe whose keys did not change, unless it tells ages
// that move with the clock (queues). Views list their recipes by path, so the last view's are
// matched by walking both lists together (no hashing: a QHash of 8,400 paths cost 6 ms a view).
class FaceCache
{
public:
    // A recipe in both views whose keys changed: its face in each.
    struct Change
    {
        CardFace before;
        CardFace after;
    };

    // Takes the view's recipes (shared, not copied). With `changes`, appends a Change for each
    // recipe whose keys changed since the last view. Returns whether the paths are the last
    // view's, in the same order (the cards keep their places).
    bool setView(
        const Etcd::Decode::View &view, qint64 wallNowMs, QList<Change> *changes = nullptr);

    [[nodiscard]] qsizetype size() const { return m_recipes.size(); }
    [[nodiscard]] bool isEmpty() const { return m_recipes.isEmpty(); }
    [[nodiscard]] const QByteArray &path(qsizetype i) const { return m_recipes[i].path; }
    [[nodiscard]] qsizetype indexOf(const QByteArray &path) const; // -1: no such card
    [[nodiscard]] const CardFace &face(qsizetype i) const; // made on the first call

private:
    QList<Etcd::Decode::Recipe> m_recipes; // the last view's, by path
    qint64 m_wallNowMs = 0; // theirs
    mutable std::vector<std::unique_ptr<CardFace>> m_faces; // by index; null until asked for
};

// The group a card is shown in: the path without its last segment ("/app/locks/db" is in
// "/app/locks/"); a path at the top level is in "/". The view form points into `path`
// (or at a static "/"): a layout of 92,000 cards need not copy each one's group.
QByteArrayView groupViewOf(const QByteArray &path);
QByteArray groupOf(const QByteArray &path);

} // namespace Inspector
