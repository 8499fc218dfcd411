// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API.
#pragma once

#include "recipelayer_p.h"
#include "recipemetrics_p.h"

#include <EtcdQt/etcdkeyvalue.h>
#include <EtcdQt/etcdretrypolicy.h>
#include <EtcdQt/etcdstatus.h>

#include <QtCore/qobject.h>
#include <QtCore/qpointer.h>

#include <chrono>
#include <functional>
#include <memory>

class EtcdClient;
class EtcdLeaseEvent;
class EtcdSelfHealingKeepAlive;
class EtcdTxnReply;
class EtcdWatch;

namespace Etcd::Internal {

// One member's arrival at a counted barrier (etcd-recipes' DistributedBarrierWithCount):
//  1. create "<path>/ready" if absent (no lease: the round's marker);
//  2. register "<path>/waiting/<token>" on a self-healing lease (a compare-and-set);
//  3. check: "ready" gone means the round tripped; memberCount waiting keys mean this member
//     trips it, deleting "ready";
//  4. otherwise watch "<path>/" from the check's revision: a new waiting key checks again,
//     the deletion of "ready" trips.
// Whatever ends it, its lease is revoked and its waiting key deleted. finished() comes once.
// The watch's suspensions and resumptions go to `sink`, and so does the lease's resumption
// (its suspension is a leaseEvent()).
class BarrierArrival : public QObject
{
    Q_OBJECT
public:
    struct Options
    {
        QByteArray path;
        int memberCount = 1;
        QByteArray token; // "<clientId>:<7>"
        std::chrono::seconds ttl {2};
        EtcdLeaseResilience resilience {};
    };

    BarrierArrival(
        EtcdClient *client, const Options &options, QObject *parent, ConnectionSink sink = {});
    ~BarrierArrival() override;
    void start();
    void leave(); // finished(false), cleaned up
    void leaveCounted(); // finished(whether this member's round tripped), cleaned up

Q_SIGNALS:
    void finished(bool tripped);
    void cleanedUp(); // after finished(): its lease revoked (or none was granted)
    void waiterCountChanged(int count);
    void errorOccurred(const EtcdStatus &status);
    void leaseEvent(const EtcdLeaseEvent &event);

private:
    void createReady();
    void registerWaiting();
    void writeWaiting(qint64 leaseId, const std::function<void(bool)> &done, int attempt);
    void moveOwnWaiting(const EtcdKeyValue &own, qint64 leaseId,
        const std::function<void(bool)> &done, int attempt);
    void check();
    void onChecked(EtcdTxnReply *reply, const EtcdStatus &status);
    void watchFrom(qint64 revision);
    void countAgain();
    void trip(const QList<EtcdKeyValue> &counted);
    void fail(const EtcdStatus &why);
    void checkLaterOrFail(const EtcdStatus &why);
    void end(bool tripped);
    void reportWait(bool tripped);
    // How a wait that did not trip ended, for the metrics.
    EtcdMetrics::Outcome m_untripped = EtcdMetrics::Outcome::Cancelled;
    MetricSpan m_waiting;
    void cleanUp();
    void closeLease();
    [[nodiscard]] QByteArray readyKey() const;
    [[nodiscard]] QByteArray waitingPrefix() const;

    QPointer<EtcdClient> m_client;
    Options m_options;
    ConnectionSink m_sink;
    std::unique_ptr<EtcdSelfHealingKeepAlive> m_lease;
    std::unique_ptr<EtcdWatch> m_watch;
    qint64 m_roundRevision = 0; // create revision of the "ready" of this member's round
    bool m_registered = false; // its waiting key was written
    bool m_leaveRequested = false; // timed out while its key was being written
    bool m_checking = false;
    bool m_checkAgain = false;
    bool m_done = false;
};

} // namespace Etcd::Internal
