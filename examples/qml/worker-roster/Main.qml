// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0

// The live workers under one etcd path, from a PathChildrenCache's model: a worker is a key
// on a lease, so it leaves the roster when it stops (or its lease runs out). This window
// can run a demo worker of its own: Ctrl+D starts and stops it.

import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import EtcdQt

ApplicationWindow {
    id: window

    property string endpoint: "http://127.0.0.1:2379"
    property string rosterPath: "/examples/worker-roster"
    property bool demoAtStart: false
    // This window's demo worker: a name of its own, and since when it runs.
    readonly property string demoName: "demo-" + Math.floor(Math.random() * 100000)
    property string demoSince: Qt.formatTime(new Date(), "hh:mm:ss")

    // Starts or stops the demo worker: stopping revokes its lease, and the key goes with it.
    function toggleDemo() {
        if (!demoWorker.active)
            demoSince = Qt.formatTime(new Date(), "hh:mm:ss")
        demoWorker.active = !demoWorker.active
    }

    width: 640
    height: 440
    visible: true
    title: qsTr("Worker roster: %1").arg(window.rosterPath)

    EtcdClient {
        id: etcd
        endpoints: [window.endpoint]
    }

    PathChildrenCache {
        id: roster
        client: etcd
        path: window.rosterPath
        active: true
        onChildAdded: (name, value) => console.log("joined:", name, "value:", value,
                                                   "live:", count)
        onChildRemoved: (name, previous) => console.log("left:", name, "live:", count)
        onReadyChanged: if (ready) console.log("ready, live:", count)
    }

    // The demo worker: its key exists while its lease is kept alive, i.e. while it runs.
    TransientKeyValue {
        id: demoWorker
        client: etcd
        key: window.rosterPath + "/" + window.demoName
        value: "demo, since " + window.demoSince // data, not interface text: not translated
        ttl: 5000
        active: window.demoAtStart
        property string problem // why it stopped by itself
        onActiveChanged: if (active) problem = ""
        // A worker whose lease could not be granted (etcd unreachable) or was lost stops:
        // the button then offers to start it again.
        onErrorOccurred: (code, message) => {
            if (leaseId === "") {
                problem = message
                active = false
            }
        }
        onLeaseLost: (code, message) => {
            problem = message
            active = false
        }
    }

    Shortcut {
        sequence: "Ctrl+D"
        onActivated: window.toggleDemo()
    }
    Shortcut {
        sequence: "Ctrl+Q"
        onActivated: window.close()
    }

    ColumnLayout {
        anchors.fill: parent
        anchors.margins: 16
        spacing: 10

        Label {
            text: qsTr("Workers under %1").arg(window.rosterPath)
            font.pixelSize: 20
            font.bold: true
            elide: Text.ElideMiddle
            Layout.fillWidth: true
        }
        Label {
            text: etcd.state === EtcdClient.Connected ? qsTr("Connected to %1").arg(window.endpoint)
                                                       : qsTr("Not connected, trying %1").arg(window.endpoint)
            color: etcd.state === EtcdClient.Connected ? "#2e7d32" : "#c62828"
        }
        Label {
            text: !roster.ready ? qsTr("Reading the roster…")
                                : roster.count === 1 ? qsTr("1 live worker")
                                                     : qsTr("%1 live workers").arg(roster.count)
            font.pixelSize: 16
        }
        Label {
            // The last error, while it keeps the roster from being read (errors stay set).
            visible: roster.errorCode !== 0 && !roster.ready
            text: qsTr("Error %1: %2").arg(roster.errorCode).arg(roster.errorString)
            color: "#c62828"
            wrapMode: Text.Wrap
            Layout.fillWidth: true
        }

        // The table: a header row and one row per worker, sorted by name.
        Rectangle {
            Layout.fillWidth: true
            Layout.fillHeight: true
            color: "#ffffff"
            border.color: list.activeFocus ? "#1565c0" : "#b0bec5"
            border.width: list.activeFocus ? 2 : 1

            ListView {
                id: list
                anchors.fill: parent
                anchors.margins: 2
                clip: true
                focus: true
                model: roster.model
                keyNavigationEnabled: true
                highlightMoveDuration: 0

                // Columns: name 36 %, value 34 %, lease the rest (delegates see no outer ids).
                header: Rectangle {
                    id: headerRow
                    width: ListView.view.width
                    height: 30
                    color: "#eceff1"
                    z: 2
                    Row {
                        anchors.fill: parent
                        anchors.leftMargin: 10
                        Label {
                            width: headerRow.width * 0.36
                            anchors.verticalCenter: parent.verticalCenter
                            text: qsTr("Name")
                            font.bold: true
                        }
                        Label {
                            width: headerRow.width * 0.34
                            anchors.verticalCenter: parent.verticalCenter
                            text: qsTr("Value")
                            font.bold: true
                        }
                        Label {
                            anchors.verticalCenter: parent.verticalCenter
                            text: qsTr("Lease")
                            font.bold: true
                        }
                    }
                }
                headerPositioning: ListView.OverlayHeader

                delegate: Rectangle {
                    id: row
                    required property int index
                    required property string name
                    required property string value
                    required property string lease
                    // Qt 6.4 has no "pragma ComponentBehavior: Bound", so qmllint cannot see
                    // that a delegate may use the window's id.
                    readonly property bool mine: row.name === window.demoName // qmllint disable unqualified

                    width: ListView.view.width
                    height: 32
                    color: row.ListView.isCurrentItem && row.ListView.view.activeFocus
                           ? "#bbdefb" : row.index % 2 ? "#f5f7f8" : "#ffffff"
                    Row {
                        anchors.fill: parent
                        anchors.leftMargin: 10
                        Label {
                            width: row.width * 0.36
                            anchors.verticalCenter: parent.verticalCenter
                            text: row.mine ? qsTr("%1 (this window)").arg(row.name) : row.name
                            font.bold: row.mine
                            elide: Text.ElideRight
                        }
                        Label {
                            width: row.width * 0.34
                            anchors.verticalCenter: parent.verticalCenter
                            text: row.value
                            elide: Text.ElideRight
                        }
                        Label {
                            anchors.verticalCenter: parent.verticalCenter
                            text: row.lease !== "" ? row.lease : qsTr("none")
                            font.family: "monospace"
                            color: row.lease !== "" ? "#37474f" : "#c62828"
                        }
                    }
                    MouseArea {
                        anchors.fill: parent
                        onClicked: {
                            row.ListView.view.currentIndex = row.index
                            row.ListView.view.forceActiveFocus()
                        }
                    }
                }

                Label {
                    anchors.centerIn: parent
                    visible: roster.ready && list.count === 0
                    text: qsTr("No live workers. Press Ctrl+D to start a demo worker.")
                    color: "#607d8b"
                }
            }
        }

        RowLayout {
            Layout.fillWidth: true
            spacing: 12
            Button {
                id: demoButton
                text: demoWorker.active ? qsTr("Stop demo worker") : qsTr("Start demo worker")
                enabled: etcd.state === EtcdClient.Connected
                onClicked: window.toggleDemo()
                Keys.onReturnPressed: window.toggleDemo()
            }
            Label {
                text: demoWorker.leaseId !== ""
                      ? qsTr("%1 runs on a lease of %2 s").arg(window.demoName).arg(demoWorker.ttl / 1000)
                      : demoWorker.active ? qsTr("%1 is starting…").arg(window.demoName)
                      : demoWorker.problem !== "" ? qsTr("The demo worker stopped: %1").arg(demoWorker.problem)
                      : qsTr("Ctrl+D: start or stop a demo worker · ↑↓: select · Tab: move focus")
                color: demoWorker.problem !== "" && !demoWorker.active ? "#c62828" : "#607d8b"
                Layout.fillWidth: true
                elide: Text.ElideRight
            }
        }
    }
}
