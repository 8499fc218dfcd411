// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API.
#pragma once

#include "etcdqt_internal_p.h"

#include <EtcdQt/etcdkeyvalue.h>

#include <QtCore/qbytearray.h>
#include <QtCore/qlist.h>

#include <map>
#include <optional>
#include <vector>

struct EtcdWatchEvent;

namespace Etcd::Internal {

// The first keys of a prefix in key order, with their mod revisions: one read, then kept by a
// watch of puts and deletes. A take then needs no range at all: every range etcd serves walks
// each key the prefix ever had (deleted ones too, until compaction), and a queue deletes a key
// per item. Only the first kKeys are kept; when those are gone, the prefix is read again.
class ETCDQT_AUTOTEST_EXPORT KeyMirror
{
public:
    static constexpr int kKeys = 128;

    [[nodiscard]] bool isLoaded() const { return m_state == State::Loaded; }
    [[nodiscard]] bool isLoading() const { return m_state == State::Loading; }
    // A read is on the wire: events from now are kept until its answer says what it saw.
    void startLoading();
    // The read's answer (its first keys, `more` when the prefix holds others after them), at
    // `revision`; the events kept meanwhile that came after it are applied.
    void load(const QList<EtcdKeyValue> &kvs, qint64 revision, bool more);
    // Events may have been missed (a compacted gap, a failed watch): read again before use.
    void invalidate();
    // A watch's events, in revision order: applied once loaded, kept while loading.
    void apply(const QList<EtcdWatchEvent> &events);
    // Etcd's word on `key` at `revision` (nullopt: it does not exist), from a take's answer;
    // ignored when the events applied already went past it.
    void correct(const QByteArray &key, std::optional<qint64> modRevision, qint64 revision);

    // The first key, with its mod revision; nullopt when none is kept.
    [[nodiscard]] std::optional<EtcdKeyValue> head() const;
    // Keys after the kept ones exist (or may): an empty mirror must read again.
    [[nodiscard]] bool isTruncated() const { return !m_bound.isEmpty(); }
    // The newest revision whose changes are all applied.
    [[nodiscard]] qint64 revision() const { return m_revision; }
    [[nodiscard]] qsizetype size() const { return qsizetype(m_keys.size()); }

private:
    enum class State { Unloaded, Loading, Loaded };
    void applyOne(const EtcdWatchEvent &event);
    void set(const QByteArray &key, std::optional<qint64> modRevision);

    State m_state = State::Unloaded;
    std::map<QByteArray, qint64> m_keys; // key -> mod revision
    std::vector<EtcdWatchEvent> m_pending; // seen while loading
    QByteArray m_bound; // truncated: the last kept key (later puts are not kept)
    qint64 m_loadedAt = 0; // the read's revision: events up to it are in the read
    qint64 m_revision = 0;
};

} // namespace Etcd::Internal
