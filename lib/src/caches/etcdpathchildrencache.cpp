// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "cachecore_p.h"

#include <EtcdQt/etcdpathchildrencache.h>

#include <QtCore/qtimer.h>

using namespace Etcd::Internal;

/*!
    \class EtcdPathChildrenCache
    \inmodule EtcdQt
    \brief A live local copy of every key under a path, and a signal for every change.

    The children are the keys under prefix() (the path with a '/' appended unless it ends in
    one), named relative to it; nested keys keep their '/' (\c{a/b}). currentData() lists
    them sorted by name.

    start() works as startMode says. Normal watches from now and fills the cache from events
    alone. BuildInitialCache first reads every child in pages pinned to one revision (no
    response grows past etcd's limits, however many children there are), then follows them
    with one watch anchored at that revision plus one: nothing is missed or seen twice.
    PostInitializedEvent does the same and emits initialized() with the snapshot. The
    initial snapshot is not reported child by child; every change after it is, in etcd's
    revision order: childAdded(), childUpdated() with the previous value, childRemoved() with
    the value it had.

    The signals describe the cache: a put of a name the cache does not hold (in Normal mode,
    or after clear()) is an addition, and the deletion of one it does not hold is not
    reported.

    When the watch's history was compacted away (a long outage), the cache reads the children
    again and reports every difference from its copy as an ordinary childAdded(),
    childUpdated() or childRemoved(), then resynced(); etcd-recipes updates silently there,
    so its listeners miss changes. rebuild() does the same on demand. Neither ever empties
    the cache to refill it: additions and updates come before removals, so a reader sees
    the old children or the new ones, never none. Events arriving meanwhile are held back and
    applied after the read, without those the read already saw.

    The watch survives etcd restarts, pauses and failover without a gap; connectionState
    follows it. A cache owns nothing in etcd; close() only stops the watch. For typed values
    use EtcdTypedPathChildrenCache, which sets a validator: a value that does not decode is
    still cached and signalled, and reported through errorOccurred().
*/

/*!
    \class EtcdTypedPathChildrenCache
    \inmodule EtcdQt
    \brief An EtcdPathChildrenCache whose values are decoded with a codec (see EtcdTextCodec,
    EtcdJsonCodec, EtcdInt64Codec).
*/

/*! \fn template <class Codec> EtcdTypedPathChildrenCache<Codec>::EtcdTypedPathChildrenCache(
        EtcdClient *client, const QByteArray &path)
    Constructs a typed cache of the children of \a path on \a client; the codec is the
    untyped cache's validator. */

/*!
    \typedef EtcdTypedPathChildrenCache::Value
    The codec's value type.
*/

/*!
    \variable EtcdTypedPathChildrenCache::Child::name
    \brief the child's name: its key without the cache's path.
*/

/*!
    \variable EtcdTypedPathChildrenCache::Child::keyValue
    \brief the child's key-value as etcd has it.
*/

/*!
    \variable EtcdTypedPathChildrenCache::Child::value
    \brief the value decoded; nullopt when the bytes do not decode.
*/

// clang-format off
/*!
    \fn template <class Codec> EtcdPathChildrenCache *EtcdTypedPathChildrenCache<Codec>::untyped() const
    Returns the untyped cache, which carries the signals.
*/

/*!
    \fn template <class Codec> QList<Child> EtcdTypedPathChildrenCache<Codec>::currentData() const
    Returns every child sorted by name, with its decoded value (nullopt where it does not
    decode).
*/

/*!
    \fn template <class Codec> std::optional<Value> EtcdTypedPathChildrenCache<Codec>::currentData(const QString &name) const
    Returns the decoded value of the child \a name; nullopt when absent or when it does not
    decode.
*/

/*!
    \fn template <class Codec> std::optional<Value> EtcdTypedPathChildrenCache<Codec>::decode(const EtcdKeyValue &kv)
    Returns the value of \a kv decoded (nullopt when it does not decode), for the
    key-values the untyped cache's signals carry.
*/
// clang-format on

/*! \fn template <class Codec> void EtcdTypedPathChildrenCache<Codec>::start(
        EtcdPathChildrenCache::StartMode mode)
    Starts the untyped cache in \a mode. */

/*! \fn template <class Codec> void EtcdTypedPathChildrenCache<Codec>::rebuild()
    Rebuilds the untyped cache. */

/*! \fn template <class Codec> void EtcdTypedPathChildrenCache<Codec>::clear()
    Clears the untyped cache. */

/*! \fn template <class Codec> void EtcdTypedPathChildrenCache<Codec>::close()
    Closes the untyped cache. */

/*!
    \enum EtcdPathChildrenCache::StartMode
    What start() does first.
    \value Normal No snapshot: watches from now and fills the cache from events alone.
    \value BuildInitialCache Reads every child (silently), then watches from after the read.
    \value PostInitializedEvent As BuildInitialCache, then emits initialized() with the
        snapshot.
*/

/*!
    \class EtcdTypedPathChildrenCache::Child
    \inmodule EtcdQt
    \brief One child of a typed cache: its name, key-value and decoded value (nullopt when
    its bytes do not decode).
*/

/*! \fn void EtcdPathChildrenCache::started()
    Emitted once the watch is live (after the initial read, when startMode asks for one). */

/*! \fn void EtcdPathChildrenCache::initialized(const QList<EtcdKeyValue> &snapshot,
        qint64 revision)
    In PostInitializedEvent mode: the children as read at \a revision (\a snapshot, in key
    order) are in the cache. Emitted once, before started(). */

/*! \fn void EtcdPathChildrenCache::childAdded(const QString &name, const EtcdKeyValue &child)
    Emitted when the child \a name appeared in the cache as \a child; its modRevision is the
    change's revision. */

/*! \fn void EtcdPathChildrenCache::childUpdated(const QString &name,
        const EtcdKeyValue &child, const EtcdKeyValue &previous)
    Emitted when the child \a name changed from \a previous to \a child. */

/*! \fn void EtcdPathChildrenCache::childRemoved(const QString &name,
        const EtcdKeyValue &previous, qint64 revision)
    Emitted when the child \a name, last seen as \a previous, was deleted at \a revision (for
    a deletion found by a re-read: the revision of that read). */

/*! \fn void EtcdPathChildrenCache::countChanged()
    Emitted when the number of children changed. */

/*! \fn void EtcdPathChildrenCache::rebuilt()
    Emitted when a rebuild() read the children again and every difference was reported. */

/*! \fn void EtcdPathChildrenCache::cleared()
    Emitted when clear() emptied the cache. */

/*! \fn void EtcdPathChildrenCache::resynced(qint64 revision)
    Emitted after the children were read again at \a revision because the watch's history
    had been compacted away, and the differences were reported. */

/*! \fn void EtcdPathChildrenCache::startModeChanged()
    Emitted when startMode changed. */

/*! \fn void EtcdPathChildrenCache::failed(const EtcdStatus &reason)
    Emitted when the cache stopped for good with \a reason: the initial read failed, the path
    is empty, or the watch ended. Its copy is kept as it was. */

namespace {
QByteArray prefixOf(const QByteArray &path)
{
    return path.isEmpty() || path.endsWith('/') ? path : path + '/';
}
} // namespace

class EtcdPathChildrenCachePrivate
{
    Q_DECLARE_PUBLIC(EtcdPathChildrenCache)
public:
    EtcdPathChildrenCachePrivate(EtcdPathChildrenCache *q, const QByteArray &path);
    void changed(const CacheChange &c);
    void loaded(const PagedSnapshot &snapshot);
    void fail(const EtcdStatus &why);
    CacheCore::Hooks hooks();

    EtcdPathChildrenCache *q_ptr;
    QByteArray path;
    EtcdPathChildrenCache::StartMode mode = EtcdPathChildrenCache::StartMode::BuildInitialCache;
    bool started = false;
    CacheCore core;
};

EtcdPathChildrenCachePrivate::EtcdPathChildrenCachePrivate(
    EtcdPathChildrenCache *q, const QByteArray &p)
    : q_ptr(q), path(p), core(q, prefixOf(p), true, hooks())
{ }

CacheCore::Hooks EtcdPathChildrenCachePrivate::hooks()
{
    CacheCore::Hooks h;
    h.changed = [this](const CacheChange &c) { changed(c); };
    h.loaded = [this](const PagedSnapshot &s) { loaded(s); };
    h.live = [this] {
        started = true;
        Q_EMIT q_func()->started();
    };
    h.resynced = [this](qint64 revision) { Q_EMIT q_func()->resynced(revision); };
    h.rebuilt = [this] { Q_EMIT q_func()->rebuilt(); };
    h.failed = [this](const EtcdStatus &why) { fail(why); };
    h.error = [this](const EtcdStatus &s) { q_func()->recordError(s); };
    return h;
}

void EtcdPathChildrenCachePrivate::changed(const CacheChange &c)
{
    Q_Q(EtcdPathChildrenCache);
    QPointer<EtcdPathChildrenCache> guard(q);
    switch (c.kind) {
    case CacheChange::Kind::Added:
        Q_EMIT q->childAdded(c.name, c.current);
        break;
    case CacheChange::Kind::Updated:
        Q_EMIT q->childUpdated(c.name, c.current, c.previous);
        return;
    case CacheChange::Kind::Removed:
        Q_EMIT q->childRemoved(c.name, c.previous, c.revision);
        break;
    }
    if (guard)
        Q_EMIT q->countChanged();
}

void EtcdPathChildrenCachePrivate::loaded(const PagedSnapshot &snapshot)
{
    Q_Q(EtcdPathChildrenCache);
    QPointer<EtcdPathChildrenCache> guard(q);
    if (!snapshot.keyValues.isEmpty())
        Q_EMIT q->countChanged();
    if (guard && mode == EtcdPathChildrenCache::StartMode::PostInitializedEvent)
        Q_EMIT q->initialized(snapshot.keyValues, snapshot.revision);
}

void EtcdPathChildrenCachePrivate::fail(const EtcdStatus &why)
{
    Q_Q(EtcdPathChildrenCache);
    core.stop();
    q->setActive(false);
    QPointer<EtcdPathChildrenCache> guard(q);
    q->reportConnectionState(EtcdRecipe::ConnectionState::Lost);
    if (guard)
        q->recordError(why);
    if (guard)
        Q_EMIT q->failed(why);
}

/*! Constructs a cache of the children of \a path on \a client; no I/O until start().
    \a parent is the QObject parent. */
EtcdPathChildrenCache::EtcdPathChildrenCache(
    EtcdClient *client, const QByteArray &path, QObject *parent)
    : EtcdRecipe(
        client, QStringLiteral("PathChildrenCache[%1]").arg(QString::fromUtf8(path)), parent),
      d_ptr(new EtcdPathChildrenCachePrivate(this, path))
{ }

/*! Destroys the cache; its watch is cancelled. */
EtcdPathChildrenCache::~EtcdPathChildrenCache() = default;

/*! \property EtcdPathChildrenCache::path The path whose children are cached. */
QByteArray EtcdPathChildrenCache::path() const
{
    return d_func()->path;
}

/*! \property EtcdPathChildrenCache::prefix The path with a '/' appended unless it ends in one:
    what every child's key starts with. */
QByteArray EtcdPathChildrenCache::prefix() const
{
    return prefixOf(d_func()->path);
}

/*! \property EtcdPathChildrenCache::startMode What start() does first (default
    BuildInitialCache). */
EtcdPathChildrenCache::StartMode EtcdPathChildrenCache::startMode() const
{
    return d_func()->mode;
}

/*! Sets startMode to \a mode; it takes effect at start(). */
void EtcdPathChildrenCache::setStartMode(StartMode mode)
{
    Q_D(EtcdPathChildrenCache);
    if (std::exchange(d->mode, mode) != mode)
        Q_EMIT startModeChanged();
}

/*! \property EtcdPathChildrenCache::count The number of children cached. */
int EtcdPathChildrenCache::count() const
{
    return int(d_func()->core.entries().size());
}

/*! \property EtcdPathChildrenCache::started Whether the watch is live. */
bool EtcdPathChildrenCache::isStarted() const
{
    return d_func()->started;
}

/*! The revision the cache is current at: its last read's, or the last change's seen since. */
qint64 EtcdPathChildrenCache::revision() const
{
    return d_func()->core.revision();
}

/*! Every child cached, sorted by name (in etcd's key order: by code point). */
QList<EtcdKeyValue> EtcdPathChildrenCache::currentData() const
{
    return d_func()->core.values();
}

/*! The child named \a name (relative to prefix(), not the full key); nullopt when absent. */
std::optional<EtcdKeyValue> EtcdPathChildrenCache::currentData(const QString &name) const
{
    const EtcdKeyValue *kv = d_func()->core.find(name);
    return kv ? std::optional(*kv) : std::nullopt;
}

/*! The names of every child cached, sorted. */
QStringList EtcdPathChildrenCache::names() const
{
    return d_func()->core.names();
}

/*! Every child's value by name. */
QMap<QString, QByteArray> EtcdPathChildrenCache::currentDataAsMap() const
{
    Q_D(const EtcdPathChildrenCache);
    QMap<QString, QByteArray> out;
    for (const EtcdKeyValue &kv : d->core.entries())
        out.insert(d->core.nameOf(kv.key), kv.value);
    return out;
}

/*! The name a child with the full \a key has: \a key relative to prefix(). */
QString EtcdPathChildrenCache::nameOf(const QByteArray &key) const
{
    return d_func()->core.nameOf(key);
}

/*!
    Sets a \a validator every value seen from now on must pass (EtcdTypedPathChildrenCache
    sets its codec's): one it refuses is still cached and signalled, and reported through
    errorOccurred() with Etcd::ErrorCode::FailedPrecondition.
*/
void EtcdPathChildrenCache::setValueValidator(
    std::function<bool(const QByteArray &value)> validator)
{
    d_func()->core.setValidator(std::move(validator));
}

/*! Starts the cache in startMode; started() or failed() follows. One-shot. */
void EtcdPathChildrenCache::start()
{
    Q_D(EtcdPathChildrenCache);
    if (isActive() || isClosed())
        return;
    setActive(true);
    if (d->path.isEmpty()) {
        QTimer::singleShot(0, this,
            [d] { d->fail(EtcdStatus(Etcd::ErrorCode::InvalidArgument, tr("empty path"))); });
        return;
    }
    d->core.start(d->mode != StartMode::Normal);
}

/*! Sets startMode to \a mode and starts the cache. */
void EtcdPathChildrenCache::start(StartMode mode)
{
    setStartMode(mode);
    start();
}

/*!
    Reads every child again and reports each difference from the cache as a childAdded(),
    childUpdated() or childRemoved(), then rebuilt(). The cache is reconciled in place and
    never empty meanwhile; the watch goes on. A rebuild asked while one is out is answered by
    it. Does nothing before the cache started. A failed read is reported through
    errorOccurred() and leaves the cache following its watch.
*/
void EtcdPathChildrenCache::rebuild()
{
    d_func()->core.rebuild();
}

/*!
    Empties the cache here (etcd is untouched), then emits cleared() and countChanged(). The
    watch goes on: a child put afterwards is added again; rebuild() reads them all back.
*/
void EtcdPathChildrenCache::clear()
{
    Q_D(EtcdPathChildrenCache);
    if (d->core.entries().empty())
        return;
    d->core.clear();
    QPointer<EtcdPathChildrenCache> guard(this);
    Q_EMIT cleared();
    if (guard)
        Q_EMIT countChanged();
}

/*! Stops following the children; the copy stays. Idempotent; closed() follows. */
void EtcdPathChildrenCache::close()
{
    Q_D(EtcdPathChildrenCache);
    d->core.stop();
    if (!isClosed()) {
        markClosed();
        emitClosedAfter(nullptr);
    }
}
