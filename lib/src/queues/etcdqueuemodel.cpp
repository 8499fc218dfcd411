// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include <EtcdQt/etcdqueuemodel.h>

#include "handover_p.h"
#include "keyvaluefields_p.h"
#include "queuekeys_p.h"
#include "workops_p.h"

#include <QtCore/qdatetime.h>
#include <QtCore/qhash.h>
#include <QtCore/qpointer.h>
#include <QtCore/qset.h>

#include <algorithm>
#include <array>
#include <bit>
#include <functional>
#include <optional>

using namespace Etcd::Internal;
using QueueKeys::Area;

/*!
    \class EtcdQueueModel
    \inmodule EtcdQt
    \brief The items of a queue as a list model, in the order they will be taken, for
    Widgets views and QML.

    The model follows an EtcdPathChildrenCache made on the queue's path (the cache reads the
    queue once and then watches it from the revision after that read, so no change is
    missed, and re-reads after a compaction). How the keys under the path are read as items
    is the model's kind:

    \list
    \li Kind::Fifo (EtcdQueue): every key under \c{<path>/} is an item, ordered by mod
        revision, the items of one enqueueAll() (one revision) in their batch index order.
    \li Kind::Priority (EtcdPriorityQueue): every key under \c{<path>/}, in key order, so
        lowest priority number first and, within one priority, in enqueue order; the
        \c priority role is the priority the key carries.
    \li Kind::Work (EtcdWorkQueue): one row per item in each state the \l states property
        shows: State::Queued (\c{items/}, in key order, the order receive() claims them),
        State::Delayed (\c{delayed/}, by due time), State::InFlight (\c{claimed/} with its
        claim in \c{claims/}: \c consumer is the claiming consumer's id, \c attempt the
        delivery's number), State::Orphaned (\c{claimed/} whose claim went with its
        consumer's lease, until a sweep moves it back to \c{items/} or to the dead letters)
        and State::DeadLetter (\c{dlq/}). The rows are grouped by state in that order, so
        the first row is always the next item to be taken. The keys that one transaction of
        the queue changes (a claim, an acknowledgement) are applied together, on the next
        turn of the event loop: a view never sees an item half claimed.
    \endlist

    Roles: \c key (the item's key; for a work item the key in its current area),
    \c itemId (the key relative to \c{<path>/}; a work item's id), \c value (text, or hex
    when the bytes are not UTF-8; also Qt::DisplayRole), \c rawValue (the bytes),
    \c priority (-1 but for Kind::Priority), \c itemState (a State value; always
    State::Queued but for Kind::Work), \c attempt (a work item's delivery count so far: the
    current delivery's number while in flight, 0 for a fresh item), \c consumer (the
    claiming consumer's id, in flight only), \c modRevision and \c dueTime (a delayed
    item's due time as a QDateTime in UTC, invalid otherwise). The QML names of the id and
    state roles carry the \c item prefix because \c id and \c state are taken in QML
    delegates.

    The model follows the cache row by row: an item put is a row inserted at its place, an
    item taken a row removed, a work item moving between states a row removed and one
    inserted, a change within a state a dataChanged(). Its first load is one insertion of
    every row; it never resets. The model neither owns nor starts the cache:

    \code
    EtcdPathChildrenCache cache(client, "/jobs"); // the queue's path
    EtcdQueueModel model(&cache, EtcdQueueModel::Kind::Work);
    cache.start(EtcdPathChildrenCache::StartMode::BuildInitialCache);
    view->setModel(&model);
    \endcode

    In QML, QueueContents shows a queue through this model.
*/

/*! \enum EtcdQueueModel::Kind
    \value Fifo EtcdQueue's layout: items in mod-revision order.
    \value Priority EtcdPriorityQueue's layout: items in key order (priority, then sequence).
    \value Work EtcdWorkQueue's layout: items in their states (see State).
*/

/*! \enum EtcdQueueModel::State
    The states of a work item, in the order the model shows them.
    \value Queued Waiting in \c{items/}: the next receive() takes the first one.
    \value Delayed Waiting in \c{delayed/} for its due time.
    \value InFlight Claimed by a consumer that holds the claim.
    \value Orphaned Claimed, but the claim went with its consumer's lease: a sweep requeues
        it or, after the last delivery, dead-letters it.
    \value DeadLetter In \c{dlq/} after too many deliveries.
*/

/*! \enum EtcdQueueModel::Role
    \value KeyRole The item's key (a work item's key in its current area).
    \value IdRole The item's name under the queue's path; a work item's id (\c itemId in QML).
    \value ValueRole The value as text, or hex when it is not UTF-8.
    \value RawValueRole The value's bytes.
    \value PriorityRole The priority of a priority queue's item; -1 for other kinds.
    \value StateRole The item's State, as an int (\c itemState in QML).
    \value AttemptRole A work item's delivery count.
    \value ConsumerRole The id of the consumer holding the claim of an item in flight.
    \value ModRevisionRole The revision of the item key's last change.
    \value DueTimeRole A delayed item's due time (UTC); an invalid QDateTime otherwise.
*/

/*! \fn void EtcdQueueModel::cacheChanged()
    Emitted when the model follows another cache. */
/*! \fn void EtcdQueueModel::kindChanged()
    Emitted when the kind changed (the rows were read again). */
/*! \fn void EtcdQueueModel::statesChanged()
    Emitted when the shown states changed. */
/*! \fn void EtcdQueueModel::countChanged()
    Emitted when the number of rows changed. */

namespace {
using QueueModelState = EtcdQueueModel::State;

constexpr EtcdQueueModel::States kAllQueueStates = EtcdQueueModel::States::fromInt(0x1f);

// One row. Rows are kept sorted by (rank, order): for a FIFO queue (mod revision, key), for a
// priority queue (0, key), for a work queue (the state's place, id).
struct QueueModelRow
{
    qint64 rank = 0;
    QByteArray order;
    QByteArray key;
    QByteArray id;
    QByteArray value;
    int priority = -1;
    QueueModelState state = QueueModelState::Queued;
    int attempt = 0;
    QString consumer;
    qint64 modRevision = 0;
    qint64 dueMillis = 0; // 0: not delayed

    [[nodiscard]] bool before(qint64 r, const QByteArray &o) const
    {
        return rank < r || (rank == r && order < o);
    }
    [[nodiscard]] bool before(const QueueModelRow &other) const
    {
        return before(other.rank, other.order);
    }
    friend bool operator==(const QueueModelRow &, const QueueModelRow &) = default;
};

// The place of a work state among the rows (its bit's index).
qint64 queueStateRank(QueueModelState state)
{
    return qint64(std::countr_zero(unsigned(state)));
}

// The areas that hold a work item itself (claims/ and attempts/ only describe one).
constexpr Area kItemAreas[] = {Area::Items, Area::Delayed, Area::Claimed, Area::DeadLetters};
constexpr Area kWorkAreas[]
    = {Area::Items, Area::Claimed, Area::Claims, Area::Attempts, Area::DeadLetters, Area::Delayed};
constexpr QueueModelState kWorkStates[] = {QueueModelState::Queued, QueueModelState::Delayed,
    QueueModelState::InFlight, QueueModelState::Orphaned, QueueModelState::DeadLetter};

// The priority a priority queue's item name ("<priority %05d>/<seq %016d>") starts with.
int priorityOfName(const QByteArray &name)
{
    const qsizetype slash = name.indexOf('/');
    if (slash <= 0)
        return -1;
    bool ok = false;
    const int priority = name.left(slash).toInt(&ok);
    return ok ? priority : -1;
}
} // namespace

class EtcdQueueModelPrivate
{
public:
    using Row = QueueModelRow;
    // The key-value at a full key, as the cache (or a copy of it) holds it.
    using Lookup = std::function<std::optional<EtcdKeyValue>(const QByteArray &key)>;

    [[nodiscard]] int lowerBound(qint64 rank, const QByteArray &order) const
    {
        const auto it = std::partition_point(
            rows.cbegin(), rows.cend(), [&](const Row &row) { return row.before(rank, order); });
        return int(it - rows.cbegin());
    }
    [[nodiscard]] bool holds(int at, qint64 rank, const QByteArray &order) const
    {
        return at < rows.size() && rows.at(at).rank == rank && rows.at(at).order == order;
    }

    void insertRow(int at, const Row &row);
    void removeRow(int at);
    void put(const Row &row);
    void drop(qint64 rank, const QByteArray &order);
    void replaceAll(const QList<Row> &to);

    [[nodiscard]] std::optional<Row> plainRow(const EtcdKeyValue &kv) const;
    [[nodiscard]] std::optional<std::pair<Area, QByteArray>> workKeyOf(const QByteArray &key) const;
    [[nodiscard]] std::optional<Row> workRow(
        const EtcdKeyValue &kv, Area area, const QByteArray &id, const Lookup &lookup) const;
    [[nodiscard]] QList<Row> allRows() const;

    void changed(const EtcdKeyValue *current, const EtcdKeyValue *previous);
    void refreshWorkItem(const QByteArray &id);
    void flush();
    void sync();
    void follow();
    void countFrom(qsizetype before);

    EtcdQueueModel *q = nullptr;
    QPointer<EtcdPathChildrenCache> cache;
    QByteArray queuePath; // the cache's path
    EtcdQueueModel::Kind kind = EtcdQueueModel::Kind::Fifo;
    EtcdQueueModel::States states = kAllQueueStates;
    QList<Row> rows; // the model's own copy: views read a row while it is removed
    QSet<QByteArray> dirty; // work items changed since the last flush()
    bool flushPosted = false;
};

void EtcdQueueModelPrivate::insertRow(int at, const Row &row)
{
    q->beginInsertRows({}, at, at);
    rows.insert(at, row);
    q->endInsertRows();
}

void EtcdQueueModelPrivate::removeRow(int at)
{
    q->beginRemoveRows({}, at, at);
    rows.removeAt(at);
    q->endRemoveRows();
}

// Inserts `row` at its place, or updates the row of its sort key.
void EtcdQueueModelPrivate::put(const Row &row)
{
    const int at = lowerBound(row.rank, row.order);
    if (!holds(at, row.rank, row.order))
        return insertRow(at, row);
    if (rows.at(at) == row)
        return;
    rows[at] = row;
    Q_EMIT q->dataChanged(q->index(at), q->index(at));
}

void EtcdQueueModelPrivate::drop(qint64 rank, const QByteArray &order)
{
    const int at = lowerBound(rank, order);
    if (holds(at, rank, order))
        removeRow(at);
}

void EtcdQueueModelPrivate::countFrom(qsizetype before)
{
    if (rows.size() != before)
        Q_EMIT q->countChanged();
}

// Row by row from what the model shows to `to` (sorted), with one insertion or removal of
// every row when one side is empty.
void EtcdQueueModelPrivate::replaceAll(const QList<Row> &to)
{
    const qsizetype before = rows.size();
    if (rows.isEmpty() && !to.isEmpty()) {
        q->beginInsertRows({}, 0, int(to.size() - 1));
        rows = to;
        q->endInsertRows();
    } else if (to.isEmpty() && !rows.isEmpty()) {
        q->beginRemoveRows({}, 0, int(rows.size() - 1));
        rows.clear();
        q->endRemoveRows();
    } else {
        int i = 0;
        for (qsizetype j = 0; i < rows.size() || j < to.size();) {
            if (j == to.size() || (i < rows.size() && rows.at(i).before(to.at(j)))) {
                removeRow(i);
            } else if (i == rows.size() || to.at(j).before(rows.at(i))) {
                insertRow(i++, to.at(j++));
            } else {
                if (!(rows.at(i) == to.at(j))) {
                    rows[i] = to.at(j);
                    Q_EMIT q->dataChanged(q->index(i), q->index(i));
                }
                ++i;
                ++j;
            }
        }
    }
    countFrom(before);
}

// A FIFO or priority queue's item; nullopt for a key outside "<path>/".
std::optional<QueueModelRow> EtcdQueueModelPrivate::plainRow(const EtcdKeyValue &kv) const
{
    const QByteArray children = QueueKeys::children(queuePath);
    if (!kv.key.startsWith(children) || kv.key.size() == children.size())
        return std::nullopt;
    Row row;
    row.key = kv.key;
    row.order = kv.key;
    row.id = kv.key.mid(children.size());
    row.value = kv.value;
    row.modRevision = kv.modRevision;
    if (kind == EtcdQueueModel::Kind::Fifo)
        row.rank = kv.modRevision; // the taker's order: (revision, key), the key's batch index
    else
        row.priority = priorityOfName(row.id);
    return row;
}

// The area and id of a work queue's key; nullopt for a key in none of its areas.
std::optional<std::pair<Area, QByteArray>> EtcdQueueModelPrivate::workKeyOf(
    const QByteArray &key) const
{
    for (const Area area : kWorkAreas) {
        const QByteArray prefix = QueueKeys::area(queuePath, area);
        if (key.startsWith(prefix) && key.size() > prefix.size())
            return std::pair(area, key.mid(prefix.size()));
    }
    return std::nullopt;
}

// The row of work item `id` held at `kv` in `area` (one of kItemAreas); nullopt when its
// state is not shown.
std::optional<QueueModelRow> EtcdQueueModelPrivate::workRow(
    const EtcdKeyValue &kv, Area area, const QByteArray &id, const Lookup &lookup) const
{
    Row row;
    const std::optional<EtcdKeyValue> claim = area == Area::Claimed
        ? lookup(QueueKeys::workKey(queuePath, Area::Claims, id))
        : std::nullopt;
    switch (area) {
    case Area::Items:
        row.state = QueueModelState::Queued;
        break;
    case Area::Delayed:
        row.state = QueueModelState::Delayed;
        row.dueMillis = QueueKeys::nameMillis(id).value_or(0);
        break;
    case Area::Claimed:
        row.state = claim ? QueueModelState::InFlight : QueueModelState::Orphaned;
        if (claim)
            row.consumer = QString::fromUtf8(claim->value);
        break;
    default:
        row.state = QueueModelState::DeadLetter;
        break;
    }
    if (!states.testFlag(row.state))
        return std::nullopt;
    row.rank = queueStateRank(row.state);
    row.order = id;
    row.key = kv.key;
    row.id = id;
    row.value = kv.value;
    row.modRevision = kv.modRevision;
    if (const auto attempts = lookup(QueueKeys::workKey(queuePath, Area::Attempts, id)))
        row.attempt = WorkOps::attemptOf(attempts->value);
    return row;
}

// Every row the cache's key-values make, sorted.
QList<QueueModelRow> EtcdQueueModelPrivate::allRows() const
{
    QList<Row> out;
    if (!cache)
        return out;
    const QList<EtcdKeyValue> all = cache->currentData();
    if (kind != EtcdQueueModel::Kind::Work) {
        for (const EtcdKeyValue &kv : all) {
            if (std::optional<Row> row = plainRow(kv))
                out.append(*row);
        }
    } else {
        QHash<QByteArray, EtcdKeyValue> byKey;
        for (const EtcdKeyValue &kv : all)
            byKey.insert(kv.key, kv);
        const Lookup lookup = [&byKey](const QByteArray &key) -> std::optional<EtcdKeyValue> {
            const auto it = byKey.constFind(key);
            return it == byKey.cend() ? std::nullopt : std::optional(*it);
        };
        for (const EtcdKeyValue &kv : all) {
            const auto where = workKeyOf(kv.key);
            if (!where
                || std::find(std::begin(kItemAreas), std::end(kItemAreas), where->first)
                    == std::end(kItemAreas))
                continue;
            if (std::optional<Row> row = workRow(kv, where->first, where->second, lookup))
                out.append(*row);
        }
    }
    std::sort(out.begin(), out.end(), [](const Row &a, const Row &b) { return a.before(b); });
    return out;
}

// One key changed (added: no previous; removed: no current).
void EtcdQueueModelPrivate::changed(const EtcdKeyValue *current, const EtcdKeyValue *previous)
{
    if (kind == EtcdQueueModel::Kind::Work) {
        const auto where = workKeyOf(current ? current->key : previous->key);
        if (!where)
            return;
        // The other keys of its transaction arrive in the same batch of events: the item is
        // shown once they are all in.
        dirty.insert(where->second);
        if (!std::exchange(flushPosted, true))
            postQueued(q, [this] { flush(); });
        return;
    }
    const qsizetype before = rows.size();
    if (previous) {
        if (const std::optional<Row> old = plainRow(*previous))
            drop(old->rank, old->order);
    }
    if (current) {
        if (const std::optional<Row> row = plainRow(*current))
            put(*row);
    }
    countFrom(before);
}

void EtcdQueueModelPrivate::flush()
{
    flushPosted = false;
    const qsizetype before = rows.size();
    const QSet<QByteArray> ids = std::exchange(dirty, {});
    if (cache && kind == EtcdQueueModel::Kind::Work) {
        for (const QByteArray &id : ids)
            refreshWorkItem(id);
    }
    countFrom(before);
}

// The rows of work item `id` as the cache holds it now: at most one per state.
void EtcdQueueModelPrivate::refreshWorkItem(const QByteArray &id)
{
    const Lookup lookup
        = [this](const QByteArray &key) { return cache->currentData(cache->nameOf(key)); };
    std::array<std::optional<Row>, std::size(kWorkStates)> wanted; // by rank
    for (const Area area : kItemAreas) {
        if (const auto kv = lookup(QueueKeys::workKey(queuePath, area, id))) {
            if (std::optional<Row> row = workRow(*kv, area, id, lookup))
                wanted.at(std::size_t(row->rank)) = std::move(row);
        }
    }
    for (const QueueModelState state : kWorkStates) {
        const qint64 rank = queueStateRank(state);
        if (const std::optional<Row> &row = wanted.at(std::size_t(rank)))
            put(*row);
        else
            drop(rank, id);
    }
}

void EtcdQueueModelPrivate::sync()
{
    dirty.clear(); // the cache's entries hold every change marked so far
    replaceAll(allRows());
}

void EtcdQueueModelPrivate::follow()
{
    using C = EtcdPathChildrenCache;
    C *c = cache;
    QObject::connect(c, &C::childAdded, q,
        [this](const QString &, const EtcdKeyValue &kv) { changed(&kv, nullptr); });
    QObject::connect(c, &C::childUpdated, q,
        [this](const QString &, const EtcdKeyValue &kv, const EtcdKeyValue &previous) {
            changed(&kv, &previous);
        });
    QObject::connect(c, &C::childRemoved, q,
        [this](const QString &, const EtcdKeyValue &previous) { changed(nullptr, &previous); });
    // The initial snapshot comes without per-child signals; started() follows it.
    QObject::connect(c, &C::started, q, [this] { sync(); });
    QObject::connect(c, &C::cleared, q, [this] { sync(); });
    QObject::connect(c, &QObject::destroyed, q, [this] {
        dirty.clear();
        replaceAll({});
    });
}

/*! Constructs an empty model of a FIFO queue; setCache() gives it its rows. \a parent is
    the QObject parent. */
EtcdQueueModel::EtcdQueueModel(QObject *parent) : EtcdQueueModel(nullptr, Kind::Fifo, parent) { }

/*! Constructs a model of the queue of kind \a kind whose path \a cache follows (not owned,
    not started here): an EtcdPathChildrenCache made with the queue's path. */
EtcdQueueModel::EtcdQueueModel(EtcdPathChildrenCache *cache, Kind kind, QObject *parent)
    : QAbstractListModel(parent), d_ptr(new EtcdQueueModelPrivate)
{
    d_ptr->q = this;
    d_ptr->kind = kind;
    setCache(cache);
}

/*! Destroys the model; the cache goes on. */
EtcdQueueModel::~EtcdQueueModel() = default;

/*! \property EtcdQueueModel::cache
    The cache of the queue's path whose key-values make the rows (not owned). Its path is
    the queue's path. */
EtcdPathChildrenCache *EtcdQueueModel::cache() const
{
    return d_func()->cache;
}

/*! Follows \a cache from now on, reconciling the rows with its key-values row by row. */
void EtcdQueueModel::setCache(EtcdPathChildrenCache *cache)
{
    Q_D(EtcdQueueModel);
    if (d->cache == cache)
        return;
    if (d->cache)
        QObject::disconnect(d->cache, nullptr, this, nullptr);
    d->cache = cache;
    d->queuePath = cache ? cache->path() : QByteArray();
    if (cache)
        d->follow();
    d->sync();
    Q_EMIT cacheChanged();
}

/*! \property EtcdQueueModel::kind
    \brief how the keys are read as items (default Kind::Fifo). Changing it reads the rows
    again. */
EtcdQueueModel::Kind EtcdQueueModel::kind() const
{
    return d_func()->kind;
}

void EtcdQueueModel::setKind(Kind kind)
{
    Q_D(EtcdQueueModel);
    if (std::exchange(d->kind, kind) == kind)
        return;
    d->sync();
    Q_EMIT kindChanged();
}

/*! \property EtcdQueueModel::states
    \brief the states of a work queue's items the model shows (default: all). A FIFO or
    priority queue's items are always shown. */
EtcdQueueModel::States EtcdQueueModel::states() const
{
    return d_func()->states;
}

void EtcdQueueModel::setStates(States states)
{
    Q_D(EtcdQueueModel);
    if (std::exchange(d->states, states) == states)
        return;
    d->sync();
    Q_EMIT statesChanged();
}

/*! \property EtcdQueueModel::count The number of rows. */

/*! The number of rows (\a parent must be invalid). */
int EtcdQueueModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(d_func()->rows.size());
}

/*! What \a role says of the item at \a index. */
QVariant EtcdQueueModel::data(const QModelIndex &index, int role) const
{
    Q_D(const EtcdQueueModel);
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const QueueModelRow &row = d->rows.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
    case ValueRole:
        return valueText(row.value, ValueText::Auto);
    case KeyRole:
        return QString::fromUtf8(row.key);
    case IdRole:
        return QString::fromUtf8(row.id);
    case RawValueRole:
        return row.value;
    case PriorityRole:
        return row.priority;
    case StateRole:
        return int(row.state);
    case AttemptRole:
        return row.attempt;
    case ConsumerRole:
        return row.consumer;
    case ModRevisionRole:
        return row.modRevision;
    case DueTimeRole:
        return row.dueMillis > 0 ? QDateTime::fromMSecsSinceEpoch(row.dueMillis, Qt::UTC)
                                 : QDateTime();
    default:
        return {};
    }
}

/*! The roles' names for QML delegates: \c key, \c itemId, \c value, \c rawValue,
    \c priority, \c itemState, \c attempt, \c consumer, \c modRevision, \c dueTime. */
QHash<int, QByteArray> EtcdQueueModel::roleNames() const
{
    return {
        {KeyRole, QByteArrayLiteral("key")},
        {IdRole, QByteArrayLiteral("itemId")},
        {ValueRole, QByteArrayLiteral("value")},
        {RawValueRole, QByteArrayLiteral("rawValue")},
        {PriorityRole, QByteArrayLiteral("priority")},
        {StateRole, QByteArrayLiteral("itemState")},
        {AttemptRole, QByteArrayLiteral("attempt")},
        {ConsumerRole, QByteArrayLiteral("consumer")},
        {ModRevisionRole, QByteArrayLiteral("modRevision")},
        {DueTimeRole, QByteArrayLiteral("dueTime")},
    };
}
