// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "clientcalls_p.h"

#include "etcdclient_p.h"

#include <EtcdQt/etcdreplies.h>

namespace Etcd::Internal {

EtcdStatus clientGone()
{
    return EtcdStatus(Etcd::ErrorCode::NotConnected, EtcdClient::tr("the client was destroyed"));
}

EtcdTxnReply *txnOn(EtcdClient *client, const EtcdTxn &txn)
{
    return client ? client->txn(txn) : EtcdClientPrivate::refused<EtcdTxnReply>(clientGone());
}

EtcdRangeReply *getOn(EtcdClient *client, const QByteArray &key, const EtcdRangeOptions &options)
{
    return client ? client->get(key, options)
                  : EtcdClientPrivate::refused<EtcdRangeReply>(clientGone());
}

EtcdDeleteReply *removeOn(
    EtcdClient *client, const QByteArray &key, const EtcdDeleteOptions &options)
{
    return client ? client->remove(key, options)
                  : EtcdClientPrivate::refused<EtcdDeleteReply>(clientGone());
}

} // namespace Etcd::Internal
