// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0

// The recipe types against a real etcd (tst_qmlrecipes.cpp starts it and sets the context
// properties etcdUrl and etcdTest, hence the few "qmllint disable unqualified"). Every test works under
// its own path and waits on conditions and signals, never on time alone.

import QtQuick
import QtTest
import EtcdQt

Item {
    id: root

    property int serial: 0

    function uniquePath(name) {
        serial += 1
        return "/qmltest/" + name + "/" + Date.now() + "-" + serial
    }

    EtcdClient {
        id: etcd
        endpoints: [etcdUrl] // qmllint disable unqualified
    }

    Component {
        id: electionComponent
        LeaderElection { ttl: 2000 }
    }
    Component {
        id: lockComponent
        DistributedLock { ttl: 2000 }
    }
    Component {
        id: keyValueComponent
        TransientKeyValue { ttl: 2000 }
    }
    Component {
        id: leaseComponent
        Lease { ttl: 2000 }
    }
    Component {
        id: observerComponent
        LeaderObserver {}
    }
    Component {
        id: barrierComponent
        Barrier { ttl: 2000 }
    }
    Component {
        id: watchComponent
        Watch { prefix: true }
    }
    // A Watch's rows as delegates see them (by role name).
    Component {
        id: watchRowsComponent
        Repeater {
            delegate: Item {
                required property string key
                required property string lease
            }
        }
    }
    Component {
        id: latchComponent
        CountDownLatch {}
    }
    // A page with a connection of its own, as a Loader would create and destroy it.
    Component {
        id: pageComponent
        Item {
            id: page
            property string key
            EtcdClient {
                id: pageClient
                endpoints: [etcdUrl] // qmllint disable unqualified
            }
            TransientKeyValue {
                client: pageClient
                key: page.key
                value: "v"
                ttl: 10000
                active: true
            }
        }
    }
    // A page with one item of each recipe type on a connection of its own, whose calls may
    // take a minute: its retirement is bounded by 10 s, not by how long a revoke could take.
    Component {
        id: busyPageComponent
        Item {
            id: busyPage
            property string path
            readonly property bool ready: kv.leaseId !== "" && election.isLeader && lock.held
                                          && barrier.state === Barrier.Set && latch.running
                                          && lease.state === Lease.Alive && watch.ready
            EtcdClient {
                id: busyClient
                endpoints: [etcdUrl] // qmllint disable unqualified
                callDeadline: 60000
            }
            TransientKeyValue {
                id: kv
                client: busyClient; key: busyPage.path + "/k"; value: "v"; ttl: 10000
                active: true
            }
            LeaderElection {
                id: election
                client: busyClient; path: busyPage.path + "/e"; ttl: 10000; active: true
            }
            DistributedLock {
                id: lock
                client: busyClient; path: busyPage.path + "/l"; ttl: 10000; active: true
            }
            Barrier {
                id: barrier
                client: busyClient; path: busyPage.path + "/b"; ttl: 10000; active: true
                onRunningChanged: if (running) setBarrier()
            }
            CountDownLatch {
                id: latch
                client: busyClient; path: busyPage.path + "/c"; active: true
            }
            Lease {
                id: lease
                client: busyClient; ttl: 10000; active: true
            }
            Watch {
                id: watch
                client: busyClient; key: busyPage.path + "/"; prefix: true; active: true
            }
            LeaderObserver {
                client: busyClient; path: busyPage.path + "/e"; active: true
            }
        }
    }
    Component {
        id: clientComponent
        EtcdClient {
            endpoints: [etcdUrl] // qmllint disable unqualified
        }
    }
    Component {
        id: spyComponent
        SignalSpy {}
    }

    TestCase {
        name: "EtcdQtRecipes"

        function init() {
            if (!etcdTest.available) // qmllint disable unqualified
                skip("etcd is not installed")
            tryCompare(etcd, "state", EtcdClient.Connected, 20000)
        }

        // Recipe items on the shared client (ids outside a Component are out of its scope).
        function make(component, properties) {
            properties.client = etcd
            return createTemporaryObject(component, root, properties)
        }

        function spyOn(target, signalName) {
            return createTemporaryObject(spyComponent, root,
                                         { target: target, signalName: signalName })
        }

        function test_electionHandOff() {
            const path = root.uniquePath("election")
            // TTL 10 s: a hand-off within 5 s comes from resigning, not from expiry.
            const a = make(electionComponent, { path: path, clientId: "a", ttl: 10000,
                                                active: true })
            tryCompare(a, "isLeader", true, 10000)
            verify(a.fencingToken.valid)
            const b = make(electionComponent, { path: path, clientId: "b", active: true })
            const bElected = spyOn(b, "elected")
            const aRelinquished = spyOn(a, "relinquished")
            tryVerify(() => b.participants !== null && b.participants.count === 2, 10000,
                      "both participants listed")
            tryCompare(b, "leader", "a", 10000)
            compare(b.isLeader, false)

            a.active = false // resigns
            bElected.wait(5000)
            compare(b.isLeader, true)
            compare(a.isLeader, false)
            compare(aRelinquished.count, 1)
            verify(b.fencingToken.revision > 0)
            tryCompare(b, "leader", "b", 10000)
            tryVerify(() => b.participants.count === 1, 10000, "a left the participants")
        }

        // etcd's own layout (Go's concurrency.Election): clientId is the campaign value.
        function test_etcdLayoutElectionHandOff() {
            const path = root.uniquePath("etcd-election")
            const a = make(electionComponent, { path: path, clientId: "go-compatible-a",
                                                layout: LeaderElection.Etcd, ttl: 10000,
                                                active: true })
            tryCompare(a, "isLeader", true, 10000)
            verify(a.fencingToken.valid)
            verify(a.fencingToken.key.startsWith(path + "/"))
            compare(a.participants, null)
            const b = make(electionComponent, { path: path, clientId: "go-compatible-b",
                                                layout: LeaderElection.Etcd, active: true })
            const bElected = spyOn(b, "elected")
            tryCompare(b, "leader", "go-compatible-a", 10000)
            compare(b.isLeader, false)
            const aRelinquished = spyOn(a, "relinquished")
            a.active = false // closes: the key goes with its lease
            bElected.wait(5000)
            compare(b.isLeader, true)
            compare(aRelinquished.count, 1)
            tryCompare(b, "leader", "go-compatible-b", 10000)
            verify(b.fencingToken.revision > a.fencingToken.revision || !a.fencingToken.valid)
        }

        function test_observerFollowsLeader() {
            const path = root.uniquePath("observer")
            const observer = make(observerComponent, { path: path, active: true })
            const a = make(electionComponent, { path: path, clientId: "obs-a", active: true })
            tryCompare(a, "isLeader", true, 10000)
            tryCompare(observer, "leader", "obs-a", 10000)
            const b = make(electionComponent, { path: path, clientId: "obs-b", active: true })
            tryVerify(() => b.participants !== null && b.participants.count === 2, 10000)
            a.active = false
            tryCompare(observer, "leader", "obs-b", 10000)
            observer.active = false
            compare(observer.leader, "")
        }

        // The leader already in place when the observer starts is shown at once.
        function test_observerSeesTheLeaderInPlace() {
            const path = root.uniquePath("observer-seed")
            const a = make(electionComponent, { path: path, clientId: "seed-a", active: true })
            tryCompare(a, "isLeader", true, 10000)
            const observer = make(observerComponent, { path: path, active: true })
            tryCompare(observer, "leader", "seed-a", 10000)
        }

        // A setter whose barrier someone else removed says so: barrierLost(code, message).
        function test_barrierLostWhenRemovedBySomeoneElse() {
            const path = root.uniquePath("barrier-lost")
            const setter = make(barrierComponent, { path: path, active: true })
            const other = make(barrierComponent, { path: path, active: true })
            const lost = spyOn(setter, "barrierLost")
            const setDone = spyOn(setter, "setFinished")
            verify(setter.setBarrier())
            setDone.wait(10000)
            compare(setDone.signalArguments[0][0], true)
            verify(other.removeBarrier()) // it never set it: it removes whoever's is there
            lost.wait(10000)
            verify(lost.signalArguments[0][0] !== 0, "a reason code")
            verify(lost.signalArguments[0][1].length > 0, "a reason message")
            tryCompare(setter, "state", Barrier.Lost, 10000)
        }

        function test_barrierLifts() {
            const path = root.uniquePath("barrier")
            const setter = make(barrierComponent, { path: path, active: true })
            const waiter = make(barrierComponent, { path: path, active: true })
            const setDone = spyOn(setter, "setFinished")
            verify(setter.setBarrier())
            setDone.wait(10000)
            compare(setDone.signalArguments[0][0], true)
            tryCompare(setter, "state", Barrier.Set, 10000)
            const lifted = spyOn(waiter, "lifted")
            verify(waiter.startWaiting())
            tryCompare(waiter, "waiterCount", 1, 10000)
            compare(lifted.count, 0)
            verify(setter.leaseId !== "", "the barrier's lease, as a decimal string")
            compare(waiter.leaseId, "") // set nothing
            setter.active = false // revokes the barrier's lease: the barrier goes
            lifted.wait(10000)
            compare(setter.leaseId, "")
        }

        // A wait that cannot read etcd ends with waitFailed(code, message), not lifted().
        function test_barrierWaitFails() {
            const client = createTemporaryObject(clientComponent, root,
                                                 { endpoints: ["127.0.0.1:1"], callDeadline: 300 })
            const waiter = createTemporaryObject(barrierComponent, root,
                                                 { client: client, path: root.uniquePath("nobarrier"),
                                                   active: true })
            compare(waiter.running, true)
            const failed = spyOn(waiter, "waitFailed")
            const lifted = spyOn(waiter, "lifted")
            verify(waiter.startWaiting())
            failed.wait(10000)
            verify(failed.signalArguments[0][0] !== 0, "a reason code")
            verify(failed.signalArguments[0][1].length > 0, "a reason message")
            compare(lifted.count, 0)
        }

        // A client whose settings change replaces its connection: the recipes on it close on
        // the old one and start again on the new one.
        function test_clientChangeRestartsRecipes() {
            const path = root.uniquePath("reconnect")
            const client = createTemporaryObject(clientComponent, root, { keyPrefix: "/one" })
            const election = createTemporaryObject(electionComponent, root,
                                                   { client: client, path: path, ttl: 10000,
                                                     active: true })
            tryCompare(election, "isLeader", true, 10000)
            const watchOne = make(watchComponent, { key: "/one" + path + "/", active: true })
            tryVerify(() => watchOne.ready && watchOne.model.count > 0, 10000, "keys under /one")

            client.keyPrefix = "/two"
            compare(election.isLeader, false) // the old term ended with the old connection
            tryCompare(election, "isLeader", true, 10000)
            compare(election.running, true)
            tryCompare(watchOne.model, "count", 0, 5000) // resigned and revoked under /one
        }

        // Two items count a latch of 2 down (one of them not following it); a third item,
        // following it, sees the count go 2, 1, 0 and the latch open once.
        function test_countDownLatchOpensOnce() {
            const path = root.uniquePath("latch")
            const watcher = make(latchComponent, { path: path, active: true })
            tryCompare(watcher, "running", true, 10000)
            compare(watcher.count, -1) // no latch yet
            compare(watcher.open, false)
            const opened = spyOn(watcher, "opened")
            const counts = []
            watcher.countChanged.connect(() => counts.push(watcher.count))
            const a = make(latchComponent, { path: path, active: true })
            const b = make(latchComponent, { path: path }) // not following: calls only
            tryCompare(a, "running", true, 10000)

            const created = spyOn(a, "createFinished")
            verify(a.create(2))
            created.wait(10000)
            compare(created.signalArguments[0][0], 2)
            compare(created.signalArguments[0][1], true, "this call created it")
            const again = spyOn(b, "createFinished")
            verify(b.create(5))
            again.wait(10000)
            compare(again.signalArguments[0][0], 2, "the first creator's count")
            compare(again.signalArguments[0][1], false)
            tryCompare(watcher, "count", 2, 10000)

            const aDown = spyOn(a, "countDownFinished")
            verify(a.countDown())
            aDown.wait(10000)
            compare(aDown.signalArguments[0][0], 1)
            tryCompare(watcher, "count", 1, 10000)
            compare(watcher.open, false)
            compare(opened.count, 0)

            const bDown = spyOn(b, "countDownFinished")
            verify(b.countDown())
            bDown.wait(10000)
            compare(bDown.signalArguments[0][0], 0)
            opened.wait(10000)
            compare(watcher.open, true)
            compare(watcher.count, 0)
            compare(counts, [2, 1, 0])
            tryCompare(a, "open", true, 10000)
            compare(b.open, false) // follows nothing
            compare(b.count, -1)

            // Open stays open: a further count-down answers 0 and opens nothing again.
            verify(b.countDown())
            bDown.wait(10000)
            compare(bDown.signalArguments[1][0], 0)
            compare(opened.count, 1)
            compare(watcher.errorCode, 0)
            compare(a.errorCode, 0)
            compare(b.errorCode, 0)
        }

        // A count-down where no latch exists fails readably: count -1, errorCode NotFound.
        function test_countDownLatchErrors() {
            const latch = make(latchComponent, { path: root.uniquePath("nolatch") })
            const done = spyOn(latch, "countDownFinished")
            const errors = spyOn(latch, "errorOccurred")
            verify(latch.countDown())
            done.wait(10000)
            compare(done.signalArguments[0][0], -1)
            compare(errors.count, 1)
            compare(latch.errorCode, EtcdError.NotFound)
            compare(errors.signalArguments[0][0], EtcdError.NotFound)
            verify(latch.errorString.length > 0, "a message")
            verify(!latch.create(0), "a count above zero")
            compare(latch.errorCode, EtcdError.InvalidArgument)
        }

        function test_lockExclusion() {
            const path = root.uniquePath("lock")
            const keys = make(watchComponent, { key: path + "/", active: true })
            tryCompare(keys, "ready", true, 10000)
            // TTL 10 s: b taking over within 5 s comes from unlocking, not from expiry.
            const a = make(lockComponent, { path: path, ttl: 10000, active: true })
            tryCompare(a, "held", true, 10000)
            const firstRevision = a.fencingToken.revision
            const b = make(lockComponent, { path: path, active: true })
            const bAcquired = spyOn(b, "acquired")
            // b's waiting key is in etcd: b has asked, and must not hold the lock.
            tryCompare(keys.model, "count", 2, 10000)
            compare(b.held, false)
            compare(a.held, true)

            a.active = false // unlocks
            bAcquired.wait(5000)
            compare(b.held, true)
            compare(a.held, false)
            verify(b.fencingToken.revision > firstRevision)
            b.active = false
            tryCompare(keys.model, "count", 0, 10000)
        }

        function test_transientKeyValueVisibleToWatch() {
            const path = root.uniquePath("transient")
            const watch = make(watchComponent, { key: path + "/", active: true })
            tryCompare(watch, "ready", true, 10000)
            compare(watch.model.count, 0)
            const kv = make(keyValueComponent, { key: path + "/k1", value: "v1", ttl: 10000,
                                                 active: true })
            tryCompare(watch.model, "count", 1, 10000)
            compare(watch.model.value(path + "/k1"), "v1")
            // leaseId is published once the put is answered, and the watch may see the key
            // first: the event and the answer travel on different streams.
            tryVerify(() => kv.leaseId !== "", 5000)
            // The lease role is the id exactly, as decimal text: a JS number would round it.
            const rows = createTemporaryObject(watchRowsComponent, root, { model: watch.model })
            compare(rows.count, 1)
            compare(rows.itemAt(0).lease, kv.leaseId)

            kv.active = false // revokes the lease: the key goes with it, long before its TTL
            tryCompare(watch.model, "count", 0, 5000)
            compare(kv.leaseId, "")
        }

        // Destroying a page (its client included) revokes its lease: the key goes long before
        // its 10 s TTL would remove it.
        function test_destroyedPageRevokesItsLease() {
            const path = root.uniquePath("page")
            const watch = make(watchComponent, { key: path + "/", active: true })
            tryCompare(watch, "ready", true, 10000)
            const page = pageComponent.createObject(root, { key: path + "/k" })
            tryCompare(watch.model, "count", 1, 10000)
            page.destroy()
            tryCompare(watch.model, "count", 0, 4000)
        }

        // Destroying a page whose client has a long call deadline: every recipe on it closes,
        // its leases are revoked, and the retired connection goes as soon as the recipes said
        // closed(), well within the 10 s bound.
        function test_retiredConnectionGoesOnceRecipesClosed() {
            tryVerify(() => etcdTest.retiredConnections() === 0, 15000, // qmllint disable unqualified
                      "earlier tests' connections gone")
            const path = root.uniquePath("busy")
            const keys = make(watchComponent, { key: path + "/", active: true })
            tryCompare(keys, "ready", true, 10000)
            const page = busyPageComponent.createObject(root, { path: path })
            tryCompare(page, "ready", true, 10000)
            // Each on a lease: the transient key, the election's leader and participant keys,
            // the lock's key, the barrier.
            tryCompare(keys.model, "count", 5, 10000)
            page.destroy()
            tryCompare(keys.model, "count", 0, 4000)
            tryVerify(() => etcdTest.retiredConnections() === 0, 3000, // qmllint disable unqualified
                      "the retired connection is gone")
        }

        function test_leaseLossReachesQml() {
            const lease = make(leaseComponent, { active: true })
            tryCompare(lease, "state", Lease.Alive, 10000)
            const first = lease.leaseId
            verify(first !== "")
            verify(lease.remainingValidity() > 0)
            const events = spyOn(lease, "leaseEvent")
            const lost = spyOn(lease, "leaseLost")
            const states = []
            lease.stateChanged.connect(() => states.push(lease.state))

            etcdTest.revokeLease(first) // qmllint disable unqualified
            lost.wait(10000)
            verify(events.count >= 1)
            compare(events.signalArguments[0][0].type, LeaseEvent.Expired)
            compare(events.signalArguments[0][0].leaseId, first)
            verify(states.indexOf(Lease.Alive) === -1 || states.length > 1, "state left Alive")
            verify(states[0] !== Lease.Alive, "the first state change is away from Alive")
            // It heals: a new lease, Alive again.
            tryCompare(lease, "state", Lease.Alive, 10000)
            verify(lease.leaseId !== "" && lease.leaseId !== first)
        }

        // A TTL of 0 or less is refused, not rounded up to a second: InvalidArgument at once,
        // and nothing starts.
        function test_ttlNotPositiveIsRefused() {
            const path = root.uniquePath("badttl")
            const items = [
                make(electionComponent, { path: path + "/e", ttl: 0 }),
                make(lockComponent, { path: path + "/l", ttl: -1 }),
                make(keyValueComponent, { key: path + "/k", value: "v", ttl: 0 }),
                make(leaseComponent, { ttl: -2000 }),
                make(barrierComponent, { path: path + "/b", ttl: 0 })
            ]
            for (const item of items) {
                const errors = spyOn(item, "errorOccurred")
                item.active = true
                compare(errors.count, 1, String(item))
                compare(errors.signalArguments[0][0], EtcdError.InvalidArgument)
                compare(item.errorCode, EtcdError.InvalidArgument)
                verify(item.errorString.indexOf("ttl") >= 0, item.errorString)
                verify(!item.running, String(item))
            }
            // A fixed TTL starts as usual.
            items[3].ttl = 2000
            tryCompare(items[3], "state", Lease.Alive, 10000)
        }

        // A TTL that is not whole seconds is rounded up, as documented: 2500 ms is 3 s (not
        // 1500 ms: etcd raises anything below its 2 s minimum to 2 s by itself).
        function test_ttlRoundsUpToWholeSeconds() {
            const kv = make(keyValueComponent, { key: root.uniquePath("roundttl") + "/k",
                                                 value: "v", ttl: 2500, active: true })
            tryVerify(() => kv.leaseId !== "", 10000)
            compare(etcdTest.grantedTtl(kv.leaseId), 3) // qmllint disable unqualified
        }

        function test_lockLossReachesQml() {
            const path = root.uniquePath("lockloss")
            const lock = make(lockComponent, { path: path, active: true })
            tryCompare(lock, "held", true, 10000)
            const lost = spyOn(lock, "lockLost")
            const leaseId = lock.fencingToken.leaseId
            etcdTest.revokeLease(leaseId) // qmllint disable unqualified
            lost.wait(10000)
            compare(lock.held, false)
            verify(lost.signalArguments[0][0] !== 0, "a reason code")
            verify(lost.signalArguments[0][1].length > 0, "a reason message")
        }
    }
}
