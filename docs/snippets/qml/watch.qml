// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
import QtQuick
import EtcdQt

Column {
    //! [client]
    // One connection, shared by every item that names it as its client.
    EtcdClient {
        id: etcd
        endpoints: ["127.0.0.1:2379"]
        callDeadline: 5000 // milliseconds per request
        onErrorOccurred: (code, message) => console.warn("etcd:", message)
    }
    //! [client]
    //! [watch]
    // Every key under a prefix as a live list model.
    Watch { id: services; client: etcd; key: "/services/"; prefix: true; active: true }
    Repeater {
        model: services.model
        Text { required property string key; required property string value
               text: key + " = " + value }
    }
    //! [watch]
    // What the watch shows: a registration of this kiosk.
    TransientKeyValue {
        client: etcd; key: "/services/kiosk-7"; value: "10.0.0.7"; ttl: 2000; active: true
    }
}
