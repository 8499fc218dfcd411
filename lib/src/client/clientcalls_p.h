// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API.
#pragma once

#include <EtcdQt/etcdkeyvalue.h>
#include <EtcdQt/etcdstatus.h>
#include <EtcdQt/etcdtxn.h>

class EtcdClient;
class EtcdDeleteReply;
class EtcdRangeReply;
class EtcdTxnReply;

// Requests a recipe makes through a client that may be gone: a recipe holds its client in
// a QPointer, null once the client was destroyed. Without a client the reply finishes with
// clientGone() on the next event-loop turn, so the recipe's normal error path answers, after
// its caller has connected, and nothing dereferences the missing client.
namespace Etcd::Internal {

// NotConnected: "the client was destroyed".
[[nodiscard]] EtcdStatus clientGone();

EtcdTxnReply *txnOn(EtcdClient *client, const EtcdTxn &txn);
EtcdRangeReply *getOn(
    EtcdClient *client, const QByteArray &key, const EtcdRangeOptions &options = {});
EtcdDeleteReply *removeOn(
    EtcdClient *client, const QByteArray &key, const EtcdDeleteOptions &options = {});

} // namespace Etcd::Internal
