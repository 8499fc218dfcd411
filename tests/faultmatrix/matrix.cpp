// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "matrix.h"

#include <QtCore/qdeadlinetimer.h>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace FaultMatrix {

QList<qint64> Subject::leasesInUse() const
{
    QList<qint64> ids = m_seenLeases;
    for (const qint64 id : leasesUnder(*m_clean, m_path)) {
        if (!ids.contains(id))
            ids.append(id);
    }
    return ids;
}

QString Subject::violations() const
{
    if (m_violationCount == 0)
        return {};
    return u"%1 invariant violation(s): %2"_s.arg(m_violationCount).arg(m_violations.join(u"; "));
}

void Subject::replaceFaulted(EtcdClient *client)
{
    m_faulted = client;
    m_faultedReplaced = true;
}

void Subject::setLateWrites(bool on)
{
    m_lateWrites = on;
    m_lateWritesAsked = m_lateWritesAsked || on;
}

void Subject::violate(const QString &what)
{
    // A violation usually repeats on every turn until it ends: spell out the distinct ones.
    ++m_violationCount;
    if (m_violations.size() < 3 && !m_violations.contains(what))
        m_violations.append(what);
}

void Subject::noteLease(qint64 id)
{
    if (id > 0 && !m_seenLeases.contains(id))
        m_seenLeases.append(id);
}

bool waitFor(const std::function<bool()> &done, int timeoutMs)
{
    return QTest::qWaitFor(done, timeoutMs);
}

std::optional<QList<EtcdKeyValue>> keysUnder(EtcdClient &client, const QByteArray &path)
{
    EtcdRangeOptions o;
    o.prefix = true;
    o.sortTarget = Etcd::SortTarget::CreateRevision;
    o.sortOrder = Etcd::SortOrder::Ascending;
    const auto r = await(client.get(path + '/', o));
    if (!r.status.isOk())
        return std::nullopt;
    return r->keyValues();
}

QString keysText(EtcdClient &client, const QByteArray &path)
{
    const auto keys = keysUnder(client, path);
    if (!keys)
        return u"(etcd did not answer)"_s;
    QStringList parts;
    for (const EtcdKeyValue &kv : *keys)
        parts.append(u"%1 (lease %2)"_s.arg(QString::fromUtf8(kv.key)).arg(kv.lease, 0, 16));
    return parts.isEmpty() ? u"no keys"_s : parts.join(u", ");
}

int keyCount(EtcdClient &client, const QByteArray &path)
{
    const auto keys = keysUnder(client, path);
    return keys ? int(keys->size()) : -1;
}

QList<qint64> leasesUnder(EtcdClient &client, const QByteArray &path)
{
    QList<qint64> ids;
    for (const EtcdKeyValue &kv : keysUnder(client, path).value_or(QList<EtcdKeyValue> {})) {
        if (kv.lease != 0 && !ids.contains(kv.lease))
            ids.append(kv.lease);
    }
    return ids;
}

namespace {
// True when etcd no longer counts `id` as live: unknown (TTL -1) or run out (TTL 0, not yet
// removed by etcd's expiry loop). nullopt when etcd did not answer.
std::optional<bool> leaseGone(EtcdClient &client, qint64 id)
{
    const auto r = await(client.leaseTimeToLive(id), 2s);
    if (!r.status.isOk())
        return r.status.code() == Etcd::ErrorCode::LeaseNotFound ? std::optional(true)
                                                                 : std::nullopt;
    return r->ttl().count() <= 0;
}
} // namespace

QList<qint64> leasesLeft(EtcdClient &client, const QList<qint64> &ids)
{
    QList<qint64> left = ids;
    const QDeadlineTimer deadline(kLeaseGoneMs);
    while (true) {
        left.removeIf([&client](qint64 id) { return leaseGone(client, id).value_or(false); });
        if (left.isEmpty() || deadline.hasExpired())
            return left;
        QTest::qWait(50); // polling etcd's view; the deadline is the check
    }
}

QString leasesGone(EtcdClient &client, const QList<qint64> &ids)
{
    const QList<qint64> left = leasesLeft(client, ids);
    if (left.isEmpty())
        return {};
    QStringList names;
    for (const qint64 id : left)
        names.append(QString::number(id, 16));
    return u"lease(s) left in etcd %1 ms after close: %2"_s.arg(kLeaseGoneMs).arg(names.join(u' '));
}

std::optional<QList<qint64>> leasesGrantedWith(EtcdClient &client, std::chrono::seconds ttl)
{
    const auto listed = await(client.leases());
    if (!listed.status.isOk())
        return std::nullopt;
    QList<qint64> ids;
    for (const qint64 id : listed->leaseIds()) {
        const auto r = await(client.leaseTimeToLive(id), 2s);
        if (r.status.isOk() && r->grantedTtl() == ttl && r->ttl().count() > 0)
            ids.append(id);
    }
    return ids;
}

QList<QByteArray> keysOfLease(EtcdClient &client, qint64 id)
{
    const auto r = await(client.leaseTimeToLive(id, Etcd::LeaseKeys::Include), 2s);
    return r.status.isOk() ? r->keys() : QList<QByteArray> {};
}

bool closeAll(const QList<EtcdRecipe *> &recipes)
{
    int closed = 0;
    QObject context;
    for (EtcdRecipe *r : recipes)
        QObject::connect(r, &EtcdRecipe::closed, &context, [&closed] { ++closed; });
    for (EtcdRecipe *r : recipes)
        QMetaObject::invokeMethod(r, "close");
    return waitFor([&] { return closed == int(recipes.size()); });
}

} // namespace FaultMatrix
