// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// QueueTaker with a KeyMirror (Hooks::aheadOf): takes in key order without reading the queue.
// Every range etcd serves walks each key its range ever held (a deleted key stays in etcd's
// index until compaction), and a queue deletes one per item; a read of the head per take (or
// a lost race's read in the answer, which etcd runs inside its serial apply loop) grows with
// every item taken. The mirror is read once and kept by the queue's watch; a take compares
// the head's mod revision and, through a range compare over the priority markers, that no
// item was put ahead of it since the mirror's revision.
#include "clientcalls_p.h"
#include "queuetaker_p.h"

#include <EtcdQt/etcdclient.h>
#include <EtcdQt/etcdrangereply.h>
#include <EtcdQt/etcdrecipe.h>

#include <QtCore/qrandom.h>

using namespace std::chrono;

namespace Etcd::Internal {

namespace {
// A take waits this long at most for the watch to bring what its answer said was put ahead
// (a marker touched without an item under the prefix would never come): then it reads.
constexpr milliseconds kCatchUp(1000);
} // namespace

void QueueTaker::pumpMirror()
{
    if (m_mirror.isLoading()) {
        m_phase = Phase::Reading; // its answer pumps
        return;
    }
    if (!m_mirror.isLoaded())
        return loadMirror();
    m_phase = Phase::Idle;
    if (m_mirror.revision() < m_needRevision) { // an item was put ahead: the watch brings it
        m_phase = Phase::Waiting;
        m_recheck.start(kCatchUp);
        return;
    }
    m_recheck.stop();
    if (const std::optional<EtcdKeyValue> head = m_mirror.head()) {
        if (holdOff(head->key))
            return;
        return sendTake(*head);
    }
    if (m_mirror.isTruncated())
        return loadMirror(); // the kept keys are gone; others were beyond them
    if (!m_takes.front().wait)
        return finishFront({});
    m_phase = Phase::Waiting; // a put wakes it (onEvents)
}

// Keys only: the take's delete answers the value. The watch starts right after the read,
// unless one runs from earlier (its events up to the read are in it).
void QueueTaker::loadMirror()
{
    m_phase = Phase::Reading;
    m_mirror.startLoading();
    EtcdRangeOptions o;
    o.prefix = true;
    o.keysOnly = true;
    o.limit = KeyMirror::kKeys;
    EtcdRangeReply *r = getOn(m_recipe->client(), m_prefix, o);
    connect(r, &EtcdReply::finished, this, [this, r, seq = ++m_loadSeq](const EtcdStatus &s) {
        if (seq != m_loadSeq || m_closed)
            return;
        const bool waited = m_phase == Phase::Reading;
        if (waited)
            m_phase = Phase::Idle;
        if (!s.isOk()) {
            m_mirror.invalidate();
            return waited ? fail(s) : void();
        }
        const QList<EtcdKeyValue> kvs = r->keyValues();
        m_mirror.load(kvs, r->revision(), r->count() > kvs.size());
        if (m_watch && m_watchFrom > r->revision() + 1)
            m_watch.reset(); // it started after the read: what came between would be missed
        if (!m_watch)
            startWatch(r->revision() + 1);
        pump();
    });
}

// Takers of one queue race for its head: each loser's try was a raft write for nothing, and
// the next item, put while all of them wait, would be raced by all again. A taker that lost
// its last race waits 1 or 2 ms before it tries a head (the winner, trying at once, has
// mostly taken it by then: the watch says so and the loser tries the next). A taker that wins
// tries at once again; one taker alone never loses, and never waits.
bool QueueTaker::holdOff(const QByteArray &head)
{
    if (!m_contended)
        return false;
    const auto now = steady_clock::now();
    if (head == m_heldOffFor && now >= m_heldOffUntil)
        return false; // waited for this head: try it
    if (head != m_heldOffFor) {
        m_heldOffFor = head;
        m_heldOffUntil = now + milliseconds(1 + QRandomGenerator::global()->bounded(2));
    }
    m_phase = Phase::Waiting; // an event wakes it early (pump() comes back here)
    m_holdOff.start(int(ceil<milliseconds>(m_heldOffUntil - now).count()));
    return true;
}

// A take waiting on the mirror (empty, behind an item put ahead, or holding off) looks again.
void QueueTaker::wakeWaiting()
{
    if (m_phase != Phase::Waiting)
        return;
    m_recheck.stop();
    m_phase = Phase::Idle;
    pump();
}

void QueueTaker::reloadMirror()
{
    m_mirror.invalidate();
    ++m_loadSeq; // an answer on its way is older than what changed
    if (m_phase == Phase::Taking)
        return; // its answer pumps
    m_recheck.stop();
    m_phase = Phase::Idle;
    pump();
}

EtcdTxn QueueTaker::mirrorTake(const EtcdKeyValue &head)
{
    m_guardRevision = m_mirror.revision();
    EtcdTxn txn = deleteIfUnchanged(head);
    EtcdRangeOptions point;
    point.keysOnly = true;
    txn.failure.append(EtcdTxnOp::get(head.key, point)); // still there, changed, or taken
    const auto [from, to] = m_hooks.aheadOf(head.key);
    if (!from.isEmpty()) {
        EtcdCompare ahead
            = EtcdCompare::modRevision(from, Etcd::CompareResult::Less, m_guardRevision + 1);
        ahead.rangeEnd = to;
        txn.compares.append(ahead);
        EtcdRangeOptions markers;
        markers.rangeEnd = to;
        markers.keysOnly = true;
        txn.failure.append(EtcdTxnOp::get(from, markers)); // which was touched, and when
    }
    return txn;
}

// A lost take corrects the mirror from etcd's answer (the head taken or changed) and, when an
// item was put ahead, waits for the watch to bring it; if neither explains the loss, it reads.
void QueueTaker::onMirrorAnswer(quint64 takeId, const EtcdKeyValue &head, const EtcdStatus &status,
    bool succeeded, const QList<EtcdTxnOpResult> &results, qint64 revision)
{
    m_phase = Phase::Idle;
    if (!status.isOk()) {
        if (!m_takes.empty() && m_takes.front().id == takeId)
            fail(status);
        return pump();
    }
    const QList<EtcdKeyValue> first
        = results.isEmpty() ? QList<EtcdKeyValue>() : results.first().keyValues;
    if (succeeded) {
        m_contended = false;
        m_mirror.correct(head.key, std::nullopt, revision);
        return onTaken(takeId, first.isEmpty() ? head : first.first(), revision);
    }
    if (m_closed)
        return finishFront(cancelled());
    const std::optional<qint64> now
        = first.isEmpty() ? std::nullopt : std::optional<qint64>(first.first().modRevision);
    bool explained = now != head.modRevision;
    m_contended = m_contended || explained; // another taker had it
    m_mirror.correct(head.key, now, revision);
    for (const EtcdKeyValue &marker : results.value(1).keyValues) {
        if (marker.modRevision > m_guardRevision) { // the watch may have brought it already
            m_needRevision = std::max(m_needRevision, marker.modRevision);
            explained = true;
        }
    }
    if (!explained)
        return reloadMirror();
    pump();
}

} // namespace Etcd::Internal
