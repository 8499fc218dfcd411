// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "snippets.h"

#include <EtcdQt/EtcdQt>

#include <QtCore/qdebug.h>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace snippets {

void grantAndBind(EtcdClient *client)
{
    //! [grant]
    // A lease lives on the etcd server. A key bound to it is deleted by etcd when the lease
    // expires, whatever this process is doing by then.
    EtcdLeaseGrantReply *grant = client->grantLease(5s);
    QObject::connect(grant, &EtcdReply::finished, client, [client, grant](const EtcdStatus &s) {
        if (!s.isOk()) {
            qWarning() << "no lease:" << s.toString();
            return;
        }
        EtcdPutOptions onLease;
        onLease.lease = grant->leaseId();
        client->put("/services/worker-1"_ba, "10.0.0.1:8080"_ba, onLease);
        // Nothing renews the lease: the key is gone about 5 seconds from now.
    });
    //! [grant]
}

void renewWhileWorking(EtcdClient *client, qint64 leaseId, const std::function<void()> &work)
{
    //! [scoped]
    {
        // Renews the lease for exactly as long as `renewal` lives, however the scope ends.
        EtcdScopedKeepAlive renewal(client, leaseId, 5s, [](const EtcdStatus &why) {
            // Renewal stopped while we still rely on it: the keys may be gone already.
            qWarning() << "renewal stopped:" << why.toString();
        });
        work();
    } // renewal stops here; the lease lives out its TTL unless it is revoked
    //! [scoped]
}

EtcdKeepAlive *renewUntilStopped(EtcdClient *client, qint64 leaseId, QObject *owner)
{
    //! [unscoped]
    // When the lease must outlive the scope: the object renews until stop() or deletion.
    auto *keepAlive = new EtcdKeepAlive(client, leaseId, 5s, owner);
    QObject::connect(keepAlive, &EtcdKeepAlive::expired, owner,
        [](const EtcdStatus &why) { qWarning() << "the lease is gone:" << why.toString(); });
    keepAlive->start();
    //! [unscoped]
    return keepAlive;
}

void revoke(EtcdClient *client, qint64 leaseId)
{
    //! [revoke]
    // Deletes every key on the lease now, instead of leaving them for another TTL.
    client->revokeLease(leaseId);
    //! [revoke]
}

EtcdLeasedKeys *registerWorker(EtcdClient *client, QObject *owner)
{
    //! [putWithKeepAlive]
    // Grant, put and renew, started in one call; close() (or deleting it) revokes the lease.
    EtcdLeasedKeys *registration
        = Etcd::putWithKeepAlive(client, "/services/worker-1"_ba, "10.0.0.1:8080", 5s, owner);
    QObject::connect(registration, &EtcdLeasedKeys::keepAliveFailed, owner,
        [](const EtcdStatus &why) { qWarning() << "registration lapsed:" << why.toString(); });
    //! [putWithKeepAlive]
    return registration;
}

EtcdLeasedKeys *registerHostAndPort(EtcdClient *client, QObject *owner)
{
    //! [severalKeys]
    // Both keys on one lease: they are renewed together and expire together.
    const EtcdKeyValueList keys = {
        {"/services/worker-2/host"_ba, "10.0.0.2"_ba},
        {"/services/worker-2/port"_ba, Etcd::encodeInt32(8080)},
    };
    EtcdLeasedKeys *registration = Etcd::putValuesWithKeepAlive(client, keys, 5s, owner);
    //! [severalKeys]
    return registration;
}

} // namespace snippets
