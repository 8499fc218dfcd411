// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "clientcalls_p.h"
#include "etcdclient_p.h"

#include <EtcdQt/etcdwatch.h>

#include <QtCore/qtimer.h>

using namespace Etcd::Internal;

/*!
    \class EtcdWatch
    \inmodule EtcdQt
    \brief Changes to a key, a prefix or a range, delivered in order, across stream breaks.

    All watches of a client share one Watch stream. A watch remembers the revision to resume
    from (the last event's revision + 1, advanced by progress notifications): when the stream
    breaks (etcd restarted, paused, or the member failed over) the watch reports suspended(),
    the client reconnects under an exponential backoff that never gives up, and the watch is
    created again from that revision, so no event is lost or delivered twice; resubscribed()
    says from where. When that revision has been compacted, the events in between are gone:
    with ResumeAtCompaction (default) the watch resumes at the compaction revision and
    reports resynced(); with AwaitResync it emits resyncRequested(), and the owner re-reads
    its state and calls resync() with the revision to continue from (the read's header
    revision + 1).

    Watches of one client on the same key, prefix or range with the same filters and options
    are one watch on etcd, so etcd sends each change once per client however many objects
    watch it (a thousand election candidates on one client cost etcd one watcher, not a
    thousand). Each still starts where it asked: a watch that starts later than the shared one
    has come joins it and receives nothing before its start revision; one that needs history
    the shared watch has already passed gets a watch of its own.
*/

/*!
    \fn void EtcdWatch::eventsReceived(const QList<EtcdWatchEvent> &events)
    Emitted with the next \a events, in revision order.
*/

/*!
    \fn void EtcdWatch::suspended(const EtcdStatus &reason)
    Emitted once per outage when the stream of an active watch broke or went silent. \a reason says
    why.
*/

/*!
    \fn void EtcdWatch::resubscribed(qint64 revision)
    Emitted when a suspended watch is live again, continuing from \a revision.
*/

/*!
    \fn void EtcdWatch::resyncRequested(qint64 compactRevision)
    In AwaitResync mode: the resume revision was compacted (up to \a compactRevision); re-read
    and call resync().
*/

/*!
    \fn void EtcdWatch::resynced(qint64 compactRevision, qint64 anchorRevision)
    Emitted when the watch continues from \a anchorRevision after the history up to
    \a compactRevision was compacted away.
*/

/*!
    \fn void EtcdWatch::failed(const EtcdStatus &status)
    Emitted when the watch ended for good: etcd refused or cancelled it, the client
    disconnected, or recovery gave up. No further signal follows. \a status says why.
*/

/*!
    \class EtcdWatchEvent
    \inmodule EtcdQt
    \brief One change: a put or a delete, the key-value after it (and before it, when asked),
    and its revision.
*/

/*!
    \class EtcdWatchOptions
    \inmodule EtcdQt
    \brief What an EtcdWatch covers (key, prefix or range), where it starts, which event types
    it filters out, and whether events carry the previous key-value.
*/

class EtcdWatchPrivate final : public WatchObserver
{
    Q_DECLARE_PUBLIC(EtcdWatch)
public:
    EtcdWatchPrivate(EtcdWatch *q, EtcdClient *c, const QByteArray &k, const EtcdWatchOptions &o)
        : q_ptr(q), client(c), key(k), options(o)
    { }

    void setState(EtcdWatch::State next)
    {
        Q_Q(EtcdWatch);
        if (std::exchange(state, next) != next)
            Q_EMIT q->stateChanged(next);
    }
    WatchSpec spec() const;

    void watchCreated(qint64 next, bool again) override
    {
        nextRevision = next;
        setState(EtcdWatch::State::Active);
        if (again)
            Q_EMIT q_func()->resubscribed(next);
    }
    void watchEvents(const QList<EtcdWatchEvent> &events, qint64 next) override
    {
        nextRevision = next;
        if (!events.isEmpty())
            Q_EMIT q_func()->eventsReceived(events);
    }
    void watchSuspended(const EtcdStatus &reason) override
    {
        setState(EtcdWatch::State::Suspended);
        Q_EMIT q_func()->suspended(reason);
    }
    void watchResyncRequested(qint64 compactRevision) override
    {
        setState(EtcdWatch::State::AwaitingResync);
        Q_EMIT q_func()->resyncRequested(compactRevision);
    }
    void watchResynced(qint64 compactRevision, qint64 anchor) override
    {
        nextRevision = anchor;
        setState(EtcdWatch::State::Creating);
        Q_EMIT q_func()->resynced(compactRevision, anchor);
    }
    void watchFailed(const EtcdStatus &status) override
    {
        link.close();
        setState(EtcdWatch::State::Failed);
        Q_EMIT q_func()->failed(status);
    }

    EtcdWatch *q_ptr;
    QPointer<EtcdClient> client;
    QByteArray key;
    EtcdWatchOptions options;
    EtcdWatch::State state = EtcdWatch::State::Inactive;
    EtcdWatch::ResyncMode resyncMode = EtcdWatch::ResyncMode::ResumeAtCompaction;
    qint64 nextRevision = 0;
    EngineLink link;
    WatchGuard guard;
};

void Etcd::Internal::setWatchGuard(EtcdWatch &watch, WatchGuard guard)
{
    watch.d_func()->guard = std::move(guard);
}

WatchSpec EtcdWatchPrivate::spec() const
{
    const KeySpace ks(EtcdClientPrivate::get(client)->keyPrefix);
    WatchSpec s;
    s.keySpace = ks;
    s.request.key = ks.rangeKey(key, options.prefix);
    s.request.rangeEnd = ks.rangeEnd(key, options.prefix, options.rangeEnd);
    s.request.startRevision = nextRevision > 0 ? nextRevision : options.startRevision;
    s.request.progressNotify = options.progressNotify;
    s.request.prevKv = options.prevKv;
    s.request.noPut = options.noPut;
    s.request.noDelete = options.noDelete;
    s.awaitResync = resyncMode == EtcdWatch::ResyncMode::AwaitResync;
    s.guard = guard;
    return s;
}

/*!
    Constructs a watch of \a key on \a client (a prefix or range as \a options say). Call
    start() to begin. The object is a child of \a parent.
*/
EtcdWatch::EtcdWatch(
    EtcdClient *client, const QByteArray &key, const EtcdWatchOptions &options, QObject *parent)
    : QObject(parent), d_ptr(new EtcdWatchPrivate(this, client, key, options))
{ }

/*! Destroys the watch and cancels it on the stream. */
EtcdWatch::~EtcdWatch()
{
    cancel();
}

/*! Returns the watched key (or prefix, or range start). */
QByteArray EtcdWatch::key() const
{
    return d_func()->key;
}

/*! \property EtcdWatch::state
    The watch's lifecycle state. */
EtcdWatch::State EtcdWatch::state() const
{
    return d_func()->state;
}

/*!
    \property EtcdWatch::nextRevision
    The revision the watch continues from after a break: every change before it has been
    delivered (or, after a compaction, is gone).
*/
qint64 EtcdWatch::nextRevision() const
{
    return d_func()->nextRevision;
}

/*! \property EtcdWatch::resyncMode
    What the watch does when its resume revision was compacted. */
EtcdWatch::ResyncMode EtcdWatch::resyncMode() const
{
    return d_func()->resyncMode;
}

void EtcdWatch::setResyncMode(ResyncMode mode)
{
    d_func()->resyncMode = mode;
}

/*!
    Starts watching. Fails (failed() on the next event-loop turn) when the client is not
    connected or the key is empty without a prefix or range.
*/
void EtcdWatch::start()
{
    Q_D(EtcdWatch);
    if (d->link.isOpen())
        return;
    auto fail = [this](const EtcdStatus &s) {
        QTimer::singleShot(0, this, [this, s] { d_func()->watchFailed(s); });
    };
    if (!d->client)
        return fail(clientGone());
    if (d->key.isEmpty() && !d->options.prefix && d->options.rangeEnd.isEmpty())
        return fail(EtcdStatus(Etcd::ErrorCode::InvalidArgument, tr("empty key")));
    d->link.open(this);
    const bool posted = EtcdClientPrivate::get(d->client)->inEngine(
        [id = d->link.id, spec = d->spec(), mailbox = d->link.mailbox, observer = d](
            Engine *e) { e->watches()->add(id, spec, mailbox, observer); });
    if (!posted) {
        d->link.close();
        return fail(EtcdStatus(Etcd::ErrorCode::NotConnected, tr("the client is not connected")));
    }
    d->setState(State::Creating);
}

/*! Stops watching. No signal is emitted for this watch afterwards. */
void EtcdWatch::cancel()
{
    Q_D(EtcdWatch);
    if (!d->link.isOpen())
        return;
    d->link.close();
    if (d->client)
        EtcdClientPrivate::get(d->client)->inEngine(
            [id = d->link.id](Engine *e) { e->watches()->remove(id); });
    d->setState(State::Inactive);
}

/*!
    After resyncRequested(), continues the watch from \a anchorRevision (usually the header
    revision of the owner's fresh read + 1).
*/
void EtcdWatch::resync(qint64 anchorRevision)
{
    Q_D(EtcdWatch);
    if (d->state != State::AwaitingResync || !d->client)
        return;
    EtcdClientPrivate::get(d->client)->inEngine(
        [id = d->link.id, anchorRevision](Engine *e) { e->watches()->resync(id, anchorRevision); });
}

/*!
    \enum EtcdWatch::State
    \value Inactive not started, or stopped
    \value Creating etcd has not yet confirmed the watch
    \value Active events arrive
    \value Suspended the stream broke; the watch resumes from nextRevision() once it is back
    \value AwaitingResync the revision to resume from was compacted and the resync mode is
           AwaitResync: nothing is delivered until resync()
    \value Failed the watch ended for good (see failed())
*/

/*!
    \enum EtcdWatch::ResyncMode
    What the watch does when the revision it would resume from was compacted away.
    \value ResumeAtCompaction it resumes at the compaction revision, after reporting the
           compaction (changes in between are lost; read the keys again)
    \value AwaitResync it waits in AwaitingResync until the owner calls resync()
*/

/*!
    \enum EtcdWatchEvent::Type
    \value Put the key was created or changed
    \value Delete the key was deleted (or its lease expired)
*/

/*!
    \variable EtcdWatchEvent::type
    \brief whether the key was written or deleted.
*/

/*!
    \variable EtcdWatchEvent::keyValue
    \brief the key-value after the change (for a delete: the key and the revision).
*/

/*!
    \variable EtcdWatchEvent::prevKeyValue
    \brief the key-value before the change, when EtcdWatchOptions::prevKv asked for it.
*/

/*!
    \variable EtcdWatchEvent::revision
    \brief the revision of the change.
*/

/*!
    \property EtcdWatchEvent::type
    \brief the event type, for QML; the member of the same name.
*/

/*!
    \property EtcdWatchEvent::keyValue
    \brief the key-value after the change, for QML; the member of the same name.
*/

/*!
    \property EtcdWatchEvent::prevKeyValue
    \brief the key-value before the change, for QML; the member of the same name.
*/

/*!
    \property EtcdWatchEvent::revision
    \brief the revision of the change, for QML; the member of the same name.
*/

/*!
    \variable EtcdWatchOptions::prefix
    \brief whether every key that starts with the key is watched.
*/

/*!
    \variable EtcdWatchOptions::rangeEnd
    \brief the end (exclusive) of the watched range; empty watches one key.
*/

/*!
    \variable EtcdWatchOptions::startRevision
    \brief the first revision delivered; 0 starts from now.
*/

/*!
    \variable EtcdWatchOptions::noPut
    \brief whether puts are filtered out.
*/

/*!
    \variable EtcdWatchOptions::noDelete
    \brief whether deletes are filtered out.
*/

/*!
    \variable EtcdWatchOptions::prevKv
    \brief whether each event carries the key-value before the change.
*/

/*!
    \variable EtcdWatchOptions::progressNotify
    \brief whether etcd sends progress notifications, which advance the resume revision
    while the watched keys are quiet (so a resume after a break replays less).
*/
