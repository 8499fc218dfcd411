// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0

// The live instances of one service, from a ServiceList's model: an instance is a key on a
// lease, so it leaves the list when its process unregisters (or its lease runs out). This
// window can register itself as an instance: Ctrl+R registers and unregisters it, Ctrl+E
// switches its "enabled" flag, which updates the instance in place.

import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import EtcdQt

ApplicationWindow {
    id: window

    property string endpoint: "http://127.0.0.1:2379"
    property string servicePath: "/examples/services"
    property string serviceName: "api"
    property bool registerAtStart: false
    // The port this window's instance announces (nothing listens: it is a demo).
    property int ownPort: 20000 + Math.floor(Math.random() * 40000)
    // Its lease's TTL (ms): how long the instance outlives this window if it cannot unregister.
    property int ownTtl: 5000

    // This window's instance id while it takes part (for marking its row).
    readonly property string ownId: own.running ? own.instanceId : ""

    function toggleRegistration() {
        if (!own.active)
            own.problem = ""
        own.active = !own.active
    }

    width: 720
    height: 460
    visible: true
    title: qsTr("Service list: %1 under %2").arg(window.serviceName).arg(window.servicePath)

    EtcdClient {
        id: etcd
        endpoints: [window.endpoint]
    }

    ServiceList {
        id: instances
        client: etcd
        servicePath: window.servicePath
        name: window.serviceName
        active: true
        onInstanceAdded: instance => console.log("added:", instance.id, "endpoint:",
                                                 instance.endpoint, "enabled:",
                                                 instance.enabled, "live:", count)
        onInstanceUpdated: instance => console.log("updated:", instance.id, "endpoint:",
                                                   instance.endpoint, "enabled:",
                                                   instance.enabled, "live:", count)
        onInstanceRemoved: instanceId => console.log("removed:", instanceId, "live:", count)
        onReadyChanged: if (ready) console.log("ready, live:", count)
    }

    // This window as an instance: registered while active, its lease revoked when it stops.
    ServiceRegistration {
        id: own
        client: etcd
        servicePath: window.servicePath
        name: window.serviceName
        address: "127.0.0.1"
        port: window.ownPort
        payload: JSON.stringify({ example: "service-list" })
        ttl: window.ownTtl
        active: window.registerAtStart
        property string problem // why it stopped by itself
        // An instance that could not register (etcd unreachable, its id taken) stops: the
        // button then offers to register it again.
        onRegistrationFailed: (code, message) => {
            problem = message
            active = false
        }
        onErrorOccurred: (code, message) => {
            if (leaseId === "") {
                problem = message
                active = false
            }
        }
    }

    Shortcut {
        sequence: "Ctrl+R"
        onActivated: window.toggleRegistration()
    }
    Shortcut {
        sequence: "Ctrl+E"
        onActivated: own.enabled = !own.enabled
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
            text: qsTr("Instances of “%1” under %2").arg(window.serviceName).arg(window.servicePath)
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
            text: !instances.ready ? qsTr("Reading the instances…")
                                   : instances.count === 1 ? qsTr("1 live instance")
                                                           : qsTr("%1 live instances").arg(instances.count)
            font.pixelSize: 16
        }
        Label {
            // The last error, while it keeps the list from being read (errors stay set).
            visible: instances.errorCode !== 0 && !instances.ready
            text: qsTr("Error %1: %2").arg(instances.errorCode).arg(instances.errorString)
            color: "#c62828"
            wrapMode: Text.Wrap
            Layout.fillWidth: true
        }

        // The table: a header row and one row per instance, sorted by id.
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
                model: instances.model
                keyNavigationEnabled: true
                highlightMoveDuration: 0

                // Columns: id 34 %, endpoint 28 %, enabled 14 %, lease the rest (delegates
                // see no outer ids).
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
                            width: headerRow.width * 0.34
                            anchors.verticalCenter: parent.verticalCenter
                            text: qsTr("Instance")
                            font.bold: true
                        }
                        Label {
                            width: headerRow.width * 0.28
                            anchors.verticalCenter: parent.verticalCenter
                            text: qsTr("Endpoint")
                            font.bold: true
                        }
                        Label {
                            width: headerRow.width * 0.14
                            anchors.verticalCenter: parent.verticalCenter
                            text: qsTr("Enabled")
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
                    // Its id and enabled roles through `model`: an Item has those names.
                    required property var model
                    required property string endpoint
                    required property string lease
                    readonly property string instanceId: row.model.id
                    readonly property bool instanceEnabled: row.model.enabled
                    // Qt 6.4 has no "pragma ComponentBehavior: Bound", so qmllint cannot see
                    // that a delegate may use the registration's id.
                    readonly property bool mine: row.instanceId === window.ownId // qmllint disable unqualified

                    width: ListView.view.width
                    height: 32
                    color: row.ListView.isCurrentItem && row.ListView.view.activeFocus
                           ? "#bbdefb" : row.index % 2 ? "#f5f7f8" : "#ffffff"
                    Row {
                        anchors.fill: parent
                        anchors.leftMargin: 10
                        Label {
                            width: row.width * 0.34
                            anchors.verticalCenter: parent.verticalCenter
                            text: row.mine ? qsTr("%1 (this window)").arg(row.instanceId)
                                           : row.instanceId
                            font.bold: row.mine
                            font.family: "monospace"
                            elide: Text.ElideRight
                        }
                        Label {
                            width: row.width * 0.28
                            anchors.verticalCenter: parent.verticalCenter
                            text: row.endpoint !== "" ? row.endpoint : qsTr("none")
                            font.family: "monospace"
                            elide: Text.ElideRight
                        }
                        Label {
                            width: row.width * 0.14
                            anchors.verticalCenter: parent.verticalCenter
                            text: row.instanceEnabled ? qsTr("yes") : qsTr("no")
                            font.bold: !row.instanceEnabled
                            color: row.instanceEnabled ? "#2e7d32" : "#c62828"
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
                    visible: instances.ready && list.count === 0
                    text: qsTr("No live instances. Press Ctrl+R to register this window.")
                    color: "#607d8b"
                }
            }
        }

        RowLayout {
            Layout.fillWidth: true
            spacing: 12
            Button {
                text: own.active ? qsTr("Unregister this window") : qsTr("Register this window")
                enabled: etcd.state === EtcdClient.Connected
                onClicked: window.toggleRegistration()
                Keys.onReturnPressed: window.toggleRegistration()
            }
            CheckBox {
                text: qsTr("Enabled")
                checked: own.enabled
                onToggled: own.enabled = checked
                Keys.onReturnPressed: own.enabled = !own.enabled
            }
            Label {
                text: own.registered
                      ? qsTr("Registered as %1 at %2:%3, lease TTL %4 s").arg(own.instanceId)
                        .arg(own.address).arg(own.port).arg(own.ttl / 1000)
                      : own.active ? qsTr("Registering…")
                      : own.problem !== "" ? qsTr("Registration stopped: %1").arg(own.problem)
                      : qsTr("Ctrl+R: register · Ctrl+E: enabled · ↑↓: select · Tab: move focus")
                color: own.problem !== "" && !own.active ? "#c62828" : "#607d8b"
                Layout.fillWidth: true
                elide: Text.ElideRight
            }
        }
    }
}
