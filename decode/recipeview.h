// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// What the decoder makes of a snapshot: recipe instances with their roles, and raw keys.
#pragma once

#include <EtcdQt/etcdfencing.h>
#include <EtcdQt/etcdkeyvalue.h>
#include <EtcdQt/etcdserviceinstance.h>

#include <QtCore/qlist.h>
#include <QtCore/qstring.h>
#include <QtCore/qstringlist.h>

#include <optional>

namespace Etcd::Decode {

enum class Kind {
    Election, // <E>/LEADER + <E>/participants/<id>, or etcd's concurrency.Election
    Mutex, // etcd's concurrency.Mutex: <L>/<lease hex>, empty values
    ReadWriteLock, // <L>/read-<id>:<7>, <L>/write-<id>:<7>
    Semaphore, // <S>/permits, <S>/holders/<id>:<7>
    Barrier, // <B> = "<id>:<7>", leased
    CountedBarrier, // <B>/ready, <B>/waiting/<token>
    DoubleBarrier, // two counted barriers, <B>/enter and <B>/leave
    Number, // 8 bytes big-endian, no lease: an atomic counter or a count-down latch
    TransientKey, // any other leased key
    Service, // <P>/names/<service>/<id> = an etcd-recipes ServiceInstance JSON, leased
};

enum class Role {
    Leader, // election: the LEADER key, or the earliest key of a concurrency.Election
    Participant, // election: a participation key, or a later concurrency.Election key
    Holder, // lock or semaphore: holds (rank within the permits, or nothing blocking)
    Waiter, // lock or semaphore: queued behind a holder
    Unranked, // semaphore entry when the permits are unknown: holding or queued, unknown
    Ready, // counted barrier: the round's "ready" marker
    Member, // counted barrier: a waiting member
    Setter, // barrier: the key that keeps it set
    Value, // counter, latch or transient key: the key itself
    Instance, // service: one registered instance
};

enum class Side { None, Read, Write, Enter, Leave };

// One key in the role it plays, with what etcd says about it.
struct Entry
{
    Role role = Role::Value;
    Side side = Side::None;
    QString owner; // the client id the key or its value names; empty when the layout has none
    QByteArray key;
    QByteArray value;
    qint64 createRevision = 0;
    qint64 modRevision = 0;
    qint64 version = 0;
    qint64 lease = 0;
    qint64 ttl = -1; // seconds left on the lease when known, else -1
    // Service instances: the value read as etcd-recipes' JSON, its id the key's.
    std::optional<EtcdServiceInstance> service;

    // What proves this ownership: the key, its lease, its create revision (a term token for
    // a leader, a fencing token for a lock holder).
    [[nodiscard]] EtcdFencingToken fencingToken() const { return {key, lease, createRevision}; }
};

struct Recipe
{
    Kind kind = Kind::TransientKey;
    QByteArray path;
    QList<Entry> entries; // per role in create-revision order (queue and rank order)
    // Number: the value; Semaphore: the permits (nullopt when its permits key is unreadable).
    std::optional<qint64> number;
    QStringList notes; // ambiguities and malformed keys, in words

    [[nodiscard]] QList<Entry> withRole(Role role) const;
    [[nodiscard]] const Entry *first(Role role) const;
    [[nodiscard]] qsizetype count(Role role) const;
};

struct View
{
    QByteArray prefix;
    qint64 revision = 0; // the snapshot's revision
    QList<Recipe> recipes; // by path
    QList<EtcdKeyValue> raw; // everything no recipe claimed, by key
};

// Where a service instance is reached: "address:port" (the SSL port when there is no other),
// else the address, else the URI; empty when the instance names none.
QString serviceEndpoint(const EtcdServiceInstance &instance);
// Who registered an instance, as far as its JSON tells: its endpoint, else its id.
QString serviceRegistrant(const EtcdServiceInstance &instance);
// The service a Kind::Service recipe stands for: the last segment of its path.
QString serviceName(const Recipe &recipe);

QString kindName(Kind kind);
QString roleName(Role role);
QString sideName(Side side);

} // namespace Etcd::Decode
