// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
import QtQuick
import EtcdQt

Item {
    EtcdClient { id: etcd; endpoints: ["127.0.0.1:2379"] }
    //! [counter]
    // Ticket numbers: each increment() answers with a value that no other change, from any
    // process, answered.
    AtomicCounter {
        id: tickets
        client: etcd
        path: "/counters/tickets"
        initialValue: 100 // if this item creates the counter
        active: true
        onAddFinished: ticket => {
            if (isNaN(ticket))
                console.warn("no ticket:", errorString)
            else
                console.log("ticket", ticket)
        }
    }
    //! [counter]
}
