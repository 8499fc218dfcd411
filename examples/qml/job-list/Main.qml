// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0

// A job list on a work queue. The list is every item of the queue in the order it will be
// taken (QueueContents over the queue's keys): waiting, delayed, held by a consumer, or dead.
// This window is a consumer too (WorkQueue): while it takes jobs it holds up to three at a
// time, each claimed on its lease, until it acknowledges one (Ctrl+D: done) or puts it back
// (Ctrl+R: requeue). A job held by a window that closes or dies goes back to the queue (at
// once, or after the visibility timeout) and another window gets it, one delivery later.

import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import EtcdQt

ApplicationWindow {
    id: window

    property string endpoint: "http://127.0.0.1:2379"
    property string queuePath: "/examples/jobs"
    // The value of this window's claims: how its rows are told from the others'.
    property string consumerId: "job-list-" + Math.random().toString(36).slice(2, 7)
    property int visibilityTimeout: 10000
    property int maxJobs: 3
    property bool consumeAtStart: true
    property var initialJobs: [] // enqueued once connected

    // The deliveries this window holds, by item id: what ack and requeue need.
    property var held: ({})
    property int heldCount: 0
    property string status: ""

    // The selected row (its delegate), and the delivery behind it when this window holds it.
    readonly property var selected: list.currentItem
    readonly property var selectedDelivery: selected && selected.mine ? held[selected.itemId]
                                                                      : undefined
    readonly property bool selectedIsDead: !!selected
                                           && selected.itemState === QueueContents.DeadLetter

    function keep(item) {
        const next = Object.assign({}, held)
        next[item.id] = item
        held = next
        heldCount = Object.keys(next).length
    }
    function forget(id) {
        const next = Object.assign({}, held)
        delete next[id]
        held = next
        heldCount = Object.keys(next).length
    }
    // The initial jobs one after the other, each once the one before is in: sent at once,
    // they could reach etcd in any order.
    function enqueueNextInitial() {
        if (initialJobs.length === 0)
            return
        jobs.enqueue(initialJobs[0])
        initialJobs = initialJobs.slice(1)
    }
    function enqueueJob() {
        const text = jobField.text.trim()
        if (text === "" || !jobs.running)
            return
        jobs.enqueue(text)
        jobField.clear()
    }
    function ackSelected() {
        if (selectedDelivery !== undefined)
            jobs.ack(selectedDelivery)
    }
    function requeueSelected() {
        if (selectedDelivery !== undefined)
            jobs.requeue(selectedDelivery)
        else if (selectedIsDead)
            jobs.requeueDeadLetter(selected.itemId)
    }
    function stateText(row) {
        switch (row.itemState) {
        case QueueContents.Queued:
            return qsTr("waiting")
        case QueueContents.Delayed:
            return qsTr("delayed")
        case QueueContents.InFlight:
            return row.consumer === consumerId ? qsTr("held here") : qsTr("held by %1").arg(row.consumer)
        case QueueContents.Orphaned:
            return qsTr("orphaned")
        case QueueContents.DeadLetter:
            return qsTr("dead letter")
        }
        return ""
    }

    width: 760
    height: 500
    visible: true
    title: qsTr("Job list: %1").arg(window.queuePath)

    EtcdClient {
        id: etcd
        endpoints: [window.endpoint]
    }

    //! [workQueue]
    WorkQueue {
        id: jobs
        client: etcd
        path: window.queuePath
        clientId: window.consumerId // the value of its claims
        visibilityTimeout: window.visibilityTimeout // ms a dead window's jobs stay hidden
        maxInFlight: window.maxJobs // jobs held at once, each until ack() or requeue()
        consuming: window.consumeAtStart
        active: true
        onReceived: item => {
            window.keep(item)
            console.log("received:", item.id, item.value, "attempt:", item.attempt,
                        "held:", window.heldCount)
        }
        onAckFinished: (item, acknowledged) => {
            window.forget(item.id)
            console.log("acked:", item.id, acknowledged)
            window.status = acknowledged ? qsTr("Done: “%1”").arg(item.value)
                                         : qsTr("“%1” was lost before its ack: it runs again").arg(item.value)
        }
        onRunningChanged: {
            if (running)
                window.enqueueNextInitial()
        }
        onEnqueueFinished: (value, ok) => {
            console.log("enqueued:", value, ok)
            window.status = ok ? qsTr("Enqueued “%1”").arg(value) : qsTr("Not enqueued: %1").arg(errorString)
            window.enqueueNextInitial()
        }
        onRequeueFinished: (item, requeued) => {
            window.forget(item.id)
            console.log("requeued:", item.id, requeued)
            window.status = requeued ? qsTr("Put back: “%1”").arg(item.value)
                                     : qsTr("“%1” was lost before its requeue").arg(item.value)
        }
        onRequeueDeadLetterFinished: (id, requeued) => {
            console.log("dead letter requeued:", id, requeued)
            window.status = requeued ? qsTr("Dead letter %1 is waiting again").arg(id) : ""
        }
        onClaimsLost: {
            console.log("claims lost")
            window.held = {}
            window.heldCount = 0
            window.status = qsTr("This window's lease ended: its jobs go to others")
        }
    }
    //! [workQueue]

    //! [contents]
    // Every item of the queue, in the order it will be taken, for the ListView below.
    QueueContents {
        id: contents
        client: etcd
        path: window.queuePath
        kind: QueueContents.Work
        active: true
        onCountChanged: console.log("rows:", count)
    }
    //! [contents]

    Shortcut {
        sequence: "Ctrl+D"
        onActivated: window.ackSelected()
    }
    Shortcut {
        sequence: "Ctrl+R"
        onActivated: window.requeueSelected()
    }
    Shortcut {
        sequence: "Ctrl+P"
        onActivated: jobs.consuming = !jobs.consuming
    }
    Shortcut {
        sequence: "Ctrl+N"
        onActivated: jobField.forceActiveFocus()
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
            text: qsTr("Jobs in %1").arg(window.queuePath)
            font.pixelSize: 20
            font.bold: true
            elide: Text.ElideMiddle
            Layout.fillWidth: true
        }
        Label {
            text: etcd.state === EtcdClient.Connected
                  ? qsTr("Connected to %1 as %2").arg(window.endpoint).arg(window.consumerId)
                  : qsTr("Not connected, trying %1").arg(window.endpoint)
            color: etcd.state === EtcdClient.Connected ? "#2e7d32" : "#c62828"
        }

        RowLayout {
            Layout.fillWidth: true
            spacing: 8
            TextField {
                id: jobField
                placeholderText: qsTr("A new job (Enter enqueues it)")
                Layout.fillWidth: true
                onAccepted: window.enqueueJob()
            }
            Button {
                text: qsTr("Enqueue")
                enabled: jobs.running && jobField.text.trim() !== ""
                onClicked: window.enqueueJob()
                Keys.onReturnPressed: window.enqueueJob()
            }
        }

        Label {
            text: !contents.ready ? qsTr("Reading the queue…")
                                  : qsTr("%1 items; this window holds %2 of at most %3")
                                    .arg(contents.count).arg(window.heldCount).arg(window.maxJobs)
        }

        // One row per item, in the order the queue hands them out.
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
                model: contents.model
                keyNavigationEnabled: true
                highlightMoveDuration: 0

                // Columns: job 46 %, state 30 %, delivery the rest (delegates see no outer ids).
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
                            width: headerRow.width * 0.46
                            anchors.verticalCenter: parent.verticalCenter
                            text: qsTr("Job")
                            font.bold: true
                        }
                        Label {
                            width: headerRow.width * 0.30
                            anchors.verticalCenter: parent.verticalCenter
                            text: qsTr("State")
                            font.bold: true
                        }
                        Label {
                            anchors.verticalCenter: parent.verticalCenter
                            text: qsTr("Deliveries")
                            font.bold: true
                        }
                    }
                }
                headerPositioning: ListView.OverlayHeader

                delegate: Rectangle {
                    id: row
                    required property int index
                    required property string itemId
                    required property var model // its value role through `model`
                    required property int itemState
                    required property int attempt
                    required property string consumer
                    // Qt 6.4 has no "pragma ComponentBehavior: Bound", so qmllint cannot see
                    // that a delegate may use the window's functions.
                    readonly property string stateLabel: window.stateText(row) // qmllint disable unqualified
                    readonly property bool mine: itemState === QueueContents.InFlight
                                                 && consumer === window.consumerId // qmllint disable unqualified

                    width: ListView.view.width
                    height: 32
                    color: row.ListView.isCurrentItem && row.ListView.view.activeFocus
                           ? "#bbdefb" : row.index % 2 ? "#f5f7f8" : "#ffffff"
                    Row {
                        anchors.fill: parent
                        anchors.leftMargin: 10
                        Label {
                            width: row.width * 0.46
                            anchors.verticalCenter: parent.verticalCenter
                            text: row.model.value
                            font.bold: row.mine
                            elide: Text.ElideRight
                        }
                        Label {
                            width: row.width * 0.30
                            anchors.verticalCenter: parent.verticalCenter
                            text: row.stateLabel
                            font.bold: row.mine
                            color: row.itemState === QueueContents.DeadLetter ? "#c62828"
                                 : row.mine ? "#1565c0" : "#37474f"
                            elide: Text.ElideRight
                        }
                        Label {
                            anchors.verticalCenter: parent.verticalCenter
                            text: row.attempt
                            font.family: "monospace"
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
                    visible: contents.ready && list.count === 0
                    text: qsTr("No jobs. Type one above and press Enter.")
                    color: "#607d8b"
                }
            }
        }

        RowLayout {
            Layout.fillWidth: true
            spacing: 12
            Button {
                text: qsTr("Done")
                enabled: window.selectedDelivery !== undefined
                onClicked: window.ackSelected()
                Keys.onReturnPressed: window.ackSelected()
            }
            Button {
                text: window.selectedIsDead ? qsTr("Requeue dead letter") : qsTr("Requeue")
                enabled: window.selectedDelivery !== undefined || window.selectedIsDead
                onClicked: window.requeueSelected()
                Keys.onReturnPressed: window.requeueSelected()
            }
            CheckBox {
                text: qsTr("Take jobs")
                checked: jobs.consuming
                onToggled: jobs.consuming = checked
                Keys.onReturnPressed: jobs.consuming = !jobs.consuming
            }
            Label {
                text: jobs.errorCode !== 0 ? qsTr("Error %1: %2").arg(jobs.errorCode).arg(jobs.errorString)
                    : window.status !== "" ? window.status
                    : qsTr("Ctrl+D: done · Ctrl+R: requeue · Ctrl+P: pause · Ctrl+N: new job · ↑↓: select")
                color: jobs.errorCode !== 0 ? "#c62828" : "#607d8b"
                Layout.fillWidth: true
                wrapMode: Text.Wrap // the key hints take two lines in a narrow window
            }
        }
    }
}
