// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// The custom item roles of the inspector's models. One enum for all of them, so a role means
// the same in every model: the window can take PathRole from a lease, event or timeline row
// and jump to the recipe with RecipeModel::indexOfPath().
#pragma once

#include <QtCore/qnamespace.h>

namespace Inspector {

enum ItemRole {
    KindRole = Qt::UserRole + 1, // int of Etcd::Decode::Kind
    PathRole, // QByteArray: the recipe's path
    KeyRole, // QByteArray: the etcd key
    LeaseRole, // qint64: lease id, 0 for none
    EntryRoleRole, // int of Etcd::Decode::Role (entry rows only)
    CreateRevisionRole, // qint64: the key's create revision (fencing or term token)
    OwnerRole, // QString: who owns the entry, or leads / holds the recipe
    IsRecipeRole, // bool: a recipe row rather than one of its entries
    TypeRole, // int of RecipeEvent::Type
    BackfilledRole, // bool: rebuilt from history rather than seen live
    RevisionRole, // qint64: the revision an event or hand-off happened at
    SearchTextRole, // QString: case-folded text an event filter matches against
};

} // namespace Inspector
