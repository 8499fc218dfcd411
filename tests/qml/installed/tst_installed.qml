// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0

// Run by qmltestrunner against the module as `cmake --install` put it into a scratch prefix
// (qml_install.cmake): `import EtcdQt` works from the installed QML import path alone.

import QtQuick
import QtTest
import EtcdQt

TestCase {
    name: "InstalledModule"

    EtcdClient { id: client; endpoints: ["127.0.0.1:1"]; active: false }
    LeaderElection { id: election; client: client; path: "e" }
    LeaderObserver { id: observer; client: client; path: "e" }
    TransientKeyValue { id: kv; client: client; key: "k"; value: "v" }
    Lease { id: lease; client: client }
    DistributedLock { id: lock; client: client; path: "l" }
    Barrier { id: barrier; client: client; path: "b" }
    CountDownLatch { id: latch; client: client; path: "c" }
    Watch { id: watch; client: client; key: "w" }
    Semaphore { id: semaphore; client: client; path: "s"; permits: 2 }
    ReadWriteLock { id: readWriteLock; client: client; path: "rw"; mode: ReadWriteLock.Read }
    CountedBarrier { id: countedBarrier; client: client; path: "cb"; memberCount: 2 }
    DoubleBarrier { id: doubleBarrier; client: client; path: "db"; memberCount: 2 }
    AtomicCounter { id: counter; client: client; path: "n" }
    LeaderSelector { id: selector; client: client; path: "ls" }

    function test_types() {
        compare(client.state, EtcdClient.Disconnected)
        compare(election.isLeader, false)
        compare(observer.leader, "")
        compare(kv.leaseId, "")
        compare(lease.state, Lease.Inactive)
        compare(lock.held, false)
        compare(barrier.state, Barrier.Unset)
        compare(latch.count, -1)
        compare(watch.model.count, 0)
        compare(semaphore.held, false)
        compare(readWriteLock.mode, ReadWriteLock.Read)
        compare(countedBarrier.waiting, false)
        compare(doubleBarrier.phase, DoubleBarrier.Outside)
        verify(isNaN(counter.value))
        compare(selector.state, LeaderSelector.Idle)
        compare(EtcdError.NotFound, 5)
    }
}
