// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "ownedkey_p.h"

#include "clientcalls_p.h"
#include "etcdqt_internal_p.h"
#include "recipelayer_p.h"

#include <EtcdQt/etcdclient.h>
#include <EtcdQt/etcdreplies.h>
#include <EtcdQt/etcdwatch.h>

#include <QtCore/qcoreapplication.h>

#include <algorithm>

using namespace Etcd::Internal;

namespace {
QString message(const char *text, const QByteArray &key)
{
    return QCoreApplication::translate("EtcdRecipe", text).arg(QString::fromUtf8(key));
}
} // namespace

OwnedKey::OwnedKey(EtcdClient *client, const QByteArray &key, qint64 writtenAt, qint64 leaseId,
    std::shared_ptr<LeaseView> view, QObject *parent)
    : QObject(parent), m_client(client), m_key(key), m_writtenAt(writtenAt), m_leaseId(leaseId),
      m_view(std::move(view))
{
    if (m_view)
        m_view->ownKey(m_writtenAt);
}

OwnedKey::~OwnedKey()
{
    m_following->store(false);
}

void OwnedKey::start()
{
    EtcdWatchOptions o;
    o.startRevision = m_writtenAt + 1; // everything after the owner's write is someone else's
    WatchFollower f;
    f.events = [this](const QList<EtcdWatchEvent> &events) {
        for (const EtcdWatchEvent &e : events) {
            if (m_done)
                return;
            if (isOwnWrite(e, m_leaseId, m_otherLeaseId)) { // the owner updated its value
                m_writtenAt = e.keyValue.modRevision;
                continue;
            }
            // The first change of someone else's decides; the watch ends with it.
            if (e.type == EtcdWatchEvent::Type::Delete)
                return onDeleted();
            return end(Loss::Replaced);
        }
    };
    f.reconnected = [this](qint64 compactedAt) {
        if (compactedAt > 0)
            resync();
    };
    f.failed = [this](const EtcdStatus &why) {
        if (!m_done)
            Q_EMIT errorOccurred(why);
    };
    if (m_view) {
        const std::weak_ptr<LeaseView> view = m_view;
        const qint64 at = m_writtenAt;
        const qint64 leaseId = m_leaseId;
        const qint64 other = m_otherLeaseId;
        const auto following = m_following;
        f.guard = ArmedGuard {[following] { return following->load(); },
            [view, at, leaseId, other](const QList<EtcdWatchEvent> &events) {
                const auto v = view.lock();
                const auto foreign = [leaseId, other](const EtcdWatchEvent &e) {
                    return !isOwnWrite(e, leaseId, other);
                };
                if (v && std::any_of(events.begin(), events.end(), foreign))
                    v->loseKey(at);
            }};
    }
    m_watch = RecipeLayer::followWatch(
        m_client, this, m_key, o, EtcdWatch::ResyncMode::AwaitResync, std::move(f));
}

// Usually called from the watch's own signal: no signal after cancel(), deleted later.
void OwnedKey::stopWatching()
{
    m_following->store(false);
    if (!m_watch)
        return;
    m_watch->cancel();
    m_watch.release()->deleteLater();
}

// Only the owner writes with its lease (nobody else knows it): such a put is an update of its
// own value (EtcdTransientKeyValue::setValue(), a service's updateService()).
bool OwnedKey::isOwnWrite(const EtcdWatchEvent &e, qint64 leaseId, qint64 other)
{
    return e.type == EtcdWatchEvent::Type::Put && e.keyValue.lease > 0
        && (e.keyValue.lease == leaseId || e.keyValue.lease == other);
}

bool OwnedKey::isOurs(const EtcdKeyValue &kv) const
{
    return kv.modRevision >= m_writtenAt && kv.lease == m_leaseId;
}

// Deleted: by whoever, while the lease lives; with the lease, when it does not. A check
// that fails cannot tell; it defers to the lease, whose keep-alive reports an end soon.
// The lease's keeper hears of both at once (LeaseView): a revoke deletes the key first, so it
// prepares a heal while etcd is asked, and heals on the answer instead of its next renewal.
void OwnedKey::onDeleted()
{
    stopWatching();
    // Unknown counts as gone with the lease: its heal is a CAS, so nothing is taken by mistake.
    // A keeper that restores the key itself hears so too: it has written the key on a spare
    // lease already, and keeps that one.
    const auto decided = [this](std::optional<bool> gone, const EtcdStatus &s) {
        const std::shared_ptr<LeaseView> view = m_view; // a handler of ours may delete us
        const qint64 leaseId = m_leaseId;
        const bool tellKeeper = gone || m_keeperRestores;
        m_asking = false;
        QPointer<OwnedKey> guard(this);
        if (!gone && !m_retired)
            Q_EMIT errorOccurred(s);
        if (guard && !m_retired)
            end(gone.value_or(true) ? Loss::LeaseEnded : Loss::Removed);
        if (view && tellKeeper)
            view->lossDecided(leaseId, gone.value_or(true), s);
        if (guard && m_retired)
            deleteLater();
    };
    m_asking = true;
    RecipeLayer::askWhetherLeaseIsGone(m_client, this, m_leaseId, decided);
    if (m_view) // after the question: its answer is what the heal waits for
        m_keeperRestores = m_view->lossSuspected(m_leaseId);
}

void OwnedKey::retire()
{
    disconnect();
    m_retired = true;
    m_done = true;
    stopWatching();
    if (!m_asking)
        return deleteLater();
    if (m_client) // no answer comes without it
        connect(m_client, &QObject::destroyed, this, &QObject::deleteLater);
}

// The history after the creation was compacted: what the key holds now says what happened.
void OwnedKey::resync()
{
    qCDebug(lcEtcdBarrier, "own key %s: history compacted, reading it", m_key.constData());
    EtcdRangeReply *r = getOn(m_client, m_key);
    connect(r, &EtcdReply::finished, this, [this, r](const EtcdStatus &s) {
        if (m_done)
            return;
        if (!s.isOk())
            return Q_EMIT errorOccurred(s);
        const QList<EtcdKeyValue> kvs = r->keyValues();
        if (kvs.isEmpty())
            return onDeleted();
        if (!isOurs(kvs.first()))
            return end(Loss::Replaced);
        if (m_watch)
            m_watch->resync(r->revision() + 1);
    });
}

void OwnedKey::end(Loss how)
{
    if (std::exchange(m_done, true))
        return;
    stopWatching();
    if (m_view) // already, when the engine saw the change; not when a compaction hid it
        m_view->loseKey(m_writtenAt);
    const char *text = how == Loss::Removed
        ? QT_TRANSLATE_NOOP("EtcdRecipe", "%1 was deleted by someone else")
        : how == Loss::Replaced
        ? QT_TRANSLATE_NOOP("EtcdRecipe", "%1 was written over by someone else")
        : QT_TRANSLATE_NOOP("EtcdRecipe", "%1 went with its lease");
    const Etcd::ErrorCode code = how == Loss::Removed ? Etcd::ErrorCode::NotFound
        : how == Loss::Replaced                       ? Etcd::ErrorCode::AlreadyExists
                                                      : Etcd::ErrorCode::LeaseExpired;
    Q_EMIT lost(how, EtcdStatus(code, message(text, m_key)));
}
