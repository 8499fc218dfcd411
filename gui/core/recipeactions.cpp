// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "recipeactions.h"

#include "viewdiff.h"

#include <EtcdQt/etcdclient.h>
#include <EtcdQt/etcdreplies.h>
#include <EtcdQt/etcdtxn.h>

#include <QtCore/qcoreapplication.h>

namespace Inspector {

using namespace Etcd::Decode;
using ActionType = RecipeAction::Type;

namespace {
QString hex(qint64 lease)
{
    return QString::number(lease, 16);
}

RecipeAction guardedDelete(ActionType type, const Recipe &r, const Entry &e)
{
    return {type, r.path, e.lease, e.key, e.createRevision};
}

// What ends when one key goes away, in the words of the recipe it belongs to.
QString effectOf(const Recipe &r, const Entry &e)
{
    const QString who = actorOf(e);
    const QString path = QString::fromUtf8(r.path);
    switch (e.role) {
    case Role::Leader:
        return QCoreApplication::translate(
            "Inspector::RecipeActions", "%1 stops leading %2 (term token %3)")
            .arg(who, path)
            .arg(e.createRevision);
    case Role::Participant:
        return QCoreApplication::translate("Inspector::RecipeActions", "%1 leaves the election %2")
            .arg(who, path);
    case Role::Holder:
        return QCoreApplication::translate(
            "Inspector::RecipeActions", "%1 loses %2 (fencing token %3)")
            .arg(who, path)
            .arg(e.createRevision);
    case Role::Waiter:
    case Role::Unranked:
        return QCoreApplication::translate("Inspector::RecipeActions", "%1 leaves the queue of %2")
            .arg(who, path);
    case Role::Setter:
        return QCoreApplication::translate(
            "Inspector::RecipeActions", "barrier %1 lifts: its waiters pass")
            .arg(path);
    case Role::Ready:
    case Role::Member:
        return QCoreApplication::translate("Inspector::RecipeActions", "%1 leaves %2")
            .arg(who, path);
    case Role::Value:
        return QCoreApplication::translate("Inspector::RecipeActions", "key %1 is deleted")
            .arg(QString::fromUtf8(e.key));
    case Role::Instance:
        return QCoreApplication::translate(
            "Inspector::RecipeActions", "%1 leaves service %2: clients stop choosing it")
            .arg(who, serviceName(r));
    case Role::Claim:
        return QCoreApplication::translate("Inspector::RecipeActions",
            "%1 loses its claim on item %2 of %3: the next consumer reclaims it")
            .arg(who, QString::fromUtf8(e.queue ? e.queue->id : e.key), path);
    case Role::Item:
    case Role::Marker:
    case Role::Claimed:
    case Role::Attempts:
    case Role::DeadLetter:
    case Role::Delayed:
        return QCoreApplication::translate("Inspector::RecipeActions", "key %1 is deleted")
            .arg(QString::fromUtf8(e.key));
    }
    return {};
}

QString nextHolder(const Recipe &r)
{
    const Entry *next = r.first(Role::Waiter);
    if (!next)
        return {};
    return QCoreApplication::translate(
        "Inspector::RecipeActions", "%1, first in the queue, may acquire it next")
        .arg(actorOf(*next));
}
} // namespace

QList<RecipeAction> actionsFor(const Recipe &r)
{
    QList<RecipeAction> actions;
    if (r.kind == Kind::Election) {
        if (const Entry *leader = r.first(Role::Leader))
            actions.append(guardedDelete(ActionType::StepDown, r, *leader));
    } else if (r.kind == Kind::Mutex || r.kind == Kind::ReadWriteLock
        || r.kind == Kind::Semaphore) {
        for (const Entry &e : r.entries) {
            if (e.role == Role::Holder)
                actions.append(guardedDelete(ActionType::ReleaseLock, r, e));
        }
    } else if (r.kind == Kind::Barrier) {
        if (const Entry *setter = r.first(Role::Setter))
            actions.append(guardedDelete(ActionType::LiftBarrier, r, *setter));
    }
    return actions;
}

RecipeAction revokeAction(qint64 lease)
{
    RecipeAction a;
    a.type = ActionType::RevokeLease;
    a.lease = lease;
    return a;
}

namespace {
QString titleOf(const RecipeAction &action)
{
    const QString target = action.type == ActionType::RevokeLease ? hex(action.lease)
                                                                  : QString::fromUtf8(action.path);
    return QCoreApplication::translate("Inspector::RecipeActions", "%1 %2?")
        .arg(actionName(action.type), target);
}

// A guarded delete only ever removes the key as it was seen: the same key in a later term or
// hold is out of its reach, so it is no part of the blast radius either.
bool hits(const RecipeAction &action, const Entry &e)
{
    if (action.type == ActionType::RevokeLease)
        return e.lease == action.lease;
    return e.key == action.key && e.createRevision == action.createRevision;
}
} // namespace

BlastRadius blastRadius(const View &view, const RecipeAction &action)
{
    BlastRadius b;
    b.title = titleOf(action);
    for (const Recipe &r : view.recipes) {
        for (const Entry &e : r.entries) {
            if (!hits(action, e))
                continue;
            b.effects.append(effectOf(r, e));
            if (e.role == Role::Holder && action.type != ActionType::RevokeLease)
                if (const QString next = nextHolder(r); !next.isEmpty())
                    b.effects.append(next);
        }
    }
    for (const EtcdKeyValue &kv : view.raw) {
        if (action.type == ActionType::RevokeLease && kv.lease == action.lease)
            b.effects.append(
                QCoreApplication::translate("Inspector::RecipeActions", "key %1 is deleted")
                    .arg(QString::fromUtf8(kv.key)));
    }
    b.possible = !b.effects.isEmpty();
    if (!b.possible) {
        b.whyNot = QCoreApplication::translate(
            "Inspector::RecipeActions", "Nothing in view holds it any more: it has already ended.");
        return b;
    }
    if (action.type == ActionType::RevokeLease)
        b.effects.prepend(QCoreApplication::translate("Inspector::RecipeActions",
            "Lease %1 and every key on it (%n key(s)) are removed.", nullptr, int(b.effects.size()))
                              .arg(hex(action.lease)));
    return b;
}

EtcdReply *perform(EtcdClient *client, const RecipeAction &action)
{
    if (action.type == ActionType::RevokeLease)
        return client->revokeLease(action.lease);
    EtcdTxn txn;
    txn.compares.append(
        EtcdCompare::createRevision(action.key, Etcd::CompareResult::Equal, action.createRevision));
    txn.success.append(EtcdTxnOp::remove(action.key));
    return client->txn(txn);
}

QString actionName(ActionType type)
{
    switch (type) {
    case ActionType::RevokeLease:
        return QCoreApplication::translate("Inspector::RecipeActions", "Revoke lease");
    case ActionType::StepDown:
        return QCoreApplication::translate("Inspector::RecipeActions", "Force step-down");
    case ActionType::ReleaseLock:
        return QCoreApplication::translate("Inspector::RecipeActions", "Release lock");
    case ActionType::LiftBarrier:
        return QCoreApplication::translate("Inspector::RecipeActions", "Lift barrier");
    }
    return {};
}

} // namespace Inspector
