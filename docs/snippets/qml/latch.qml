// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
import QtQuick
import EtcdQt

Item {
    EtcdClient { id: etcd; endpoints: ["127.0.0.1:2379"] }
    //! [latch]
    // Follows a count in etcd; opens once it reaches zero.
    CountDownLatch {
        id: ready
        client: etcd
        path: "/latches/workers-ready"
        active: true
        Component.onCompleted: create(2) // unless a latch exists already
        onOpened: console.log("all workers ready")
    }
    Text { text: ready.open ? "go" : ready.count + " to go" }
    //! [latch]
}
