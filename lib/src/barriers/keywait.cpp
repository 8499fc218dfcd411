// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "clientcalls_p.h"
#include "etcdqt_internal_p.h"
#include "keywait_p.h"

#include <EtcdQt/etcdclient.h>
#include <EtcdQt/etcdwatch.h>

using namespace Etcd::Internal;

KeyWait::KeyWait(EtcdClient *client, const Options &options, QObject *parent, ConnectionSink sink)
    : QObject(parent), m_client(client), m_options(options), m_sink(std::move(sink))
{ }

KeyWait::~KeyWait() = default;

void KeyWait::start()
{
    probe(false);
}

// A transaction with a comparison and no operations: presence and a header revision in
// one round trip, as etcd-recipes probes.
void KeyWait::probe(bool resyncing)
{
    const EtcdTxn txn {
        {EtcdCompare::version(m_options.key, Etcd::CompareResult::Greater, 0)}, {}, {}};
    EtcdTxnReply *r = txnOn(m_client, txn);
    connect(r, &EtcdReply::finished, this, [this, r, resyncing](const EtcdStatus &s) {
        onProbed(s, s.isOk() && r->succeeded(), r->revision(), resyncing);
    });
}

void KeyWait::onProbed(const EtcdStatus &status, bool present, qint64 revision, bool resyncing)
{
    if (m_done)
        return;
    if (!status.isOk()) {
        Q_EMIT errorOccurred(status);
        return end(false);
    }
    // Gone now, and it was there before (or absence lifts): the deletion fell in the gap.
    if (!present && (m_presentSeen || m_options.liftIfMissing))
        return end(true);
    m_presentSeen = m_presentSeen || present;
    if (resyncing)
        return m_watch->resync(revision + 1);
    follow(revision + 1);
    Q_EMIT parked();
}

// Deletions from `revision` on; after a compaction gap the probe runs again.
void KeyWait::follow(qint64 revision)
{
    WatchFollower f;
    f.events = [this](const QList<EtcdWatchEvent> &events) {
        for (const EtcdWatchEvent &e : events) {
            if (e.type == EtcdWatchEvent::Type::Delete)
                return end(true);
        }
    };
    f.reconnected = [this](qint64 compactedAt) {
        if (compactedAt == 0)
            return;
        qCDebug(lcEtcdBarrier, "wait on %s: history compacted, probing again",
            m_options.key.constData());
        probe(true);
    };
    f.failed = [this](const EtcdStatus &why) {
        Q_EMIT errorOccurred(why);
        end(false);
    };
    EtcdWatchOptions o;
    o.noPut = true;
    o.startRevision = revision;
    m_watch = RecipeLayer::followWatch(
        m_client, this, m_options.key, o, EtcdWatch::ResyncMode::AwaitResync, std::move(f), m_sink);
}

void KeyWait::end(bool lifted)
{
    if (std::exchange(m_done, true))
        return;
    if (m_watch)
        m_watch->cancel();
    Q_EMIT finished(lifted);
}
