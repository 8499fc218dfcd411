// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "recipemodel.h"

#include "leaseclock.h"
#include "modelclock.h"
#include "modelstyle.h"
#include "recipetext.h"
#include "rowdiff.h"

#include <QtCore/qdatetime.h>

#include <algorithm>

using namespace Etcd::Decode;

namespace Inspector {

// What makes a recipe "the same" from one view to the next: path and kind. The decoder could
// in principle name two recipes of one kind at one path (two election layouts side by side),
// so an ordinal tells those apart. The path is the view's own (shared, not copied): ids made
// as one string each cost 92,000 allocations a view at 100,000 keys.
struct RecipeId
{
    QByteArray path;
    int kind = 0;
    int ordinal = 0;

    friend bool operator==(const RecipeId &, const RecipeId &) = default;
    friend size_t qHash(const RecipeId &id, size_t seed = 0)
    {
        return qHashMulti(seed, id.path, id.kind, id.ordinal);
    }
};

// A recipe row. Child indexes carry their Node in the internal pointer (top-level indexes
// carry none), so a child's parent() survives rows inserted or removed above it.
struct RecipeNode
{
    RecipeId id;
    Recipe recipe;
    int row = 0;
    [[nodiscard]] int childCount() const { return int(recipe.entries.size()); }
};

namespace {
bool sameEntry(const Entry &a, const Entry &b)
{
    return a.role == b.role && a.side == b.side && a.owner == b.owner && a.key == b.key
        && a.value == b.value && a.createRevision == b.createRevision
        && a.modRevision == b.modRevision && a.version == b.version && a.lease == b.lease
        && a.ttl == b.ttl && a.queue == b.queue; // a claim's coming or going changes its item
}

// The entry a collapsed recipe row speaks for: who leads, holds or keeps it set; a queue's
// next item.
const Entry *principal(const Recipe &r)
{
    if (isQueue(r.kind))
        return queueHead(r);
    for (Role role : {Role::Leader, Role::Holder, Role::Setter, Role::Ready})
        if (const Entry *e = r.first(role))
            return e;
    return r.kind == Kind::TransientKey || r.kind == Kind::Number ? r.first(Role::Value) : nullptr;
}

// What a service instance's JSON says, beyond the columns.
QString instanceToolTip(const Entry &e)
{
    const EtcdServiceInstance &s = *e.service;
    return RecipeModel::tr("Key: %1\nEndpoint: %2\nURI: %3\nEnabled: %4\nRegistered: %5\n"
                           "Payload: %6")
        .arg(RecipeText::printable(e.key, ModelStyle::kToolTipChars),
            serviceEndpoint(s).isEmpty() ? RecipeText::none() : serviceEndpoint(s),
            s.uri.isEmpty() ? RecipeText::none() : s.uri,
            s.enabled ? RecipeModel::tr("yes") : RecipeModel::tr("no"), RecipeText::registered(s),
            RecipeText::printable(s.jsonPayload.toUtf8(), ModelStyle::kToolTipChars));
}

// The view is sorted by path, so only the same-path recipes just before need looking at.
QList<RecipeId> recipeIds(const QList<Recipe> &recipes)
{
    QList<RecipeId> ids;
    ids.reserve(recipes.size());
    for (qsizetype i = 0; i < recipes.size(); ++i) {
        const Recipe &r = recipes.at(i);
        int ordinal = 0;
        for (qsizetype j = i - 1; j >= 0 && recipes.at(j).path == r.path; --j)
            ordinal += recipes.at(j).kind == r.kind ? 1 : 0;
        ids.append(RecipeId {r.path, int(r.kind), ordinal});
    }
    return ids;
}
} // namespace

// The children of one recipe row, keyed by etcd key.
class RecipeModel::ChildEdit
{
public:
    ChildEdit(RecipeModel *model, Node &node, const QList<Entry> &next)
        : m(model), node(node), next(next), parent(model->createIndex(node.row, 0, nullptr))
    { }
    qsizetype size() const { return node.recipe.entries.size(); }
    const QByteArray &key(qsizetype row) const { return node.recipe.entries.at(row).key; }
    qsizetype nextSize() const { return next.size(); }
    const QByteArray &nextKey(qsizetype i) const { return next.at(i).key; }
    void remove(qsizetype first, qsizetype count)
    {
        touched = true;
        m->beginRemoveRows(parent, int(first), int(first + count - 1));
        node.recipe.entries.remove(first, count);
        m->endRemoveRows();
    }
    void insert(qsizetype at, qsizetype nextFirst, qsizetype count)
    {
        touched = true;
        m->beginInsertRows(parent, int(at), int(at + count - 1));
        QList<Entry> &entries = node.recipe.entries;
        entries.insert(at, count, Entry());
        std::copy_n(next.cbegin() + nextFirst, count, entries.begin() + at);
        m->endInsertRows();
    }
    bool update(qsizetype row, qsizetype i)
    {
        if (sameEntry(node.recipe.entries.at(row), next.at(i)))
            return false;
        node.recipe.entries[row] = next.at(i);
        return touched = true;
    }
    void changed(qsizetype first, qsizetype last)
    {
        Q_EMIT m->dataChanged(
            m->index(int(first), 0, parent), m->index(int(last), ColumnCount - 1, parent));
    }

    bool touched = false; // any entry came, went or changed: the recipe's summary may too

private:
    RecipeModel *m;
    Node &node;
    const QList<Entry> &next;
    QModelIndex parent;
};

// The recipe rows, keyed by recipeIds(); a kept recipe diffs its children in update().
class RecipeModel::TopEdit
{
public:
    TopEdit(RecipeModel *model, const QList<Recipe> &next)
        : m(model), next(next), ids(recipeIds(next))
    { }
    qsizetype size() const { return qsizetype(m->m_nodes.size()); }
    const RecipeId &key(qsizetype row) const { return m->m_nodes[row]->id; }
    qsizetype nextSize() const { return next.size(); }
    const RecipeId &nextKey(qsizetype i) const { return ids.at(i); }
    void remove(qsizetype first, qsizetype count)
    {
        m->beginRemoveRows({}, int(first), int(first + count - 1));
        m->m_nodes.erase(m->m_nodes.begin() + first, m->m_nodes.begin() + first + count);
        m->renumberFrom(first);
        m->endRemoveRows();
    }
    void insert(qsizetype at, qsizetype nextFirst, qsizetype count)
    {
        m->beginInsertRows({}, int(at), int(at + count - 1));
        std::vector<std::unique_ptr<Node>> fresh;
        fresh.reserve(count);
        for (qsizetype i = nextFirst; i < nextFirst + count; ++i)
            fresh.push_back(std::make_unique<Node>(Node {ids.at(i), next.at(i), 0}));
        m->m_nodes.insert(m->m_nodes.begin() + at, std::make_move_iterator(fresh.begin()),
            std::make_move_iterator(fresh.end()));
        m->renumberFrom(at);
        m->endInsertRows();
    }
    bool update(qsizetype row, qsizetype i)
    {
        Node &node = *m->m_nodes[row];
        const Recipe &r = next.at(i);
        ChildEdit children(m, node, r.entries);
        applyRowDiff(children);
        const bool changed
            = children.touched || node.recipe.number != r.number || node.recipe.notes != r.notes;
        node.recipe.number = r.number;
        node.recipe.notes = r.notes;
        return changed;
    }
    void changed(qsizetype first, qsizetype last)
    {
        Q_EMIT m->dataChanged(m->index(int(first), 0), m->index(int(last), ColumnCount - 1));
    }

private:
    RecipeModel *m;
    const QList<Recipe> &next;
    const QList<RecipeId> ids;
};

RecipeModel::RecipeModel(QObject *parent)
    : TwoLevelModel(parent), m_now(&monotonicMs), m_wallNow(&QDateTime::currentMSecsSinceEpoch)
{ }

RecipeModel::~RecipeModel() = default;

void RecipeModel::setView(const View &view)
{
    // Another prefix: every path shown reads differently (rows on screen start again).
    if (!m_nodes.empty() && RecipeText::shortensDifferently(view.prefix, m_prefix)) {
        beginResetModel();
        m_nodes.clear();
        endResetModel();
    }
    m_prefix = view.prefix;
    TopEdit edit(this, view.recipes);
    applyRowDiff(edit);
}

void RecipeModel::setLeaseClock(const LeaseClock *clock)
{
    m_clock = clock;
    refreshLeaseColumns();
}

void RecipeModel::setNow(std::function<qint64()> nowMs)
{
    m_now = nowMs ? std::move(nowMs) : std::function<qint64()>(&monotonicMs);
    refreshTtl();
}

void RecipeModel::setWallClock(std::function<qint64()> nowMs)
{
    m_wallNow
        = nowMs ? std::move(nowMs) : std::function<qint64()>(&QDateTime::currentMSecsSinceEpoch);
    refreshLeaseColumns();
}

void RecipeModel::refreshTtl()
{
    emitPerParent(TtlColumn, TtlColumn, {Qt::DisplayRole});
}

void RecipeModel::refreshLeaseColumns()
{
    emitPerParent(RecipeColumn, ColumnCount - 1, {});
}

QModelIndex RecipeModel::indexOfPath(const QByteArray &path) const
{
    const auto it = std::lower_bound(m_nodes.cbegin(), m_nodes.cend(), path,
        [](const auto &node, const QByteArray &p) { return node->recipe.path < p; });
    if (it == m_nodes.cend() || (*it)->recipe.path != path)
        return {};
    return createIndex((*it)->row, 0, nullptr);
}

QModelIndex RecipeModel::index(int row, int column, const QModelIndex &parent) const
{
    return indexIn(row, column, parent);
}

QModelIndex RecipeModel::parent(const QModelIndex &child) const
{
    return parentOf(child);
}

int RecipeModel::rowCount(const QModelIndex &parent) const
{
    return rowsUnder(parent);
}

int RecipeModel::columnCount(const QModelIndex &) const
{
    return ColumnCount;
}

QVariant RecipeModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    if (const Node *parent = nodeOf(index)) {
        const Entry &entry = parent->recipe.entries.at(index.row());
        switch (role) {
        case KindRole:
            return int(parent->recipe.kind);
        case PathRole:
            return parent->recipe.path;
        default:
            return entryData(entry, index.column(), role);
        }
    }
    return recipeData(*m_nodes[index.row()], index.column(), role);
}

unsigned RecipeModel::anomaliesOf(qint64 lease) const
{
    return m_clock && lease != 0 ? m_clock->anomalies(lease) : 0;
}

QVariant RecipeModel::recipeData(const Node &node, int column, int role) const
{
    const Recipe &r = node.recipe;
    const Entry *owner = principal(r);
    const Entry none;
    const Entry &e = owner ? *owner : none;
    switch (role) {
    case Qt::DisplayRole:
        switch (Column(column)) {
        case RecipeColumn:
            return tr("%1 (%2)", "recipe path (kind)")
                .arg(RecipeText::underPrefix(r.path, m_prefix), RecipeText::kind(r.kind));
        case OwnerColumn:
            return RecipeText::summary(r, m_wallNow());
        case NotesColumn: {
            QStringList notes = r.notes;
            if (const unsigned a = anomaliesOf(e.lease))
                notes.prepend(LeaseClock::describe(a));
            return notes.join(QStringLiteral("; "));
        }
        default:
            return owner ? entryData(e, column, role) : QVariant();
        }
    case Qt::ToolTipRole:
        return ModelStyle::plainToolTip(
            QStringList {QString::fromUtf8(r.path), RecipeText::kind(r.kind), r.notes.join(u'\n')}
                .join(u'\n')
                .trimmed());
    case Qt::ForegroundRole:
        for (const Entry &entry : r.entries)
            if (anomaliesOf(entry.lease))
                return ModelStyle::anomaly();
        return {};
    case KindRole:
        return int(r.kind);
    case PathRole:
        return r.path;
    case IsRecipeRole:
        return true;
    case KeyRole:
    case LeaseRole:
    case CreateRevisionRole:
    case OwnerRole:
        return owner ? entryData(e, column, role) : QVariant();
    default:
        return {};
    }
}

QVariant RecipeModel::entryData(const Entry &e, int column, int role) const
{
    switch (role) {
    case Qt::DisplayRole:
        switch (Column(column)) {
        case RecipeColumn:
            return RecipeText::roleWithSide(e);
        case OwnerColumn:
            return RecipeText::who(e);
        case KeyColumn:
            return RecipeText::underPrefix(e.key, m_prefix);
        case TokenColumn:
            return e.createRevision;
        case LeaseColumn:
            return RecipeText::leaseHex(e.lease);
        case TtlColumn:
            return RecipeText::ttl(m_clock, e.lease, m_now());
        case NotesColumn: {
            QStringList notes {
                LeaseClock::describe(anomaliesOf(e.lease)), RecipeText::queueNote(e, m_wallNow())};
            notes.removeAll(QString());
            return notes.join(QStringLiteral("; "));
        }
        case ColumnCount:
            break;
        }
        return {};
    case Qt::ToolTipRole:
        if (e.service)
            return ModelStyle::plainToolTip(instanceToolTip(e));
        return ModelStyle::plainToolTip(
            tr("Key: %1\nValue: %2")
                .arg(RecipeText::printable(e.key, ModelStyle::kToolTipChars),
                    RecipeText::printable(e.value, ModelStyle::kToolTipChars)));
    case Qt::ForegroundRole:
        // An orphaned claim and a dead letter wait for someone: a consumer, an operator.
        if (anomaliesOf(e.lease) || e.role == Role::DeadLetter
            || (e.role == Role::Claimed && e.queue && e.queue->orphaned))
            return ModelStyle::anomaly();
        // A waiter does not hold yet; a disabled instance is not to be chosen; a delayed item
        // is not due, and a marker or a count is bookkeeping.
        if (e.role == Role::Waiter || (e.service && !e.service->enabled) || e.role == Role::Delayed
            || e.role == Role::Marker || e.role == Role::Attempts)
            return ModelStyle::muted();
        return {};
    case Qt::FontRole:
        return e.role == Role::Leader || e.role == Role::Holder || e.role == Role::Setter
            ? ModelStyle::bold()
            : QVariant();
    case KeyRole:
        return e.key;
    case LeaseRole:
        return e.lease;
    case EntryRoleRole:
        return int(e.role);
    case CreateRevisionRole:
        return e.createRevision;
    case OwnerRole:
        return RecipeText::who(e);
    case IsRecipeRole:
        return false;
    default:
        return {};
    }
}

QVariant RecipeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (Column(section)) {
    case RecipeColumn:
        return tr("Recipe / role");
    case OwnerColumn:
        return tr("Owner / summary");
    case KeyColumn:
        return tr("Key");
    case TokenColumn:
        return tr("Token");
    case LeaseColumn:
        return tr("Lease");
    case TtlColumn:
        return tr("TTL");
    case NotesColumn:
        return tr("Notes");
    case ColumnCount:
        break;
    }
    return {};
}

} // namespace Inspector
