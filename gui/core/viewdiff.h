// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// What changed between two decoded views, in recipe terms: "reporter-1 acquired /locks/db,
// token 1234", leadership hand-offs, barriers set and lifted. Pure logic; the session runs it
// on each coalesced view and on a reload after a resync.
#pragma once

#include "recipeevent.h"

#include <recipeview.h>

namespace Inspector {

struct ViewChanges
{
    QList<RecipeEvent> events;
    QList<HandOff> handOffs;
};

ViewChanges diffViews(
    const Etcd::Decode::View &before, const Etcd::Decode::View &after, const QDateTime &now);

// Who an entry names in the log: its owner id, else its lease ("lease 694d…"), else its key.
QString actorOf(const Etcd::Decode::Entry &entry);

} // namespace Inspector
