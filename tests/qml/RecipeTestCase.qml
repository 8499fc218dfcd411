// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0

// What the recipe test files share (tst_qmlrecipes.cpp starts etcd and sets the context
// properties etcdUrl and etcdTest): a client on that etcd, a unique path per test, items
// made on that client, and spies. A test file is one of these with its components and tests.

import QtQuick
import QtTest
import EtcdQt

TestCase {
    id: recipeTest

    property int serial: 0
    readonly property EtcdClient etcd: sharedClient

    EtcdClient {
        id: sharedClient
        endpoints: [etcdUrl] // qmllint disable unqualified
    }
    Component {
        id: spyComponent
        SignalSpy {}
    }
    Component {
        id: clientComponent
        EtcdClient {}
    }

    function init() {
        if (!etcdTest.available) // qmllint disable unqualified
            skip("etcd is not installed")
        tryCompare(sharedClient, "state", EtcdClient.Connected, 20000)
    }

    function uniquePath(name) {
        serial += 1
        return "/qmltest/" + name + "/" + Date.now() + "-" + serial
    }

    // An item of `component` (on the shared client unless `properties` name another one),
    // destroyed after the test.
    function make(component, properties) {
        if (!properties.client)
            properties.client = sharedClient
        return createTemporaryObject(component, recipeTest, properties)
    }

    // A client of its own, destroyed after the test.
    function makeClient(properties) {
        return createTemporaryObject(clientComponent, recipeTest, properties)
    }

    function spyOn(target, signalName) {
        return createTemporaryObject(spyComponent, recipeTest,
                                     { target: target, signalName: signalName })
    }
}
