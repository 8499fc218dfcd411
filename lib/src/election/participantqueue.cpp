// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "participantqueue_p.h"
#include "recipepaths_p.h"

#include <EtcdQt/etcdclient.h>
#include <EtcdQt/etcdreplies.h>
#include <EtcdQt/etcdwatch.h>

namespace Etcd::Internal {

ParticipantQueue::ParticipantQueue(
    EtcdClient *client, const QByteArray &electionPath, QObject *parent, ConnectionSink sink)
    : QObject(parent), m_client(client),
      m_prefix(RecipePaths::appendToPath(electionPath, "participants/")), m_sink(std::move(sink))
{ }

ParticipantQueue::~ParticipantQueue() = default;

void ParticipantQueue::start()
{
    read(false);
}

int ParticipantQueue::placeOf(const QString &self, const QString &leader) const
{
    return place(m_created, self, leader);
}

int ParticipantQueue::place(
    const QHash<QString, qint64> &created, const QString &self, const QString &leader)
{
    const auto mine = created.constFind(self);
    if (mine == created.cend())
        return 0; // not seen yet: better one attempt too many than a wait for nothing
    // Revisions only in the loop, the leader's name looked up once: every candidate in a
    // process asks this at each vacancy, so names compared per entry cost n^2 there.
    const qint64 at = mine.value();
    int ahead = 0;
    for (const qint64 createdAt : created)
        ahead += createdAt < at ? 1 : 0; // not `self`: its own revision is not below itself
    if (const auto first = created.constFind(leader); first != created.cend() && first.value() < at)
        --ahead;
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
    connect(reply, &EtcdReply::finished, this, [this, reply, resync](const EtcdStatus &s) {
        if (!s.isOk())
            return; // no queue: every candidate simply tries at once
        m_created.clear();
        for (const EtcdKeyValue &kv : reply->keyValues())
            m_created.insert(QString::fromUtf8(kv.key.mid(m_prefix.size())), kv.createRevision);
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
        m_client, this, m_prefix, w, EtcdWatch::ResyncMode::AwaitResync, std::move(f), m_sink);
}

void ParticipantQueue::onEvents(const QList<EtcdWatchEvent> &events)
{
    for (const EtcdWatchEvent &e : events) {
        const QString id = QString::fromUtf8(e.keyValue.key.mid(m_prefix.size()));
        if (e.type == EtcdWatchEvent::Type::Delete)
            m_created.remove(id);
        else
            m_created.insert(id, e.keyValue.createRevision);
    }
}

} // namespace Etcd::Internal
