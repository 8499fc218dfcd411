// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0

// NodeCache and PathChildrenCache against a real etcd. Keys are written from outside the
// items (etcdTest.put/remove, hence the "qmllint disable unqualified"); every step waits for
// what the cache saw before the next write, so the order etcd applies them in is known.

import QtQuick
import EtcdQt

RecipeTestCase {
    id: cachesTest
    name: "EtcdQtCaches"

    Component {
        id: nodeComponent
        NodeCache {}
    }
    Component {
        id: childrenComponent
        PathChildrenCache {}
    }
    Component {
        id: keyValueComponent
        TransientKeyValue { ttl: 10000 }
    }
    // The rows of a cache's model as QML delegates see them (by role name).
    Component {
        id: rowsComponent
        Repeater {
            delegate: Item {
                required property string name
                required property string key
                required property string value
                required property string lease
                required property int version
            }
        }
    }

    function put(key, value) {
        etcdTest.put(key, value) // qmllint disable unqualified
    }
    function remove(key) {
        etcdTest.remove(key) // qmllint disable unqualified
    }

    // The rows shown by `rows` (a Repeater over a model) as "name=value" strings.
    function shown(rows) {
        const out = []
        for (let i = 0; i < rows.count; ++i) {
            const row = rows.itemAt(i)
            out.push(row.name + "=" + row.value)
        }
        return out
    }

    // A spy's `i`th call as an array (signalArguments holds Arguments objects).
    function args(spy, i) {
        return Array.from(spy.signalArguments[i])
    }

    function rowsOf(cache) {
        return createTemporaryObject(rowsComponent, cachesTest, { model: cache.model })
    }

    // Created, updated, deleted, each with its value and revision, the properties already
    // showing the change when its signal comes.
    function test_nodeCacheSeesCreateUpdateDelete() {
        const key = uniquePath("node")
        const node = make(nodeComponent, { key: key, active: true })
        tryCompare(node, "ready", true, 10000)
        compare(node.exists, false)
        compare(node.value, "")
        compare(node.modRevision, 0)
        const seen = []
        node.created.connect((value, revision) => seen.push(
                                 ["created", value, revision, node.value, node.modRevision]))
        node.updated.connect((value, previous, revision) => seen.push(
                                 ["updated", value, previous, revision, node.value]))
        node.deleted.connect((previous, revision) => seen.push(
                                 ["deleted", previous, revision, node.exists, node.value]))

        put(key, "one")
        tryCompare(seen, "length", 1, 10000)
        compare(seen[0][0], "created")
        compare(seen[0][1], "one")
        verify(seen[0][2] > 0)
        compare(seen[0][3], "one")
        compare(seen[0][4], seen[0][2])
        compare(node.exists, true)

        put(key, "two")
        tryCompare(seen, "length", 2, 10000)
        compare(seen[1].slice(0, 3), ["updated", "two", "one"])
        verify(seen[1][3] > seen[0][2])
        compare(seen[1][4], "two")
        compare(node.modRevision, seen[1][3])

        remove(key)
        tryCompare(seen, "length", 3, 10000)
        compare(seen[2].slice(0, 2), ["deleted", "two"])
        verify(seen[2][2] > seen[1][3])
        compare(seen[2][3], false)
        compare(seen[2][4], "")
        compare(node.errorCode, 0)
    }

    // The value found by the first read is no change: it is there when ready turns true.
    // Switched off, the item shows nothing.
    function test_nodeCacheStartsWithTheValueInPlace() {
        const key = uniquePath("node-seed")
        const first = make(nodeComponent, { key: key, active: true })
        tryCompare(first, "ready", true, 10000)
        put(key, "seed")
        tryCompare(first, "value", "seed", 10000)

        const second = make(nodeComponent, { key: key })
        const created = spyOn(second, "created")
        let valueWhenReady = null
        second.readyChanged.connect(() => { if (second.ready) valueWhenReady = second.value })
        second.active = true
        tryCompare(second, "ready", true, 10000)
        compare(valueWhenReady, "seed")
        compare(second.exists, true)
        compare(second.modRevision, first.modRevision)
        compare(created.count, 0)

        second.active = false
        compare(second.ready, false)
        compare(second.exists, false)
        compare(second.value, "")
        compare(second.modRevision, 0)
    }

    // Every put is one row inserted where its name sorts, an update one row changed, a
    // deletion one row removed; the model is never reset. Nested names keep their '/'.
    function test_childrenModelFollowsRowByRow() {
        const path = uniquePath("children")
        const cache = make(childrenComponent, { path: path, active: true })
        tryCompare(cache, "ready", true, 10000)
        compare(cache.count, 0)
        const rows = rowsOf(cache)
        const inserted = spyOn(cache.model, "rowsInserted")
        const removed = spyOn(cache.model, "rowsRemoved")
        const changed = spyOn(cache.model, "dataChanged")
        const reset = spyOn(cache.model, "modelReset")
        const added = spyOn(cache, "childAdded")
        const updated = spyOn(cache, "childUpdated")
        const gone = spyOn(cache, "childRemoved")

        put(path + "/b", "2")
        added.wait(10000)
        compare(args(added, 0), ["b", "2"])
        compare(inserted.count, 1)
        compare(args(inserted, 0).slice(1), [0, 0])
        put(path + "/a", "1")
        tryCompare(added, "count", 2, 10000)
        compare(args(inserted, 1).slice(1), [0, 0])
        put(path + "/c/d", "nested")
        tryCompare(added, "count", 3, 10000)
        compare(args(added, 2), ["c/d", "nested"])
        compare(args(inserted, 2).slice(1), [2, 2])
        compare(shown(rows), ["a=1", "b=2", "c/d=nested"])
        compare(rows.itemAt(2).key, path + "/c/d")
        compare(cache.count, 3)

        put(path + "/b", "2b")
        updated.wait(10000)
        compare(args(updated, 0), ["b", "2b", "2"])
        compare(changed.count, 1)
        compare(changed.signalArguments[0][0].row, 1)
        compare(rows.itemAt(1).version, 2)
        compare(inserted.count, 3)

        remove(path + "/a")
        gone.wait(10000)
        compare(args(gone, 0), ["a", "1"])
        compare(removed.count, 1)
        compare(args(removed, 0).slice(1), [0, 0])
        compare(shown(rows), ["b=2b", "c/d=nested"])
        compare(cache.count, 2)
        compare(cache.value("c/d"), "nested")
        compare(cache.value("a"), undefined)
        compare(reset.count, 0)
        compare(cache.errorCode, 0)

        // Switched off: every row goes at once.
        cache.active = false
        compare(cache.count, 0)
        compare(rows.count, 0)
        compare(removed.count, 2)
        compare(args(removed, 1).slice(1), [0, 1])
        compare(cache.ready, false)
        compare(cache.value("b"), undefined)
    }

    // A child on a lease shows its lease id exactly (a decimal string: a JS number would
    // round it), and goes when the lease is revoked.
    function test_childrenModelShowsLeases() {
        const path = uniquePath("children-lease")
        const cache = make(childrenComponent, { path: path, active: true })
        tryCompare(cache, "ready", true, 10000)
        const rows = rowsOf(cache)
        put(path + "/plain", "p")
        const kv = make(keyValueComponent, { key: path + "/leased", value: "l", active: true })
        tryVerify(() => kv.leaseId !== "", 10000)
        tryCompare(cache, "count", 2, 10000)
        compare(shown(rows), ["leased=l", "plain=p"])
        compare(rows.itemAt(0).lease, kv.leaseId)
        compare(rows.itemAt(1).lease, "")

        kv.active = false // revokes: the key goes with its lease
        tryCompare(cache, "count", 1, 10000)
        compare(shown(rows), ["plain=p"])
    }

    // PostInitializedEvent: initialized(revision) once the model holds the children already
    // there; Normal: no first read, the cache fills from changes only.
    function test_startModes() {
        const path = uniquePath("children-modes")
        const seed = make(childrenComponent, { path: path, active: true })
        tryCompare(seed, "ready", true, 10000)
        put(path + "/x", "1")
        put(path + "/y", "2")
        tryCompare(seed, "count", 2, 10000)

        const post = make(childrenComponent, {
                              path: path, startMode: PathChildrenCache.PostInitializedEvent })
        const initialized = spyOn(post, "initialized")
        let countWhenInitialized = -1
        post.initialized.connect(() => { countWhenInitialized = post.count })
        post.active = true
        initialized.wait(10000)
        compare(initialized.count, 1)
        verify(initialized.signalArguments[0][0] > 0)
        compare(countWhenInitialized, 2)
        compare(post.value("y"), "2")
        tryCompare(post, "ready", true, 10000)

        const normal = make(childrenComponent, {
                                path: path, startMode: PathChildrenCache.Normal, active: true })
        const normalInitialized = spyOn(normal, "initialized")
        tryCompare(normal, "ready", true, 10000)
        compare(normal.count, 0)
        put(path + "/z", "3")
        tryCompare(normal, "count", 1, 10000)
        compare(normal.value("z"), "3")
        compare(normal.value("x"), undefined)
        compare(normalInitialized.count, 0)
        // The default mode emits no initialized() either.
        compare(seed.startMode, PathChildrenCache.BuildInitialCache)
    }

    // clear() empties the copy at once (etcd untouched), rebuild() reads every child back.
    function test_clearAndRebuild() {
        const path = uniquePath("children-clear")
        const cache = make(childrenComponent, { path: path })
        compare(cache.clear(), false, "not running")
        compare(cache.rebuild(), false, "not running")
        cache.active = true
        tryCompare(cache, "ready", true, 10000)
        put(path + "/m", "1")
        put(path + "/n", "2")
        tryCompare(cache, "count", 2, 10000)
        const removed = spyOn(cache.model, "rowsRemoved")

        verify(cache.clear())
        compare(cache.count, 0)
        compare(removed.count, 1)
        compare(args(removed, 0).slice(1), [0, 1])
        const rebuilt = spyOn(cache, "rebuilt")
        const added = spyOn(cache, "childAdded")
        verify(cache.rebuild())
        rebuilt.wait(10000)
        compare(cache.count, 2)
        compare(added.count, 2)
        compare(cache.value("n"), "2")
    }

    // A cache started while etcd is away fails its first read, and starts over by itself once
    // its client is connected again: it fills without being switched off and on.
    function test_cacheStartedWhileEtcdIsAwayFillsLater() {
        const path = uniquePath("children-away")
        const seed = make(childrenComponent, { path: path, active: true })
        tryCompare(seed, "ready", true, 10000)
        put(path + "/w", "1")
        tryCompare(seed, "count", 1, 10000)

        verify(etcdTest.stopEtcd()) // qmllint disable unqualified
        tryVerify(() => etcd.state !== EtcdClient.Connected, 10000)
        const cache = make(childrenComponent, { path: path })
        const errors = spyOn(cache, "errorOccurred")
        cache.active = true
        errors.wait(20000) // the first read, out of retries
        compare(cache.ready, false)
        compare(cache.count, 0)

        verify(etcdTest.startEtcd()) // qmllint disable unqualified
        tryCompare(cache, "ready", true, 20000)
        compare(cache.count, 1)
        compare(cache.value("w"), "1")
        compare(cache.running, true)
    }

    // An empty key or path is refused with InvalidArgument, and nothing starts.
    function test_emptyKeyOrPathIsRefused() {
        const cache = make(childrenComponent, { path: "" })
        const cacheErrors = spyOn(cache, "errorOccurred")
        cache.active = true
        compare(cacheErrors.count, 1)
        compare(cache.errorCode, EtcdError.InvalidArgument)
        verify(cache.errorString.length > 0)
        compare(cache.running, false)
        compare(cache.ready, false)

        const node = make(nodeComponent, { key: "" })
        const nodeErrors = spyOn(node, "errorOccurred")
        node.active = true
        compare(nodeErrors.count, 1)
        compare(node.errorCode, EtcdError.InvalidArgument)
        compare(node.running, false)

        // Given a path, the same item starts.
        cache.path = uniquePath("children-late")
        tryCompare(cache, "ready", true, 10000)
        compare(cacheErrors.count, 1)
    }
}
