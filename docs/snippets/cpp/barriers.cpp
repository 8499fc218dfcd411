// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "snippets.h"

#include <EtcdQt/EtcdQt>

#include <QtCore/qdebug.h>
#include <QtCore/qthreadpool.h>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace snippets {

EtcdBarrier *holdTheGate(EtcdClient *client, QObject *owner)
{
    //! [setBarrier]
    // One process sets the gate (its key on a self-healing lease of this object)...
    auto *gate = new EtcdBarrier(client, "/barriers/migration"_ba, {}, owner);
    EtcdBoolReply *set = gate->setBarrier();
    QObject::connect(set, &EtcdReply::finished, owner, [set](const EtcdStatus &status) {
        if (status.isOk() && !set->result())
            qInfo() << "someone else holds the gate already";
    });
    // ... and, once the migration is done, gate->removeBarrier() lets everyone through.
    //! [setBarrier]
    return gate;
}

EtcdBarrier *waitAtTheGate(EtcdClient *client, QObject *owner)
{
    //! [waitOnBarrier]
    // The others wait for it to go: lifted() here, or waitOnBarrier(timeout) on a worker.
    auto *gate = new EtcdBarrier(client, "/barriers/migration"_ba, {}, owner);
    QObject::connect(gate, &EtcdBarrier::lifted, owner, [] { qInfo() << "migrated: go"; });
    gate->startWaiting();
    //! [waitOnBarrier]
    return gate;
}

EtcdCountedBarrier *meetBeforeSwitching(EtcdClient *client, int members, QObject *owner)
{
    //! [counted]
    // N processes meet; none goes on until all N have arrived. No coordinator.
    auto *meeting = new EtcdCountedBarrier(client, "/barriers/reindex"_ba, members, {}, owner);
    QThreadPool::globalInstance()->start([meeting] {
        // ... prepare this shard ...
        if (!meeting->waitOnBarrier(30s))
            return; // not all arrived in time: this member has left the barrier
        qInfo() << "switching to the new index";
    });
    //! [counted]
    return meeting;
}

EtcdDoubleBarrier *runPhaseInStep(EtcdClient *client, int members, QObject *owner)
{
    //! [double]
    // A phase run in step: all enter together, all leave together.
    auto *phase = new EtcdDoubleBarrier(client, "/barriers/phase"_ba, members, {}, owner);
    QThreadPool::globalInstance()->start([phase] {
        if (!phase->enter(30s))
            return;
        qInfo() << "in the phase"; // this member's part of it
        phase->leave(30s);
    });
    //! [double]
    return phase;
}

EtcdCountDownLatch *waitForWorkers(EtcdClient *client, int workers, QObject *owner)
{
    //! [latch]
    // The coordinator creates the latch with one count per worker; each worker counts down
    // when it is ready; whoever follows it sees it open at zero. The count has no lease:
    // the latch outlives whoever created it.
    auto *ready = new EtcdCountDownLatch(client, "/latches/workers-ready"_ba, owner);
    QObject::connect(ready, &EtcdCountDownLatch::opened, owner, [] { qInfo() << "all ready"; });
    ready->create(workers);
    ready->start(); // follow the count: countChanged(), then opened() at zero
    // In each worker process: EtcdCountDownLatch(client, path).countDown();
    //! [latch]
    return ready;
}

} // namespace snippets
