// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "standbyleases_p.h"

#include "etcdclient_p.h"
#include "etcdqt_internal_p.h"
#include "leaseops_p.h"
#include "leaseshared_p.h"
#include "recipereplies_p.h"

#include <EtcdQt/etcdclient.h>
#include <EtcdQt/etcdkeepalive.h>

#include <QtCore/qthread.h>

namespace Etcd::Internal {

using namespace std::chrono;

namespace {
// A grant that has not answered by then will not help a heal soon; the next want or take
// asks again.
constexpr milliseconds kGrantTimeout {10'000};
const QString kObjectName = QStringLiteral("etcdqt-standby-leases");
} // namespace

EtcdReply *StandbyLeases::Want::release()
{
    const QPointer<StandbyLeases> pool = std::exchange(m_pool, nullptr);
    return pool ? pool->unwant(m_ttl) : nullptr;
}

StandbyLeases::StandbyLeases(EtcdClient *client) : QObject(client), m_client(client)
{
    setObjectName(kObjectName);
}

// The client is going away (it is our parent) and still works: its destructor gives revokes
// up to 500 ms. Ending the keep-alives is not enough, as etcd keeps an unrenewed lease for its
// whole TTL: a recipe deleted after the pool found none to hand its standby back to, and a
// quitting process left the standby behind (fault matrix, destroy column, every run). A grant
// still in flight is left to its TTL: a revoke sent before etcd applied the grant would find
// nothing, and the grant would then create the lease (tst_etcdteardown counts the revokes).
StandbyLeases::~StandbyLeases()
{
    for (auto &[ttl, s] : m_byTtl) {
        s.keepAlive.reset(); // not deleteLater(): no event loop may run for it any more
        if (s.leaseId > 0)
            revokeLeaseQuietly(m_client, std::exchange(s.leaseId, -1));
    }
}

StandbyLeases *StandbyLeases::of(EtcdClient *client, bool create)
{
    if (!client || client->thread() != QThread::currentThread())
        return nullptr;
    auto *pool = client->findChild<StandbyLeases *>(kObjectName, Qt::FindDirectChildrenOnly);
    return pool || !create ? pool : new StandbyLeases(client);
}

std::unique_ptr<StandbyLeases::Want> StandbyLeases::want(EtcdClient *client, seconds ttl)
{
    StandbyLeases *pool = of(client, true);
    if (!pool)
        return nullptr;
    Standby &s = pool->m_byTtl[ttl];
    if (++s.wanted == 1 && s.leaseId < 0 && !s.granting)
        pool->grant(ttl);
    return std::make_unique<Want>(pool, ttl);
}

std::optional<StandbyLeases::Handed> StandbyLeases::take(EtcdClient *client, seconds ttl)
{
    StandbyLeases *pool = of(client, false);
    if (!pool)
        return std::nullopt;
    const auto it = pool->m_byTtl.find(ttl);
    if (it == pool->m_byTtl.end() || it->second.wanted == 0)
        return std::nullopt;
    Standby &s = it->second;
    const bool fresh = s.leaseId > 0 && s.keepAlive->state() == EtcdKeepAlive::State::Alive
        && s.keepAlive->remainingValidity() > duration_cast<milliseconds>(ttl) / 2;
    if (!fresh) {
        if (!s.granting && s.leaseId < 0)
            pool->grant(ttl); // the last grant failed: try again for the next heal
        return std::nullopt;
    }
    // The next keep-alive of this lease counts its deadline from the last renewal etcd
    // answered, as its grant would have (EtcdKeepAlive::start()).
    EtcdClientPrivate *c = EtcdClientPrivate::get(client);
    const SteadyTime renewed = leaseStateOf(*s.keepAlive)->deadline() - ttl + c->leaseSafetyMargin;
    c->recordGrant(s.leaseId, renewed);
    const Handed handed {s.leaseId, duration_cast<milliseconds>(steady_clock::now() - renewed)};
    pool->drop(s, false);
    pool->grant(ttl);
    return handed;
}

EtcdReply *StandbyLeases::unwant(seconds ttl)
{
    Standby &s = m_byTtl[ttl];
    if (--s.wanted > 0)
        return nullptr;
    if (!s.granting)
        return drop(s, true);
    // Granted by etcd perhaps, not answered yet: its id is ours, so it is revoked now (the
    // client may be going away, and its answer with it) and again when it answers, in case
    // etcd applied this revoke first (onGranted()). close() waits for that answer: a client
    // destroyed before it leaves the lease to its TTL.
    revokeLeaseQuietly(m_client, s.grantingId);
    if (!s.unwantedGrant)
        s.unwantedGrant = RecipeReplies::boolReply(this);
    return s.unwantedGrant;
}

void StandbyLeases::grant(seconds ttl)
{
    Standby &s = m_byTtl[ttl];
    s.granting = true;
    s.grantingId = randomLeaseId();
    grantLeaseWithin(
        m_client, ttl, kGrantTimeout, this,
        [this, ttl](const EtcdStatus &status, qint64 id) { onGranted(ttl, id, status.isOk()); },
        s.grantingId);
}

void StandbyLeases::onGranted(seconds ttl, qint64 id, bool ok)
{
    Standby &s = m_byTtl[ttl];
    s.granting = false;
    const QPointer<EtcdBoolReply> unwanted = std::exchange(s.unwantedGrant, nullptr);
    const auto finishUnwanted = [unwanted] {
        if (unwanted)
            RecipeReplies::finish(unwanted, EtcdStatus(), true);
    };
    if (!ok)
        return finishUnwanted(); // no standby: heals grant their own spare, as without one
    if (s.wanted == 0 || s.leaseId > 0) {
        EtcdReply *revoke = revokeLeaseQuietly(m_client, id);
        if (!revoke)
            return finishUnwanted();
        connect(revoke, &EtcdReply::finished, this, finishUnwanted);
        return;
    }
    finishUnwanted(); // wanted again meanwhile: that Want waits for nothing
    s.leaseId = id;
    s.keepAlive = std::make_unique<EtcdKeepAlive>(m_client, id, ttl);
    const auto lost = [this, ttl, id] {
        Standby &t = m_byTtl[ttl];
        if (t.leaseId != id)
            return;
        // Expired, or unrenewable (a keep-alive that failed, on a stream that broke as etcd
        // resumed, say): etcd may still hold it, so it is revoked, not left to its TTL.
        drop(t, true);
        if (t.wanted > 0)
            grant(ttl);
    };
    connect(s.keepAlive.get(), &EtcdKeepAlive::expired, this, lost);
    connect(s.keepAlive.get(), &EtcdKeepAlive::keepAliveFailed, this, lost);
    s.keepAlive->start();
    qCDebug(lcEtcdLease) << "standby lease" << id << "of" << ttl.count() << "s granted";
}

EtcdReply *StandbyLeases::drop(Standby &s, bool revoke)
{
    if (s.keepAlive)
        s.keepAlive.release()->deleteLater(); // we may be inside its signal
    const qint64 id = std::exchange(s.leaseId, -1);
    return revoke && id > 0 ? revokeLeaseQuietly(m_client, id) : nullptr;
}

} // namespace Etcd::Internal
