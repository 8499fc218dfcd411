// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
import QtQuick
import EtcdQt

Column {
    EtcdClient { id: etcd; endpoints: ["127.0.0.1:2379"] }
    //! [nodecache]
    // One key's live value: a banner shown while /config/banner exists.
    NodeCache { id: banner; client: etcd; key: "/config/banner"; active: true }
    Text { visible: banner.exists; text: banner.value }
    //! [nodecache]
    //! [pathchildren]
    // A roster: every key under /workers/ as a list model, one row per worker, sorted by
    // name; rows come and go one by one as workers join and leave.
    PathChildrenCache {
        id: roster
        client: etcd
        path: "/workers"
        startMode: PathChildrenCache.BuildInitialCache
        active: true
        onChildAdded: name => console.log("joined:", name)
    }
    Text { text: roster.count + " workers" }
    Repeater {
        model: roster.model
        Text { required property string name; required property string value
               text: name + ": " + value }
    }
    //! [pathchildren]
    // Stand-ins for the other processes: a worker registered, and the banner set.
    TransientKeyValue {
        client: etcd; key: "/workers/kiosk-7"; value: "idle"; ttl: 2000; active: true
    }
    TransientKeyValue {
        client: etcd; key: "/config/banner"; value: "maintenance at 22:00"; ttl: 2000
        active: true
    }
}
