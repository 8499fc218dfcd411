// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0

// Queue, PriorityQueue, WorkQueue and QueueContents against a real etcd. Producers wait for
// each enqueue's answer before the next, so the order etcd applies them in is known; every
// step waits for a signal or a condition, never for time alone.

import QtQuick
import EtcdQt

RecipeTestCase {
    id: queuesTest
    name: "EtcdQtQueues"

    Component {
        id: queueComponent
        Queue {}
    }
    Component {
        id: priorityComponent
        PriorityQueue {}
    }
    Component {
        id: workComponent
        WorkQueue {}
    }
    Component {
        id: contentsComponent
        QueueContents {}
    }
    Component {
        id: childrenComponent
        PathChildrenCache {}
    }

    // Enqueues `values` one after another on `producer`, each answered before the next.
    function enqueueInOrder(producer, values, priorities) {
        const answered = spyOn(producer, "enqueueFinished")
        for (let i = 0; i < values.length; ++i) {
            verify(priorities === undefined ? producer.enqueue(values[i])
                                            : producer.enqueue(values[i], priorities[i]))
            tryCompare(answered, "count", i + 1, 10000)
            compare(answered.signalArguments[i][0], values[i])
            compare(answered.signalArguments[i][1], true, "enqueued " + values[i])
        }
    }

    // The number of keys under `prefix`, once a cache of it read them.
    function keysUnder(prefix) {
        const cache = make(childrenComponent, { path: prefix, active: true })
        tryCompare(cache, "ready", true, 10000)
        return cache.count
    }

    // The state of row `i` of `contents` (undefined when there is no such row).
    function rowState(contents, i) {
        const row = contents.get(i)
        return row === undefined ? undefined : row.itemState
    }

    // The rows of `contents` as "state:value" strings.
    function rows(contents) {
        const out = []
        for (let i = 0; i < contents.count; ++i) {
            const row = contents.get(i)
            out.push(row.itemState + ":" + row.value)
        }
        return out
    }

    // Two items waiting and one put while the consumer waits: all three arrive in FIFO
    // order, as text and as bytes. Switched off, the consumer takes nothing more.
    function test_queueConsumerReceivesInFifoOrder() {
        const path = uniquePath("queue")
        const producer = make(queueComponent, { path: path, active: true })
        const consumer = make(queueComponent, { path: path, active: true })
        const received = []
        const sizes = []
        consumer.received.connect((value, bytes) => {
            received.push(value)
            sizes.push(bytes.byteLength)
        })
        enqueueInOrder(producer, ["one", "two"])

        consumer.consuming = true
        tryCompare(received, "length", 2, 10000)
        enqueueInOrder(producer, ["three"])
        tryCompare(received, "length", 3, 10000)
        compare(received, ["one", "two", "three"])
        compare(sizes, [3, 3, 5])

        consumer.consuming = false
        enqueueInOrder(producer, ["four"])
        const sized = spyOn(producer, "sizeFinished")
        verify(producer.size())
        sized.wait(10000)
        compare(sized.signalArguments[0][0], 1, "a consumer switched off takes nothing")
        compare(received.length, 3)
        compare(consumer.errorCode, 0)
    }

    function test_tryDequeueAndSize() {
        const queue = make(queueComponent, { path: uniquePath("queue-try"), active: true })
        const tried = spyOn(queue, "tryDequeueFinished")
        verify(queue.tryDequeue())
        tried.wait(10000)
        compare(tried.signalArguments[0][0], false, "an empty queue has nothing to take")

        enqueueInOrder(queue, ["a", "b"])
        const sized = spyOn(queue, "sizeFinished")
        verify(queue.size())
        sized.wait(10000)
        compare(sized.signalArguments[0][0], 2)
        verify(queue.tryDequeue())
        tryCompare(tried, "count", 2, 10000)
        compare(tried.signalArguments[1][0], true)
        compare(tried.signalArguments[1][1], "a")
    }

    // Lowest number first, then in enqueue order; a priority outside 0..65535 is refused.
    function test_priorityQueueTakesLowestFirst() {
        const path = uniquePath("priority")
        const producer = make(priorityComponent, { path: path, active: true })
        enqueueInOrder(producer, ["later", "first", "second"], [5, 1, 1])
        const consumer = make(priorityComponent, { path: path, active: true })
        const received = []
        consumer.received.connect(value => received.push(value))
        consumer.consuming = true
        tryCompare(received, "length", 3, 10000)
        compare(received, ["first", "second", "later"])

        const errors = spyOn(producer, "errorOccurred")
        compare(producer.enqueue("x", 65536), false)
        compare(producer.errorCode, EtcdError.InvalidArgument)
        compare(producer.enqueue("x", 1.5), false)
        compare(errors.count, 2)
    }

    // A delivery acknowledged from the handler: the item leaves every area of the queue.
    function test_workQueueAckEmptiesTheQueue() {
        const path = uniquePath("work")
        const producer = make(workComponent, { path: path, active: true })
        const consumer = make(workComponent, { path: path, active: true, consuming: true })
        const items = []
        consumer.received.connect(item => {
            items.push(item)
            verify(item.ack())
        })
        const acked = spyOn(consumer, "ackFinished")
        enqueueInOrder(producer, ["job"])
        tryCompare(acked, "count", 1, 10000)
        compare(acked.signalArguments[0][1], true, "acknowledged while the claim held")
        compare(items.length, 1)
        compare(items[0].value, "job")
        compare(items[0].attempt, 1)
        verify(items[0].id !== "")
        verify(items[0].claim.valid)
        compare(items[0].claim.key, path + "/claims/" + items[0].id)
        compare(acked.signalArguments[0][0].id, items[0].id)
        compare(consumer.inFlight, 0)

        compare(keysUnder(path + "/items"), 0)
        compare(keysUnder(path + "/claims"), 0)
        compare(keysUnder(path + "/claimed"), 0)
        compare(keysUnder(path + "/attempts"), 0)

        compare(items[0].ack(), false, "a settled delivery is no longer in flight")
        compare(consumer.errorCode, EtcdError.FailedPrecondition)
    }

    // A requeued delivery comes back as the second attempt of the same item.
    function test_workQueueRequeueComesBackAsSecondAttempt() {
        const path = uniquePath("work-requeue")
        const producer = make(workComponent, { path: path, active: true })
        const consumer = make(workComponent, { path: path, active: true, consuming: true })
        const deliveries = []
        consumer.received.connect(item => {
            deliveries.push(item)
            verify(item.attempt === 1 ? consumer.requeue(item) : item.ack())
        })
        const requeued = spyOn(consumer, "requeueFinished")
        const acked = spyOn(consumer, "ackFinished")
        enqueueInOrder(producer, ["again"])
        tryCompare(acked, "count", 1, 10000)
        compare(requeued.count, 1)
        compare(requeued.signalArguments[0][1], true)
        compare(acked.signalArguments[0][1], true)
        compare(deliveries.length, 2)
        compare(deliveries.map(item => item.attempt), [1, 2])
        compare(deliveries[1].id, deliveries[0].id)
        compare(deliveries[1].value, "again")
        verify(deliveries[1].claim.revision > deliveries[0].claim.revision)
        compare(keysUnder(path + "/items"), 0)
    }

    // With maxInFlight 2, two deliveries are out at once, and no third before one settles.
    function test_workQueueMaxInFlight() {
        const path = uniquePath("work-inflight")
        const producer = make(workComponent, { path: path, active: true })
        enqueueInOrder(producer, ["a", "b", "c"])
        const consumer = make(workComponent, { path: path, active: true, maxInFlight: 2 })
        const items = []
        consumer.received.connect(item => items.push(item))
        consumer.consuming = true
        tryCompare(items, "length", 2, 10000)
        compare(consumer.inFlight, 2)
        const sized = spyOn(consumer, "sizeFinished")
        verify(consumer.size())
        sized.wait(10000)
        compare(sized.signalArguments[0][0], 1, "the third waits in items/")
        compare(items.length, 2)

        verify(items[0].ack())
        tryCompare(items, "length", 3, 10000)
        // Claimed in key order (ids of one millisecond order by their random part).
        verify(items[0].id < items[1].id && items[1].id < items[2].id)
        compare(items.map(item => item.value).sort(), ["a", "b", "c"])
    }

    // Empty paths and out-of-range settings are refused through the error properties.
    function test_badInputIsReported() {
        const queue = make(queueComponent, { path: "" })
        const queueErrors = spyOn(queue, "errorOccurred")
        queue.active = true
        compare(queueErrors.count, 1)
        compare(queue.errorCode, EtcdError.InvalidArgument)
        verify(queue.errorString !== "")
        compare(queue.running, false)
        compare(queue.enqueue("x"), false, "not running: nothing sent")
        queue.path = uniquePath("queue-late")
        compare(queue.running, true)

        const work = make(workComponent, { path: uniquePath("work-bad"), visibilityTimeout: 0,
                                           active: true })
        compare(work.errorCode, EtcdError.InvalidArgument)
        compare(work.running, false)
        work.visibilityTimeout = 2000
        compare(work.running, true)
        work.maxDeliveries = 0
        compare(work.running, false)
        compare(work.errorCode, EtcdError.InvalidArgument)
        work.maxDeliveries = 3
        compare(work.running, true)
        work.maxInFlight = 0
        compare(work.maxInFlight, 1, "a refused maxInFlight is not taken")
        compare(work.errorCode, EtcdError.InvalidArgument)
        compare(work.enqueue("x", -5), false)

        const emptyWork = make(workComponent, { path: "", active: true })
        compare(emptyWork.errorCode, EtcdError.InvalidArgument)
        const contents = make(contentsComponent, { path: "", active: true })
        compare(contents.errorCode, EtcdError.InvalidArgument)
        compare(contents.running, false)
    }

    // The rows of a work queue follow an item from queued to in flight, orphaned when its
    // consumer stops, to the dead letters after its last delivery, and back.
    function test_queueContentsFollowsWorkStates() {
        const path = uniquePath("work-contents")
        const contents = make(contentsComponent, { path: path, kind: QueueContents.Work,
                                                   active: true })
        tryCompare(contents, "ready", true, 10000)
        const producer = make(workComponent, { path: path, active: true })
        enqueueInOrder(producer, ["a"])
        tryCompare(contents, "count", 1, 10000)
        compare(rows(contents), [QueueContents.Queued + ":a"])
        compare(contents.get(0).key, path + "/items/" + contents.get(0).itemId)

        const consumer = make(workComponent, { path: path, active: true, maxDeliveries: 1 })
        const items = []
        consumer.received.connect(item => items.push(item))
        consumer.consuming = true
        tryCompare(items, "length", 1, 10000)
        tryVerify(() => rowState(contents, 0) === QueueContents.InFlight, 10000)
        const inFlight = contents.get(0)
        compare(inFlight.itemId, items[0].id)
        compare(inFlight.value, "a")
        compare(inFlight.consumer, consumer.clientId)
        compare(inFlight.attempt, 1)
        compare(inFlight.key, path + "/claimed/" + items[0].id)

        enqueueInOrder(producer, ["b"])
        tryCompare(contents, "count", 2, 10000)
        compare(rows(contents), [QueueContents.Queued + ":b", QueueContents.InFlight + ":a"],
                "the next to take first")

        consumer.active = false // revokes the consumer's lease: the claim goes with it
        tryVerify(() => rowState(contents, 1) === QueueContents.Orphaned, 10000)
        compare(contents.get(1).consumer, "")

        const sweeper = make(workComponent, { path: path, active: true, maxDeliveries: 1 })
        const swept = spyOn(sweeper, "sweepFinished")
        verify(sweeper.sweep())
        swept.wait(10000)
        compare(swept.signalArguments[0][0], 1)
        tryVerify(() => rowState(contents, 1) === QueueContents.DeadLetter, 10000)
        compare(contents.get(1).attempt, 1)

        const letters = spyOn(sweeper, "deadLettersFinished")
        verify(sweeper.deadLetters())
        letters.wait(10000)
        const dead = letters.signalArguments[0][0]
        compare(dead.length, 1)
        compare(dead[0].id, items[0].id)
        compare(dead[0].value, "a")
        compare(dead[0].attempts, 1)

        const back = spyOn(sweeper, "requeueDeadLetterFinished")
        verify(sweeper.requeueDeadLetter(items[0].id))
        back.wait(10000)
        compare(back.signalArguments[0][1], true)
        tryVerify(() => rowState(contents, 0) === QueueContents.Queued
                  && rowState(contents, 1) === QueueContents.Queued, 10000)
        // Back under its id, so at its first place: the queued rows are in id order.
        verify(contents.get(0).itemId < contents.get(1).itemId)
        const again = [0, 1].map(i => contents.get(i)).find(row => row.value === "a")
        compare(again.attempt, 0, "its count reset")
        const purged = spyOn(sweeper, "purgeDeadLetterFinished")
        verify(sweeper.purgeDeadLetter(items[0].id))
        purged.wait(10000)
        compare(purged.signalArguments[0][1], false, "no such dead letter any more")

        contents.states = QueueContents.DeadLetter
        compare(contents.count, 0)
        contents.states = QueueContents.Queued | QueueContents.InFlight
        compare(contents.count, 2)
        contents.active = false
        compare(contents.count, 0)
    }

    // A priority queue's rows in take order, with their priorities.
    function test_queueContentsOfAPriorityQueue() {
        const path = uniquePath("priority-contents")
        const producer = make(priorityComponent, { path: path, active: true })
        enqueueInOrder(producer, ["low", "high", "mid"], [9, 0, 4])
        const contents = make(contentsComponent, { path: path, kind: QueueContents.Priority,
                                                   active: true })
        tryCompare(contents, "count", 3, 10000)
        compare([0, 1, 2].map(i => contents.get(i).value), ["high", "mid", "low"])
        compare([0, 1, 2].map(i => contents.get(i).priority), [0, 4, 9])
        compare(contents.get(3), undefined)
    }
}
