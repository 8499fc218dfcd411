// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// The words the inspector's models show for recipes, keys and leases, in one place so every
// model says "holder" or "expired" the same way and translators see each phrase once.
#pragma once

#include <recipeview.h>

#include <QtCore/qcoreapplication.h>
#include <QtCore/qstring.h>

namespace Inspector {

class LeaseClock;

class RecipeText
{
    Q_DECLARE_TR_FUNCTIONS(Inspector::RecipeText)
public:
    static QString kind(Etcd::Decode::Kind kind);
    static QString role(Etcd::Decode::Role role);
    static QString roleWithSide(
        Etcd::Decode::Role role, Etcd::Decode::Side side); // "holder (write)"
    static QString roleWithSide(const Etcd::Decode::Entry &entry);
    // Who an entry stands for: a service instance's id and endpoint; else its owner, else its
    // proclamation, else its lease.
    static QString who(const Etcd::Decode::Entry &entry);
    static QString instance(const EtcdServiceInstance &instance); // "a1b2c3d at host:8080"
    static QString registered(const EtcdServiceInstance &instance); // local time, short
    // wallNowMs: the wall clock queue ages are measured against (ms since the epoch; 0: now).
    static QString summary(const Etcd::Decode::Recipe &recipe, qint64 wallNowMs = 0);
    // A queue's facts for the details pane, one line each: its depth (per level), the item
    // taken next and its age, the items in flight with consumer, attempt, lease and TTL (the
    // decoder's TTL, else the clock's), dead letters with their attempts, delayed items with
    // their due time. Empty for the other kinds, whose summary and entries say it all.
    static QStringList details(const Etcd::Decode::Recipe &recipe, qint64 wallNowMs,
        const LeaseClock *clock = nullptr, qint64 monotonicNowMs = 0);
    // What a queue entry's row notes: its age or due time, attempts, an orphaned claim.
    static QString queueNote(const Etcd::Decode::Entry &entry, qint64 wallNowMs);
    // A queue item's value: escaped text, cut short.
    static QString preview(const QByteArray &bytes);
    static QString age(qint64 ms); // "850 ms", "12 s", "5 min 3 s", "2 h 5 min", "3 d 4 h"

    // Text when the bytes are valid UTF-8 without control characters, else spaced hex;
    // cut to maxChars with an ellipsis.
    static QString printable(const QByteArray &bytes, qsizetype maxChars = 200);
    // A key or path below the inspected prefix as "…/<the rest>": every row shares that
    // prefix, and in a narrow column it was all that showed. Full keys go in tool tips.
    static QString underPrefix(const QByteArray &key, const QByteArray &prefix);
    // Whether underPrefix() shows keys differently under the two prefixes (a model showing
    // rows under one must redraw them all for the other).
    static bool shortensDifferently(const QByteArray &prefix, const QByteArray &other);
    // A path's last segment ("/app/locks/db/" -> "db"): a card's title, a chart's legend.
    static QString lastSegment(const QByteArray &path);
    static QString leaseHex(qint64 lease); // lowercase hex as etcdctl prints it, "—" for none
    // "4 s", "expired", or "?" while the clock knows nothing of the lease; "—" for no lease.
    static QString ttl(const LeaseClock *clock, qint64 lease, qint64 nowMs);
    static QString seconds(qint64 seconds);
    static QString none(); // "—"
};

} // namespace Inspector
