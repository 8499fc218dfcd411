// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// The caches under a fault: a cache on the faulted client of keys the clean client changes
// before, during and after the fault (puts and deletes, every value new). Invariants: every
// change the cache reports follows from the last one it reported (an update's or a removal's
// previous value is the value last reported, an addition is of a key it did not hold, and a
// key's revisions only grow), so no change is lost or doubled unreported; after the fault the
// cache converges to etcd's contents, by its own state and by the changes it reported (a
// compaction during the cut-off makes it read again, not stall); after recovering, a new
// write shows up; it closes. A cache owns nothing in etcd: no lease to leak.
#include "paced.h"
#include "subjects.h"

#include <EtcdQt/etcdnodecache.h>
#include <EtcdQt/etcdpathchildrencache.h>

#include <QtCore/qmap.h>

using namespace Qt::StringLiterals;

namespace FaultMatrix {
namespace {

// What a cache holds or etcd has: key -> key-value.
using Contents = QMap<QByteArray, EtcdKeyValue>;

QString contentsText(const Contents &c)
{
    QStringList parts;
    for (const EtcdKeyValue &kv : c)
        parts.append(u"%1=%2@%3"_s.arg(QString::fromUtf8(kv.key), QString::fromUtf8(kv.value))
                         .arg(kv.modRevision));
    return parts.isEmpty() ? u"nothing"_s : parts.join(u", ");
}

// Key, value and revision alike (createRevision and version a cache keeps as etcd has them).
bool sameContents(const Contents &a, const Contents &b)
{
    if (a.size() != b.size())
        return false;
    for (auto it = a.cbegin(), jt = b.cbegin(); it != a.cend(); ++it, ++jt) {
        if (it.key() != jt.key() || it->value != jt->value || it->modRevision != jt->modRevision)
            return false;
    }
    return true;
}

class CacheSubject : public Subject
{
public:
    void start(EtcdClient *faulted, EtcdClient *clean, const QByteArray &path) override;
    // The cache is live and has followed a few changes.
    bool steady() override;
    void sample() override { m_writes.pump(); }
    QString afterFault(const FaultFacts &facts) override;
    QString recover() override;
    bool close() override;
    // Nothing of a cache is leased.
    [[nodiscard]] QList<qint64> faultedLeases() const override { return {}; }

protected:
    // Makes the cache on m_faulted and starts it (again on the deleted client's successor);
    // it reports its changes through the on*() calls and its first state through seeded().
    virtual void createCache() = 0;
    [[nodiscard]] virtual bool cacheStarted() const = 0;
    // What the cache holds now.
    [[nodiscard]] virtual Contents cached() const = 0;
    // The clean client's n-th change.
    virtual EtcdReply *change(int n) = 0;

    // The cache's first state (its silent snapshot): the changes it reports start from it.
    void seeded(const Contents &snapshot);
    void onAdded(const QByteArray &key, const QByteArray &value, qint64 revision);
    void onUpdated(const QByteArray &key, const QByteArray &value, const QByteArray &previous,
        qint64 revision);
    void onRemoved(const QByteArray &key, const QByteArray &previous, qint64 revision);
    // For a cache of one key: every change comes in etcd's revision order.
    bool m_revisionOrder = false;
    std::unique_ptr<EtcdRecipe> m_cache;

private:
    QString converged(const QString &after);
    [[nodiscard]] bool replayAgrees(const QByteArray &key) const;
    void replay(
        const QByteArray &key, const QByteArray &value, qint64 revision, const QString &how);

    PacedCalls m_writes {100};
    bool m_seeded = false;
    Contents m_replayed; // the seed with every reported change applied
    qint64 m_lastRevision = 0; // of the last change reported
    int m_reported = 0; // changes reported since the seed

protected:
    int m_resyncs = 0; // resynced() reports
};

void CacheSubject::start(EtcdClient *faulted, EtcdClient *clean, const QByteArray &path)
{
    m_faulted = faulted;
    m_clean = clean;
    m_path = path;
    m_writes.setCall([this](int n) { return change(n); });
    createCache();
}

bool CacheSubject::steady()
{
    m_writes.setRunning(true);
    m_writes.pump(); // the monitor samples only from the fault on
    return cacheStarted() && m_seeded && m_reported >= 3 && sameContents(m_replayed, cached());
}

void CacheSubject::seeded(const Contents &snapshot)
{
    m_replayed = snapshot;
    m_seeded = true;
    m_lastRevision = 0;
    for (const EtcdKeyValue &kv : snapshot)
        m_lastRevision = std::max(m_lastRevision, kv.modRevision);
}

// The cache's own entry of `key` agrees with what its changes say.
bool CacheSubject::replayAgrees(const QByteArray &key) const
{
    const Contents now = cached();
    if (m_replayed.contains(key) != now.contains(key))
        return false;
    return !now.contains(key) || now.value(key).value == m_replayed.value(key).value;
}

void CacheSubject::onAdded(const QByteArray &key, const QByteArray &value, qint64 revision)
{
    ++m_reported;
    if (!m_seeded)
        return violate(u"reported an addition before its first state"_s);
    if (m_replayed.contains(key))
        violate(u"reported %1 added while it held it (a removal went unreported)"_s.arg(
            QString::fromUtf8(key)));
    replay(key, value, revision, u"added"_s);
}

void CacheSubject::onUpdated(
    const QByteArray &key, const QByteArray &value, const QByteArray &previous, qint64 revision)
{
    ++m_reported;
    if (!m_seeded)
        return violate(u"reported an update before its first state"_s);
    const auto it = m_replayed.find(key);
    if (it == m_replayed.end()) {
        violate(u"reported an update of %1, which it did not hold (an addition went "
                u"unreported)"_s.arg(QString::fromUtf8(key)));
    } else {
        if (it->value != previous)
            violate(u"a change of %1 was lost: its update says it was \"%2\", the last change "
                    u"reported made it \"%3\""_s.arg(QString::fromUtf8(key),
                        QString::fromUtf8(previous), QString::fromUtf8(it->value)));
        if (revision <= it->modRevision)
            violate(
                u"an update of %1 at revision %2 came after one at %3"_s.arg(QString::fromUtf8(key))
                    .arg(revision)
                    .arg(it->modRevision));
    }
    replay(key, value, revision, u"updated"_s);
}

// An addition or update reported at `revision`: in order, and the cache then holds it so.
void CacheSubject::replay(
    const QByteArray &key, const QByteArray &value, qint64 revision, const QString &how)
{
    if (m_revisionOrder && revision <= m_lastRevision)
        violate(u"reported a change at revision %1 after one at %2"_s.arg(revision).arg(
            m_lastRevision));
    m_lastRevision = std::max(m_lastRevision, revision);
    EtcdKeyValue kv;
    kv.key = key;
    kv.value = value;
    kv.modRevision = revision;
    m_replayed.insert(key, kv);
    if (!replayAgrees(key))
        violate(u"reported %1 %2, but does not hold it so"_s.arg(QString::fromUtf8(key), how));
}

void CacheSubject::onRemoved(const QByteArray &key, const QByteArray &previous, qint64 revision)
{
    ++m_reported;
    if (!m_seeded)
        return violate(u"reported a removal before its first state"_s);
    const auto it = m_replayed.find(key);
    if (it == m_replayed.end()) {
        violate(u"reported the removal of %1, which it did not hold"_s.arg(QString::fromUtf8(key)));
    } else {
        if (it->value != previous)
            violate(u"a change of %1 was lost: its removal says it was \"%2\", the last change "
                    u"reported made it \"%3\""_s.arg(QString::fromUtf8(key),
                        QString::fromUtf8(previous), QString::fromUtf8(it->value)));
        if (revision <= it->modRevision)
            violate(u"the removal of %1 at revision %2 came after a change at %3"_s
                        .arg(QString::fromUtf8(key))
                        .arg(revision)
                        .arg(it->modRevision));
        m_replayed.erase(it);
    }
    if (m_revisionOrder && revision <= m_lastRevision)
        violate(u"reported a change at revision %1 after one at %2"_s.arg(revision).arg(
            m_lastRevision));
    m_lastRevision = std::max(m_lastRevision, revision);
    if (!replayAgrees(key))
        violate(u"reported %1 removed, but still holds it"_s.arg(QString::fromUtf8(key)));
}

// The writes stop; a few more after the fault make every value new again, and the cache must
// hold what etcd holds then, by its state and by the changes it reported.
QString CacheSubject::afterFault(const FaultFacts &facts)
{
    if (!m_writes.stop())
        return u"a write never answered after the fault"_s;
    for (int i = 0; i < 3; ++i) {
        const int n = m_writes.sendNow();
        if (!waitFor([this] { return m_writes.idle(); }) || !m_writes.acked.contains(n))
            return u"a write after the fault failed"_s;
    }
    qInfo("fault matrix: %s: %d writes, %lld unknown; the cache reported %d changes, read "
          "again %d time(s) after a compaction",
        m_path.constData(), m_writes.sent(), qint64(m_writes.unknown.size()), m_reported,
        m_resyncs);
    if (facts.faultedDestroyed)
        return {}; // the cache went with its client; recover() makes a new one
    return converged(u"the fault"_s);
}

QString CacheSubject::converged(const QString &after)
{
    const auto read = keysUnder(*m_clean, m_path);
    if (!read)
        return u"etcd did not answer for the keys"_s;
    Contents etcd;
    for (const EtcdKeyValue &kv : *read)
        etcd.insert(kv.key, kv);
    if (!waitFor([&] { return sameContents(cached(), etcd) && sameContents(m_replayed, etcd); }))
        return u"after %1 the cache holds %2 and its changes say %3; etcd holds %4"_s.arg(
            after, contentsText(cached()), contentsText(m_replayed), contentsText(etcd));
    return {};
}

// Usable: a new write shows up, then all is as etcd has it.
QString CacheSubject::recover()
{
    if (std::exchange(m_faultedReplaced, false)) {
        m_seeded = false;
        m_reported = 0;
        createCache(); // on the deleted client's replacement
        if (!waitFor([this] { return cacheStarted() && m_seeded; }))
            return u"a new cache on a new client never started"_s;
        if (const QString r = converged(u"a new client's start"_s); !r.isEmpty())
            return r;
    }
    const int before = m_reported;
    const int n = m_writes.sendNow();
    if (!waitFor([this] { return m_writes.idle(); }) || !m_writes.acked.contains(n))
        return u"a write after recovering failed"_s;
    if (!waitFor([&] { return m_reported > before; }))
        return u"the cache never reported a write made after the fault"_s;
    return converged(u"a new write"_s);
}

bool CacheSubject::close()
{
    return closeAll({m_cache.get()});
}

// One key, put with a new value each time, deleted every fifth change.
class NodeCacheSubject : public CacheSubject
{
public:
    NodeCacheSubject() { m_revisionOrder = true; }
    // The cache goes with the client's recipes; it has no call of its own in flight.
    void handOverFaulted() override { m_cache.release()->setParent(m_faulted); }

protected:
    void createCache() override
    {
        auto cache = std::make_unique<EtcdNodeCache>(m_faulted, key());
        EtcdNodeCache *c = cache.get();
        m_node = c;
        QObject::connect(c, &EtcdNodeCache::started, [this, c] { seeded(contentsOf(*c)); });
        QObject::connect(c, &EtcdNodeCache::created,
            [this](const QByteArray &value, qint64 rev) { onAdded(key(), value, rev); });
        QObject::connect(c, &EtcdNodeCache::updated,
            [this](const QByteArray &value, const QByteArray &previous, qint64 rev) {
                onUpdated(key(), value, previous, rev);
            });
        QObject::connect(c, &EtcdNodeCache::deleted,
            [this](const QByteArray &previous, qint64 rev) { onRemoved(key(), previous, rev); });
        QObject::connect(c, &EtcdNodeCache::resynced, [this] { ++m_resyncs; });
        QObject::connect(c, &EtcdNodeCache::failed,
            [this](const EtcdStatus &why) { violate(u"the cache failed: "_s + why.toString()); });
        m_cache = std::move(cache);
        c->start();
    }
    bool cacheStarted() const override { return m_cache && m_node->isStarted(); }
    Contents cached() const override { return m_cache ? contentsOf(*m_node) : Contents {}; }
    EtcdReply *change(int n) override
    {
        if (n % 5 == 4)
            return m_clean->remove(key());
        return m_clean->put(key(), "v" + QByteArray::number(n));
    }

private:
    [[nodiscard]] QByteArray key() const { return m_path + "/node"; }
    static Contents contentsOf(const EtcdNodeCache &c)
    {
        Contents out;
        if (c.exists())
            out.insert(c.key(), c.keyValue());
        return out;
    }

    EtcdNodeCache *m_node = nullptr; // m_cache's
};

// Five children, each change puts a new value into one of them or deletes it.
class PathCacheSubject : public CacheSubject
{
public:
    // Mid-operation: a rebuild's read is in flight as the client goes.
    void handOverFaulted() override
    {
        m_children->rebuild();
        m_cache.release()->setParent(m_faulted);
    }

protected:
    void createCache() override
    {
        auto cache = std::make_unique<EtcdPathChildrenCache>(m_faulted, m_path);
        EtcdPathChildrenCache *c = cache.get();
        m_children = c;
        QObject::connect(c, &EtcdPathChildrenCache::initialized,
            [this](const QList<EtcdKeyValue> &snapshot, qint64) {
                Contents seed;
                for (const EtcdKeyValue &kv : snapshot)
                    seed.insert(kv.key, kv);
                seeded(seed);
            });
        QObject::connect(
            c, &EtcdPathChildrenCache::childAdded, [this](const QString &, const EtcdKeyValue &kv) {
                onAdded(kv.key, kv.value, kv.modRevision);
            });
        QObject::connect(c, &EtcdPathChildrenCache::childUpdated,
            [this](const QString &, const EtcdKeyValue &kv, const EtcdKeyValue &previous) {
                onUpdated(kv.key, kv.value, previous.value, kv.modRevision);
            });
        QObject::connect(c, &EtcdPathChildrenCache::childRemoved,
            [this](const QString &, const EtcdKeyValue &previous, qint64 rev) {
                onRemoved(previous.key, previous.value, rev);
            });
        QObject::connect(c, &EtcdPathChildrenCache::resynced, [this] { ++m_resyncs; });
        QObject::connect(c, &EtcdPathChildrenCache::failed,
            [this](const EtcdStatus &why) { violate(u"the cache failed: "_s + why.toString()); });
        m_cache = std::move(cache);
        c->start(EtcdPathChildrenCache::StartMode::PostInitializedEvent);
    }
    bool cacheStarted() const override { return m_cache && m_children->isStarted(); }
    Contents cached() const override
    {
        Contents out;
        if (m_cache) {
            for (const EtcdKeyValue &kv : m_children->currentData())
                out.insert(kv.key, kv);
        }
        return out;
    }
    EtcdReply *change(int n) override
    {
        const QByteArray key = m_path + "/c" + QByteArray::number(n % 5);
        if (n % 7 == 3)
            return m_clean->remove(key);
        return m_clean->put(key, "v" + QByteArray::number(n));
    }

private:
    EtcdPathChildrenCache *m_children = nullptr; // m_cache's
};

} // namespace

std::unique_ptr<Subject> makeNodeCache()
{
    return std::make_unique<NodeCacheSubject>();
}
std::unique_ptr<Subject> makePathCache()
{
    return std::make_unique<PathCacheSubject>();
}

} // namespace FaultMatrix
