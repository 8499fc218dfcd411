// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "clientcalls_p.h"
#include "recipelayer_p.h"
#include "recipepaths_p.h"

#include <EtcdQt/etcdclient.h>
#include <EtcdQt/etcdleaderobserver.h>
#include <EtcdQt/etcdreplies.h>
#include <EtcdQt/etcdwatch.h>

#include <QtCore/qpointer.h>
#include <QtCore/qtimer.h>

using namespace Etcd::Internal;

/*!
    \class EtcdLeaderObserver
    \inmodule EtcdQt
    \brief Who leads an election, without running in it.

    start() reads the election's LEADER key (etcd-recipes' layout: \c{<path>/LEADER} holding
    \c{<clientId>:<7 random>}) and seeds currentLeader() from it without a signal; started()
    follows. From then on leaderChanged() reports every term: the leader's client id, or an
    empty string when the election is vacant. The watch starts at the revision the read saw
    plus one, so a hand-off between the read and the watch is never missed. It survives etcd
    restarts, pauses and failover without a gap; when its history was compacted away it
    re-reads the key and reports the leader late rather than never (a stale leader is never
    kept). Selectors, latches and observers of EtcdQt and etcd-recipes on one path see one
    election.
*/

/*! \fn void EtcdLeaderObserver::leaderChanged(const QString &leaderId)
    Emitted once per change of term, in etcd's revision order: \a leaderId is the client id
    of the leader whose term began, or empty when a term ended and nobody leads.

    Changes are never coalesced. A term that began and ended within one watch response, or
    while the watch was reconnecting, is still reported, and so is the vacancy after it:
    candidates create the LEADER key only while it is absent, so observers hear a leader,
    an empty id, the next leader, and so on. A new term of the same client id is reported
    again. currentLeader() already holds \a leaderId when the signal comes.

    The one exception is compacted history: terms whose every trace etcd compacted away
    while this observer was cut off are not reported; the re-read then reports the leader
    etcd holds at that point (or the vacancy), if that differs from the last one reported.
*/

namespace {
// One term as the observer knows it: who holds LEADER, and since when (the key's create
// revision, which no other term shares). A vacancy has neither.
struct Term
{
    QString leader;
    qint64 since = 0;

    static Term of(const EtcdKeyValue &kv)
    {
        return {RecipePaths::stripUniqueSuffix(kv.value), kv.createRevision};
    }
    friend bool operator==(const Term &, const Term &) = default;
};
} // namespace

class EtcdLeaderObserverPrivate
{
    Q_DECLARE_PUBLIC(EtcdLeaderObserver)
public:
    void read(bool seeding);
    void watchFrom(qint64 revision);
    void applyEvents(const QList<EtcdWatchEvent> &events);
    bool apply(const Term &next);
    void fail(const EtcdStatus &reason);

    EtcdLeaderObserver *q_ptr = nullptr;
    QByteArray path;
    Term term;
    bool started = false;
    std::unique_ptr<EtcdWatch> watch;
};

// Reports `next` unless it is the term already reported. False when a slot closed or
// deleted the observer, so that nothing more is reported.
bool EtcdLeaderObserverPrivate::apply(const Term &next)
{
    Q_Q(EtcdLeaderObserver);
    if (term == next)
        return true;
    term = next;
    QPointer<EtcdLeaderObserver> guard(q);
    Q_EMIT q->leaderChanged(next.leader);
    return guard && q->isActive();
}

// Every event in turn, never only the last: a term that begins and ends within one batch
// (a catch-up after a reconnect delivers many) is still reported, and so is its vacancy.
void EtcdLeaderObserverPrivate::applyEvents(const QList<EtcdWatchEvent> &events)
{
    for (const EtcdWatchEvent &event : events) {
        const bool vacant = event.type == EtcdWatchEvent::Type::Delete;
        if (!apply(vacant ? Term {} : Term::of(event.keyValue)))
            return;
    }
}

void EtcdLeaderObserverPrivate::fail(const EtcdStatus &reason)
{
    Q_Q(EtcdLeaderObserver);
    if (watch)
        watch.release()->deleteLater(); // we may be inside its failed() signal
    q->setActive(false);
    QPointer<EtcdLeaderObserver> guard(q);
    q->reportConnectionState(EtcdRecipe::ConnectionState::Lost);
    if (guard)
        q->recordError(reason);
    if (guard)
        Q_EMIT q->failed(reason);
}

// Reads the LEADER key; when seeding, sets the leader silently and starts the watch right
// after the read's revision. Afterwards (a resync) it reports what changed and resumes there.
void EtcdLeaderObserverPrivate::read(bool seeding)
{
    Q_Q(EtcdLeaderObserver);
    auto *reply = getOn(q->client(), RecipePaths::leaderKey(path)); // no client: fails later
    QObject::connect(reply, &EtcdReply::finished, q, [this, reply, seeding](const EtcdStatus &s) {
        Q_Q(EtcdLeaderObserver);
        if (!q->isActive())
            return;
        if (!s.isOk())
            return fail(s);
        const auto kvs = reply->keyValues();
        const Term current = kvs.isEmpty() ? Term {} : Term::of(kvs.first());
        if (!seeding) {
            watch->resync(reply->revision() + 1);
            apply(current);
            return;
        }
        term = current;
        watchFrom(reply->revision() + 1);
    });
}

void EtcdLeaderObserverPrivate::watchFrom(qint64 revision)
{
    Q_Q(EtcdLeaderObserver);
    EtcdWatchOptions options;
    options.startRevision = revision; // anchored: nothing after the read can slip by
    WatchFollower f;
    f.events = [this, q](const QList<EtcdWatchEvent> &events) {
        if (q->isActive()) // not after close(), which may come from a leaderChanged slot
            applyEvents(events);
    };
    f.active = [this, q] {
        if (!std::exchange(started, true))
            Q_EMIT q->started();
    };
    f.reconnected = [this](qint64 compactedAt) {
        if (compactedAt > 0)
            read(false); // changes were compacted away: the key itself says who leads now
    };
    f.failed = [this](const EtcdStatus &why) { fail(why); };
    watch = RecipeLayer::followWatch(
        q, RecipePaths::leaderKey(path), options, EtcdWatch::ResyncMode::AwaitResync, std::move(f));
}

/*!
    Constructs an observer of the election at \a electionPath on \a client; no I/O yet. The object
    is a child of \a parent.
*/
EtcdLeaderObserver::EtcdLeaderObserver(
    EtcdClient *client, const QByteArray &electionPath, QObject *parent)
    : EtcdRecipe(
        client, QStringLiteral("LeaderObserver[%1]").arg(QString::fromUtf8(electionPath)), parent),
      d_ptr(new EtcdLeaderObserverPrivate)
{
    d_ptr->q_ptr = this;
    d_ptr->path = electionPath;
}

EtcdLeaderObserver::~EtcdLeaderObserver() = default;

/*! \property EtcdLeaderObserver::electionPath
    The election observed. */
QByteArray EtcdLeaderObserver::electionPath() const
{
    return d_func()->path;
}

/*! \property EtcdLeaderObserver::currentLeader
    The leader's client id; empty when vacant. */
QString EtcdLeaderObserver::currentLeader() const
{
    return d_func()->term.leader;
}

/*! \property EtcdLeaderObserver::started
    Whether the leader was read and the watch is live. */
bool EtcdLeaderObserver::isStarted() const
{
    return d_func()->started;
}

/*! Reads the leader and starts watching; started() or failed() follows. One-shot. */
void EtcdLeaderObserver::start()
{
    Q_D(EtcdLeaderObserver);
    if (isActive() || isClosed())
        return;
    if (d->path.isEmpty()) {
        QTimer::singleShot(0, this, [d] {
            d->fail(EtcdStatus(Etcd::ErrorCode::InvalidArgument, tr("empty election path")));
        });
        return;
    }
    setActive(true);
    d->read(true);
}

/*! Stops observing. Idempotent; closed() follows on the next loop turn. */
void EtcdLeaderObserver::close()
{
    Q_D(EtcdLeaderObserver);
    if (d->watch) {
        d->watch->cancel(); // nothing more from it; deleted later, as a leaderChanged() slot
        d->watch.release()->deleteLater(); // may call close() inside its eventsReceived()
    }
    if (!isClosed()) {
        markClosed();
        emitClosedAfter(nullptr);
    }
}

/*!
    \fn EtcdLeaderObserver::~EtcdLeaderObserver()
    Destroys the observer and stops its watch.
*/

/*!
    \fn void EtcdLeaderObserver::failed(const EtcdStatus &reason)
    Emitted when the observer stopped for good, with \a reason.
*/
