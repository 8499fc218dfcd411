// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0

// Semaphore and ReadWriteLock against a real etcd. The holds' TTL is 10 s, so a hand-over
// within 5 s comes from a release or a revoke, never from an expiry.

import QtQuick
import EtcdQt

RecipeTestCase {
    name: "EtcdQtPermits"

    Component {
        id: semaphoreComponent
        Semaphore { permits: 2; ttl: 10000 }
    }
    Component {
        id: readWriteLockComponent
        ReadWriteLock { ttl: 10000 }
    }
    Component {
        id: watchComponent
        Watch { prefix: true }
    }

    // The keys under `prefix`, once the watch is live.
    function keysUnder(prefix) {
        const watch = make(watchComponent, { key: prefix, active: true })
        tryCompare(watch, "ready", true, 10000)
        return watch.model
    }

    function holding(items) {
        return items.filter(item => item.held)
    }

    // Three items on a semaphore of two: two hold, the third waits until one gives its
    // permit back, and never are more than two held at once.
    function test_semaphoreAdmitsTwoOfThree() {
        const path = uniquePath("semaphore")
        const keys = keysUnder(path + "/holders/")
        const items = []
        let most = 0
        for (const id of ["a", "b", "c"]) {
            const item = make(semaphoreComponent, { path: path, clientId: id })
            item.heldChanged.connect(() => { most = Math.max(most, holding(items).length) })
            items.push(item)
            item.active = true
        }
        tryCompare(keys, "count", 3, 10000) // all three have asked
        tryVerify(() => holding(items).length === 2, 10000, "two hold")
        const waiter = items.find(item => !item.held)
        const holder = holding(items)[0]
        const acquired = spyOn(waiter, "acquired")
        const released = spyOn(holder, "released")
        verify(holder.fencingToken.valid)
        compare(waiter.fencingToken.valid, false)

        holder.active = false // gives its permit back
        compare(released.count, 1)
        acquired.wait(5000)
        compare(waiter.held, true)
        verify(waiter.fencingToken.valid)
        compare(holding(items).length, 2)
        compare(most, 2)
        tryCompare(keys, "count", 2, 10000)
        compare(waiter.errorCode, 0)
    }

    // A permit whose lease is revoked out of band is lost, not healed; the waiter gets it.
    function test_semaphorePermitLostToRevoke() {
        const path = uniquePath("semaphore-lost")
        const keys = keysUnder(path + "/holders/")
        const holder = make(semaphoreComponent, { path: path, permits: 1, active: true })
        tryCompare(holder, "held", true, 10000)
        const waiter = make(semaphoreComponent, { path: path, permits: 1, active: true })
        tryCompare(keys, "count", 2, 10000)
        compare(waiter.held, false)
        const lost = spyOn(holder, "permitLost")
        const acquired = spyOn(waiter, "acquired")

        etcdTest.revokeLease(holder.fencingToken.leaseId) // qmllint disable unqualified
        lost.wait(10000)
        compare(holder.held, false)
        compare(holder.fencingToken.valid, false)
        verify(lost.signalArguments[0][0] !== 0, "a reason code")
        verify(lost.signalArguments[0][1].length > 0, "a reason message")
        compare(holder.connectionState, Semaphore.Lost)
        acquired.wait(5000)
        compare(waiter.held, true)
        compare(holder.held, false) // never healed while active
    }

    // Settings the library refuses are reported at once, and nothing starts.
    // An item whose count disagrees with the one in etcd is refused once, with
    // FailedPrecondition; it does not ask again by itself (after another item's whole
    // acquire and release, still one error: a check repeated in a loop fails every trip).
    function test_semaphoreCountMismatchIsRefusedOnce() {
        const path = uniquePath("mismatch")
        const first = make(semaphoreComponent, { path: path, clientId: "first", active: true })
        tryCompare(first, "held", true, 10000)
        const second = make(semaphoreComponent, { path: path, clientId: "second", permits: 3 })
        const errors = spyOn(second, "errorOccurred")
        second.active = true
        tryCompare(errors, "count", 1, 10000)
        compare(second.errorCode, EtcdError.FailedPrecondition)
        compare(second.held, false)
        const other = make(semaphoreComponent, { path: uniquePath("fence"), active: true })
        tryCompare(other, "held", true, 10000)
        other.active = false
        compare(errors.count, 1)
    }

    function test_refusesBadSettings() {
        const path = uniquePath("badsettings")
        const cases = [
            [make(semaphoreComponent, { path: path + "/s", permits: 0 }), "permit"],
            [make(semaphoreComponent, { path: path + "/t", ttl: 0 }), "ttl"],
            [make(readWriteLockComponent, { path: path + "/rw", ttl: -1 }), "ttl"]
        ]
        for (const [item, word] of cases) {
            const errors = spyOn(item, "errorOccurred")
            item.active = true
            compare(errors.count, 1, String(item))
            compare(item.errorCode, EtcdError.InvalidArgument)
            verify(item.errorString.indexOf(word) >= 0, item.errorString)
            compare(item.running, false)
        }
        cases[0][0].permits = 1 // fixed: it starts and holds
        tryCompare(cases[0][0], "held", true, 10000)
    }

    // Two readers hold together; a writer waits for both; a reader that comes after the
    // writer waits for it.
    function test_writerWaitsForReaders() {
        const path = uniquePath("rwlock")
        const keys = keysUnder(path + "/")
        const first = make(readWriteLockComponent, { path: path, mode: ReadWriteLock.Read,
                                                     active: true })
        const second = make(readWriteLockComponent, { path: path, mode: ReadWriteLock.Read,
                                                      active: true })
        tryVerify(() => first.held && second.held, 10000, "readers share the lock")
        const writer = make(readWriteLockComponent, { path: path, active: true })
        compare(writer.mode, ReadWriteLock.Write)
        const writerAcquired = spyOn(writer, "acquired")
        tryCompare(keys, "count", 3, 10000) // the writer has asked
        compare(writer.held, false)

        first.active = false
        tryCompare(keys, "count", 2, 10000)
        compare(writer.held, false) // the second reader still holds
        compare(writerAcquired.count, 0)
        second.active = false
        writerAcquired.wait(5000)
        compare(writer.held, true)
        verify(writer.fencingToken.valid)

        const late = make(readWriteLockComponent, { path: path, mode: ReadWriteLock.Read,
                                                    active: true })
        const lateAcquired = spyOn(late, "acquired")
        tryCompare(keys, "count", 2, 10000) // the late reader has asked
        compare(late.held, false)
        writer.active = false
        lateAcquired.wait(5000)
        compare(late.held, true)
    }

    // A write hold whose lease is revoked is lost (lockLost), and a reader waiting for it
    // gets the lock; switching the lost item off and on takes a new hold.
    function test_readWriteLockLostToRevoke() {
        const path = uniquePath("rwlock-lost")
        const keys = keysUnder(path + "/")
        const writer = make(readWriteLockComponent, { path: path, active: true })
        tryCompare(writer, "held", true, 10000)
        const reader = make(readWriteLockComponent, { path: path, mode: ReadWriteLock.Read,
                                                      active: true })
        tryCompare(keys, "count", 2, 10000)
        const lost = spyOn(writer, "lockLost")
        const readerAcquired = spyOn(reader, "acquired")

        etcdTest.revokeLease(writer.fencingToken.leaseId) // qmllint disable unqualified
        lost.wait(10000)
        compare(writer.held, false)
        verify(lost.signalArguments[0][0] !== 0, "a reason code")
        readerAcquired.wait(5000)

        // Asking again in read mode: readers share, so it holds beside the reader.
        writer.mode = ReadWriteLock.Read
        tryCompare(writer, "held", true, 10000)
        compare(reader.held, true)
    }
}
