// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "convert_p.h"
#include "handover_p.h"
#include "unarycall_p.h"

#include <grpc/grpc.h>

#include <QtCore/qmetaobject.h>
#include <QtCore/qtimer.h>

#include <algorithm>
#include <climits>

namespace Etcd::Internal {

namespace pb = etcdserverpb;
using std::chrono::milliseconds;

namespace {

// gRPC stays initialised for the rest of the process once a client has connected. Channels
// alone would take it through grpc_init/grpc_shutdown cycles as clients come and go, and
// gRPC 1.51 double-frees internal state when a shutdown overlaps a new init. (Calls and streams
// go through our own completion queue, which lives as long as the process too: gRPC's
// callback API, used before, needed an anchor call to keep its shared queue from the same
// double free.)
void keepGrpcRuntime()
{
    static std::once_flag once;
    std::call_once(once, [] { grpc_init(); });
}

std::shared_ptr<grpc::ChannelCredentials> credentials(
    const Endpoint &endpoint, const TlsMaterial &tls)
{
    if (!endpoint.tls)
        return grpc::InsecureChannelCredentials();
    grpc::SslCredentialsOptions options;
    options.pem_root_certs = tls.ca.toStdString();
    options.pem_cert_chain = tls.cert.toStdString();
    options.pem_private_key = tls.key.toStdString();
    return grpc::SslCredentials(options);
}

std::shared_ptr<grpc::Channel> makeChannel(const Endpoint &endpoint, const TlsMaterial &tls)
{
    grpc::ChannelArguments args;
    // One connection per client, as separate processes would have; not shared process-wide.
    args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
    // gRPC's default reconnect backoff grows to 120 s; a restarted etcd must be found quickly.
    // MIN is really the least time a connect attempt gets (to see etcd's SETTINGS frame), so it
    // stays at 1 s: lower, healthy connects fail on a busy machine.
    args.SetInt(GRPC_ARG_INITIAL_RECONNECT_BACKOFF_MS, 100);
    args.SetInt(GRPC_ARG_MIN_RECONNECT_BACKOFF_MS, 1000);
    args.SetInt(GRPC_ARG_MAX_RECONNECT_BACKOFF_MS, 1000);
    args.SetMaxReceiveMessageSize(-1);
    return grpc::CreateCustomChannel(
        endpoint.grpcTarget().toStdString(), credentials(endpoint, tls), args);
}

Stubs makeStubs(const Endpoint &endpoint, const TlsMaterial &tls)
{
    Stubs s;
    s.channel = makeChannel(endpoint, tls);
    s.kv = pb::KV::NewStub(s.channel);
    s.lease = pb::Lease::NewStub(s.channel);
    s.watch = pb::Watch::NewStub(s.channel);
    s.auth = pb::Auth::NewStub(s.channel);
    s.cluster = pb::Cluster::NewStub(s.channel);
    s.maintenance = pb::Maintenance::NewStub(s.channel);
    s.lock = v3lockpb::Lock::NewStub(s.channel);
    return s;
}

// Which RPC a request is, for the metrics.
template <class Req>
constexpr EtcdMetrics::Rpc rpcOf();
#define ETCDQT_RPC_OF(Request, Name)                                                               \
    template <>                                                                                    \
    constexpr EtcdMetrics::Rpc rpcOf<Request>()                                                    \
    {                                                                                              \
        return EtcdMetrics::Rpc::Name;                                                             \
    }
ETCDQT_RPC_OF(pb::RangeRequest, Range)
ETCDQT_RPC_OF(pb::PutRequest, Put)
ETCDQT_RPC_OF(pb::DeleteRangeRequest, DeleteRange)
ETCDQT_RPC_OF(pb::TxnRequest, Txn)
ETCDQT_RPC_OF(pb::CompactionRequest, Compact)
ETCDQT_RPC_OF(pb::LeaseGrantRequest, LeaseGrant)
ETCDQT_RPC_OF(pb::LeaseRevokeRequest, LeaseRevoke)
ETCDQT_RPC_OF(pb::LeaseTimeToLiveRequest, LeaseTimeToLive)
ETCDQT_RPC_OF(pb::LeaseLeasesRequest, LeaseLeases)
ETCDQT_RPC_OF(pb::MemberListRequest, MemberList)
ETCDQT_RPC_OF(pb::StatusRequest, Status)
ETCDQT_RPC_OF(v3lockpb::LockRequest, Lock)
ETCDQT_RPC_OF(v3lockpb::UnlockRequest, Unlock)
ETCDQT_RPC_OF(pb::AuthenticateRequest, Authenticate)
#undef ETCDQT_RPC_OF

template <class Req, class Resp>
Transport::Handle start(const std::shared_ptr<TransportPrivate> &d, const CallOptions &options,
    CallTarget target, Req request, typename UnaryCall<Req, Resp>::Invoker invoker,
    typename UnaryCall<Req, Resp>::Decoder decoder)
{
    auto call = std::make_shared<UnaryCall<Req, Resp>>(
        d, options, std::move(target), rpcOf<Req>(), std::move(request), invoker, decoder);
    call->attempt();
    return call;
}

using Ctx = grpc::ClientContext;
using Queue = grpc::CompletionQueue;

} // namespace

TransportPrivate::TransportPrivate(const QList<Endpoint> &eps, const TlsMaterial &tls,
    QObject *engine, TransportListener *listener, MetricsSlotPtr metricsSlot)
    : endpoints(eps), metrics(std::move(metricsSlot)), m_engine(engine), m_listener(listener)
{
    keepGrpcRuntime();
    const GrpcCallSection grpcCall; // the channels are gRPC's, shared with its threads
    stubs.reserve(eps.size());
    for (const Endpoint &e : eps)
        stubs.push_back(makeStubs(e, tls));
    // gRPC's threads reach this object through the calls and streams gRPC runs for it, and
    // their completions acquire it before they touch it (CallBase::onDone, BidiStream::OnDone).
    // The hand-over of each call alone did not order every completion after this object's
    // allocation: tst_docsnippets under TSan reported noteOutcome()'s first write, in a gRPC
    // thread started while the first transport was made, in 3 runs of 3 (0 of 4 with this).
    handOverRelease(this);
}

bool TransportPrivate::begin(const std::shared_ptr<CallHandle> &call, bool draining)
{
    std::lock_guard lock(m_mutex);
    if (m_closing)
        return false;
    // A call's next attempt may begin before its previous attempt's end() (a token refresh or
    // a retry without delay answering first): each begin() counts, and the call stays
    // registered, so shutdown() still cancels and waits for it, until the last end().
    const auto [entry, first] = m_inflight.try_emplace(call.get(), InFlight {call, draining});
    ++entry->second.attempts;
    m_draining += first && draining;
    return true;
}

void TransportPrivate::end(CallHandle *call)
{
    std::lock_guard lock(m_mutex);
    const auto entry = m_inflight.find(call);
    if (entry == m_inflight.end() || --entry->second.attempts > 0)
        return;
    m_draining -= entry->second.draining;
    m_inflight.erase(entry);
    if (m_inflight.empty() || m_draining == 0)
        m_idle.notify_all();
}

void TransportPrivate::drain(milliseconds bound)
{
    std::unique_lock lock(m_mutex);
    if (!m_idle.wait_for(lock, bound, [this] { return m_draining == 0; }))
        qCInfo(lcEtcdTransport) << m_draining << "revokes unanswered after" << bound.count()
                                << "ms; cancelled (their leases expire on their TTL)";
}

void TransportPrivate::moveOffEndpoint(int endpoint)
{
    current.compare_exchange_strong(endpoint, (endpoint + 1) % int(endpoints.size()));
}

void TransportPrivate::noteOutcome(int endpoint, int grpcCode, const EtcdStatus &status)
{
    constexpr int kUnavailable = 14;
    if (grpcCode == kUnavailable) {
        moveOffEndpoint(endpoint);
        if (!m_healthy.exchange(false)) // only transitions reach the engine thread
            return;
    } else if (grpcCode == 0) {
        if (m_healthy.exchange(true))
            return;
    } else {
        return;
    }
    std::lock_guard lock(m_mutex);
    if (m_closing || !m_engine)
        return;
    TransportListener *l = m_listener;
    postQueued(m_engine, [l, endpoint, grpcCode, status] {
        grpcCode == 0 ? l->endpointHealthy(endpoint) : l->endpointFailed(endpoint, status);
    });
}

bool TransportPrivate::scheduleRetry(const std::shared_ptr<CallBase> &call, milliseconds delay)
{
    std::lock_guard lock(m_mutex);
    if (m_closing || !m_engine)
        return false;
    QObject *engine = m_engine;
    // Qt 6.4's QTimer takes int milliseconds: a longer retry delay (a policy's choice) would
    // wrap around instead of waiting 24.8 days, which is what it would come to.
    const milliseconds wait = std::clamp(delay, milliseconds(0), milliseconds(INT_MAX));
    // QTimer needs the engine's event loop, so the timer is armed from inside it.
    postQueued(engine,
        [engine, call, wait] { QTimer::singleShot(wait, engine, [call] { call->attempt(); }); });
    return true;
}

void TransportPrivate::authenticate(grpc::ClientContext &context) const
{
    std::lock_guard lock(tokenMutex);
    if (!authToken.isEmpty())
        context.AddMetadata("token", authToken.toStdString());
}

void TransportPrivate::shutdown()
{
    std::unique_lock lock(m_mutex);
    m_closing = true;
    m_engine = nullptr;
    std::vector<std::shared_ptr<CallHandle>> calls;
    for (auto &entry : m_inflight)
        calls.push_back(entry.second.call);
    lock.unlock();
    for (auto &call : calls)
        call->cancel();
    calls.clear();
    // Calls waiting for a token refresh hold themselves (and this transport) in tokenWaiters;
    // the refresh's answer goes to the engine, which is going: they are answered here, or the
    // cycle leaks them (LeakSanitizer, tst_etcdauth_stress, clients destroyed mid-refresh).
    std::vector<std::function<void(const EtcdStatus &)>> waiters;
    {
        std::lock_guard tokenLock(tokenMutex);
        waiters.swap(tokenWaiters);
        refreshing = false;
    }
    for (auto &w : waiters)
        w(EtcdStatus(Etcd::ErrorCode::Cancelled, {}));
    waiters.clear();
    lock.lock();
    // TryCancel makes gRPC hand every call back promptly; the bound only guards against a bug.
    if (!m_idle.wait_for(lock, std::chrono::seconds(5), [this] { return m_inflight.empty(); })) {
        qCWarning(lcEtcdTransport) << m_inflight.size() << "calls did not finish within 5 s";
        return; // their channels stay, for whichever of them holds this last
    }
    // The channels go here, in the thread that shuts down. Left to the last reference, they
    // would go in whichever gRPC callback thread finishes the last call, inside gRPC's own
    // completion machinery. Nothing reads them any more: every start passed begin() first,
    // which refuses from now, and every call that passed it has ended. Empty entries keep
    // the endpoint count.
    std::vector<Stubs> channels(stubs.size());
    channels.swap(stubs);
    lock.unlock();
    const GrpcCallSection grpcCall; // gRPC's threads drop their references without TSan
    channels.clear();
}

Transport::Transport(const QList<Endpoint> &endpoints, const TlsMaterial &tls, QObject *engine,
    TransportListener *listener, MetricsSlotPtr metrics)
    : d(std::make_shared<TransportPrivate>(endpoints, tls, engine, listener, std::move(metrics)))
{ }

const MetricsSlotPtr &Transport::metrics() const
{
    return d->metrics;
}

Transport::~Transport()
{
    d->shutdown();
}

int Transport::endpointCount() const
{
    return int(d->endpoints.size()); // not stubs: shutdown() empties them
}

void Transport::rotateEndpoint()
{
    const int n = endpointCount();
    int now = d->current.load();
    while (!d->current.compare_exchange_weak(now, (now + 1) % n)) { }
}

void Transport::setCredentials(const QByteArray &user, const QByteArray &password)
{
    std::lock_guard lock(d->tokenMutex);
    d->user = user;
    d->password = password;
}

void Transport::refreshToken(std::function<void(const EtcdStatus &)> done)
{
    d->refreshToken(std::move(done));
}

bool TransportPrivate::hasCredentials() const
{
    std::lock_guard lock(tokenMutex);
    return !user.isEmpty();
}

void TransportPrivate::refreshToken(std::function<void(const EtcdStatus &)> done)
{
    pb::AuthenticateRequest request;
    {
        std::lock_guard lock(tokenMutex);
        tokenWaiters.push_back(std::move(done));
        if (std::exchange(refreshing, true))
            return; // one Authenticate serves every caller that found the token stale
        request.set_name(user.toStdString());
        request.set_password(password.toStdString());
        // Authenticate itself must go without the stale token. Assigned, not clear()ed: the
        // buffer may be shared with a reply another thread dropped, and clear() drops its
        // reference inside QtCore, where TSan cannot see the count fall (CI rehearsal ci60's
        // TSan pass reported this free against that reply's release); the inline destructor
        // of the moved-out value can be seen.
        authToken = QByteArray();
    }
    CallOptions options;
    options.retriable = false;
    auto self = shared_from_this();
    auto finished = [self](const EtcdStatus &status, ReplyData &&data) {
        std::vector<std::function<void(const EtcdStatus &)>> waiters;
        {
            std::lock_guard lock(self->tokenMutex);
            self->refreshing = false;
            self->authToken = data.authToken;
            waiters.swap(self->tokenWaiters);
        }
        for (auto &w : waiters)
            w(status);
    };
    QObject *context = nullptr;
    {
        std::lock_guard lock(m_mutex);
        context = m_closing ? nullptr : m_engine;
    }
    if (!context)
        return finished(EtcdStatus(Etcd::ErrorCode::Cancelled, {}), {});
    start<pb::AuthenticateRequest, pb::AuthenticateResponse>(
        self, options, CallTarget {context, finished}, std::move(request),
        [](Stubs &s, Ctx *x, const pb::AuthenticateRequest &q, Queue *cq) {
            return s.auth->PrepareAsyncAuthenticate(x, q, cq);
        },
        &Convert::authenticate);
}

void Transport::shutdown()
{
    d->shutdown();
}

void Transport::drain(milliseconds bound)
{
    d->drain(bound);
}

Transport::Handle Transport::range(
    const QByteArray &key, const EtcdRangeOptions &o, const CallOptions &c, CallTarget t)
{
    pb::RangeRequest r;
    Convert::fill(r, KeySpace(c.prefix), key, o);
    return start<pb::RangeRequest, pb::RangeResponse>(
        d, c, std::move(t), std::move(r),
        [](Stubs &s, Ctx *x, const pb::RangeRequest &q, Queue *cq) {
            return s.kv->PrepareAsyncRange(x, q, cq);
        },
        &Convert::range);
}

Transport::Handle Transport::put(const QByteArray &key, const QByteArray &value,
    const EtcdPutOptions &o, const CallOptions &c, CallTarget t)
{
    pb::PutRequest r;
    Convert::fill(r, KeySpace(c.prefix), key, value, o);
    return start<pb::PutRequest, pb::PutResponse>(
        d, c, std::move(t), std::move(r),
        [](Stubs &s, Ctx *x, const pb::PutRequest &q, Queue *cq) {
            return s.kv->PrepareAsyncPut(x, q, cq);
        },
        &Convert::put);
}

Transport::Handle Transport::remove(
    const QByteArray &key, const EtcdDeleteOptions &o, const CallOptions &c, CallTarget t)
{
    pb::DeleteRangeRequest r;
    Convert::fill(r, KeySpace(c.prefix), key, o);
    return start<pb::DeleteRangeRequest, pb::DeleteRangeResponse>(
        d, c, std::move(t), std::move(r),
        [](Stubs &s, Ctx *x, const pb::DeleteRangeRequest &q, Queue *cq) {
            return s.kv->PrepareAsyncDeleteRange(x, q, cq);
        },
        &Convert::remove);
}

Transport::Handle Transport::txn(const EtcdTxn &txn, const CallOptions &c, CallTarget t)
{
    pb::TxnRequest r;
    Convert::fill(r, KeySpace(c.prefix), txn);
    return start<pb::TxnRequest, pb::TxnResponse>(
        d, c, std::move(t), std::move(r),
        [](Stubs &s, Ctx *x, const pb::TxnRequest &q, Queue *cq) {
            return s.kv->PrepareAsyncTxn(x, q, cq);
        },
        &Convert::txn);
}

Transport::Handle Transport::compact(
    qint64 revision, bool physical, const CallOptions &c, CallTarget t)
{
    pb::CompactionRequest r;
    r.set_revision(revision);
    r.set_physical(physical);
    return start<pb::CompactionRequest, pb::CompactionResponse>(
        d, c, std::move(t), std::move(r),
        [](Stubs &s, Ctx *x, const pb::CompactionRequest &q, Queue *cq) {
            return s.kv->PrepareAsyncCompact(x, q, cq);
        },
        &Convert::compact);
}

Transport::Handle Transport::leaseGrant(qint64 ttl, qint64 id, const CallOptions &c, CallTarget t)
{
    pb::LeaseGrantRequest r;
    r.set_ttl(ttl);
    r.set_id(id);
    return start<pb::LeaseGrantRequest, pb::LeaseGrantResponse>(
        d, c, std::move(t), std::move(r),
        [](Stubs &s, Ctx *x, const pb::LeaseGrantRequest &q, Queue *cq) {
            return s.lease->PrepareAsyncLeaseGrant(x, q, cq);
        },
        &Convert::leaseGrant);
}

Transport::Handle Transport::leaseRevoke(qint64 id, const CallOptions &c, CallTarget t)
{
    pb::LeaseRevokeRequest r;
    r.set_id(id);
    return start<pb::LeaseRevokeRequest, pb::LeaseRevokeResponse>(
        d, c, std::move(t), std::move(r),
        [](Stubs &s, Ctx *x, const pb::LeaseRevokeRequest &q, Queue *cq) {
            return s.lease->PrepareAsyncLeaseRevoke(x, q, cq);
        },
        &Convert::leaseRevoke);
}

Transport::Handle Transport::leaseTimeToLive(
    qint64 id, bool keys, const CallOptions &c, CallTarget t)
{
    pb::LeaseTimeToLiveRequest r;
    r.set_id(id);
    r.set_keys(keys);
    return start<pb::LeaseTimeToLiveRequest, pb::LeaseTimeToLiveResponse>(
        d, c, std::move(t), std::move(r),
        [](Stubs &s, Ctx *x, const pb::LeaseTimeToLiveRequest &q, Queue *cq) {
            return s.lease->PrepareAsyncLeaseTimeToLive(x, q, cq);
        },
        &Convert::leaseTimeToLive);
}

Transport::Handle Transport::leaseList(const CallOptions &c, CallTarget t)
{
    return start<pb::LeaseLeasesRequest, pb::LeaseLeasesResponse>(
        d, c, std::move(t), {},
        [](Stubs &s, Ctx *x, const pb::LeaseLeasesRequest &q, Queue *cq) {
            return s.lease->PrepareAsyncLeaseLeases(x, q, cq);
        },
        &Convert::leaseList);
}

Transport::Handle Transport::memberList(const CallOptions &c, CallTarget t)
{
    return start<pb::MemberListRequest, pb::MemberListResponse>(
        d, c, std::move(t), {},
        [](Stubs &s, Ctx *x, const pb::MemberListRequest &q, Queue *cq) {
            return s.cluster->PrepareAsyncMemberList(x, q, cq);
        },
        &Convert::memberList);
}

Transport::Handle Transport::status(const CallOptions &c, CallTarget t)
{
    return start<pb::StatusRequest, pb::StatusResponse>(
        d, c, std::move(t), {},
        [](Stubs &s, Ctx *x, const pb::StatusRequest &q, Queue *cq) {
            return s.maintenance->PrepareAsyncStatus(x, q, cq);
        },
        &Convert::status);
}

Transport::Handle Transport::lock(
    const QByteArray &name, qint64 lease, const CallOptions &c, CallTarget t)
{
    v3lockpb::LockRequest r;
    r.set_name(KeySpace(c.prefix).key(name).toStdString());
    r.set_lease(lease);
    return start<v3lockpb::LockRequest, v3lockpb::LockResponse>(
        d, c, std::move(t), std::move(r),
        [](Stubs &s, Ctx *x, const v3lockpb::LockRequest &q, Queue *cq) {
            return s.lock->PrepareAsyncLock(x, q, cq);
        },
        &Convert::lock);
}

Transport::Handle Transport::unlock(const QByteArray &key, const CallOptions &c, CallTarget t)
{
    v3lockpb::UnlockRequest r;
    r.set_key(KeySpace(c.prefix).key(key).toStdString());
    return start<v3lockpb::UnlockRequest, v3lockpb::UnlockResponse>(
        d, c, std::move(t), std::move(r),
        [](Stubs &s, Ctx *x, const v3lockpb::UnlockRequest &q, Queue *cq) {
            return s.lock->PrepareAsyncUnlock(x, q, cq);
        },
        &Convert::unlock);
}

} // namespace Etcd::Internal
