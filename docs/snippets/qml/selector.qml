// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
import QtQuick
import EtcdQt

Item {
    id: root
    property int rounds: 0
    EtcdClient { id: etcd; endpoints: ["127.0.0.1:2379"] }
    //! [selector]
    // Leads one round at a time: when the round's work is done, QML gives the leadership up
    // with scheduler.relinquish(), a successor wins at once, and autoRequeue puts this item
    // back in line for a later round.
    LeaderSelector {
        id: scheduler
        client: etcd
        path: "/election/scheduler"
        ttl: 2000
        autoRequeue: true // else it stays out of the election until requeue()
        active: true // campaigns once complete; false relinquishes
        onElected: console.log("my round, term", fencingToken.revision)
        onLeadershipLost: (code, message) => console.warn("round cut short:", message)
        onTermFinished: root.rounds++
    }
    //! [selector]
}
