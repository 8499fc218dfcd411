// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
import QtQuick
import EtcdQt

Item {
    id: root
    property bool maintenanceOver: false
    EtcdClient { id: etcd; endpoints: ["127.0.0.1:2379"] }
    //! [barrier]
    // One item sets the gate, another waits for it to lift.
    Barrier {
        id: gate
        client: etcd
        path: "/barriers/maintenance"
        ttl: 2000
        active: true
        Component.onCompleted: setBarrier()
        onSetFinished: result => console.log(result ? "gate set" : "someone set it already")
    }
    Barrier {
        id: waiter
        client: etcd
        path: "/barriers/maintenance"
        active: true
        Component.onCompleted: startWaiting()
        onLifted: {
            console.log("maintenance over")
            root.maintenanceOver = true
        }
    }
    //! [barrier]
}
