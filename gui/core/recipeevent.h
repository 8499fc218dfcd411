// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// What the inspector reports happening to recipes: one event per change a person would name
// ("reporter-1 acquired /locks/db, token 1234"), and leadership hand-offs for the timeline.
#pragma once

#include <recipeview.h>

#include <QtCore/qdatetime.h>
#include <QtCore/qlist.h>
#include <QtCore/qstring.h>

namespace Inspector {

struct RecipeEvent
{
    enum class Type {
        LeaderElected, // an election's leader changed (actor: the new leader)
        LeaderLost, // an election has no leader any more (actor: the one that led)
        CandidateJoined,
        CandidateLeft,
        Acquired, // a lock or semaphore permit was taken (token: its create revision)
        Released,
        Queued, // a waiter joined a lock or semaphore queue
        BarrierSet,
        BarrierLifted,
        MemberArrived, // counted or double barrier
        BarrierTripped, // counted barrier: the round's ready marker appeared
        NumberChanged, // counter or latch (number: the new value)
        KeyAppeared, // transient key
        KeyVanished,
        Anomaly, // lease anomalies (text says which)
        Flapping, // an election handed off >= 4 times in 15 minutes
        Connection, // the session's own state: connected, reconnecting, resynced
        InstanceRegistered, // a service instance appeared (actor: who registered it)
        InstanceUpdated, // its JSON changed (enabled, payload, address...)
        InstanceGone, // unregistered, or its lease ended
    };

    QDateTime time; // local clock when seen (history: when replayed)
    qint64 revision = 0;
    Type type = Type::KeyAppeared;
    Etcd::Decode::Kind kind = Etcd::Decode::Kind::TransientKey;
    QByteArray path; // the recipe's path (the key for transient keys)
    QString actor; // owner id, or "lease <hex>" when the layout names none
    qint64 token = 0; // fencing or term token (create revision), 0 when none
    qint64 number = 0; // NumberChanged: the new value
    QString text; // the sentence shown in the log, already translated
    bool backfilled = false; // rebuilt from MVCC history rather than seen live
};

// One change of leader in one election.
struct HandOff
{
    QByteArray election;
    QString from; // empty: nobody led before
    QString to; // empty: nobody leads now
    qint64 revision = 0;
    qint64 termToken = 0; // the new leader's create revision, 0 when nobody leads
    QDateTime time;
    bool backfilled = false;
};

QString typeName(RecipeEvent::Type type); // translated, for filters and the log's column

} // namespace Inspector
