// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
import QtQuick
import EtcdQt

Column {
    EtcdClient { id: etcd; endpoints: ["127.0.0.1:2379"] }
    LeaderElection { id: candidate; client: etcd; path: "/election/observed"; ttl: 2000; active: true }
    //! [observer]
    // Shows who leads, without taking part.
    LeaderObserver { id: observer; client: etcd; path: "/election/observed"; active: true }
    Text { text: "leader: " + (observer.leader || "nobody") }
    //! [observer]
    //! [participants]
    // A candidate's live list of everyone in its election (roles clientId and isLeader).
    Repeater {
        id: candidates
        model: candidate.participants
        Text { required property string clientId; required property bool isLeader
               text: clientId + (isLeader ? " (leader)" : "") }
    }
    //! [participants]
}
