// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0

// One participant's window: whether it leads, who leads, and everyone taking part.
// Click "take part" to step out of the election and back in.

import QtQuick
import QtQuick.Window
import EtcdQt

Window {
    id: window

    property string endpoint: "http://127.0.0.1:2379"
    property string electionPath: "/examples/election-dashboard"
    property string participantName
    property int slot: 0

    width: 320
    height: 420
    x: 40 + slot * (width + 24)
    y: 80
    visible: true
    title: (election.isLeader ? "LEADER: " : "") + (election.clientId || "election-dashboard")
    color: election.isLeader ? "#e8f5e9" : "#fafafa"

    EtcdClient {
        id: etcd
        endpoints: [window.endpoint]
    }

    LeaderElection {
        id: election
        client: etcd
        path: window.electionPath
        clientId: window.participantName
        ttl: 2000
        active: true
        onElected: console.log(clientId, "elected, fencing revision", fencingToken.revision)
        onLeadershipLost: (code, message) => console.log(clientId, "lost leadership:", message)
    }

    Column {
        anchors.fill: parent
        anchors.margins: 16
        spacing: 10

        Text {
            text: election.clientId || "(not taking part)"
            font.pixelSize: 20
            font.bold: true
        }
        Text {
            text: etcd.state === EtcdClient.Connected ? "connected to " + window.endpoint
                                                       : "connecting to " + window.endpoint
            color: etcd.state === EtcdClient.Connected ? "#2e7d32" : "#c62828"
        }
        Text {
            text: !election.running ? "idle" : election.isLeader ? "LEADER" : "follower"
            font.pixelSize: 32
            font.bold: election.isLeader
            color: election.isLeader ? "#1b5e20" : "#455a64"
        }
        Text {
            text: "leader: " + (election.leader || "none yet")
        }
        Text {
            visible: election.isLeader
            text: "fencing revision: " + election.fencingToken.revision
            color: "#616161"
        }
        Text {
            visible: election.errorCode !== 0
            text: "error " + election.errorCode + ": " + election.errorString
            color: "#c62828"
            width: parent.width
            wrapMode: Text.Wrap
        }
        Text {
            text: "participants"
            font.bold: true
        }
        ListView {
            width: parent.width
            height: 150
            model: election.participants
            delegate: Text {
                required property string clientId
                required property bool isLeader
                text: (isLeader ? "★ " : "   ") + clientId
                font.bold: isLeader
            }
        }
        Rectangle {
            width: 140
            height: 32
            radius: 4
            color: toggle.pressed ? "#b0bec5" : "#cfd8dc"
            Text {
                anchors.centerIn: parent
                text: election.active ? "step out" : "take part"
            }
            MouseArea {
                id: toggle
                anchors.fill: parent
                onClicked: election.active = !election.active
            }
        }
    }
}
