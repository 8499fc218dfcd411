// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "clientcalls_p.h"
#include "etcdqt_internal_p.h"
#include "queuekeys_p.h"
#include "queuetaker_p.h"
#include "recipelayer_p.h"

#include <EtcdQt/etcdrangereply.h>
#include <EtcdQt/etcdrecipe.h>
#include <EtcdQt/etcdtxnreply.h>
#include <EtcdQt/etcdwatch.h>

namespace Etcd::Internal {

namespace {
EtcdStatus cancelled()
{
    return EtcdStatus(Etcd::ErrorCode::Cancelled, QueueTaker::tr("the take was cancelled"));
}

QByteArray nameIn(const QByteArray &key, const QByteArray &prefix)
{
    return key.mid(prefix.size());
}
} // namespace

QueueTaker::QueueTaker(EtcdRecipe *recipe, const QByteArray &prefix, Order order)
    : QObject(recipe), m_recipe(recipe), m_prefix(prefix), m_order(order)
{ }

QueueTaker::~QueueTaker() = default;

quint64 QueueTaker::take(bool wait, Done done)
{
    const quint64 id = m_nextId++;
    if (m_closed) { // answered on the next turn, after the caller has connected
        QMetaObject::invokeMethod(
            this, [done = std::move(done)] { done(cancelled(), {}); }, Qt::QueuedConnection);
        return id;
    }
    m_takes.push_back({id, wait, std::move(done)});
    if (m_kept.empty())
        pump(); // sends a request: its answer comes later
    else
        QMetaObject::invokeMethod(this, &QueueTaker::pump, Qt::QueuedConnection);
    return id;
}

void QueueTaker::cancel(quint64 id)
{
    const auto it
        = std::find_if(m_takes.begin(), m_takes.end(), [id](const Take &t) { return t.id == id; });
    if (it == m_takes.end())
        return;
    const bool front = it == m_takes.begin();
    const Done done = std::move(it->done);
    m_takes.erase(it);
    if (front && m_phase != Phase::Deleting) { // a read or a wait: its answer is dropped
        ++m_epoch;
        m_phase = Phase::Idle;
    }
    done(cancelled(), {});
    pump();
}

void QueueTaker::follow()
{
    if (!m_watch && !m_closed && m_phase == Phase::Idle && m_takes.empty())
        startWatch(0);
}

void QueueTaker::close(const std::function<void(const QList<EtcdKeyValue> &)> &orphaned)
{
    if (m_closed)
        return;
    m_closed = true;
    if (m_phase != Phase::Deleting) // a delete on the wire still answers the front take
        ++m_epoch;
    std::deque<Take> takes;
    takes.swap(m_takes);
    if (m_phase == Phase::Deleting && !takes.empty()) {
        m_takes.push_back(std::move(takes.front()));
        takes.pop_front();
    }
    m_watch.reset();
    m_orphaned = orphaned;
    for (Take &t : takes)
        t.done(cancelled(), {});
    if (!m_kept.empty() && m_orphaned)
        m_orphaned(QList<EtcdKeyValue>(m_kept.begin(), m_kept.end()));
    m_kept.clear();
}

// Starts the next step of the front take, unless one is on the wire or it waits for a put.
void QueueTaker::pump()
{
    if (m_takes.empty() || m_phase == Phase::Reading || m_phase == Phase::Deleting)
        return;
    if (m_closed && m_phase != Phase::Deleting)
        return;
    if (!m_kept.empty()) {
        const EtcdKeyValue item = m_kept.front();
        m_kept.pop_front();
        m_phase = Phase::Idle;
        return finishFront({}, item);
    }
    if (m_head) {
        const EtcdKeyValue head = *std::exchange(m_head, std::nullopt);
        return sendDelete(head);
    }
    if (m_phase == Phase::Idle)
        readHead();
}

namespace {
// The head of `prefix` in `order`, one key.
EtcdRangeOptions headOptions(QueueTaker::Order order)
{
    EtcdRangeOptions o;
    o.prefix = true;
    o.limit = 1;
    if (order == QueueTaker::Order::ModRevision) {
        o.sortTarget = Etcd::SortTarget::ModRevision;
        o.sortOrder = Etcd::SortOrder::Ascending;
    }
    return o;
}
} // namespace

void QueueTaker::readHead()
{
    m_phase = Phase::Reading;
    EtcdRangeReply *r = getOn(m_recipe->client(), m_prefix, headOptions(m_order));
    connect(r, &EtcdReply::finished, this, [this, r, e = m_epoch](const EtcdStatus &s) {
        if (!current(e))
            return;
        m_phase = Phase::Idle;
        if (!s.isOk())
            return finishFront(s);
        onHead(r->keyValues(), r->revision());
    });
}

// etcd sorts by mod revision with an unstable sort, so the items of one batch (one
// transaction, one revision) may come in any order; their names carry their index.
void QueueTaker::readBatchFirst(const EtcdKeyValue &head)
{
    m_phase = Phase::Reading;
    EtcdRangeOptions o;
    o.prefix = true;
    o.limit = 1;
    o.minModRevision = head.modRevision;
    o.maxModRevision = head.modRevision;
    EtcdRangeReply *r = getOn(m_recipe->client(), m_prefix, o);
    connect(r, &EtcdReply::finished, this, [this, r, head, e = m_epoch](const EtcdStatus &s) {
        if (!current(e))
            return;
        m_phase = Phase::Idle;
        if (!s.isOk())
            return finishFront(s);
        const QList<EtcdKeyValue> kvs = r->keyValues();
        sendDelete(kvs.isEmpty() ? head : kvs.first());
    });
}

void QueueTaker::onHead(const QList<EtcdKeyValue> &kvs, qint64 revision)
{
    if (m_takes.empty())
        return;
    if (!kvs.isEmpty()) {
        const EtcdKeyValue &head = kvs.first();
        const std::optional<int> index = QueueKeys::batchIndex(nameIn(head.key, m_prefix));
        if (m_order == Order::ModRevision && index.value_or(0) > 0)
            return readBatchFirst(head);
        return sendDelete(head);
    }
    m_emptyAt = std::max(m_emptyAt, revision);
    if (!m_takes.front().wait)
        return finishFront({});
    m_phase = Phase::Waiting;
    if (!m_watch)
        startWatch(revision + 1);
}

void QueueTaker::sendDelete(const EtcdKeyValue &head)
{
    m_phase = Phase::Deleting;
    EtcdTxn txn;
    txn.compares.append(
        EtcdCompare::modRevision(head.key, Etcd::CompareResult::Equal, head.modRevision));
    EtcdDeleteOptions del;
    del.prevKv = true;
    txn.success.append(EtcdTxnOp::remove(head.key, del));
    txn.failure.append(EtcdTxnOp::get(m_prefix, headOptions(m_order)));
    EtcdTxnReply *r = txnOn(m_recipe->client(), txn);
    const quint64 id = m_takes.front().id;
    connect(r, &EtcdReply::finished, this, [this, r, head, id](const EtcdStatus &s) {
        m_phase = Phase::Idle;
        if (!s.isOk()) {
            if (!m_takes.empty() && m_takes.front().id == id)
                finishFront(s);
            return pump();
        }
        const QList<EtcdTxnOpResult> results = r->results();
        const QList<EtcdKeyValue> kvs
            = results.isEmpty() ? QList<EtcdKeyValue>() : results.first().keyValues;
        if (r->succeeded()) {
            EtcdKeyValue item = kvs.isEmpty() ? head : kvs.first();
            return onDeleted(id, item);
        }
        if (m_closed)
            return finishFront(cancelled());
        onHead(kvs, r->revision()); // lost the race: the answer carries the new head
    });
}

void QueueTaker::onDeleted(quint64 takeId, const EtcdKeyValue &item)
{
    if (m_takes.empty() || m_takes.front().id != takeId) {
        // Its take was cancelled while the delete was on the wire: the next take gets it.
        qCDebug(lcEtcdRecipe).noquote()
            << "queue" << m_prefix << "keeps" << item.key << "taken for a cancelled take";
        if (!m_closed)
            m_kept.push_back(item);
        else if (m_orphaned)
            m_orphaned({item});
        return pump();
    }
    finishFront({}, item);
}

void QueueTaker::finishFront(const EtcdStatus &status, const EtcdKeyValue &item)
{
    if (m_takes.empty())
        return;
    const Done done = std::move(m_takes.front().done);
    m_takes.pop_front();
    done(status, item);
    pump();
}

void QueueTaker::startWatch(qint64 revision)
{
    EtcdWatchOptions options;
    options.prefix = true;
    options.noDelete = true;
    options.startRevision = revision; // right after the read that saw the queue empty
    WatchFollower f;
    f.events = [this](const QList<EtcdWatchEvent> &events) { onEvents(events); };
    f.reconnected = [this](qint64) {
        if (m_phase == Phase::Waiting) { // something may have come in the gap: read again
            m_phase = Phase::Idle;
            pump();
        }
    };
    f.failed = [this](const EtcdStatus &why) {
        m_watch.release()->deleteLater(); // we are inside one of its signals
        if (m_phase == Phase::Waiting) {
            m_phase = Phase::Idle;
            finishFront(why);
        }
    };
    m_watch = RecipeLayer::followWatch(
        m_recipe, m_prefix, options, EtcdWatch::ResyncMode::ResumeAtCompaction, std::move(f));
}

// A put after the queue was seen empty is its head at that revision: it is taken at once,
// without reading it again (a lost race reads the new head from the delete's answer).
void QueueTaker::onEvents(const QList<EtcdWatchEvent> &events)
{
    std::optional<EtcdKeyValue> first;
    for (const EtcdWatchEvent &event : events) {
        if (event.type != EtcdWatchEvent::Type::Put || event.revision <= m_emptyAt)
            continue;
        if (!first || (m_order == Order::Key && event.keyValue.key < first->key))
            first = event.keyValue;
    }
    if (first && m_phase == Phase::Waiting) {
        m_phase = Phase::Idle;
        m_head = first;
        pump();
    }
    for (const EtcdWatchEvent &event : events) {
        if (event.type == EtcdWatchEvent::Type::Put)
            Q_EMIT itemAdded(event.keyValue);
    }
}

} // namespace Etcd::Internal
