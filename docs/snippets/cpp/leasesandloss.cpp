// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "snippets.h"

#include <EtcdQt/EtcdQt>

#include <QtCore/qdebug.h>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace snippets {

EtcdSelfHealingKeepAlive *ownKeyThatHeals(EtcdClient *client, QObject *owner)
{
    //! [selfHealing]
    // The hook runs under the first lease and again under each new one. It claims the key
    // only if nobody holds it: after an outage someone else may have taken it, and then the
    // object must stop rather than overwrite them.
    auto establish = [client](qint64 leaseId, EtcdSelfHealingKeepAlive::EstablishDone done) {
        const QByteArray key = "/workers/indexer"_ba;
        EtcdTxn claim;
        claim.compares = {EtcdCompare::missing(key)};
        claim.success = {EtcdTxnOp::put(key, "host-a"_ba, EtcdPutOptions {leaseId})};
        EtcdTxnReply *reply = client->txn(claim);
        QObject::connect(reply, &EtcdReply::finished, client,
            [reply, done](const EtcdStatus &status) { done(status.isOk() && reply->succeeded()); });
    };
    auto *lease = new EtcdSelfHealingKeepAlive(client, 2s, establish, {}, owner);
    QObject::connect(lease, &EtcdSelfHealingKeepAlive::leaseEvent, owner,
        [](const EtcdLeaseEvent &event) { qInfo() << "lease:" << event.typeName(); });
    lease->start();
    //! [selfHealing]
    return lease;
}

EtcdTransientKeyValue *announcePresence(EtcdClient *client, QObject *owner)
{
    //! [transient]
    // A key that exists while this object is active: deleted by someone, it is written
    // again; written over by someone, it is theirs, and the object fails instead.
    auto *presence = new EtcdTransientKeyValue(
        client, "/presence/host-a"_ba, "online"_ba, 2s, EtcdLeaseResilience {}, owner);
    QObject::connect(
        presence, &EtcdTransientKeyValue::leaseEvent, owner, [](const EtcdLeaseEvent &event) {
            if (event.type == EtcdLeaseEvent::Type::Expired)
                qWarning() << "gone from etcd until healed:" << event.cause.toString();
        });
    QObject::connect(presence, &EtcdTransientKeyValue::failed, owner,
        [](const EtcdStatus &why) { qWarning() << "presence ended:" << why.toString(); });
    presence->start();
    //! [transient]
    return presence;
}

bool startIfLeaseLastsFor(EtcdMutex *mutex, std::chrono::milliseconds work)
{
    //! [budget]
    // remainingValidity() counts from when the last renewal etcd answered was sent, so it
    // never promises more than etcd still grants. Work that could outlive the hold waits.
    if (mutex->remainingValidity() < work + 500ms)
        return false;
    //! [budget]
    return true;
}

} // namespace snippets
