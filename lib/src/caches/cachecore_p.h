// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API.
#pragma once

#include "etcdqt_internal_p.h"
#include "pagedread_p.h"

#include <EtcdQt/etcdkeyvalue.h>
#include <EtcdQt/etcdstatus.h>
#include <EtcdQt/etcdwatchevent.h>

#include <QtCore/qbytearrayview.h>
#include <QtCore/qpointer.h>
#include <QtCore/qstring.h>
#include <QtCore/qstringlist.h>

#include <functional>
#include <memory>
#include <set>

class EtcdRecipe;
class EtcdWatch;

namespace Etcd::Internal {

// One change of what a cache holds, under the entry's name (the key relative to the prefix).
struct CacheChange
{
    enum class Kind { Added, Updated, Removed };
    Kind kind = Kind::Added;
    QString name;
    EtcdKeyValue current; // after the change (empty for Removed)
    EtcdKeyValue previous; // before it (empty for Added)
    qint64 revision = 0; // the change's revision; for a removal found by a re-read, the read's
};

// Orders key-values by key, and finds one by its key alone.
struct ByKey
{
    using is_transparent = void;
    bool operator()(const EtcdKeyValue &a, const EtcdKeyValue &b) const { return a.key < b.key; }
    bool operator()(const EtcdKeyValue &a, QByteArrayView b) const
    {
        return QByteArrayView(a.key) < b;
    }
    bool operator()(QByteArrayView a, const EtcdKeyValue &b) const
    {
        return a < QByteArrayView(b.key);
    }
};

// What a cache holds, in key order: etcd's, and the children's names' (a name is its key
// without the prefix, and every key shares the prefix). One tree node per key-value and
// nothing else: its key is the only copy of the name, which is made from it when a signal
// or a caller wants one. A 100,000-child cache is mostly these nodes and the key and value
// bytes they share with what the transport decoded.
using CacheEntries = std::set<EtcdKeyValue, ByKey>;

// What it takes to turn `from` into `to` (a read's key-values, in key order): in key order,
// additions and updates before removals, so that a reader who looks while the changes are
// applied one by one never sees fewer entries than both ends hold. Additions and updates
// carry their own modRevision, removals `revision` (the read's: a removal found by reading
// has none of its own). `nameOf` names a key as the cache does.
ETCDQT_AUTOTEST_EXPORT QList<CacheChange> cacheDiff(const CacheEntries &from,
    const QList<EtcdKeyValue> &to, qint64 revision,
    const std::function<QString(const QByteArray &key)> &nameOf);

// The state machine both caches share: a snapshot by paged reads pinned to one revision, then
// one watch anchored at that revision + 1 (through the recipe layer, so its suspensions and
// resumptions are the owner's connection state). A compacted gap or rebuild() re-reads and
// reports the differences as ordinary changes; events that arrive while a re-read is out are
// held back and applied after it, those the re-read already saw dropped. Nothing is ever
// emptied to be refilled. Hooks run in the owner's thread; the owner may be closed or
// destroyed inside any of them.
class CacheCore
{
public:
    struct Hooks
    {
        std::function<void(const CacheChange &change)> changed;
        // The first snapshot is in (not reported change by change).
        std::function<void(const PagedSnapshot &snapshot)> loaded;
        std::function<void()> live; // the watch went live the first time
        std::function<void(qint64 revision)> resynced; // a compacted gap was read over at it
        std::function<void()> rebuilt;
        std::function<void(const EtcdStatus &why)> failed; // the watch or the first read
        std::function<void(const EtcdStatus &status)> error; // a refused value, a failed re-read
    };

    CacheCore(EtcdRecipe *owner, const QByteArray &key, bool prefix, Hooks hooks);
    ~CacheCore();

    // With `snapshot`, reads first (silently) and watches from after the read; without, it
    // watches from now and fills from events alone.
    void start(bool snapshot);
    void rebuild();
    void clear();
    void stop();

    [[nodiscard]] const CacheEntries &entries() const { return m_entries; }
    // The entry of `name` (empty: a node cache's key); nullptr when absent.
    [[nodiscard]] const EtcdKeyValue *find(const QString &name) const;
    [[nodiscard]] QStringList names() const;
    [[nodiscard]] QList<EtcdKeyValue> values() const;
    [[nodiscard]] qint64 revision() const { return m_revision; }
    [[nodiscard]] QString nameOf(const QByteArray &key) const;
    // Values it refuses are still cached and reported, and each refusal is an error.
    void setValidator(std::function<bool(const QByteArray &)> validator);

private:
    enum class Purpose { Load, Rebuild, Resync };
    void read(Purpose purpose);
    void answered(Purpose purpose, const EtcdStatus &status, PagedSnapshot snapshot);
    void follow(qint64 revision);
    void onEvents(const QList<EtcdWatchEvent> &events);
    bool applyEvents(const QList<EtcdWatchEvent> &events);
    bool apply(const CacheChange &change);
    void store(const EtcdKeyValue &kv);
    bool reconcile(const PagedSnapshot &snapshot);
    void validate(const EtcdKeyValue &kv);
    void fail(const EtcdStatus &why);

    QPointer<EtcdRecipe> m_owner;
    QByteArray m_key;
    QByteArray m_rangeEnd; // empty: one key
    Hooks m_hooks;
    std::function<bool(const QByteArray &)> m_validator;
    CacheEntries m_entries;
    std::unique_ptr<EtcdWatch> m_watch;
    QList<EtcdWatchEvent> m_heldBack; // arrived while a re-read was out, or inside a report
    qint64 m_revision = 0;
    qint64 m_seenThrough = 0; // events at or below it are in the entries already
    int m_readGeneration = 0; // a newer read supersedes an older one
    bool m_reading = false;
    bool m_applying = false; // events are being reported (a listener may nest an event loop)
    bool m_resyncing = false;
    bool m_rebuildAsked = false;
    bool m_live = false;
    bool m_stopped = false;
};

} // namespace Etcd::Internal
