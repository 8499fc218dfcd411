// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "leasemodel.h"

#include "leaseclock.h"
#include "modelclock.h"
#include "modelstyle.h"
#include "recipetext.h"
#include "rowdiff.h"

#include <algorithm>

using namespace Etcd::Decode;

namespace Inspector {

// A lease row: a group as leaseGroupsOf() made it, and where it stands. Child indexes carry
// their Node in the internal pointer, as in RecipeModel.
struct LeaseNode : LeaseGroup
{
    int row = 0;
    [[nodiscard]] int childCount() const { return int(keys.size()); }
};

class LeaseModel::ChildEdit
{
public:
    ChildEdit(LeaseModel *model, Node &node, const QList<Attached> &next)
        : m(model), node(node), next(next), parent(model->createIndex(node.row, 0, nullptr))
    { }
    qsizetype size() const { return node.keys.size(); }
    const QByteArray &key(qsizetype row) const { return node.keys.at(row).key; }
    qsizetype nextSize() const { return next.size(); }
    const QByteArray &nextKey(qsizetype i) const { return next.at(i).key; }
    void remove(qsizetype first, qsizetype count)
    {
        touched = true;
        m->beginRemoveRows(parent, int(first), int(first + count - 1));
        node.keys.remove(first, count);
        m->endRemoveRows();
    }
    void insert(qsizetype at, qsizetype nextFirst, qsizetype count)
    {
        touched = true;
        m->beginInsertRows(parent, int(at), int(at + count - 1));
        node.keys.insert(at, count, Attached());
        std::copy_n(next.cbegin() + nextFirst, count, node.keys.begin() + at);
        m->endInsertRows();
    }
    bool update(qsizetype row, qsizetype i)
    {
        if (node.keys.at(row) == next.at(i))
            return false;
        node.keys[row] = next.at(i);
        return true;
    }
    void changed(qsizetype first, qsizetype last)
    {
        Q_EMIT m->dataChanged(
            m->index(int(first), 0, parent), m->index(int(last), ColumnCount - 1, parent));
    }

    bool touched = false; // keys came or went: the lease row's count changed

private:
    LeaseModel *m;
    Node &node;
    const QList<Attached> &next;
    QModelIndex parent;
};

class LeaseModel::TopEdit
{
public:
    TopEdit(LeaseModel *model, const QList<LeaseGroup> &next) : m(model), next(next) { }
    qsizetype size() const { return qsizetype(m->m_nodes.size()); }
    qint64 key(qsizetype row) const { return m->m_nodes[row]->lease; }
    qsizetype nextSize() const { return next.size(); }
    qint64 nextKey(qsizetype i) const { return next.at(i).lease; }
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
            fresh.push_back(std::make_unique<Node>(Node {next.at(i)}));
        m->m_nodes.insert(m->m_nodes.begin() + at, std::make_move_iterator(fresh.begin()),
            std::make_move_iterator(fresh.end()));
        m->renumberFrom(at);
        m->endInsertRows();
    }
    bool update(qsizetype row, qsizetype i)
    {
        ChildEdit children(m, *m->m_nodes[row], next.at(i).keys);
        applyRowDiff(children);
        return children.touched;
    }
    void changed(qsizetype first, qsizetype last)
    {
        Q_EMIT m->dataChanged(m->index(int(first), 0), m->index(int(last), ColumnCount - 1));
    }

private:
    LeaseModel *m;
    const QList<LeaseGroup> &next;
};

LeaseModel::LeaseModel(QObject *parent) : TwoLevelModel(parent), m_now(&monotonicMs) { }

LeaseModel::~LeaseModel() = default;

void LeaseModel::setView(const View &view)
{
    setGroups(view.prefix, leaseGroupsOf(view));
}

void LeaseModel::setGroups(const QByteArray &prefix, const QList<LeaseGroup> &groups)
{
    // Another prefix: every key shown reads differently (rows on screen start again).
    if (!m_nodes.empty() && RecipeText::shortensDifferently(prefix, m_prefix)) {
        beginResetModel();
        m_nodes.clear();
        endResetModel();
    }
    m_prefix = prefix;
    TopEdit edit(this, groups);
    applyRowDiff(edit);
}

void LeaseModel::setLeaseClock(const LeaseClock *clock)
{
    m_clock = clock;
    refreshLeaseColumns();
}

void LeaseModel::setNow(std::function<qint64()> nowMs)
{
    m_now = nowMs ? std::move(nowMs) : std::function<qint64()>(&monotonicMs);
    refreshTtl();
}

void LeaseModel::refreshTtl()
{
    emitPerParent(TtlColumn, TtlColumn, {Qt::DisplayRole});
}

void LeaseModel::refreshLeaseColumns()
{
    emitPerParent(LeaseColumn, ColumnCount - 1, {});
}

QList<qint64> LeaseModel::leases() const
{
    QList<qint64> ids;
    ids.reserve(qsizetype(m_nodes.size()));
    for (const auto &node : m_nodes)
        ids.append(node->lease);
    return ids;
}

QModelIndex LeaseModel::indexOfLease(qint64 lease) const
{
    const auto it = std::lower_bound(m_nodes.cbegin(), m_nodes.cend(), lease,
        [](const auto &node, qint64 id) { return node->lease < id; });
    if (it == m_nodes.cend() || (*it)->lease != lease)
        return {};
    return createIndex((*it)->row, 0, nullptr);
}

QModelIndex LeaseModel::index(int row, int column, const QModelIndex &parent) const
{
    return indexIn(row, column, parent);
}

QModelIndex LeaseModel::parent(const QModelIndex &child) const
{
    return parentOf(child);
}

int LeaseModel::rowCount(const QModelIndex &parent) const
{
    return rowsUnder(parent);
}

int LeaseModel::columnCount(const QModelIndex &) const
{
    return ColumnCount;
}

QVariant LeaseModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    if (const Node *parent = nodeOf(index))
        return keyData(*parent, parent->keys.at(index.row()), index.column(), role);
    return leaseData(*m_nodes[index.row()], index.column(), role);
}

unsigned LeaseModel::anomaliesOf(qint64 lease) const
{
    return m_clock ? m_clock->anomalies(lease) : 0;
}

QVariant LeaseModel::leaseData(const Node &node, int column, int role) const
{
    switch (role) {
    case Qt::DisplayRole:
        switch (Column(column)) {
        case LeaseColumn:
            return RecipeText::leaseHex(node.lease);
        case TtlColumn:
            return RecipeText::ttl(m_clock, node.lease, m_now());
        case GrantedColumn: {
            const auto sample = m_clock ? m_clock->sample(node.lease) : std::nullopt;
            return sample && sample->grantedSeconds > 0
                ? RecipeText::seconds(sample->grantedSeconds)
                : tr("?", "grant not known yet");
        }
        case KeysColumn:
            return int(node.keys.size());
        case AnomaliesColumn:
            return LeaseClock::describe(anomaliesOf(node.lease));
        default:
            return {};
        }
    case Qt::ToolTipRole:
        return tr("Lease %1: %n key(s)", nullptr, int(node.keys.size()))
            .arg(RecipeText::leaseHex(node.lease));
    case Qt::ForegroundRole:
        return anomaliesOf(node.lease) ? ModelStyle::anomaly() : QVariant();
    case LeaseRole:
        return node.lease;
    case IsRecipeRole:
        return false;
    default:
        return {};
    }
}

QVariant LeaseModel::keyData(const Node &node, const Attached &key, int column, int role) const
{
    switch (role) {
    case Qt::DisplayRole:
        switch (Column(column)) {
        case LeaseColumn:
            return RecipeText::underPrefix(key.key, m_prefix);
        case KeysColumn:
            return key.raw ? tr("(raw key)") : RecipeText::underPrefix(key.path, m_prefix);
        case RoleColumn:
            if (key.raw)
                return QString();
            return tr("%1, %2", "recipe kind, role of the key")
                .arg(RecipeText::kind(key.kind), RecipeText::roleWithSide(key.role, key.side));
        default:
            return {};
        }
    case Qt::ToolTipRole:
        return RecipeText::printable(key.key, ModelStyle::kToolTipChars);
    case Qt::ForegroundRole:
        return anomaliesOf(node.lease) ? ModelStyle::anomaly() : QVariant();
    case LeaseRole:
        return node.lease;
    case KeyRole:
        return key.key;
    case PathRole:
        return key.raw ? QVariant() : QVariant(key.path);
    case KindRole:
        return key.raw ? QVariant() : QVariant(int(key.kind));
    case EntryRoleRole:
        return key.raw ? QVariant() : QVariant(int(key.role));
    default:
        return {};
    }
}

QVariant LeaseModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (Column(section)) {
    case LeaseColumn:
        return tr("Lease / key");
    case TtlColumn:
        return tr("TTL");
    case GrantedColumn:
        return tr("Granted");
    case KeysColumn:
        return tr("Keys / recipe");
    case RoleColumn:
        return tr("Role");
    case AnomaliesColumn:
        return tr("Anomalies");
    case ColumnCount:
        break;
    }
    return {};
}

} // namespace Inspector
