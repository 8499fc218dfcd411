// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
import QtQuick
import EtcdQt

Item {
    EtcdClient { id: etcd; endpoints: ["127.0.0.1:2379"] }
    //! [transient]
    // A key that exists while the item is active, healed when its lease is lost.
    TransientKeyValue {
        id: presence
        client: etcd
        key: "/presence/kiosk-7"
        value: "online"
        ttl: 2000
        active: true
        onLeaseEvent: event => {
            if (event.type === LeaseEvent.Expired)
                console.warn("gone from etcd until healed")
        }
    }
    //! [transient]
    //! [lease]
    // A self-healing lease of its own; leaseId is a decimal string.
    Lease {
        id: session
        client: etcd
        ttl: 2000
        active: true
        onLeaseLost: (code, message) => console.warn("session lease lost:", message)
    }
    Text { text: "session " + session.leaseId + ", " + session.remainingValidity() + " ms left" }
    //! [lease]
}
