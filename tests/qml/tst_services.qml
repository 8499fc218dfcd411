// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0

// ServiceRegistration and ServiceList against a real etcd: an instance registered by one item
// shows in the other's model with its fields, changes in place, and leaves when switched
// off; bad settings are refused. Every wait is derived from the registrations' TTL.

import QtQuick
import EtcdQt

RecipeTestCase {
    id: servicesTest
    name: "EtcdQtServices"

    // The registrations' lease TTL (ms; registrationComponent's). A registration, a watch
    // event or a heal takes far less; a wait of a few TTLs fails only when something is wrong.
    readonly property int ttl: 2000
    readonly property int timeout: 5 * ttl

    Component {
        id: registrationComponent
        ServiceRegistration {
            name: "api"
            address: "10.0.0.7"
            port: 8080
            ttl: 2000
        }
    }
    Component {
        id: listComponent
        ServiceList { name: "api" }
    }
    // The rows of a list's model as QML delegates see them, by role name.
    Component {
        id: rowsComponent
        Repeater {
            delegate: Item {
                required property var model
                required property string address
                required property int port
                required property int sslPort
                required property string endpoint
                required property string payload
                required property string uri
                required property string serviceType
                required property string lease
                // Names an Item has already: read from the model.
                readonly property string instanceId: model.id
                readonly property bool instanceEnabled: model.enabled
            }
        }
    }

    function rowsOf(list) {
        return createTemporaryObject(rowsComponent, servicesTest, { model: list.model })
    }

    // A list of `path`'s "api" instances, ready (the first read in, the watch live).
    function readyList(path) {
        const list = make(listComponent, { servicePath: path, active: true })
        tryCompare(list, "ready", true, timeout)
        return list
    }

    // A registration under `path` with `properties`, registered.
    function registered(path, properties) {
        properties.servicePath = path
        properties.active = true
        const registration = make(registrationComponent, properties)
        tryCompare(registration, "registered", true, timeout)
        return registration
    }

    // Registered, the instance is a row with every field the item set, on the item's lease,
    // and instanceAdded() carried the same as a JS object. The id was picked for the item.
    function test_registrationAppearsInList() {
        const path = uniquePath("services")
        const list = readyList(path)
        const rows = rowsOf(list)
        const added = spyOn(list, "instanceAdded")
        const registration = registered(path, {
                                             sslPort: 8443,
                                             payload: "{\"zone\":\"eu\"}",
                                             uri: "https://api.example"
                                         })
        verify(registration.instanceId.length > 0)
        verify(registration.leaseId.length > 0)
        compare(registration.errorCode, 0)

        tryCompare(list, "count", 1, timeout)
        const row = rows.itemAt(0)
        compare(row.instanceId, registration.instanceId)
        compare(row.address, "10.0.0.7")
        compare(row.port, 8080)
        compare(row.sslPort, 8443)
        compare(row.endpoint, "10.0.0.7:8080")
        compare(row.instanceEnabled, true)
        compare(row.payload, "{\"zone\":\"eu\"}")
        compare(row.uri, "https://api.example")
        compare(row.serviceType, "DYNAMIC")
        compare(row.lease, registration.leaseId)

        tryCompare(added, "count", 1, timeout)
        const seen = added.signalArguments[0][0]
        compare(seen.id, registration.instanceId)
        compare(seen.name, "api")
        compare(seen.endpoint, "10.0.0.7:8080")
        compare(seen.lease, registration.leaseId)
        compare(list.instance(registration.instanceId).port, 8080)
        compare(list.instance("nobody"), undefined)
        // etcd holds the lease with the item's TTL (in whole seconds).
        const granted = etcdTest.grantedTtl(registration.leaseId) // qmllint disable unqualified
        compare(granted, ttl / 1000)
    }

    // A field changed while registered updates the instance in place: the same row, the
    // same lease, instanceUpdated() and no new instance.
    function test_changedPortUpdatesTheRow() {
        const path = uniquePath("services-update")
        const list = readyList(path)
        const rows = rowsOf(list)
        const registration = registered(path, { instanceId: "api-1" })
        tryCompare(list, "count", 1, timeout)
        const lease = registration.leaseId
        const added = spyOn(list, "instanceAdded")
        const updated = spyOn(list, "instanceUpdated")
        const removed = spyOn(list, "instanceRemoved")

        registration.port = 9090
        tryCompare(rows.itemAt(0), "port", 9090, timeout)
        compare(rows.itemAt(0).endpoint, "10.0.0.7:9090")
        compare(rows.itemAt(0).lease, lease)
        tryCompare(updated, "count", 1, timeout)
        compare(updated.signalArguments[0][0].id, "api-1")
        compare(updated.signalArguments[0][0].port, 9090)

        registration.enabled = false
        tryCompare(rows.itemAt(0), "instanceEnabled", false, timeout)
        compare(rows.itemAt(0).port, 9090)
        compare(registration.leaseId, lease)
        compare(registration.registered, true)
        compare(list.count, 1)
        compare(added.count, 0)
        compare(removed.count, 0)
        compare(registration.errorCode, 0)
    }

    // Switched off, the lease is revoked: the row goes at once, long before the lease could
    // have expired (renewed every third of its TTL, it has two thirds of it left at least).
    function test_inactiveRemovesTheInstance() {
        const path = uniquePath("services-off")
        const list = readyList(path)
        const registration = registered(path, { ttl: 10 * ttl })
        tryCompare(list, "count", 1, timeout)
        const removed = spyOn(list, "instanceRemoved")
        const id = registration.instanceId

        registration.active = false
        compare(registration.registered, false)
        compare(registration.leaseId, "")
        tryCompare(list, "count", 0, registration.ttl / 2)
        compare(removed.count, 1)
        compare(removed.signalArguments[0][0], id)
        compare(list.instance(id), undefined)

        // On again: the same id, a new lease.
        registration.active = true
        tryCompare(registration, "registered", true, timeout)
        compare(registration.instanceId, id)
        tryCompare(list, "count", 1, timeout)
        compare(list.instance(id).lease, registration.leaseId)
    }

    // A lease revoked from outside: leaseLost(), the row goes, and the heal brings it back
    // under a new lease with leaseEvent(Restored).
    function test_revokedLeaseHeals() {
        const path = uniquePath("services-heal")
        const list = readyList(path)
        const registration = registered(path, {})
        tryCompare(list, "count", 1, timeout)
        const lost = spyOn(registration, "leaseLost")
        const events = spyOn(registration, "leaseEvent")
        const removed = spyOn(list, "instanceRemoved")
        const added = spyOn(list, "instanceAdded")
        const oldLease = registration.leaseId

        etcdTest.revokeLease(oldLease) // qmllint disable unqualified
        tryCompare(lost, "count", 1, timeout)
        tryVerify(() => registration.registered && registration.leaseId !== oldLease, timeout)
        tryCompare(added, "count", 1, timeout)
        compare(removed.count, 1)
        let restored = false
        for (let i = 0; i < events.count; ++i)
            restored = restored || events.signalArguments[i][0].type === LeaseEvent.Restored
        verify(restored)
        compare(list.instance(registration.instanceId).lease, registration.leaseId)
    }

    // An id registered by someone else is not taken: registrationFailed(FailedPrecondition),
    // and their instance stays as it is.
    function test_takenIdFails() {
        const path = uniquePath("services-taken")
        const list = readyList(path)
        const first = registered(path, { instanceId: "same" })
        tryCompare(list, "count", 1, timeout)
        const second = make(registrationComponent, {
                                servicePath: path, instanceId: "same", port: 9999 })
        const failed = spyOn(second, "registrationFailed")
        const errors = spyOn(second, "errorOccurred")
        second.active = true
        tryCompare(failed, "count", 1, timeout)
        compare(failed.signalArguments[0][0], EtcdError.FailedPrecondition)
        compare(errors.count, 1)
        compare(second.errorCode, EtcdError.FailedPrecondition)
        compare(second.registered, false)
        compare(second.leaseId, "")
        compare(list.instance("same").port, 8080)
        compare(list.instance("same").lease, first.leaseId)
        compare(first.registered, true)
    }

    function test_badSettingsAreRefused_data() {
        return [
            { tag: "empty servicePath", property: "servicePath", value: "" },
            { tag: "empty name", property: "name", value: "" },
            { tag: "name with /", property: "name", value: "a/b" },
            { tag: "id with /", property: "instanceId", value: "a/b" },
            { tag: "port too large", property: "port", value: 65536 },
            { tag: "port too small", property: "port", value: -2 },
            { tag: "sslPort too large", property: "sslPort", value: 70000 },
            { tag: "ttl 0", property: "ttl", value: 0 },
            { tag: "payload not JSON", property: "payload", value: "{zone: eu" },
        ]
    }

    // A bad setting is refused with InvalidArgument before anything is written; set on a
    // registered item, it unregisters it (the row goes) and says why.
    function test_badSettingsAreRefused(data) {
        const path = uniquePath("services-bad")
        const properties = { servicePath: path }
        properties[data.property] = data.value
        const refused = make(registrationComponent, properties)
        const errors = spyOn(refused, "errorOccurred")
        refused.active = true
        compare(errors.count, 1)
        compare(refused.errorCode, EtcdError.InvalidArgument)
        verify(refused.errorString.length > 0)
        compare(refused.running, false)
        compare(refused.registered, false)

        if (data.property === "servicePath")
            return
        const list = readyList(path)
        const registration = registered(path, {})
        tryCompare(list, "count", 1, timeout)
        const later = spyOn(registration, "errorOccurred")
        registration[data.property] = data.value
        compare(later.count, 1)
        compare(registration.errorCode, EtcdError.InvalidArgument)
        compare(registration.registered, false)
        tryCompare(list, "count", 0, timeout)
    }

    // A ServiceList without a path or a name is refused the same way; given one, it starts.
    function test_listNeedsPathAndName() {
        const list = make(listComponent, { servicePath: "" })
        const errors = spyOn(list, "errorOccurred")
        list.active = true
        compare(errors.count, 1)
        compare(list.errorCode, EtcdError.InvalidArgument)
        compare(list.running, false)
        compare(list.ready, false)

        const unnamed = make(listComponent, { servicePath: uniquePath("services-list"), name: "" })
        const unnamedErrors = spyOn(unnamed, "errorOccurred")
        unnamed.active = true
        compare(unnamedErrors.count, 1)
        compare(unnamed.errorCode, EtcdError.InvalidArgument)

        list.servicePath = uniquePath("services-list")
        tryCompare(list, "ready", true, timeout)
        compare(list.count, 0)
        compare(errors.count, 1)
    }
}
