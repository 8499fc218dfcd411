// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
import QtQuick
import EtcdQt

Item {
    EtcdClient { id: etcd; endpoints: ["127.0.0.1:2379"] }
    //! [readwritelock]
    // Readers of the catalog hold together; a writer waits until they are done, and
    // readers that ask after it wait for the writer.
    ReadWriteLock {
        id: reader
        client: etcd
        path: "/locks/catalog"
        mode: ReadWriteLock.Read
        active: true
        onAcquired: console.log("reading the catalog")
        onLockLost: (code, message) => console.warn("lost the read lock:", message)
    }
    ReadWriteLock {
        id: writer
        client: etcd
        path: "/locks/catalog"
        mode: ReadWriteLock.Write // the default
        active: false // true to write: acquired() when no reader holds; false when done
        onAcquired: console.log("writing the catalog, fencing token", fencingToken.revision)
    }
    //! [readwritelock]
    // Another process's reader.
    ReadWriteLock {
        id: otherReader
        client: etcd
        path: "/locks/catalog"
        mode: ReadWriteLock.Read
        active: true
    }
}
