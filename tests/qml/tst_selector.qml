// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0

// LeaderSelector against a real etcd: one term at a time, leadership signalled to QML. The
// leases' TTL is 10 s, so a hand-over within 5 s comes from relinquishing or a revoke.

import QtQuick
import EtcdQt

RecipeTestCase {
    name: "EtcdQtSelector"

    Component {
        id: selectorComponent
        LeaderSelector { ttl: 10000 }
    }

    // The leader relinquishes: the candidate takes over at once, and the former leader stays
    // out of the election until it requeues.
    function test_selectorHandsOverOnRelinquish() {
        const path = uniquePath("selector")
        const a = make(selectorComponent, { path: path, clientId: "a", active: true })
        tryCompare(a, "isLeader", true, 10000)
        compare(a.state, LeaderSelector.Leading)
        verify(a.fencingToken.valid)
        const firstRevision = a.fencingToken.revision
        const b = make(selectorComponent, { path: path, clientId: "b", active: true })
        tryCompare(b, "state", LeaderSelector.Campaigning, 10000)
        tryCompare(b, "leader", "a", 10000)
        const bElected = spyOn(b, "elected")
        const aRelinquished = spyOn(a, "relinquished")
        const aFinished = spyOn(a, "termFinished")

        verify(a.relinquish())
        bElected.wait(5000)
        compare(b.isLeader, true)
        verify(b.fencingToken.revision > firstRevision)
        compare(aRelinquished.count, 1)
        tryCompare(aFinished, "count", 1, 10000)
        compare(a.state, LeaderSelector.Idle)
        compare(a.isLeader, false)
        compare(a.fencingToken.valid, false)
        compare(a.relinquish(), false) // nothing to give up
        tryCompare(b, "leader", "b", 10000)

        // Back in the running: a waits for b, and leads once b relinquishes.
        verify(a.requeue())
        tryCompare(a, "state", LeaderSelector.Campaigning, 10000)
        compare(a.requeue(), false) // a term is in flight
        const aElected = spyOn(a, "elected")
        verify(b.relinquish())
        aElected.wait(5000)
        compare(a.isLeader, true)
        compare(a.errorCode, 0)
        compare(b.errorCode, 0)
    }

    // A leader whose lease is revoked out of band loses the leadership (never healed); the
    // candidate is elected, and with autoRequeue the former leader runs again by itself.
    function test_selectorLosesLeadershipToRevoke() {
        const path = uniquePath("selector-lost")
        const a = make(selectorComponent, { path: path, clientId: "a", autoRequeue: true,
                                            active: true })
        tryCompare(a, "isLeader", true, 10000)
        const b = make(selectorComponent, { path: path, clientId: "b", active: true })
        tryCompare(b, "state", LeaderSelector.Campaigning, 10000)
        const lost = spyOn(a, "leadershipLost")
        const aRelinquished = spyOn(a, "relinquished")
        const aFinished = spyOn(a, "termFinished")
        const bElected = spyOn(b, "elected")

        etcdTest.revokeLease(a.fencingToken.leaseId) // qmllint disable unqualified
        lost.wait(10000)
        verify(lost.signalArguments[0][0] !== 0, "a reason code")
        verify(lost.signalArguments[0][1].length > 0, "a reason message")
        compare(a.isLeader, false)
        bElected.wait(5000)
        tryCompare(aFinished, "count", 1, 10000)
        compare(aRelinquished.count, 1)
        tryCompare(a, "state", LeaderSelector.Campaigning, 10000) // requeued by itself
        compare(a.isLeader, false)
        compare(b.isLeader, true)
    }

    function test_selectorRefusesTtlNotPositive() {
        const selector = make(selectorComponent, { path: uniquePath("selector-ttl"), ttl: 0 })
        const errors = spyOn(selector, "errorOccurred")
        selector.active = true
        compare(errors.count, 1)
        compare(selector.errorCode, EtcdError.InvalidArgument)
        compare(selector.running, false)
        compare(selector.requeue(), false)
    }

    // Switching a leader off resigns it: relinquished(), and the candidate is elected.
    function test_selectorInactiveResigns() {
        const path = uniquePath("selector-off")
        const a = make(selectorComponent, { path: path, active: true })
        tryCompare(a, "isLeader", true, 10000)
        verify(a.clientId.indexOf("LeaderSelector:") === 0, a.clientId)
        const b = make(selectorComponent, { path: path, active: true })
        tryCompare(b, "state", LeaderSelector.Campaigning, 10000)
        const relinquished = spyOn(a, "relinquished")
        const bElected = spyOn(b, "elected")
        a.active = false
        compare(relinquished.count, 1)
        compare(a.state, LeaderSelector.Idle)
        compare(a.isLeader, false)
        bElected.wait(5000)
    }
}
