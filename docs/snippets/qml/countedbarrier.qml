// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
import QtQuick
import EtcdQt

Item {
    id: root
    property int batchesDone: 0
    EtcdClient { id: etcd; endpoints: ["127.0.0.1:2379"] }
    //! [countedbarrier]
    // Each worker arrives when its part of the batch is done; all go on together once
    // memberCount workers, in any process, have arrived.
    CountedBarrier {
        id: batch
        client: etcd
        path: "/barriers/batch-17"
        memberCount: 2
        active: true // arrive() then parks this worker until the others arrived
        onTripped: {
            console.log("every worker finished the batch")
            root.batchesDone++
        }
        onArrivalFailed: (code, message) => console.warn("could not wait:", message)
    }
    //! [countedbarrier]
    // The other worker, as another process would run it.
    CountedBarrier {
        id: otherWorker
        client: etcd
        path: "/barriers/batch-17"
        memberCount: 2
        active: true
    }
}
