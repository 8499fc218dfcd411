// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API.
#pragma once

#include <QtCore/qobject.h>
#include <QtCore/qpointer.h>

#include <chrono>
#include <map>
#include <memory>
#include <optional>

class EtcdBoolReply;
class EtcdClient;
class EtcdKeepAlive;
class EtcdReply;

namespace Etcd::Internal {

// Leases granted and renewed long before a heal needs one: one per TTL per client, while a
// self-healing lease of that TTL is alive (issue 18). A spare granted only when a key is seen
// deleted races the heal's write: etcd applies two requests of one connection in no fixed
// order, and a write that arrives first finds no such lease and runs again a round trip later
// (7 of 20 heals in discovery_heal). A standby is known to etcd already, so the heal's write
// is its only round trip. It costs one lease per TTL in use, renewed on the client's one
// keep-alive stream with the others, and is revoked when the last lease wanting it goes.
// Lives in the client's thread, as a child of the client; the recipes ask from that thread.
class StandbyLeases : public QObject
{
public:
    // A standby of its TTL is kept while a Want is held.
    class Want
    {
    public:
        Want(StandbyLeases *pool, std::chrono::seconds ttl) : m_pool(pool), m_ttl(ttl) { }
        ~Want() { release(); }
        Want(const Want &) = delete;
        Want &operator=(const Want &) = delete;
        // When this was the last Want of its TTL, a reply that finishes once the standby is
        // revoked (its grant answered first, if it was in flight), for a recipe's closed() to
        // wait for; null otherwise.
        EtcdReply *release();

    private:
        QPointer<StandbyLeases> m_pool;
        std::chrono::seconds m_ttl;
    };
    // Null when the caller is not in the client's thread: the pool is not shared across threads.
    [[nodiscard]] static std::unique_ptr<Want> want(EtcdClient *client, std::chrono::seconds ttl);
    // The standby of `ttl`, renewed and less than half a TTL from its last renewal, handed
    // over: its next EtcdKeepAlive counts its deadline from that renewal. A new one is
    // granted behind it. Nothing when there is none (yet).
    struct Handed
    {
        qint64 leaseId;
        std::chrono::milliseconds age; // since the renewal its deadline counts from
    };
    [[nodiscard]] static std::optional<Handed> take(EtcdClient *client, std::chrono::seconds ttl);

    ~StandbyLeases() override;

private:
    struct Standby
    {
        int wanted = 0; // tokens alive
        qint64 leaseId = -1; // granted and renewed; -1 when none
        std::unique_ptr<EtcdKeepAlive> keepAlive;
        bool granting = false;
        qint64 grantingId = -1; // chosen here, so that it can be revoked before the answer
        QPointer<EtcdBoolReply> unwantedGrant; // finished once the grant in flight is revoked
    };

    explicit StandbyLeases(EtcdClient *client);
    static StandbyLeases *of(EtcdClient *client, bool create);
    EtcdReply *unwant(std::chrono::seconds ttl);
    void grant(std::chrono::seconds ttl);
    void onGranted(std::chrono::seconds ttl, qint64 leaseId, bool ok);
    EtcdReply *drop(Standby &s, bool revoke);

    EtcdClient *m_client;
    std::map<std::chrono::seconds, Standby> m_byTtl;
};

} // namespace Etcd::Internal
