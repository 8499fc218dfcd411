// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "historyreplay.h"

namespace Inspector {

namespace {
const QByteArray kLeaderSuffix = QByteArrayLiteral("/LEADER");
}

bool HistoryReplay::isLeaderKey(const QByteArray &key)
{
    return key.size() > kLeaderSuffix.size() && key.endsWith(kLeaderSuffix);
}

QByteArray HistoryReplay::electionOf(const QByteArray &leaderKey)
{
    return leaderKey.chopped(kLeaderSuffix.size());
}

// "<id>:<7 random characters>": the id may itself contain ':' (DistributedBarrier:KCnw8ul).
QString HistoryReplay::ownerOf(const QByteArray &leaderValue)
{
    const qsizetype colon = leaderValue.lastIndexOf(':');
    return QString::fromUtf8(colon > 0 ? leaderValue.left(colon) : leaderValue);
}

std::optional<HandOff> HistoryReplay::feed(const EtcdWatchEvent &event)
{
    const QByteArray &key = event.keyValue.key;
    if (!isLeaderKey(key))
        return std::nullopt;
    const QByteArray election = electionOf(key);
    HandOff h;
    h.election = election;
    h.revision = event.revision;
    h.backfilled = true;
    h.from = m_leaders.value(election);
    if (event.type == EtcdWatchEvent::Type::Put) {
        if (event.keyValue.version != 1) {
            // A proclamation within a term: no hand-off, but it names the leader of a term
            // that began before the replayed history did.
            m_leaders.insert(election, ownerOf(event.keyValue.value));
            return std::nullopt;
        }
        h.to = ownerOf(event.keyValue.value);
        h.termToken = event.keyValue.createRevision;
        m_leaders.insert(election, h.to);
    } else {
        if (h.from.isEmpty())
            return std::nullopt; // the end of a term whose leader history no longer shows
        m_leaders.remove(election);
    }
    return h;
}

} // namespace Inspector
