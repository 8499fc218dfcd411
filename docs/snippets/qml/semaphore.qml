// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
import QtQuick
import EtcdQt

Item {
    EtcdClient { id: etcd; endpoints: ["127.0.0.1:2379"] }
    //! [semaphore]
    // One of two encoder slots, shared by every process that uses the path.
    Semaphore {
        id: encoderSlot
        client: etcd
        path: "/semaphores/encoders"
        permits: 2 // the first user of the path fixes the count
        ttl: 10000
        active: true // asks once complete, and waits in line; false gives the permit back
        onAcquired: console.log("encoding, fencing token", fencingToken.revision)
        onPermitLost: (code, message) => console.warn("lost the encoder slot:", message)
    }
    //! [semaphore]
    // Two more processes' slots: two of the three hold, the third waits.
    Semaphore { id: second; client: etcd; path: "/semaphores/encoders"; permits: 2; active: true }
    Semaphore { id: third; client: etcd; path: "/semaphores/encoders"; permits: 2; active: true }
}
