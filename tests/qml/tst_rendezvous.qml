// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0

// CountedBarrier and DoubleBarrier against a real etcd: members meet only when all arrived.

import QtQuick
import EtcdQt

RecipeTestCase {
    name: "EtcdQtRendezvous"

    Component {
        id: countedComponent
        CountedBarrier { ttl: 2000 }
    }
    Component {
        id: doubleComponent
        DoubleBarrier { ttl: 2000; memberCount: 2 }
    }
    Component {
        id: watchComponent
        Watch { prefix: true }
    }

    function keysUnder(prefix) {
        const watch = make(watchComponent, { key: prefix, active: true })
        tryCompare(watch, "ready", true, 10000)
        return watch.model
    }

    // Three members: two arrive and wait, parked in etcd; the third releases all three.
    function test_countedBarrierTripsAtThree() {
        const path = uniquePath("counted")
        const parked = keysUnder(path + "/waiting/")
        const members = [0, 1, 2].map(() => make(countedComponent, { path: path, memberCount: 3,
                                                                     active: true }))
        const trips = members.map(member => spyOn(member, "tripped"))
        verify(members[0].arrive())
        verify(members[1].arrive())
        tryCompare(parked, "count", 2, 10000)
        tryCompare(members[0], "waiterCount", 2, 10000)
        compare(members[0].waiting, true)
        compare(members[1].waiting, true)
        compare(members[2].waiting, false)
        compare(trips[0].count + trips[1].count, 0)

        verify(members[2].arrive())
        for (const trip of trips)
            tryCompare(trip, "count", 1, 10000)
        for (const member of members) {
            compare(member.waiting, false)
            compare(member.errorCode, 0)
        }
        tryCompare(parked, "count", 0, 10000) // every member left the barrier
    }

    // A member switched off while it waits leaves the barrier: it no longer counts, so the
    // next arrival waits too, until the member comes back and arrives again.
    function test_countedBarrierMemberLeaves() {
        const path = uniquePath("counted-leave")
        const parked = keysUnder(path + "/waiting/")
        const a = make(countedComponent, { path: path, memberCount: 2, active: true })
        const b = make(countedComponent, { path: path, memberCount: 2, active: true })
        const bTripped = spyOn(b, "tripped")
        verify(a.arrive())
        tryCompare(parked, "count", 1, 10000)
        a.active = false
        compare(a.waiting, false)
        compare(a.arrive(), false) // not running
        tryCompare(parked, "count", 0, 10000)

        verify(b.arrive())
        tryCompare(parked, "count", 1, 10000)
        tryCompare(b, "waiterCount", 1, 10000)
        compare(bTripped.count, 0)
        compare(b.waiting, true)

        a.active = true
        const aTripped = spyOn(a, "tripped")
        verify(a.arrive())
        aTripped.wait(10000)
        tryCompare(bTripped, "count", 1, 10000)
    }

    // An arrival that cannot reach etcd ends with arrivalFailed(code, message).
    function test_countedBarrierArrivalFails() {
        const client = makeClient({ endpoints: ["127.0.0.1:1"], callDeadline: 300 })
        const member = make(countedComponent, { client: client, memberCount: 2,
                                                path: uniquePath("counted-unreachable"),
                                                active: true })
        compare(member.running, true)
        const failed = spyOn(member, "arrivalFailed")
        const tripped = spyOn(member, "tripped")
        verify(member.arrive())
        compare(member.waiting, true)
        failed.wait(10000)
        verify(failed.signalArguments[0][0] !== 0, "a reason code")
        verify(failed.signalArguments[0][1].length > 0, "a reason message")
        compare(member.waiting, false)
        compare(tripped.count, 0)
    }

    function test_countedBarrierRefusesBadSettings() {
        const member = make(countedComponent, { path: uniquePath("counted-bad") })
        const errors = spyOn(member, "errorOccurred")
        member.active = true // memberCount is 0
        compare(errors.count, 1)
        compare(member.errorCode, EtcdError.InvalidArgument)
        compare(member.running, false)
        member.memberCount = 2
        compare(member.running, true)
    }

    // Two members enter together and leave together; each waits in its phase for the other.
    function test_doubleBarrierEnterAndLeave() {
        const path = uniquePath("double")
        const entering = keysUnder(path + "/enter/waiting/")
        const leaving = keysUnder(path + "/leave/waiting/")
        const a = make(doubleComponent, { path: path, active: true })
        const b = make(doubleComponent, { path: path, active: true })
        const aEntered = spyOn(a, "entered")
        const bEntered = spyOn(b, "entered")
        const aLeft = spyOn(a, "left")
        const bLeft = spyOn(b, "left")
        compare(a.leave(), false) // not inside

        verify(a.enter())
        compare(a.phase, DoubleBarrier.Entering)
        compare(a.enter(), false) // entering already
        tryCompare(entering, "count", 1, 10000)
        tryCompare(a, "enterWaiterCount", 1, 10000)
        compare(aEntered.count, 0)
        verify(b.enter())
        aEntered.wait(10000)
        tryCompare(bEntered, "count", 1, 10000)
        compare(a.phase, DoubleBarrier.Inside)
        compare(b.phase, DoubleBarrier.Inside)

        verify(a.leave())
        compare(a.phase, DoubleBarrier.Leaving)
        tryCompare(leaving, "count", 1, 10000)
        compare(aLeft.count, 0)
        compare(b.phase, DoubleBarrier.Inside)
        verify(b.leave())
        aLeft.wait(10000)
        tryCompare(bLeft, "count", 1, 10000)
        compare(a.phase, DoubleBarrier.Outside)
        compare(b.phase, DoubleBarrier.Outside)
        tryCompare(entering, "count", 0, 10000)
        tryCompare(leaving, "count", 0, 10000)
    }

    // A member switched off while it enters leaves the round: the other does not enter alone.
    function test_doubleBarrierMemberGoesWhileEntering() {
        const path = uniquePath("double-gone")
        const entering = keysUnder(path + "/enter/waiting/")
        const a = make(doubleComponent, { path: path, active: true })
        const b = make(doubleComponent, { path: path, active: true })
        verify(a.enter())
        tryCompare(entering, "count", 1, 10000)
        a.active = false
        compare(a.phase, DoubleBarrier.Outside)
        tryCompare(entering, "count", 0, 10000)

        const bEntered = spyOn(b, "entered")
        verify(b.enter())
        tryCompare(entering, "count", 1, 10000)
        tryCompare(b, "enterWaiterCount", 1, 10000)
        compare(bEntered.count, 0)
        compare(b.phase, DoubleBarrier.Entering)
        a.active = true
        verify(a.enter())
        bEntered.wait(10000)
        tryCompare(a, "phase", DoubleBarrier.Inside, 10000)
    }
}
