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

#include <optional>

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

// The faces of a view's recipes, made again only for recipes whose keys changed since the
// last view (and for queues, whose summary tells ages that move with the clock): at 10,000
// keys and ten views a second, making every face anew cost the GUI thread 31 ms a view.
// Views list their recipes by path, so the last view's faces are matched by walking both
// lists together (no hashing: a QHash of 8,400 paths cost 6 ms a view by itself).
class FaceCache
{
public:
    QList<CardFace> facesOf(const Etcd::Decode::View &view, qint64 wallNowMs);

private:
    QList<size_t> m_signatures; // of the last view's recipes, in its order
    QList<CardFace> m_faces; // theirs
};

// The group a card is shown in: the path without its last segment ("/app/locks/db" is in
// "/app/locks/"); a path at the top level is in "/".
QByteArray groupOf(const QByteArray &path);

} // namespace Inspector
