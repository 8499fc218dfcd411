// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "cachecore_p.h"

#include "etcdqt_internal_p.h"
#include "recipelayer_p.h"
#include "recipemetrics_p.h"

#include <EtcdQt/etcdcodec.h>
#include <EtcdQt/etcdrecipe.h>
#include <EtcdQt/etcdwatch.h>

#include <QtCore/qtimer.h>

namespace Etcd::Internal {

namespace {
constexpr std::chrono::milliseconds kResyncRetry(1000); // a re-read etcd did not answer
} // namespace

CacheCore::CacheCore(EtcdRecipe *owner, const QByteArray &key, bool prefix, Hooks hooks)
    : m_owner(owner), m_key(key), m_rangeEnd(prefix ? Etcd::prefixEnd(key) : QByteArray()),
      m_hooks(std::move(hooks))
{ }

CacheCore::~CacheCore() = default;

QString CacheCore::nameOf(const QByteArray &key) const
{
    if (m_rangeEnd.isEmpty())
        return {};
    const qsizetype from = std::min(m_key.size(), key.size());
    return QString::fromUtf8(key.constData() + from, key.size() - from);
}

const EtcdKeyValue *CacheCore::find(const QString &name) const
{
    const QByteArray key = m_rangeEnd.isEmpty() ? m_key : m_key + name.toUtf8();
    const auto it = m_entries.find(QByteArrayView(key));
    return it == m_entries.cend() ? nullptr : &*it;
}

QStringList CacheCore::names() const
{
    QStringList out;
    out.reserve(qsizetype(m_entries.size()));
    for (const EtcdKeyValue &kv : m_entries)
        out.append(nameOf(kv.key));
    return out;
}

QList<EtcdKeyValue> CacheCore::values() const
{
    return QList<EtcdKeyValue>(m_entries.cbegin(), m_entries.cend());
}

void CacheCore::setValidator(std::function<bool(const QByteArray &)> validator)
{
    m_validator = std::move(validator);
}

void CacheCore::start(bool snapshot)
{
    if (snapshot)
        return read(Purpose::Load);
    follow(0); // from now, filled by events alone
}

void CacheCore::rebuild()
{
    if (m_stopped || (!m_watch && !m_live))
        return; // not started: its first read is the build
    m_rebuildAsked = true;
    if (!m_reading) // a re-read already out answers this rebuild too
        read(Purpose::Rebuild);
}

void CacheCore::clear()
{
    m_entries.clear();
}

void CacheCore::stop()
{
    m_stopped = true;
    ++m_readGeneration; // an answer still out is ignored
    if (m_watch) {
        m_watch->cancel(); // nothing more from it; deleted later, as we may be inside its signal
        m_watch.release()->deleteLater();
    }
}

void CacheCore::read(Purpose purpose)
{
    const int generation = ++m_readGeneration;
    if (purpose != Purpose::Load)
        m_reading = true; // events hold back until the read is in
    if (purpose == Purpose::Resync)
        m_resyncing = true;
    EtcdClient *client = m_owner ? m_owner->client() : nullptr;
    readPaged(client, m_owner, m_key, m_rangeEnd,
        [this, generation, purpose, span = MetricSpan(metricsOf(client))](
            const EtcdStatus &s, PagedSnapshot snapshot) mutable {
            if (s.isOk()) {
                span.end([&](EtcdMetrics &m, EtcdMetrics::Duration d) {
                    m.recordCacheSync(m_key, d, snapshot.keyValues.size());
                });
            }
            if (generation == m_readGeneration && !m_stopped)
                answered(purpose, s, std::move(snapshot));
        });
}

void CacheCore::answered(Purpose purpose, const EtcdStatus &s, PagedSnapshot snapshot)
{
    QPointer<EtcdRecipe> guard(m_owner);
    if (purpose == Purpose::Load) {
        if (!s.isOk())
            return fail(s);
        for (const EtcdKeyValue &kv : std::as_const(snapshot.keyValues)) {
            store(kv); // in key order: each goes in at the end, without a search
            validate(kv);
            if (!guard || m_stopped)
                return;
        }
        m_seenThrough = m_revision = snapshot.revision;
        qCDebug(lcEtcdCache) << "cache" << m_key << "loaded" << snapshot.keyValues.size()
                             << "keys at revision" << snapshot.revision;
        if (m_hooks.loaded)
            m_hooks.loaded(snapshot);
        if (guard && !m_stopped)
            follow(snapshot.revision + 1); // anchored: nothing after the read slips by
        return;
    }
    if (!s.isOk()) {
        if (m_hooks.error)
            m_hooks.error(s);
        if (!guard || m_stopped)
            return;
        if (m_resyncing) { // the watch waits for this read: try again until etcd answers
            const int generation = m_readGeneration;
            QTimer::singleShot(kResyncRetry, m_owner, [this, generation] {
                if (generation == m_readGeneration && !m_stopped)
                    read(Purpose::Resync);
            });
            return;
        }
        m_reading = m_rebuildAsked = false; // the rebuild failed: carry on from events
        applyEvents(std::exchange(m_heldBack, {}));
        return;
    }
    if (!reconcile(snapshot))
        return;
    m_reading = false;
    if (!applyEvents(std::exchange(m_heldBack, {})))
        return;
    const bool resynced = std::exchange(m_resyncing, false);
    const bool rebuilt = std::exchange(m_rebuildAsked, false);
    if (resynced && m_watch)
        m_watch->resync(snapshot.revision + 1);
    if (resynced)
        qCDebug(lcEtcdCache) << "cache" << m_key << "read again after a compaction, at revision"
                             << snapshot.revision;
    if (resynced && m_hooks.resynced)
        m_hooks.resynced(snapshot.revision);
    if (guard && !m_stopped && rebuilt && m_hooks.rebuilt)
        m_hooks.rebuilt();
}

// The watch from `revision` on (0: now). After a compacted gap it re-reads and reports the
// differences (the watch waits for that, AwaitResync); a plain resumption needs nothing.
void CacheCore::follow(qint64 revision)
{
    WatchFollower f;
    f.events = [this](const QList<EtcdWatchEvent> &events) { onEvents(events); };
    f.active = [this] {
        if (!std::exchange(m_live, true) && m_hooks.live)
            m_hooks.live();
    };
    f.reconnected = [this](qint64 compactedAt) {
        if (compactedAt > 0 && !m_stopped)
            read(Purpose::Resync);
    };
    f.failed = [this](const EtcdStatus &why) { fail(why); };
    EtcdWatchOptions o;
    o.prefix = !m_rangeEnd.isEmpty();
    o.startRevision = revision;
    m_watch = RecipeLayer::followWatch(
        m_owner, m_key, o, EtcdWatch::ResyncMode::AwaitResync, std::move(f));
}

void CacheCore::onEvents(const QList<EtcdWatchEvent> &events)
{
    if (m_stopped)
        return;
    // A re-read is out: what it saw must come first. Or a listener runs a nested event loop
    // while a batch is reported: these are newer than the rest of it.
    if (m_reading || m_applying)
        m_heldBack += events;
    else
        applyEvents(events);
}

// False when a hook closed or destroyed the owner: nothing more is applied then.
bool CacheCore::applyEvents(const QList<EtcdWatchEvent> &events)
{
    const bool outermost = !std::exchange(m_applying, true);
    for (const EtcdWatchEvent &e : events) {
        if (e.revision <= m_seenThrough)
            continue; // the re-read had it
        m_revision = std::max(m_revision, e.revision);
        const auto known = m_entries.find(QByteArrayView(e.keyValue.key));
        CacheChange c;
        c.name = nameOf(e.keyValue.key);
        c.revision = e.revision;
        if (e.type == EtcdWatchEvent::Type::Delete) {
            if (known == m_entries.cend())
                continue; // the cache never held it
            c.kind = CacheChange::Kind::Removed;
            c.previous = *known;
        } else {
            c.kind
                = known == m_entries.cend() ? CacheChange::Kind::Added : CacheChange::Kind::Updated;
            c.current = e.keyValue;
            if (known != m_entries.cend())
                c.previous = *known;
        }
        if (!apply(c))
            return false;
    }
    if (!outermost)
        return true;
    m_applying = false;
    // What a nested event loop brought in meanwhile; after a re-read's answer if one is out.
    if (m_reading || m_heldBack.isEmpty())
        return true;
    return applyEvents(std::exchange(m_heldBack, {}));
}

bool CacheCore::apply(const CacheChange &c)
{
    QPointer<EtcdRecipe> guard(m_owner);
    if (c.kind == CacheChange::Kind::Removed) {
        if (const auto it = m_entries.find(QByteArrayView(c.previous.key)); it != m_entries.cend())
            m_entries.erase(it);
    } else {
        store(c.current);
        validate(c.current); // reported, and still cached and signalled
        if (!guard || m_stopped)
            return false;
    }
    if (m_hooks.changed)
        m_hooks.changed(c);
    return guard && !m_stopped;
}

// Puts `kv` in, in place of the entry of its key if there is one. A key after every other
// (a snapshot read in key order) goes in at the end without a search.
void CacheCore::store(const EtcdKeyValue &kv)
{
    if (m_entries.empty() || m_entries.crbegin()->key < kv.key) {
        m_entries.emplace_hint(m_entries.cend(), kv);
        return;
    }
    const auto it = m_entries.find(QByteArrayView(kv.key));
    if (it == m_entries.cend()) {
        m_entries.insert(kv);
        return;
    }
    // Same key, same place: the node is taken out, given the new value and put back.
    const auto next = std::next(it);
    auto node = m_entries.extract(it);
    node.value() = kv;
    m_entries.insert(next, std::move(node));
}

// What it takes to turn the entries into `to` (key-values in key order, as a read returns
// them), additions and updates before removals: a reader that looks while the changes are
// applied one by one never sees fewer entries than both ends hold. Removals found this way
// carry `revision`.
QList<CacheChange> cacheDiff(const CacheEntries &from, const QList<EtcdKeyValue> &to,
    qint64 revision, const std::function<QString(const QByteArray &key)> &nameOf)
{
    QList<CacheChange> changes;
    QList<CacheChange> removals;
    auto a = from.cbegin();
    auto b = to.cbegin();
    using Kind = CacheChange::Kind;
    while (a != from.cend() || b != to.cend()) {
        if (b == to.cend() || (a != from.cend() && a->key < b->key)) {
            removals.append({Kind::Removed, nameOf(a->key), {}, *a, revision});
            ++a;
        } else if (a == from.cend() || b->key < a->key) {
            changes.append({Kind::Added, nameOf(b->key), *b, {}, b->modRevision});
            ++b;
        } else {
            if (!(*a == *b))
                changes.append({Kind::Updated, nameOf(b->key), *b, *a, b->modRevision});
            ++a;
            ++b;
        }
    }
    return changes + removals;
}

bool CacheCore::reconcile(const PagedSnapshot &snapshot)
{
    const auto name = [this](const QByteArray &key) { return nameOf(key); };
    for (const CacheChange &c : cacheDiff(m_entries, snapshot.keyValues, snapshot.revision, name)) {
        if (!apply(c))
            return false;
    }
    m_seenThrough = std::max(m_seenThrough, snapshot.revision);
    m_revision = std::max(m_revision, snapshot.revision);
    return true;
}

void CacheCore::validate(const EtcdKeyValue &kv)
{
    if (!m_validator || m_validator(kv.value) || !m_hooks.error)
        return;
    m_hooks.error(EtcdStatus(Etcd::ErrorCode::FailedPrecondition,
        EtcdRecipe::tr("the value of %1 at revision %2 does not decode")
            .arg(QString::fromUtf8(kv.key))
            .arg(kv.modRevision)));
}

void CacheCore::fail(const EtcdStatus &why)
{
    stop();
    if (m_hooks.failed)
        m_hooks.failed(why);
}

} // namespace Etcd::Internal
