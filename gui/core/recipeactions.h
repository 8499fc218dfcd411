// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// The inspector's write actions and what each would end, worked out from the decoded view
// before anything is sent. Every action but a lease revoke is a delete guarded by the key's
// create revision: if the term or hold the operator looked at has already ended, etcd refuses
// and nothing newer is touched.
#pragma once

#include <recipeview.h>

#include <QtCore/qstringlist.h>

class EtcdClient;
class EtcdReply;

namespace Inspector {

struct RecipeAction
{
    enum class Type { RevokeLease, StepDown, ReleaseLock, LiftBarrier };
    Type type = Type::RevokeLease;
    QByteArray path; // the recipe (empty for RevokeLease)
    qint64 lease = 0; // RevokeLease
    QByteArray key; // the key a guarded delete removes
    qint64 createRevision = 0; // its guard: the term or fencing token seen
};

struct BlastRadius
{
    QString title; // "Revoke lease 694d…?"
    QStringList effects; // one line per hold or term that ends
    bool possible = false;
    QString whyNot; // when not possible
};

// The actions that make sense for a recipe (none for counters, latches or raw keys).
QList<RecipeAction> actionsFor(const Etcd::Decode::Recipe &recipe);
RecipeAction revokeAction(qint64 lease);

BlastRadius blastRadius(const Etcd::Decode::View &view, const RecipeAction &action);

// Sends it; the reply reports the outcome (a guarded delete that found a newer term answers
// EtcdTxnReply::succeeded() == false).
EtcdReply *perform(EtcdClient *client, const RecipeAction &action);

QString actionName(RecipeAction::Type type); // translated

} // namespace Inspector
