// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include <EtcdQt/etcdpathchildrencache.h>
#include <EtcdQt/etcdpathchildrenmodel.h>

#include "keyvaluefields_p.h"

#include <QtCore/qpointer.h>

using namespace Etcd::Internal;

/*!
    \class EtcdPathChildrenModel
    \inmodule EtcdQt
    \brief The children of an EtcdPathChildrenCache as a list model, for Widgets views and
    QML: one row per child, sorted by name.

    Roles: \c name (also Qt::DisplayRole), \c key, \c value (text or hex, as valueFormat
    says), \c rawValue (the bytes), \c createRevision, \c modRevision, \c version and
    \c lease. The model follows the cache row by row: a child added is a row inserted, a
    child removed a row removed, an update a dataChanged() of its row. Its first load is one
    insertion of every row; it never resets (a cache set later is reconciled row by row,
    clear() removes every row at once). The model does not own or start the cache.
*/

/*! \enum EtcdPathChildrenModel::Role
    \value NameRole The child's name, relative to the cache's prefix.
    \value KeyRole The child's full key.
    \value ValueRole The value as text or hex (see valueFormat).
    \value RawValueRole The value's bytes.
    \value CreateRevisionRole The revision that created the key.
    \value ModRevisionRole The revision of its last change.
    \value VersionRole The number of changes since its creation.
    \value LeaseRole The lease it is attached to (0: none).
*/

/*! \enum EtcdPathChildrenModel::ValueFormat
    \value Auto Text when the value is valid UTF-8, hex otherwise.
    \value Text Always text (invalid UTF-8 replaced).
    \value Hex Always lowercase hex.
*/

/*! \fn void EtcdPathChildrenModel::cacheChanged()
    Emitted when the model follows another cache. */

/*! \fn void EtcdPathChildrenModel::valueFormatChanged()
    Emitted when valueFormat changed. */

/*! \fn void EtcdPathChildrenModel::countChanged()
    Emitted when the number of rows changed. */

namespace {
using M = EtcdPathChildrenModel;
// Every role but the name, which is the cache's and not a field of the key-value.
constexpr KeyValueRole childRoles[] = {
    {M::KeyRole, KeyValueField::Key, "key"},
    {M::ValueRole, KeyValueField::Value, "value"},
    {M::RawValueRole, KeyValueField::RawValue, "rawValue"},
    {M::CreateRevisionRole, KeyValueField::CreateRevision, "createRevision"},
    {M::ModRevisionRole, KeyValueField::ModRevision, "modRevision"},
    {M::VersionRole, KeyValueField::Version, "version"},
    {M::LeaseRole, KeyValueField::Lease, "lease"},
};
static_assert(int(ValueText::Auto) == int(M::ValueFormat::Auto)
    && int(ValueText::Text) == int(M::ValueFormat::Text)
    && int(ValueText::Hex) == int(M::ValueFormat::Hex));
} // namespace

class EtcdPathChildrenModelPrivate
{
public:
    // Rows are in key order, etcd's and the cache's (names, decoded from the keys, can sort
    // differently and even coincide where a key is not UTF-8).
    int lowerBound(const QByteArray &key) const
    {
        const auto before
            = [](const EtcdKeyValue &row, const QByteArray &k) { return row.key < k; };
        return int(std::lower_bound(rows.cbegin(), rows.cend(), key, before) - rows.cbegin());
    }
    bool holds(int row, const QByteArray &key) const
    {
        return row < rows.size() && rows.at(row).key == key;
    }
    void added(const QString &name, const EtcdKeyValue &kv);
    void updated(const QString &name, const EtcdKeyValue &kv);
    void removed(const EtcdKeyValue &previous);
    void insertRow(int row, const QString &name, const EtcdKeyValue &kv);
    void removeRow(int row);
    void replaceAll(const QStringList &toNames, const QList<EtcdKeyValue> &toRows);
    void sync();
    void follow();

    EtcdPathChildrenModel *q = nullptr;
    QPointer<EtcdPathChildrenCache> cache;
    EtcdPathChildrenModel::ValueFormat format = EtcdPathChildrenModel::ValueFormat::Auto;
    QStringList names; // parallel to rows
    QList<EtcdKeyValue> rows; // the model's own copy: views read a row while it is removed
};

void EtcdPathChildrenModelPrivate::insertRow(int row, const QString &name, const EtcdKeyValue &kv)
{
    q->beginInsertRows({}, row, row);
    names.insert(row, name);
    rows.insert(row, kv);
    q->endInsertRows();
}

void EtcdPathChildrenModelPrivate::removeRow(int row)
{
    q->beginRemoveRows({}, row, row);
    names.removeAt(row);
    rows.removeAt(row);
    q->endRemoveRows();
}

void EtcdPathChildrenModelPrivate::added(const QString &name, const EtcdKeyValue &kv)
{
    const int row = lowerBound(kv.key);
    if (holds(row, kv.key))
        return updated(name, kv);
    insertRow(row, name, kv);
    Q_EMIT q->countChanged();
}

void EtcdPathChildrenModelPrivate::updated(const QString &name, const EtcdKeyValue &kv)
{
    const int row = lowerBound(kv.key);
    if (!holds(row, kv.key))
        return added(name, kv);
    rows[row] = kv;
    Q_EMIT q->dataChanged(q->index(row), q->index(row));
}

void EtcdPathChildrenModelPrivate::removed(const EtcdKeyValue &previous)
{
    const int row = lowerBound(previous.key);
    if (!holds(row, previous.key))
        return;
    removeRow(row);
    Q_EMIT q->countChanged();
}

// Row by row from what the model shows to `toNames`/`toRows` (in key order), with one
// insertion or removal of every row when one side is empty.
void EtcdPathChildrenModelPrivate::replaceAll(
    const QStringList &toNames, const QList<EtcdKeyValue> &toRows)
{
    const qsizetype before = names.size();
    if (names.isEmpty() && !toNames.isEmpty()) {
        q->beginInsertRows({}, 0, int(toNames.size() - 1));
        names = toNames;
        rows = toRows;
        q->endInsertRows();
    } else if (toNames.isEmpty() && !names.isEmpty()) {
        q->beginRemoveRows({}, 0, int(names.size() - 1));
        names.clear();
        rows.clear();
        q->endRemoveRows();
    } else {
        int i = 0;
        for (qsizetype j = 0; i < names.size() || j < toNames.size();) {
            if (j == toNames.size() || (i < names.size() && rows.at(i).key < toRows.at(j).key)) {
                removeRow(i);
            } else if (i == names.size() || toRows.at(j).key < rows.at(i).key) {
                insertRow(i++, toNames.at(j), toRows.at(j));
                ++j;
            } else {
                if (!(rows.at(i) == toRows.at(j))) {
                    rows[i] = toRows.at(j);
                    Q_EMIT q->dataChanged(q->index(i), q->index(i));
                }
                ++i;
                ++j;
            }
        }
    }
    if (names.size() != before)
        Q_EMIT q->countChanged();
}

void EtcdPathChildrenModelPrivate::sync()
{
    if (!cache)
        return replaceAll({}, {});
    replaceAll(cache->names(), cache->currentData());
}

void EtcdPathChildrenModelPrivate::follow()
{
    using C = EtcdPathChildrenCache;
    C *c = cache;
    QObject::connect(c, &C::childAdded, q,
        [this](const QString &name, const EtcdKeyValue &kv) { added(name, kv); });
    QObject::connect(c, &C::childUpdated, q,
        [this](const QString &name, const EtcdKeyValue &kv) { updated(name, kv); });
    QObject::connect(c, &C::childRemoved, q,
        [this](const QString &, const EtcdKeyValue &previous) { removed(previous); });
    // The initial snapshot comes without per-child signals; started() follows it.
    QObject::connect(c, &C::started, q, [this] { sync(); });
    QObject::connect(c, &C::cleared, q, [this] { sync(); });
    QObject::connect(c, &QObject::destroyed, q, [this] { replaceAll({}, {}); });
}

/*! Constructs an empty model; setCache() gives it its rows. \a parent is the QObject
    parent. */
EtcdPathChildrenModel::EtcdPathChildrenModel(QObject *parent)
    : EtcdPathChildrenModel(nullptr, parent)
{ }

/*! Constructs a model of the children of \a cache (not owned, not started here). */
EtcdPathChildrenModel::EtcdPathChildrenModel(EtcdPathChildrenCache *cache, QObject *parent)
    : QAbstractListModel(parent), d_ptr(new EtcdPathChildrenModelPrivate)
{
    d_ptr->q = this;
    setCache(cache);
}

/*! Destroys the model; the cache goes on. */
EtcdPathChildrenModel::~EtcdPathChildrenModel() = default;

/*! \property EtcdPathChildrenModel::cache The cache whose children are the rows (not owned). */
EtcdPathChildrenCache *EtcdPathChildrenModel::cache() const
{
    return d_func()->cache;
}

/*! Follows \a cache from now on, reconciling the rows with its children row by row. */
void EtcdPathChildrenModel::setCache(EtcdPathChildrenCache *cache)
{
    Q_D(EtcdPathChildrenModel);
    if (d->cache == cache)
        return;
    if (d->cache)
        QObject::disconnect(d->cache, nullptr, this, nullptr);
    d->cache = cache;
    if (cache)
        d->follow();
    d->sync();
    Q_EMIT cacheChanged();
}

/*! \property EtcdPathChildrenModel::valueFormat
    \brief how the \c value role shows the bytes (default Auto). */
EtcdPathChildrenModel::ValueFormat EtcdPathChildrenModel::valueFormat() const
{
    return d_func()->format;
}

/*! Sets valueFormat to \a format; every row's \c value role changes. */
void EtcdPathChildrenModel::setValueFormat(ValueFormat format)
{
    Q_D(EtcdPathChildrenModel);
    if (std::exchange(d->format, format) == format)
        return;
    if (!d->rows.isEmpty())
        Q_EMIT dataChanged(index(0), index(int(d->rows.size() - 1)), {ValueRole});
    Q_EMIT valueFormatChanged();
}

/*! \property EtcdPathChildrenModel::count The number of rows (children). */

/*! The number of children (\a parent must be invalid). */
int EtcdPathChildrenModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(d_func()->rows.size());
}

/*! What \a role says of the child at \a index. */
QVariant EtcdPathChildrenModel::data(const QModelIndex &index, int role) const
{
    Q_D(const EtcdPathChildrenModel);
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    if (role == Qt::DisplayRole || role == NameRole)
        return d->names.at(index.row());
    const std::optional<KeyValueField> field = fieldOfRole(childRoles, role);
    if (!field)
        return {};
    return keyValueField(d->rows.at(index.row()), *field, ValueText(int(d->format)));
}

/*! The roles' names for QML delegates: \c name, \c key, \c value, \c rawValue,
    \c createRevision, \c modRevision, \c version, \c lease. */
QHash<int, QByteArray> EtcdPathChildrenModel::roleNames() const
{
    QHash<int, QByteArray> names = roleNamesOf(childRoles);
    names.insert(NameRole, QByteArrayLiteral("name"));
    return names;
}

/*! The row of the child \a name; -1 when there is none. */
int EtcdPathChildrenModel::rowOf(const QString &name) const
{
    Q_D(const EtcdPathChildrenModel);
    if (!d->cache)
        return -1;
    const QByteArray key = d->cache->prefix() + name.toUtf8();
    const int row = d->lowerBound(key);
    return d->holds(row, key) ? row : -1;
}
