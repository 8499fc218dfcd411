// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "rawkeymodel.h"

#include "modelstyle.h"
#include "recipetext.h"
#include "rowdiff.h"

#include <algorithm>

namespace Inspector {

class RawKeyModel::Edit
{
public:
    Edit(RawKeyModel *model, const QList<EtcdKeyValue> &next) : m(model), next(next) { }
    qsizetype size() const { return m->m_rows.size(); }
    const QByteArray &key(qsizetype row) const { return m->m_rows.at(row).key; }
    qsizetype nextSize() const { return next.size(); }
    const QByteArray &nextKey(qsizetype i) const { return next.at(i).key; }
    void remove(qsizetype first, qsizetype count)
    {
        m->beginRemoveRows({}, int(first), int(first + count - 1));
        m->m_rows.remove(first, count);
        m->endRemoveRows();
    }
    void insert(qsizetype at, qsizetype nextFirst, qsizetype count)
    {
        m->beginInsertRows({}, int(at), int(at + count - 1));
        m->m_rows.insert(at, count, EtcdKeyValue());
        std::copy_n(next.cbegin() + nextFirst, count, m->m_rows.begin() + at);
        m->endInsertRows();
    }
    bool update(qsizetype row, qsizetype i)
    {
        if (m->m_rows.at(row) == next.at(i))
            return false;
        m->m_rows[row] = next.at(i);
        return true;
    }
    void changed(qsizetype first, qsizetype last)
    {
        Q_EMIT m->dataChanged(m->index(int(first), 0), m->index(int(last), ColumnCount - 1));
    }

private:
    RawKeyModel *m;
    const QList<EtcdKeyValue> &next;
};

RawKeyModel::RawKeyModel(QObject *parent) : QAbstractTableModel(parent) { }

void RawKeyModel::setView(const Etcd::Decode::View &view)
{
    // Another prefix: every key shown reads differently (rows on screen start again).
    if (!m_rows.isEmpty() && RecipeText::shortensDifferently(view.prefix, m_prefix)) {
        beginResetModel();
        m_rows.clear();
        endResetModel();
    }
    m_prefix = view.prefix;
    Edit edit(this, view.raw);
    applyRowDiff(edit);
}

int RawKeyModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int RawKeyModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RawKeyModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const EtcdKeyValue &kv = m_rows.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        switch (Column(index.column())) {
        case KeyColumn:
            return RecipeText::underPrefix(kv.key, m_prefix);
        case ValueColumn:
            return RecipeText::printable(kv.value);
        case CreateRevisionColumn:
            return kv.createRevision;
        case ModRevisionColumn:
            return kv.modRevision;
        case VersionColumn:
            return kv.version;
        case LeaseColumn:
            return RecipeText::leaseHex(kv.lease);
        case ColumnCount:
            break;
        }
        return {};
    case Qt::ToolTipRole:
        return ModelStyle::plainToolTip(
            tr("Key: %1\nValue: %2")
                .arg(RecipeText::printable(kv.key, ModelStyle::kToolTipChars),
                    RecipeText::printable(kv.value, ModelStyle::kToolTipChars)));
    case KeyRole:
        return kv.key;
    case LeaseRole:
        return kv.lease;
    case CreateRevisionRole:
        return kv.createRevision;
    default:
        return {};
    }
}

QVariant RawKeyModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (Column(section)) {
    case KeyColumn:
        return tr("Key");
    case ValueColumn:
        return tr("Value");
    case CreateRevisionColumn:
        return tr("Create rev");
    case ModRevisionColumn:
        return tr("Mod rev");
    case VersionColumn:
        return tr("Version");
    case LeaseColumn:
        return tr("Lease");
    case ColumnCount:
        break;
    }
    return {};
}

} // namespace Inspector
