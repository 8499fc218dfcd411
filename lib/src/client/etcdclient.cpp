// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "etcdclient_p.h"
#include "handover_p.h"

#include <EtcdQt/etcdleasegrantreply.h>

#include <QtCore/qcoreapplication.h>
#include <QtCore/qelapsedtimer.h>
#include <QtCore/qtimer.h>

using namespace Etcd::Internal;
using namespace std::chrono_literals;
using std::chrono::milliseconds;

namespace {
// How long the destructor waits for revokes in flight: a quitting process must not strand
// its leases, and must not hang on an etcd that stopped answering either.
constexpr milliseconds kRevokeGrace = 500ms;
} // namespace

/*!
    \class EtcdClient
    \inmodule EtcdQt
    \brief A connection to an etcd cluster and the door to its key-value, lease, cluster and
    lock services.

    Set the endpoints, call connectToEndpoints(), then issue requests; each returns an
    EtcdReply that emits finished() once. Requests are made from the client's own thread;
    the recipes' blocking forms (EtcdMutex::lock(), commitGuarded() and the like) send their
    transactions from the calling worker thread instead. The client runs one engine thread of
    its own, which keeps the connection watched and times retries; gRPC's threads only copy
    results and hand them over, so a busy GUI thread never delays the network side.

    Failed requests are retried under rpcResilience() when etcd was unavailable, the attempt
    timed out, or the server reported an internal error. Transactions, lease revokes and lock
    requests are never retried: their outcome is unknown after such a failure.

    \sa EtcdReply, EtcdRetryPolicy
*/

/*!
    \enum EtcdClient::State
    \value Disconnected connectToEndpoints() has not been called, or disconnectFromEndpoints()
           was; requests finish with Etcd::ErrorCode::NotConnected.
    \value Connecting  waiting for the first endpoint to answer.
    \value Connected   an endpoint answered; requests go to it.
    \value Reconnecting the endpoint in use failed; the client probes the endpoints (in turn)
           until one answers. Requests are still sent and retried meanwhile.
*/

/*!
    \fn void EtcdClient::stateChanged(EtcdClient::State state)
    Emitted when the connection state changes to \a state.
*/

/*!
    \fn void EtcdClient::errorOccurred(const EtcdStatus &status)
    Emitted when the endpoints are invalid, and once per outage when no endpoint answers,
    with the reason in \a status. The client keeps trying until disconnected.
*/

/*! Constructs a client with no endpoints, a child of \a parent; setEndpoints() names them. */
EtcdClient::EtcdClient(QObject *parent) : QObject(parent), d_ptr(new EtcdClientPrivate(this))
{
    d_ptr->engineThread.setObjectName(QStringLiteral("etcdqt-engine"));
}

/*! Constructs a client for \a endpoints; call connectToEndpoints() to start. */
EtcdClient::EtcdClient(const QList<QUrl> &endpoints, QObject *parent) : EtcdClient(parent)
{
    d_ptr->endpoints = endpoints;
}

/*!
    Destroys the client. Its children (recipes made with it as their parent) are destroyed
    first, while the client still works, so that they release what they hold. Lease revokes
    still in flight, such as those of recipes destroyed just before, are given up to 500 ms
    to be answered, so a process that quits right after destroying its recipes leaves no
    lease behind; an etcd that does not answer in that time is not waited for any longer.
    Every other outstanding reply finishes with Etcd::ErrorCode::Cancelled, calls in flight
    are cancelled and the engine thread stops.

    Replies finish inside this destructor, so their handlers run while it does. A call such a
    handler makes on this client is refused and never sent; its reply goes with the client
    without emitting finished().
    A client that is the child of an object whose members those handlers use must be deleted
    in that object's destructor: as a child it would only go after the members are gone.
*/
EtcdClient::~EtcdClient()
{
    Q_D(EtcdClient);
    d->deleteChildren(); // recipes first: their destructors send their revokes
    // From here every call is refused (Cancelled): made while the session ends, it would only
    // be cancelled by the shutdown that follows, or meet no transport after it.
    d->destroying = true;
    d->stopSession(kRevokeGrace, EtcdClientPrivate::EndThread::Yes);
    d->engineThread.wait();
    // Replies made while it went (a recipe's handler, run as its reply was aborted, revoking
    // a lease) are children too: they go now, while the bookkeeping their destructors update
    // still exists. Left to ~QObject, they went after it (heap-use-after-free under ASan).
    d->deleteChildren(EtcdClientPrivate::Children::All);
}

/*!
    \property EtcdClient::endpoints
    The etcd endpoints, as \c{http://host:port} or \c{https://host:port}. Changes take effect
    at the next connectToEndpoints().
*/
QList<QUrl> EtcdClient::endpoints() const
{
    return d_func()->endpoints;
}

void EtcdClient::setEndpoints(const QList<QUrl> &endpoints)
{
    Q_D(EtcdClient);
    if (d->endpoints == endpoints)
        return;
    d->endpoints = endpoints;
    Q_EMIT endpointsChanged();
}

/*!
    \property EtcdClient::keyPrefix
    A namespace for every key: requests add it, results have it removed. Empty by default.
*/
QByteArray EtcdClient::keyPrefix() const
{
    return d_func()->keyPrefix;
}

void EtcdClient::setKeyPrefix(const QByteArray &prefix)
{
    Q_D(EtcdClient);
    if (d->keyPrefix == prefix)
        return;
    d->keyPrefix = prefix;
    d->refreshDoor();
    Q_EMIT keyPrefixChanged();
}

/*! Returns the etcd user name the client authenticates as (empty: no auth). */
QString EtcdClient::user() const
{
    return d_func()->user;
}

/*!
    Authenticates as \a user with \a password from the next connectToEndpoints() on. Every call
    and stream carries the token etcd issues; when etcd calls it invalid (a simple token
    expires after --auth-token-ttl of disuse), the client authenticates again, once for all
    calls that noticed, and repeats them. The password stays in memory and is never logged.
*/
void EtcdClient::setCredentials(const QString &user, const QString &password)
{
    Q_D(EtcdClient);
    d->user = user;
    d->password = password;
}

/*!
    Returns the TLS files used with https:// endpoints.
*/
EtcdTlsFiles EtcdClient::tlsFiles() const
{
    return d_func()->tlsFiles;
}

/*!
    Sets the CA, client certificate and key PEM files for https:// endpoints to \a files. They
    are read at connectToEndpoints(); an unreadable or non-PEM file, or a certificate without
    its key, is reported there as Etcd::ErrorCode::InvalidArgument. A server certificate that
    the CA does not vouch for fails every call with Etcd::ErrorCode::TlsError.
*/
void EtcdClient::setTlsFiles(const EtcdTlsFiles &files)
{
    d_func()->tlsFiles = files;
}

/*!
    \property EtcdClient::state
    The connection state.
*/
EtcdClient::State EtcdClient::state() const
{
    return d_func()->state;
}

/*!
    Returns the deadline for a whole request, all attempts included; 0 (the default) means
    only the per-attempt timeout of rpcResilience() applies.
*/
std::chrono::milliseconds EtcdClient::callDeadline() const
{
    return d_func()->callDeadline;
}

/*! Sets the whole-request deadline to \a deadline (0 for none). */
void EtcdClient::setCallDeadline(std::chrono::milliseconds deadline)
{
    d_func()->callDeadline = std::max(deadline, std::chrono::milliseconds(0));
    d_func()->refreshDoor();
}

/*! Returns how long one connection probe waits for an endpoint (default 5 s). */
std::chrono::milliseconds EtcdClient::connectTimeout() const
{
    return d_func()->connectTimeout;
}

/*! Sets the connection probe's timeout to \a timeout; applies at the next connect. */
void EtcdClient::setConnectTimeout(std::chrono::milliseconds timeout)
{
    if (timeout.count() > 0)
        d_func()->connectTimeout = timeout;
}

/*!
    Returns how long the Watch and LeaseKeepAlive streams may stay silent before the client
    asks etcd for a sign of life, and then treats them as broken (default 5 s). A paused etcd
    keeps its connections open, so silence is the only symptom.
*/
std::chrono::milliseconds EtcdClient::streamLivenessInterval() const
{
    return d_func()->streamLiveness;
}

/*! Sets the stream liveness interval to \a interval; applies at the next connect. */
void EtcdClient::setStreamLivenessInterval(std::chrono::milliseconds interval)
{
    if (interval.count() > 0)
        d_func()->streamLiveness = interval;
}

/*!
    Returns the lease safety margin (default 100 ms). Every lease deadline this client keeps
    (remainingValidity(), and when a lease, term, hold or permit counts as lost) is the time
    the renewal or grant that etcd answered was \e sent, plus the TTL etcd answered, minus
    this margin. etcd starts its own count later than that (when the request reached it), so
    the margin only covers the two clocks running at slightly different rates; raise it for
    machines whose clocks drift, or to stop work earlier.
*/
std::chrono::milliseconds EtcdClient::leaseSafetyMargin() const
{
    return d_func()->leaseSafetyMargin;
}

/*!
    Sets the lease safety margin to \a margin (0 or more, below every TTL in use); applies at
    the next connect. A negative margin is ignored.
*/
void EtcdClient::setLeaseSafetyMargin(std::chrono::milliseconds margin)
{
    if (margin.count() >= 0)
        d_func()->leaseSafetyMargin = margin;
}

/*! Returns the retry policy and per-attempt timeout of requests. */
EtcdRpcResilience EtcdClient::rpcResilience() const
{
    return d_func()->resilience;
}

/*! Sets the retry policy and per-attempt timeout of later requests to \a resilience. */
void EtcdClient::setRpcResilience(const EtcdRpcResilience &resilience)
{
    d_func()->resilience = resilience;
    d_func()->refreshDoor();
}

/*! Returns the metrics sink installed with setMetrics(), or null. */
std::shared_ptr<EtcdMetrics> EtcdClient::metrics() const
{
    return d_func()->metrics->current();
}

/*!
    Reports what this client and its recipes do to \a sink from now on (null: to nobody).
    Without a sink nothing is measured. The client keeps every sink it was given until it is
    destroyed, since another thread may be reporting to the one being replaced.
    \sa EtcdMetricsRegistry
*/
void EtcdClient::setMetrics(std::shared_ptr<EtcdMetrics> sink)
{
    d_func()->metrics->install(std::move(sink));
}

/*!
    Starts connecting to the endpoints. Invalid endpoints (none, a malformed URL, a scheme
    other than http or https, no port) leave the client Disconnected and emit errorOccurred()
    with Etcd::ErrorCode::InvalidArgument on the next event-loop turn.
*/
void EtcdClient::connectToEndpoints()
{
    Q_D(EtcdClient);
    if (d->state != State::Disconnected)
        return;
    auto parsed = parseEndpoints(d->endpoints);
    TlsMaterial tls;
    if (auto *eps = std::get_if<QList<Endpoint>>(&parsed); eps && eps->first().tls) {
        const EtcdTlsFiles &f = d->tlsFiles;
        auto loaded = loadTlsMaterial(f.caCertificate, f.clientCertificate, f.clientKey);
        if (auto *status = std::get_if<EtcdStatus>(&loaded))
            parsed = *status;
        else
            tls = std::get<TlsMaterial>(loaded);
    }
    if (auto *status = std::get_if<EtcdStatus>(&parsed)) {
        qCWarning(lcEtcdClient) << "cannot connect:" << status->message();
        d->endpointError = *status;
        QTimer::singleShot(0, this, [this, s = *status] { Q_EMIT errorOccurred(s); });
        return;
    }
    d->endpointError.reset();
    d->startSession(std::get<QList<Endpoint>>(parsed), tls);
}

/*!
    Disconnects. Outstanding replies finish with Etcd::ErrorCode::Cancelled at once; the
    state becomes Disconnected.
*/
void EtcdClient::disconnectFromEndpoints()
{
    Q_D(EtcdClient);
    if (d->state == State::Disconnected)
        return;
    d->stopSession();
    d->setState(State::Disconnected);
}

void EtcdClientPrivate::startSession(const QList<Endpoint> &eps, const TlsMaterial &tls)
{
    Q_Q(EtcdClient);
    if (!engineThread.isRunning())
        engineThread.start();
    const quint64 id = ++session;
    auto *e = new Engine(eps,
        Engine::Config {connectTimeout, streamLiveness, tls, user.toUtf8(), password.toUtf8(),
            leaseSafetyMargin, metrics});
    transport = e->transport();
    e->moveToThread(&engineThread);
    // The engine goes before the client does (the destructor waits for its thread).
    e->setStateSink([this, q, id](EtcdClient::State s, const EtcdStatus &why) {
        postQueued(q, [this, id, s, why] { onEngineState(id, s, why); });
    });
    engine = e;
    refreshDoor();
    reportedOutage = false;
    setState(EtcdClient::State::Connecting);
    postQueued(e, [e] { e->start(); });
}

void EtcdClientPrivate::stopSession(milliseconds revokeGrace, EndThread endThread)
{
    {
        std::lock_guard lock(door->mutex); // no worker starts a call on this session from now
        door->transport.reset();
        door->engine = nullptr;
    }
    ++session; // late state reports of the old session are ignored
    if (transport && revokeGrace.count() > 0) {
        QElapsedTimer waited;
        waited.start();
        QList<QPointer<EtcdReply>> grants = outstandingReplies();
        grants.removeIf([](const QPointer<EtcdReply> &r) {
            return !qobject_cast<EtcdLeaseGrantReply *>(r.data());
        });
        transport->drain(revokeGrace);
        // The answers that came wait in this thread's queue, which a destructor never runs:
        // hand them out, so those replies finish with etcd's answer instead of Cancelled.
        for (const QPointer<EtcdReply> &reply : outstandingReplies()) {
            if (reply)
                QCoreApplication::sendPostedEvents(reply, QEvent::MetaCall);
        }
        revokeOrphanedGrants(grants, revokeGrace - milliseconds(waited.elapsed()));
    }
    for (const QPointer<EtcdReply> &reply : outstandingReplies()) {
        if (reply) // a receiver of an earlier one may have deleted it
            reply->abort();
    }
    if (transport)
        transport->shutdown();
    transport.reset();
    // Let go of the engine before it is handed to its thread to die: the guard's count is
    // shared with the engine's QObject, which frees it there.
    Etcd::Internal::Engine *e = engine.data();
    engine.clear();
    if (endThread == EndThread::Yes)
        endEngineThread(e);
    else if (e)
        postQueued(e, [e] { e->deleteLater(); });
}

// A grant in flight as the client goes is nobody's: the recipes went first, and whoever
// called grantLease() gets Cancelled without the id. One answered in the drain would stay in
// etcd for its TTL (the lease accounting found such keyless leases after a client was deleted
// mid-heal), so it is revoked here, past the refusal of new calls, within what is left of the
// grace (at least 100 ms: etcd just answered). A grant not answered by then is left to its TTL.
void EtcdClientPrivate::revokeOrphanedGrants(
    const QList<QPointer<EtcdReply>> &grants, milliseconds bound)
{
    CallOptions o = callOptions(false);
    o.drainOnShutdown = true;
    int sent = 0;
    const auto revoke = [&](qint64 leaseId, const char *why) {
        qCDebug(lcEtcdLease) << "revoking lease" << leaseId << why;
        transport->leaseRevoke(leaseId, o, {q_func(), [](const EtcdStatus &, ReplyData &&) {}});
        ++sent;
    };
    for (const QPointer<EtcdReply> &reply : grants) {
        const auto *grant = qobject_cast<EtcdLeaseGrantReply *>(reply.data());
        if (grant && grant->isFinished() && grant->status().isOk())
            revoke(grant->leaseId(), "granted as the client went");
    }
    // Seen leaving one behind: a grant sent to a paused etcd, whose revoke etcd answered first
    // on resuming, with the client deleted before the recheck 100 ms later.
    for (const qint64 leaseId : std::exchange(unresolvedGrants, {}))
        revoke(leaseId, "whose grant was never answered");
    if (sent > 0)
        transport->drain(std::max(bound, milliseconds(100)));
}

// The engine thread ends once it ran what was queued to it before. quit() from here could
// end its loop with a keep-alive or watch registration still queued (posted while it slept):
// dropped, its owner would never hear that the client went away. Asked from inside the
// loop, the deferred delete runs as the thread finishes, and the engine's end tells every
// registration.
void EtcdClientPrivate::endEngineThread(Etcd::Internal::Engine *e)
{
    if (!e) {
        engineThread.quit();
        return;
    }
    postQueued(e, [e] {
        e->deleteLater();
        QThread::currentThread()->quit();
    });
}

QList<QPointer<EtcdReply>> EtcdClientPrivate::outstandingReplies() const
{
    return {pending.cbegin(), pending.cend()};
}

// Replies stay: they are aborted by stopSession() and deleted with the client.
void EtcdClientPrivate::deleteChildren(Children which)
{
    Q_Q(EtcdClient);
    QList<QPointer<QObject>> children;
    for (QObject *child : q->children()) {
        if (which == Children::All || !qobject_cast<EtcdReply *>(child))
            children.append(child);
    }
    for (const QPointer<QObject> &child : std::as_const(children))
        delete child.data(); // null when an earlier one took it along
}

void EtcdClientPrivate::onEngineState(quint64 id, EtcdClient::State next, const EtcdStatus &why)
{
    Q_Q(EtcdClient);
    if (id != session || state == EtcdClient::State::Disconnected)
        return;
    if (next == EtcdClient::State::Connected)
        reportedOutage = false;
    else if (!why.isOk() && !std::exchange(reportedOutage, true))
        Q_EMIT q->errorOccurred(why);
    setState(next, why);
}

void EtcdClientPrivate::setState(EtcdClient::State next, const EtcdStatus &reason)
{
    Q_Q(EtcdClient);
    if (std::exchange(state, next) == next)
        return;
    qCDebug(lcEtcdClient) << "state" << next << reason;
    Q_EMIT q->stateChanged(next);
}

std::optional<EtcdStatus> EtcdClientPrivate::refusal() const
{
    if (destroying)
        return EtcdStatus(
            Etcd::ErrorCode::Cancelled, EtcdClient::tr("the client is being destroyed"));
    if (state != EtcdClient::State::Disconnected)
        return std::nullopt;
    if (endpointError)
        return endpointError;
    return EtcdStatus(Etcd::ErrorCode::NotConnected,
        EtcdClient::tr("the client is not connected; call connectToEndpoints()"));
}

EtcdClientPrivate::CallOptions EtcdClientPrivate::callOptions(bool retriable) const
{
    CallOptions o;
    o.prefix = keyPrefix;
    o.deadline = callDeadline;
    o.resilience = resilience;
    o.retriable = retriable;
    return o;
}

void EtcdClientPrivate::recordGrant(qint64 leaseId, std::chrono::steady_clock::time_point sent)
{
    constexpr size_t kMaxRemembered = 4096; // leases granted here but never kept alive here
    if (grantSent.size() >= kMaxRemembered)
        grantSent.clear(); // their keep-alives then count from their start(): a little later
    grantSent[leaseId] = sent;
}

std::chrono::steady_clock::time_point EtcdClientPrivate::takeGrant(qint64 leaseId)
{
    const auto it = grantSent.find(leaseId);
    if (it == grantSent.end())
        return std::chrono::steady_clock::now();
    const auto sent = it->second;
    grantSent.erase(it);
    return sent;
}

void EtcdClientPrivate::refreshDoor()
{
    std::lock_guard lock(door->mutex);
    door->transport = transport;
    door->engine = engine.data();
    door->options = callOptions(false); // a guarded write is never retried: its outcome is unknown
}

/*!
    \class EtcdTlsFiles
    \inmodule EtcdQt
    \brief PEM files for https:// endpoints.

    An empty CA means the system's trusted roots; a client certificate and its key go
    together (mutual TLS).
*/

/*!
    \variable EtcdTlsFiles::caCertificate
    \brief the path of the CA certificate that signed the server's; empty for the system's.
*/

/*!
    \variable EtcdTlsFiles::clientCertificate
    \brief the path of the client certificate, for mutual TLS.
*/

/*!
    \variable EtcdTlsFiles::clientKey
    \brief the path of the client certificate's private key.
*/
