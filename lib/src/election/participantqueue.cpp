// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "participantqueue_p.h"
#include "recipepaths_p.h"

#include <EtcdQt/etcdclient.h>
#include <EtcdQt/etcdreplies.h>
#include <EtcdQt/etcdwatch.h>

#include "weakregistry_p.h"

#include <QtCore/qthread.h>

#include <algorithm>
#include <tuple>

namespace Etcd::Internal {

namespace {

// The shared queues by client, thread and election. The client's address alone could name a
// newer client at the same address: a queue whose client is gone is never handed out.
using SharedQueues
    = WeakRegistry<std::tuple<const EtcdClient *, const QThread *, QByteArray>, ParticipantQueue>;
Q_GLOBAL_STATIC(SharedQueues, sharedQueues)

} // namespace

ParticipantQueue::ParticipantQueue(EtcdClient *client, const QByteArray &electionPath)
    : m_client(client), m_key(client), m_path(electionPath),
      m_prefix(RecipePaths::appendToPath(electionPath, "participants/"))
{ }

ParticipantQueue::~ParticipantQueue()
{
    if (!sharedQueues.isDestroyed())
        sharedQueues->forget({m_key, thread(), m_path});
}

std::shared_ptr<ParticipantQueue> ParticipantQueue::sharedFor(
    EtcdClient *client, const QByteArray &electionPath)
{
    return sharedQueues->obtain(
        {client, QThread::currentThread(), electionPath},
        [client](const ParticipantQueue &queue) { return queue.m_client == client; },
        [client, &electionPath] {
            return std::make_shared<ParticipantQueue>(client, electionPath);
        });
}

void ParticipantQueue::start()
{
    if (!m_watch && !m_reading)
        read(false);
}

int ParticipantQueue::placeOf(const QString &self, const QString &leader) const
{
    return m_order.place(self, leader);
}

void ParticipantOrder::insert(const QString &id, qint64 createRevision)
{
    const auto old = m_created.constFind(id);
    if (old != m_created.cend()) {
        if (old.value() == createRevision)
            return;
        remove(id);
    }
    m_created.insert(id, createRevision);
    m_sorted.insert(
        std::upper_bound(m_sorted.begin(), m_sorted.end(), createRevision), createRevision);
}

void ParticipantOrder::remove(const QString &id)
{
    const auto it = m_created.constFind(id);
    if (it == m_created.cend())
        return;
    const auto at = std::lower_bound(m_sorted.begin(), m_sorted.end(), it.value());
    if (at != m_sorted.end() && *at == it.value())
        m_sorted.erase(at);
    m_created.erase(it);
}

void ParticipantOrder::clear()
{
    m_created.clear();
    m_sorted.clear();
}

int ParticipantOrder::below(qint64 revision) const
{
    return int(std::lower_bound(m_sorted.begin(), m_sorted.end(), revision) - m_sorted.begin());
}

int ParticipantOrder::place(const QString &self, const QString &leader) const
{
    const auto mine = m_created.constFind(self);
    if (mine == m_created.cend())
        return 0; // not seen yet: better one attempt too many than a wait for nothing
    const qint64 at = mine.value();
    int ahead = below(at);
    if (const auto first = m_created.constFind(leader);
        first != m_created.cend() && first.value() < at)
        --ahead; // the leader that just left is no rival for the next turn
    return ahead;
}

void ParticipantQueue::read(bool resync)
{
    if (!m_client)
        return;
    EtcdRangeOptions o;
    o.prefix = true;
    o.keysOnly = true;
    EtcdRangeReply *reply = m_client->get(m_prefix, o);
    m_reading = true;
    connect(reply, &EtcdReply::finished, this, [this, reply, resync](const EtcdStatus &s) {
        m_reading = false;
        if (!s.isOk())
            return; // no queue: every candidate tries at once, until the next start()
        m_order.clear();
        for (const EtcdKeyValue &kv : reply->keyValues())
            m_order.insert(QString::fromUtf8(kv.key.mid(m_prefix.size())), kv.createRevision);
        if (resync && m_watch)
            return m_watch->resync(reply->revision() + 1);
        follow(reply->revision() + 1);
    });
}

// The queue's changes from `revision` on; after a compaction gap it is read again.
void ParticipantQueue::follow(qint64 revision)
{
    WatchFollower f;
    f.events = [this](const QList<EtcdWatchEvent> &events) { onEvents(events); };
    f.reconnected = [this](qint64 compactedAt) {
        if (compactedAt > 0)
            read(true);
    };
    EtcdWatchOptions w;
    w.prefix = true;
    w.startRevision = revision;
    m_watch = RecipeLayer::followWatch(
        m_client, this, m_prefix, w, EtcdWatch::ResyncMode::AwaitResync, std::move(f), {});
}

void ParticipantQueue::onEvents(const QList<EtcdWatchEvent> &events)
{
    for (const EtcdWatchEvent &e : events) {
        const QString id = QString::fromUtf8(e.keyValue.key.mid(m_prefix.size()));
        if (e.type == EtcdWatchEvent::Type::Delete)
            m_order.remove(id);
        else
            m_order.insert(id, e.keyValue.createRevision);
    }
}

} // namespace Etcd::Internal
