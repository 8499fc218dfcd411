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
    Queue, // <Q>/<millis 19>-<3>, batch <Q>/<millis 19>-<index 5>-<3>; no lease
    PriorityQueue, // <Q>/<priority 5>/<seq 16>, and markers __<Q>/<priority 5> = ""
    WorkQueue, // <Q>/items/, claimed/, claims/ (leased), attempts/, dlq/, delayed/
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
    Item, // queue: an item waiting to be taken (work queue: in items/)
    Marker, // priority queue: a level's marker key, __<Q>/<priority>
    Claimed, // work queue: claimed/<id>, the payload of an item in flight
    Claim, // work queue: claims/<id>, the consumer's client id on the consumer's lease
    Attempts, // work queue: attempts/<id>, deliveries so far
    DeadLetter, // work queue: dlq/<id>, an item delivered too often
    Delayed, // work queue: delayed/<due millis>-<3>, an item not yet due
};

enum class Side { None, Read, Write, Enter, Leave };

// What a queue key's name, and the keys beside it, tell about its item.
struct QueueItem
{
    // The item's name: "<millis>-<3>" or "<millis>-<index>-<3>" (the same in every area of a
    // work queue); "<priority>/<seq>" in a priority queue.
    QByteArray id;
    // The millis the name starts with: when it was enqueued (a delayed item: when it is due;
    // an item promoted from delayed/: when it was due). -1 when the name has none.
    qint64 millis = -1;
    int batchIndex = -1; // enqueueAll()'s index within its batch, -1 for a single item
    int priority = -1; // priority queue: the level (0 is taken first), else -1
    qint64 sequence = -1; // priority queue: the order within the level, else -1
    // Work queue: attempts/<id>, the deliveries so far (the one in flight included).
    std::optional<qint32> attempts;
    // Work queue, in flight: the consumer that claims the item (claims/<id>), its lease and
    // that lease's seconds left (-1 unknown). Empty, 0 and -1 when nobody claims it.
    QString consumer;
    qint64 claimLease = 0;
    qint64 claimTtl = -1;
    bool orphaned = false; // claimed/<id> without claims/<id>: the next consumer reclaims it

    friend bool operator==(const QueueItem &, const QueueItem &) = default;
};

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
    // Queue keys: what their names and neighbours say of their item.
    std::optional<QueueItem> queue;

    // What proves this ownership: the key, its lease, its create revision (a term token for
    // a leader, a fencing token for a lock holder).
    [[nodiscard]] EtcdFencingToken fencingToken() const { return {key, lease, createRevision}; }
};

struct Recipe
{
    Kind kind = Kind::TransientKey;
    QByteArray path;
    // Per role in create-revision order (queue and rank order). Queues: in the order items
    // are taken (a FIFO queue by mod revision, the others by key); a priority queue's levels
    // each start with their marker; a work queue lists pending items (each followed by its
    // attempts key), then the keys of each item in flight together (claimed, claim,
    // attempts), dead letters (with their attempts), delayed items.
    QList<Entry> entries;
    // Number: the value; Semaphore: the permits (nullopt when its permits key is unreadable);
    // queues: the depth (items waiting to be taken; a work queue's in items/).
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
    // When the keys were read, in ms since the epoch (0: unknown): what the ages of queue
    // items are measured from.
    qint64 wallClockMs = 0;
};

// One level of a priority queue: its items waiting, and whether its marker key was seen
// (it lies outside the queue's prefix, so a read of the prefix alone misses it).
struct PriorityLevel
{
    int priority = 0;
    qsizetype depth = 0;
    bool marked = false;
    const Entry *next = nullptr; // the level's first item, null when it has none
};
// The levels of a Kind::PriorityQueue recipe, lowest number (taken first) first.
QList<PriorityLevel> priorityLevels(const Recipe &recipe);
bool isQueue(Kind kind);
// The item a queue hands out next (FIFO: the oldest by mod revision; priority: the lowest
// level's lowest sequence; work queue: the first in items/ by key); null when none waits.
const Entry *queueHead(const Recipe &recipe);
// A work queue's claimed items whose claim is gone (its consumer's lease ended).
qsizetype orphanedClaims(const Recipe &recipe);

// Bytes for a person's eyes, on one line: the UTF-8 text with control characters, invalid
// bytes, bidirectional controls and backslashes escaped (\n, \t, \x01, \u{202e}, \\), cut to
// maxChars characters with an ellipsis (maxChars < 0: never cut). A value from etcd is
// anybody's bytes: it must not rewrite a terminal line or reorder what follows it.
QString previewBytes(const QByteArray &bytes, qsizetype maxChars = 60);
// Whether the code point would change how the rest of a line reads instead of showing: every
// control (C0, DEL, C1) and format character (bidi marks, embeddings, overrides and isolates,
// U+0600's prepended marks, U+070F, U+FEFF, the tag characters...) and the line and paragraph
// separators.
bool isInvisibleControl(char32_t c);

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
