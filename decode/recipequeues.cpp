// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// The queues' layouts (etcd-recipes.md §2.4 and §3): DistributedQueue, DistributedPriorityQueue
// and DistributedWorkQueue. Only a work queue's claims are leased, so the key names are the
// test: 19 digits of millis and 3 random characters, 5 digits of priority and 16 of sequence.
#include "recipelayouts_p.h"

#include <EtcdQt/etcdcodec.h>

#include <QtCore/qcoreapplication.h>
#include <QtCore/qset.h>

#include <algorithm>
#include <array>

namespace Etcd::Decode::Layouts {

namespace {
constexpr qsizetype kMillisDigits = 19; // "%019d" of the epoch millis
constexpr qsizetype kBatchIndexDigits = 5; // enqueueAll()'s "%05d"
constexpr qsizetype kItemTagLength = 3; // randomId(3)
constexpr qsizetype kPriorityDigits = 5;
constexpr qsizetype kSequenceDigits = 16;
constexpr int kMaxPriority = 65535;

bool allDecimal(QByteArrayView s)
{
    return !s.isEmpty()
        && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool allAlphanumeric(QByteArrayView s)
{
    return !s.isEmpty() && std::all_of(s.begin(), s.end(), [](char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    });
}

QString keyText(const QByteArray &key)
{
    return QString::fromUtf8(key);
}

// "<millis 19>-<3>" or "<millis 19>-<index 5>-<3>": a FIFO or work-queue item's name.
std::optional<QueueItem> itemNamed(const QByteArray &name)
{
    const QByteArrayView v(name);
    const bool single = v.size() == kMillisDigits + 1 + kItemTagLength;
    const bool batch = v.size() == kMillisDigits + 1 + kBatchIndexDigits + 1 + kItemTagLength;
    if ((!single && !batch) || v.at(kMillisDigits) != '-' || !allDecimal(v.first(kMillisDigits))
        || !allAlphanumeric(v.last(kItemTagLength)))
        return std::nullopt;
    QueueItem item;
    item.id = name;
    if (batch) {
        const QByteArrayView index = v.sliced(kMillisDigits + 1, kBatchIndexDigits);
        if (v.at(kMillisDigits + 1 + kBatchIndexDigits) != '-' || !allDecimal(index))
            return std::nullopt;
        item.batchIndex = index.toByteArray().toInt();
    }
    bool ok = false;
    item.millis = v.first(kMillisDigits).toByteArray().toLongLong(&ok);
    if (!ok)
        return std::nullopt; // beyond a 64-bit millis: no Long.toString wrote it
    return item;
}

// ---- work queues: <q>/items/, claimed/, claims/, attempts/, dlq/, delayed/ ----

enum class WorkArea { Items, Claimed, Claims, Attempts, DeadLetters, Delayed };
constexpr std::array kWorkAreas = {WorkArea::Items, WorkArea::Claimed, WorkArea::Claims,
    WorkArea::Attempts, WorkArea::DeadLetters, WorkArea::Delayed};

QByteArray folderName(WorkArea area)
{
    static const QByteArray names[] = {"items", "claimed", "claims", "attempts", "dlq", "delayed"};
    return names[int(area)];
}

Role roleIn(WorkArea area)
{
    static const Role roles[]
        = {Role::Item, Role::Claimed, Role::Claim, Role::Attempts, Role::DeadLetter, Role::Delayed};
    return roles[int(area)];
}

// The work queue a key belongs to when it is "<q>/<area>/<item name>".
std::optional<QByteArray> workQueueOf(const QByteArray &key)
{
    const QByteArray folder = parentOf(key);
    if (!key.contains('/') || !folder.contains('/') || !itemNamed(lastSegment(key)))
        return std::nullopt;
    const QByteArray area = lastSegment(folder);
    for (WorkArea a : kWorkAreas) {
        if (area == folderName(a))
            return parentOf(folder);
    }
    return std::nullopt;
}

QList<QByteArray> workQueuePaths(const Pool &pool)
{
    QSet<QByteArray> paths;
    for (const QByteArray &key : pool.keys.keys()) {
        if (const std::optional<QByteArray> path = workQueueOf(key))
            paths.insert(*path);
    }
    QList<QByteArray> sorted = paths.values();
    std::sort(sorted.begin(), sorted.end());
    return sorted;
}

// Claims live on the consumer's lease; everything else on none. A 4-byte count is all an
// attempts key holds.
bool readableIn(WorkArea area, const EtcdKeyValue &kv, Recipe &r)
{
    if (area == WorkArea::Claims) {
        if (kv.lease == 0)
            r.notes.append(QCoreApplication::translate(
                "Etcd::Decode", "%1 is on no lease: this claim never expires")
                               .arg(keyText(kv.key)));
        return true;
    }
    if (kv.lease != 0) {
        r.notes.append(QCoreApplication::translate(
            "Etcd::Decode", "%1 is on a lease: not read as part of the work queue")
                           .arg(keyText(kv.key)));
        return false;
    }
    if (area == WorkArea::Attempts && !Etcd::decodeInt32(kv.value)) {
        r.notes.append(QCoreApplication::translate(
            "Etcd::Decode", "%1 is not a 4-byte count: not read as attempts")
                           .arg(keyText(kv.key)));
        return false;
    }
    return true;
}

// One work queue's keys, area by area, by id (the map keeps them in key order).
class WorkQueueReader
{
public:
    WorkQueueReader(Pool &pool, const QByteArray &path)
        : m_pool(pool), m_recipe {Kind::WorkQueue, path, {}, {}, {}}
    {
        for (WorkArea a : kWorkAreas) {
            const QByteArray folder = path + '/' + folderName(a) + '/';
            for (const EtcdKeyValue &kv : pool.under(folder)) {
                const QByteArray id = kv.key.mid(folder.size());
                if (itemNamed(id) && readableIn(a, kv, m_recipe))
                    keys(a).insert(id, kv);
            }
        }
    }

    Recipe read()
    {
        noteAmbiguity();
        for (const QByteArray &id : keys(WorkArea::Items).keys()) {
            take(WorkArea::Items, id, withAttempts(id));
            takeAttempts(id);
        }
        for (const QByteArray &id : keys(WorkArea::Claimed).keys())
            takeInFlight(id);
        for (const QByteArray &id : keys(WorkArea::Claims).keys()) {
            m_recipe.notes.append(QCoreApplication::translate(
                "Etcd::Decode", "%1 claims an item that is not in claimed/")
                                      .arg(keyText(keys(WorkArea::Claims).value(id).key)));
            QueueItem item = claimedBy(id);
            take(WorkArea::Claims, id, item, item.consumer);
            takeAttempts(id);
        }
        for (const QByteArray &id : keys(WorkArea::DeadLetters).keys()) {
            take(WorkArea::DeadLetters, id, withAttempts(id));
            takeAttempts(id);
        }
        for (const QByteArray &id : keys(WorkArea::Delayed).keys())
            take(WorkArea::Delayed, id, *itemNamed(id));
        for (const QByteArray &id : keys(WorkArea::Attempts).keys())
            takeAttempts(id); // counts of items no other area holds
        m_recipe.number = m_recipe.count(Role::Item);
        return std::move(m_recipe);
    }

private:
    QMap<QByteArray, EtcdKeyValue> &keys(WorkArea a) { return m_keys[int(a)]; }

    // Keys of one area alone are just as well a FIFO queue named after the area.
    void noteAmbiguity()
    {
        const auto present = std::count_if(m_keys.cbegin(), m_keys.cend(),
            [](const QMap<QByteArray, EtcdKeyValue> &area) { return !area.isEmpty(); });
        if (present != 1)
            return;
        const auto it = std::find_if(kWorkAreas.cbegin(), kWorkAreas.cend(),
            [this](WorkArea a) { return !keys(a).isEmpty(); });
        const QByteArray folder = m_recipe.path + '/' + folderName(*it);
        m_recipe.notes.append(QCoreApplication::translate(
            "Etcd::Decode", "only %1/ holds keys: a FIFO queue at %1 looks the same")
                                  .arg(keyText(folder)));
    }

    QueueItem withAttempts(const QByteArray &id)
    {
        QueueItem item = *itemNamed(id);
        if (const auto it = keys(WorkArea::Attempts).constFind(id);
            it != keys(WorkArea::Attempts).cend())
            item.attempts = Etcd::decodeInt32(it->value);
        return item;
    }

    // What claims/<id> says: who has the item, on which lease.
    QueueItem claimedBy(const QByteArray &id)
    {
        QueueItem item = withAttempts(id);
        const auto claim = keys(WorkArea::Claims).constFind(id);
        if (claim == keys(WorkArea::Claims).cend()) {
            item.orphaned = true;
            return item;
        }
        item.consumer = QString::fromUtf8(claim->value);
        item.claimLease = claim->lease;
        item.claimTtl = claim->lease != 0 ? m_pool.ttls.value(claim->lease, -1) : -1;
        return item;
    }

    // claimed/<id>, then its claim and its attempts: one item in flight.
    void takeInFlight(const QByteArray &id)
    {
        const QueueItem item = claimedBy(id);
        take(WorkArea::Claimed, id, item, item.consumer);
        if (!item.orphaned)
            take(WorkArea::Claims, id, item, item.consumer);
        takeAttempts(id);
    }

    void takeAttempts(const QByteArray &id)
    {
        if (keys(WorkArea::Attempts).contains(id))
            take(WorkArea::Attempts, id, withAttempts(id));
    }

    void take(WorkArea a, const QByteArray &id, QueueItem item, const QString &owner = {})
    {
        Entry e = m_pool.take(keys(a).take(id), roleIn(a), owner);
        e.queue = std::move(item);
        m_recipe.entries.append(std::move(e));
    }

    Pool &m_pool;
    Recipe m_recipe;
    std::array<QMap<QByteArray, EtcdKeyValue>, kWorkAreas.size()> m_keys;
};

// ---- priority queues: <Q>/<priority 5>/<seq 16>, markers __<Q>/<priority 5> = "" ----

std::optional<int> priorityNamed(const QByteArray &segment)
{
    if (segment.size() != kPriorityDigits || !allDecimal(segment))
        return std::nullopt;
    const int priority = segment.toInt();
    return priority <= kMaxPriority ? std::optional<int>(priority) : std::nullopt;
}

struct PriorityShape
{
    QByteArray path;
    QueueItem item;
    bool marker = false;
};

std::optional<PriorityShape> priorityShape(const QByteArray &key)
{
    const QByteArray leaf = lastSegment(key);
    const QByteArray level = parentOf(key);
    if (key.contains('/') && level.contains('/') && leaf.size() == kSequenceDigits
        && allDecimal(leaf)) {
        if (const std::optional<int> priority = priorityNamed(lastSegment(level))) {
            PriorityShape shape {parentOf(level), {}, false};
            shape.item.id = lastSegment(level) + '/' + leaf;
            shape.item.priority = *priority;
            shape.item.sequence = leaf.toLongLong();
            return shape;
        }
    }
    const QByteArray marked = key.mid(2);
    if (key.startsWith("__") && marked.contains('/')) {
        if (const std::optional<int> priority = priorityNamed(lastSegment(marked))) {
            PriorityShape shape {parentOf(marked), {}, true};
            shape.item.id = lastSegment(marked);
            shape.item.priority = *priority;
            return shape;
        }
    }
    return std::nullopt;
}

QList<Recipe> takePriorityQueues(Pool &pool)
{
    struct Level
    {
        std::optional<EtcdKeyValue> marker;
        QList<std::pair<EtcdKeyValue, QueueItem>> items; // in key order: by sequence
    };
    QMap<QByteArray, QMap<int, Level>> queues;
    QMap<QByteArray, QStringList> notes;
    for (const EtcdKeyValue &kv : std::as_const(pool.keys)) {
        const std::optional<PriorityShape> shape = priorityShape(kv.key);
        if (!shape)
            continue;
        if (kv.lease != 0 || (shape->marker && !kv.value.isEmpty())) {
            notes[shape->path].append(shape->marker
                    ? QCoreApplication::translate("Etcd::Decode",
                        "%1 is not an unleased empty value: not read as a priority marker")
                          .arg(keyText(kv.key))
                    : QCoreApplication::translate(
                        "Etcd::Decode", "%1 is on a lease: not read as a queue item")
                          .arg(keyText(kv.key)));
            continue;
        }
        Level &level = queues[shape->path][shape->item.priority];
        if (shape->marker)
            level.marker = kv;
        else
            level.items.append({kv, shape->item});
    }
    QList<Recipe> found;
    for (auto q = queues.cbegin(); q != queues.cend(); ++q) {
        Recipe r {Kind::PriorityQueue, q.key(), {}, {}, notes.value(q.key())};
        for (auto level = q->cbegin(); level != q->cend(); ++level) {
            if (level->marker) {
                Entry e = pool.take(*level->marker, Role::Marker);
                e.queue = priorityShape(e.key)->item;
                r.entries.append(std::move(e));
            }
            for (const auto &[kv, item] : level->items) {
                Entry e = pool.take(kv, Role::Item);
                e.queue = item;
                r.entries.append(std::move(e));
            }
        }
        r.number = r.count(Role::Item);
        found.append(std::move(r));
    }
    return found;
}

// ---- FIFO queues: <Q>/<millis 19>-<3>, batch <Q>/<millis 19>-<index 5>-<3> ----

// Taken by mod revision (etcd-recipes sorts by MOD); a batch shares one, then its key decides.
bool byModRevision(const Entry &a, const Entry &b)
{
    return a.modRevision != b.modRevision ? a.modRevision < b.modRevision : a.key < b.key;
}

// workFolders: the areas of the work queues found, whose keys are no FIFO queue's.
QList<Recipe> takeFifoQueues(Pool &pool, const QSet<QByteArray> &workFolders)
{
    QMap<QByteArray, QList<EtcdKeyValue>> queues;
    QMap<QByteArray, QStringList> notes;
    for (const EtcdKeyValue &kv : std::as_const(pool.keys)) {
        if (!kv.key.contains('/') || !itemNamed(lastSegment(kv.key)))
            continue;
        const QByteArray path = parentOf(kv.key);
        if (workFolders.contains(path))
            continue;
        if (kv.lease != 0)
            notes[path].append(QCoreApplication::translate(
                "Etcd::Decode", "%1 is on a lease: not read as a queue item")
                                   .arg(keyText(kv.key)));
        else
            queues[path].append(kv);
    }
    QList<Recipe> found;
    for (auto q = queues.cbegin(); q != queues.cend(); ++q) {
        Recipe r {Kind::Queue, q.key(), {}, {}, notes.value(q.key())};
        for (const EtcdKeyValue &kv : *q) {
            Entry e = pool.take(kv, Role::Item);
            e.queue = itemNamed(lastSegment(kv.key));
            r.entries.append(std::move(e));
        }
        std::stable_sort(r.entries.begin(), r.entries.end(), byModRevision);
        r.number = r.entries.size();
        found.append(std::move(r));
    }
    return found;
}
} // namespace

QList<Recipe> takeQueues(Pool &pool)
{
    QList<Recipe> found;
    QSet<QByteArray> workFolders;
    for (const QByteArray &path : workQueuePaths(pool)) {
        Recipe r = WorkQueueReader(pool, path).read();
        if (r.entries.isEmpty())
            continue;
        for (WorkArea a : kWorkAreas)
            workFolders.insert(path + '/' + folderName(a));
        found.append(std::move(r));
    }
    found.append(takePriorityQueues(pool));
    found.append(takeFifoQueues(pool, workFolders));
    return found;
}

} // namespace Etcd::Decode::Layouts
