// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "cachecore_p.h"

#include <EtcdQt/etcdnodecache.h>

#include <QtCore/qtimer.h>

using namespace Etcd::Internal;

/*!
    \class EtcdNodeCache
    \inmodule EtcdQt
    \brief A live local copy of one key, and a signal for every change of it.

    start() reads the key, then follows it with one watch anchored at the read's revision
    plus one, so no change after the read is missed and none is seen twice. value(),
    exists() and modRevision() answer from the copy without I/O. Each change comes as
    created(), updated() or deleted(), with the value and the change's revision, in etcd's
    revision order, followed by valueChanged().

    The watch survives etcd restarts, pauses and failover without a gap; connectionState
    follows it (Suspended while the stream is down, Reconnected when it is live again). When
    the history the watch needs was compacted away (a long outage), the cache reads the key
    again and reports what differs from its copy as an ordinary created(), updated() or
    deleted(), then resynced(): a listener is never left with a stale value unawares.
    etcd-recipes' NodeCache updates silently there.

    A cache owns nothing in etcd; close() only stops the watch. For typed values use
    EtcdTypedNodeCache, which sets a validator: a value that does not decode is still cached
    and signalled, and reported through errorOccurred().
*/

/*!
    \class EtcdTypedNodeCache
    \inmodule EtcdQt
    \brief An EtcdNodeCache whose value is decoded with a codec (see EtcdTextCodec,
    EtcdJsonCodec, EtcdInt64Codec).
*/

/*! \fn template <class Codec> EtcdTypedNodeCache<Codec>::EtcdTypedNodeCache(EtcdClient *client,
        const QByteArray &key)
    Constructs a typed cache of \a key on \a client; the codec is the untyped cache's
    validator. */

/*!
    \typedef EtcdTypedNodeCache::Value
    The codec's value type.
*/

/*! \fn template <class Codec> EtcdNodeCache *EtcdTypedNodeCache<Codec>::untyped() const
    Returns the untyped cache, which carries the signals. */

// clang-format off
/*!
    \fn template <class Codec> std::optional<Value> EtcdTypedNodeCache<Codec>::value() const
    Returns the decoded value; nullopt when the key does not exist or its value does not
    decode.
*/

/*!
    \fn template <class Codec> std::optional<Value> EtcdTypedNodeCache<Codec>::decode(const QByteArray &bytes)
    Returns \a bytes decoded (nullopt when they do not decode), for the values the untyped
    cache's signals carry.
*/
// clang-format on

/*! \fn template <class Codec> void EtcdTypedNodeCache<Codec>::start()
    Starts the untyped cache. */

/*! \fn template <class Codec> void EtcdTypedNodeCache<Codec>::close()
    Closes the untyped cache. */

/*! \fn void EtcdNodeCache::started()
    Emitted once the key was read and the watch is live. */

/*! \fn void EtcdNodeCache::created(const QByteArray &value, qint64 revision)
    Emitted when the key came into existence with \a value at \a revision. */

/*! \fn void EtcdNodeCache::updated(const QByteArray &value, const QByteArray &previous,
        qint64 revision)
    Emitted when the key's value went from \a previous to \a value at \a revision. */

/*! \fn void EtcdNodeCache::deleted(const QByteArray &previous, qint64 revision)
    Emitted when the key holding \a previous was deleted at \a revision (for a deletion found
    by a re-read after a compaction: the revision of that read). */

/*! \fn void EtcdNodeCache::valueChanged()
    Emitted after every created(), updated() and deleted(). */

/*! \fn void EtcdNodeCache::resynced(qint64 revision)
    Emitted after the key was read again at \a revision because the watch's history had been
    compacted away, and the differences were reported. */

/*! \fn void EtcdNodeCache::failed(const EtcdStatus &reason)
    Emitted when the cache stopped for good with \a reason: the first read failed, the key is
    empty, or the watch ended. Its copy is kept as it was. */

class EtcdNodeCachePrivate
{
    Q_DECLARE_PUBLIC(EtcdNodeCache)
public:
    EtcdNodeCachePrivate(EtcdNodeCache *q, const QByteArray &key);
    void changed(const CacheChange &c);
    void fail(const EtcdStatus &why);
    CacheCore::Hooks hooks();

    EtcdNodeCache *q_ptr;
    QByteArray key;
    bool started = false;
    CacheCore core;
};

EtcdNodeCachePrivate::EtcdNodeCachePrivate(EtcdNodeCache *q, const QByteArray &k)
    : q_ptr(q), key(k), core(q, k, false, hooks())
{ }

CacheCore::Hooks EtcdNodeCachePrivate::hooks()
{
    CacheCore::Hooks h;
    h.changed = [this](const CacheChange &c) { changed(c); };
    h.live = [this] {
        started = true;
        Q_EMIT q_func()->started();
    };
    h.resynced = [this](qint64 revision) { Q_EMIT q_func()->resynced(revision); };
    h.failed = [this](const EtcdStatus &why) { fail(why); };
    h.error = [this](const EtcdStatus &s) { q_func()->recordError(s); };
    return h;
}

void EtcdNodeCachePrivate::changed(const CacheChange &c)
{
    Q_Q(EtcdNodeCache);
    QPointer<EtcdNodeCache> guard(q);
    switch (c.kind) {
    case CacheChange::Kind::Added:
        Q_EMIT q->created(c.current.value, c.revision);
        break;
    case CacheChange::Kind::Updated:
        Q_EMIT q->updated(c.current.value, c.previous.value, c.revision);
        break;
    case CacheChange::Kind::Removed:
        Q_EMIT q->deleted(c.previous.value, c.revision);
        break;
    }
    if (guard)
        Q_EMIT q->valueChanged();
}

void EtcdNodeCachePrivate::fail(const EtcdStatus &why)
{
    Q_Q(EtcdNodeCache);
    core.stop();
    q->setActive(false);
    QPointer<EtcdNodeCache> guard(q);
    q->reportConnectionState(EtcdRecipe::ConnectionState::Lost);
    if (guard)
        q->recordError(why);
    if (guard)
        Q_EMIT q->failed(why);
}

/*! Constructs a cache of \a key on \a client; no I/O until start(). \a parent is the
    QObject parent. */
EtcdNodeCache::EtcdNodeCache(EtcdClient *client, const QByteArray &key, QObject *parent)
    : EtcdRecipe(client, QStringLiteral("NodeCache[%1]").arg(QString::fromUtf8(key)), parent),
      d_ptr(new EtcdNodeCachePrivate(this, key))
{ }

/*! Destroys the cache; its watch is cancelled. */
EtcdNodeCache::~EtcdNodeCache() = default;

/*! \property EtcdNodeCache::key The key cached. */
QByteArray EtcdNodeCache::key() const
{
    return d_func()->key;
}

/*! \property EtcdNodeCache::value The key's value as last seen; empty when it does not exist. */
QByteArray EtcdNodeCache::value() const
{
    return keyValue().value;
}

/*! \property EtcdNodeCache::exists Whether the key exists, as last seen. */
bool EtcdNodeCache::exists() const
{
    return !d_func()->core.entries().empty();
}

/*! \property EtcdNodeCache::modRevision The revision of the key's last change; 0 when absent. */
qint64 EtcdNodeCache::modRevision() const
{
    return keyValue().modRevision;
}

/*! The key-value as last seen (all fields 0 or empty when the key does not exist). */
EtcdKeyValue EtcdNodeCache::keyValue() const
{
    const CacheEntries &entries = d_func()->core.entries();
    return entries.empty() ? EtcdKeyValue() : *entries.cbegin();
}

/*! The revision the copy is current at: the read's, or the last change's seen since. */
qint64 EtcdNodeCache::revision() const
{
    return d_func()->core.revision();
}

/*! \property EtcdNodeCache::started Whether the key was read and the watch is live. */
bool EtcdNodeCache::isStarted() const
{
    return d_func()->started;
}

/*!
    Sets a \a validator every value seen from now on must pass (EtcdTypedNodeCache sets its
    codec's): one it refuses is still cached and signalled, and reported through
    errorOccurred() with Etcd::ErrorCode::FailedPrecondition.
*/
void EtcdNodeCache::setValueValidator(std::function<bool(const QByteArray &value)> validator)
{
    d_func()->core.setValidator(std::move(validator));
}

/*! Reads the key and starts following it; started() or failed() follows. One-shot. */
void EtcdNodeCache::start()
{
    Q_D(EtcdNodeCache);
    if (isActive() || isClosed())
        return;
    setActive(true);
    if (d->key.isEmpty()) {
        QTimer::singleShot(0, this,
            [d] { d->fail(EtcdStatus(Etcd::ErrorCode::InvalidArgument, tr("empty key"))); });
        return;
    }
    d->core.start(true);
}

/*! Stops following the key; the copy stays. Idempotent; closed() follows. */
void EtcdNodeCache::close()
{
    Q_D(EtcdNodeCache);
    d->core.stop();
    if (!isClosed()) {
        markClosed();
        emitClosedAfter(nullptr);
    }
}
