// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "clientcalls_p.h"
#include "queuekeys_p.h"
#include "recipemetrics_p.h"
#include "workops_p.h"
#include "workreclaim_p.h"

#include <EtcdQt/etcdclient.h>
#include <EtcdQt/etcdtxnreply.h>

#include <QtCore/qhash.h>
#include <QtCore/qpointer.h>
#include <QtCore/qset.h>

#include <memory>

namespace Etcd::Internal::WorkReclaim {

using QueueKeys::Area;

namespace {
EtcdRangeOptions wholeArea(bool keysOnly)
{
    EtcdRangeOptions o;
    o.prefix = true;
    o.keysOnly = keysOnly;
    return o;
}

struct Tally
{
    int pending = 0;
    int moved = 0;
    EtcdStatus status {};
    std::function<void(int, const EtcdStatus &)> done;
};

QList<EtcdKeyValue> kvsOf(const QList<EtcdTxnOpResult> &results, int i)
{
    return i < results.size() ? results.at(i).keyValues : QList<EtcdKeyValue>();
}

void moveOrphans(EtcdClient *client, QObject *context, const QByteArray &path, int maxDeliveries,
    const QList<EtcdTxnOpResult> &areas, const std::shared_ptr<Tally> &tally)
{
    QSet<QByteArray> claims;
    for (const EtcdKeyValue &kv : kvsOf(areas, 1))
        claims.insert(QueueKeys::idOf(kv.key, QueueKeys::area(path, Area::Claims)));
    QHash<QByteArray, int> attempts;
    for (const EtcdKeyValue &kv : kvsOf(areas, 2))
        attempts.insert(QueueKeys::idOf(kv.key, QueueKeys::area(path, Area::Attempts)),
            WorkOps::attemptOf(kv.value));
    for (const EtcdKeyValue &claimed : kvsOf(areas, 0)) {
        const QByteArray id = QueueKeys::idOf(claimed.key, QueueKeys::area(path, Area::Claimed));
        if (claims.contains(id))
            continue;
        ++tally->pending;
        const int attempt = attempts.value(id, 0);
        EtcdTxnReply *r = txnOn(client, WorkOps::reclaim(path, claimed, attempt, maxDeliveries));
        // WorkOps::reclaim() moves an item delivered that often to the dead letters.
        const bool dead = attempt >= maxDeliveries;
        QObject::connect(r, &EtcdReply::finished, context,
            [r, tally, dead, path, span = MetricSpan(metricsOf(client))](
                const EtcdStatus &s) mutable {
                if (!s.isOk()) {
                    tally->status = s;
                } else if (r->succeeded()) {
                    ++tally->moved;
                    if (dead) {
                        span.end([&](EtcdMetrics &m, EtcdMetrics::Duration d) {
                            m.recordQueueOperation(
                                EtcdMetrics::QueueOperation::DeadLetter, path, d);
                        });
                    }
                }
                if (--tally->pending == 0)
                    tally->done(tally->moved, tally->status);
            });
    }
    if (tally->pending == 0)
        tally->done(0, {});
}
} // namespace

void run(EtcdClient *client, QObject *context, const QByteArray &path, int maxDeliveries,
    std::function<void(int moved, const EtcdStatus &status)> done)
{
    EtcdTxn read;
    read.success = {EtcdTxnOp::get(QueueKeys::area(path, Area::Claimed), wholeArea(false)),
        EtcdTxnOp::get(QueueKeys::area(path, Area::Claims), wholeArea(true)),
        EtcdTxnOp::get(QueueKeys::area(path, Area::Attempts), wholeArea(false))};
    auto tally = std::make_shared<Tally>();
    tally->done = std::move(done);
    QPointer<EtcdClient> c(client);
    EtcdTxnReply *r = txnOn(client, read);
    QObject::connect(r, &EtcdReply::finished, context,
        [c, context, path, maxDeliveries, r, tally](const EtcdStatus &s) {
            if (!s.isOk())
                return tally->done(0, s);
            moveOrphans(c, context, path, maxDeliveries, r->results(), tally);
        });
}

} // namespace Etcd::Internal::WorkReclaim
