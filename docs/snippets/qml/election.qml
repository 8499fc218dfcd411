// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//! [election]
import QtQuick
import EtcdQt

Text {
    EtcdClient { id: etcd; endpoints: ["127.0.0.1:2379"] }
    LeaderElection {
        id: election
        client: etcd
        path: "/election/dashboard"
        ttl: 2000 // milliseconds; etcd rounds up to whole seconds
        active: true // campaigns once complete; false resigns
        onElected: console.log("leading, term", fencingToken.revision)
        onLeadershipLost: (code, message) => console.warn("term lost:", message)
    }
    text: election.isLeader ? "leading" : "led by " + (election.leader || "nobody yet")
}
//! [election]
