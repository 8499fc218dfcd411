// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
import QtQuick
import EtcdQt

Item {
    id: root
    property bool jobOver: false
    EtcdClient { id: etcd; endpoints: ["127.0.0.1:2379"] }
    //! [doublebarrier]
    // A job that starts when both of its members are in and ends when both are out.
    DoubleBarrier {
        id: job
        client: etcd
        path: "/barriers/nightly-job"
        memberCount: 2
        active: true
        Component.onCompleted: enter()
        onEntered: {
            console.log("both in: running my part")
            leave() // once my part is done; left() follows when the other's is too
        }
        onLeft: {
            console.log("both out: the job is over")
            root.jobOver = true
        }
    }
    //! [doublebarrier]
    // The job's other member, as another process would run it.
    DoubleBarrier {
        id: partner
        client: etcd
        path: "/barriers/nightly-job"
        memberCount: 2
        active: true
        onEntered: leave()
    }
}
