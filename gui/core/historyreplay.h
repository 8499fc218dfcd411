// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// Leadership hand-offs rebuilt from MVCC history (the events a watch replays from an older
// revision up to the one the view was loaded at). etcd keeps no wall-clock time, so the
// hand-offs it yields carry no time: they are ordered by revision and marked backfilled.
#pragma once

#include "recipeevent.h"

#include <EtcdQt/etcdwatch.h>

#include <QtCore/qhash.h>

#include <optional>

namespace Inspector {

class HistoryReplay
{
public:
    // One replayed event; a hand-off when it starts or ends a term. Reads etcd-recipes'
    // layout, where "<election>/LEADER" holds "<id>:<7>" for the length of one term: its
    // creation (version 1) starts a term, its deletion ends it. A put with a higher version
    // rewrites the value within the same term and is no hand-off.
    std::optional<HandOff> feed(const EtcdWatchEvent &event);

    static bool isLeaderKey(const QByteArray &key);
    static QByteArray electionOf(const QByteArray &leaderKey); // "<election>/LEADER" -> election
    static QString ownerOf(const QByteArray &leaderValue);

private:
    QHash<QByteArray, QString> m_leaders; // election path -> leader as replayed so far
};

} // namespace Inspector
