// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
import QtQuick
import EtcdQt

Item {
    EtcdClient { id: etcd; endpoints: ["127.0.0.1:2379"] }
    //! [lock]
    // Holds the lock while active; a hold whose lease is lost is reported, never healed.
    DistributedLock {
        id: editLock
        client: etcd
        path: "/locks/document-42"
        ttl: 10000
        active: true // acquire once complete; false releases
        onAcquired: console.log("editing, fencing token", fencingToken.revision)
        onLockLost: (code, message) => console.warn("lost the edit lock:", message)
    }
    //! [lock]
}
