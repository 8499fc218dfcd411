// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "etcdqmlwatch.h"
#include "etcdqmlconvert_p.h"

#include <EtcdQt/etcdclient.h>
#include <EtcdQt/etcdreplies.h>
#include <EtcdQt/etcdwatch.h>

#include "keyvaluefields_p.h"

#include <algorithm>

using namespace Etcd::Internal;

namespace {
using M = EtcdQmlKeyValueModel;
// The Watch's roles, whose names QML delegates use; values as UTF-8 text.
constexpr KeyValueRole watchRoles[] = {
    {M::KeyRole, KeyValueField::Key, "key"},
    {M::ValueRole, KeyValueField::Value, "value"},
    {M::CreateRevisionRole, KeyValueField::CreateRevision, "createRevision"},
    {M::ModRevisionRole, KeyValueField::ModRevision, "modRevision"},
    {M::VersionRole, KeyValueField::Version, "version"},
    {M::LeaseRole, KeyValueField::Lease, "lease"},
};
} // namespace

EtcdQmlKeyValueModel::EtcdQmlKeyValueModel(QObject *parent) : QAbstractListModel(parent) { }

int EtcdQmlKeyValueModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

QVariant EtcdQmlKeyValueModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const std::optional<KeyValueField> field
        = fieldOfRole(watchRoles, role == Qt::DisplayRole ? KeyRole : role);
    if (!field)
        return {};
    const EtcdKeyValue &kv = m_rows.at(index.row());
    // Decimal text, as every lease id in the module: a JS number would round a 64-bit id.
    if (*field == KeyValueField::Lease)
        return Etcd::Qml::leaseIdToString(kv.lease);
    return keyValueField(kv, *field, ValueText::Text);
}

QHash<int, QByteArray> EtcdQmlKeyValueModel::roleNames() const
{
    return roleNamesOf(watchRoles);
}

QVariant EtcdQmlKeyValueModel::value(const QString &key) const
{
    const QByteArray k = key.toUtf8();
    const qsizetype i = lowerBound(k);
    if (i < m_rows.size() && m_rows.at(i).key == k)
        return valueText(m_rows.at(i).value, ValueText::Text);
    return {};
}

void EtcdQmlKeyValueModel::reset(QList<EtcdKeyValue> keyValues)
{
    std::sort(keyValues.begin(), keyValues.end(),
        [](const EtcdKeyValue &a, const EtcdKeyValue &b) { return a.key < b.key; });
    const qsizetype before = m_rows.size();
    beginResetModel();
    m_rows = std::move(keyValues);
    endResetModel();
    if (before != m_rows.size())
        Q_EMIT countChanged();
}

void EtcdQmlKeyValueModel::put(const EtcdKeyValue &keyValue)
{
    const qsizetype i = lowerBound(keyValue.key);
    if (i < m_rows.size() && m_rows.at(i).key == keyValue.key) {
        if (m_rows.at(i).modRevision > keyValue.modRevision)
            return; // older than what the initial read saw
        m_rows[i] = keyValue;
        const QModelIndex changed = index(int(i));
        Q_EMIT dataChanged(changed, changed);
        return;
    }
    beginInsertRows({}, int(i), int(i));
    m_rows.insert(i, keyValue);
    endInsertRows();
    Q_EMIT countChanged();
}

void EtcdQmlKeyValueModel::remove(const QByteArray &key)
{
    const qsizetype i = lowerBound(key);
    if (i >= m_rows.size() || m_rows.at(i).key != key)
        return;
    beginRemoveRows({}, int(i), int(i));
    m_rows.removeAt(i);
    endRemoveRows();
    Q_EMIT countChanged();
}

void EtcdQmlKeyValueModel::clear()
{
    reset({});
}

qsizetype EtcdQmlKeyValueModel::lowerBound(const QByteArray &key) const
{
    const auto it = std::lower_bound(m_rows.cbegin(), m_rows.cend(), key,
        [](const EtcdKeyValue &kv, const QByteArray &k) { return kv.key < k; });
    return it - m_rows.cbegin();
}

/*!
    \qmltype Watch
    \inqmlmodule EtcdQt
    \brief Keeps \c model equal to \c key (or every key under it, with \c prefix) while
    \c active.

    The model's roles are \c key, \c value, \c createRevision, \c modRevision, \c version and
    \c lease; \c model.count is its size and \c model.value(key) one value. \c ready turns true
    once the first read is in; from that read's revision on, a watch applies every change.
*/

EtcdQmlWatch::EtcdQmlWatch(QObject *parent)
    : EtcdQmlRecipe(parent), m_model(new EtcdQmlKeyValueModel(this))
{ }

EtcdQmlWatch::~EtcdQmlWatch() = default;

QString EtcdQmlWatch::key() const
{
    return m_key;
}

void EtcdQmlWatch::setKey(const QString &key)
{
    if (key == m_key)
        return;
    m_key = key;
    Q_EMIT keyChanged();
    restart();
}

bool EtcdQmlWatch::isPrefix() const
{
    return m_prefix;
}

void EtcdQmlWatch::setPrefix(bool prefix)
{
    if (prefix == m_prefix)
        return;
    m_prefix = prefix;
    Q_EMIT prefixChanged();
    restart();
}

bool EtcdQmlWatch::isReady() const
{
    return m_ready;
}

EtcdQmlKeyValueModel *EtcdQmlWatch::model() const
{
    return m_model;
}

bool EtcdQmlWatch::isConfigured() const
{
    return !m_key.isEmpty();
}

// A read, then a watch from the revision after it; both belong to `session`, so stopping
// (deleting the session) cancels the watch and ignores a read still in flight.
QObject *EtcdQmlWatch::startRecipe(EtcdClient *client)
{
    auto *session = new QObject;
    const QByteArray key = m_key.toUtf8();
    const bool prefix = m_prefix;
    EtcdRangeOptions range;
    range.prefix = prefix;
    EtcdRangeReply *read = client->get(key, range);
    // Context `this`: the session may outlive this item by a moment (its connection deletes it).
    connect(read, &EtcdReply::finished, this,
        [this, session, read, client, key, prefix](const EtcdStatus &status) {
            if (current() != session)
                return; // stopped meanwhile
            if (!status.isOk()) {
                setError(status);
                return;
            }
            m_model->reset(read->keyValues());
            EtcdWatchOptions options;
            options.prefix = prefix;
            options.startRevision = read->revision() + 1;
            auto *watch = new EtcdWatch(client, key, options, session);
            connect(watch, &EtcdWatch::eventsReceived, this,
                [this, session](const QList<EtcdWatchEvent> &events) {
                    if (current() != session)
                        return;
                    for (const EtcdWatchEvent &event : events) {
                        if (event.type == EtcdWatchEvent::Type::Put)
                            m_model->put(event.keyValue);
                        else
                            m_model->remove(event.keyValue.key);
                    }
                });
            connect(watch, &EtcdWatch::failed, this, &EtcdQmlWatch::setError);
            watch->start();
            setReady(true);
        });
    return session;
}

void EtcdQmlWatch::recipeStopped()
{
    setReady(false);
    m_model->clear();
}

void EtcdQmlWatch::setReady(bool ready)
{
    if (ready == m_ready)
        return;
    m_ready = ready;
    Q_EMIT readyChanged();
}
