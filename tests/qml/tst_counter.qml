// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0

// AtomicCounter against a real etcd: changes from several items never answer the same value.

import QtQuick
import EtcdQt

RecipeTestCase {
    name: "EtcdQtCounter"

    Component {
        id: counterComponent
        AtomicCounter {}
    }
    Component {
        id: keyValueComponent
        TransientKeyValue { ttl: 10000 }
    }

    // Two items increment one counter, their calls interleaved: the ten answers are the ten
    // values 1..10, and a third item reads 10.
    function test_incrementsFromTwoItems() {
        const path = uniquePath("counter")
        const a = make(counterComponent, { path: path, active: true })
        const b = make(counterComponent, { path: path, active: true })
        const answers = []
        a.addFinished.connect(value => answers.push(value))
        b.addFinished.connect(value => answers.push(value))
        for (let i = 0; i < 5; ++i) {
            verify(a.increment())
            verify(b.increment())
        }
        tryCompare(answers, "length", 10, 20000)
        compare(answers.slice().sort((x, y) => x - y), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
        verify(a.value >= 1 && b.value >= 1)
        compare(Math.max(a.value, b.value), 10)

        const reader = make(counterComponent, { path: path, active: true })
        verify(isNaN(reader.value), "nothing read yet")
        const read = spyOn(reader, "getFinished")
        verify(reader.get())
        read.wait(10000)
        compare(read.signalArguments[0][0], 10)
        compare(reader.value, 10)

        verify(a.subtract(4))
        verify(a.decrement())
        verify(a.add(-2))
        tryCompare(answers, "length", 13, 10000)
        compare(answers.slice(10), [6, 5, 3])
        reader.active = false
        verify(isNaN(reader.value), "inactive: no value")
        compare(reader.get(), false)
    }

    // The first creator's initial value counts; later items see the value in etcd.
    function test_initialValueOfTheFirstCreator() {
        const path = uniquePath("counter-initial")
        const first = make(counterComponent, { path: path, initialValue: 100, active: true })
        const second = make(counterComponent, { path: path, initialValue: 5, active: true })
        const read = spyOn(first, "getFinished")
        verify(first.get())
        read.wait(10000)
        compare(read.signalArguments[0][0], 100)
        const added = spyOn(second, "addFinished")
        verify(second.increment())
        added.wait(10000)
        compare(added.signalArguments[0][0], 101)
    }

    // A key that holds no counter fails every change readably, and is left alone.
    function test_counterOverForeignValue() {
        const path = uniquePath("counter-foreign")
        const other = make(keyValueComponent, { key: path, value: "x", active: true })
        tryVerify(() => other.leaseId !== "", 10000)
        const counter = make(counterComponent, { path: path, active: true })
        const added = spyOn(counter, "addFinished")
        const errors = spyOn(counter, "errorOccurred")
        verify(counter.increment())
        added.wait(10000)
        verify(isNaN(added.signalArguments[0][0]), "a failed change answers NaN")
        compare(counter.errorCode, EtcdError.FailedPrecondition)
        compare(errors.count, 1)
        verify(isNaN(counter.value))

        compare(counter.add(1.5), false)
        compare(counter.errorCode, EtcdError.InvalidArgument)
        compare(added.count, 1)
    }

    function test_initialValueMustBeWhole() {
        const counter = make(counterComponent, { path: uniquePath("counter-bad"),
                                                 initialValue: 0.5 })
        const errors = spyOn(counter, "errorOccurred")
        counter.active = true
        compare(errors.count, 1)
        compare(counter.errorCode, EtcdError.InvalidArgument)
        compare(counter.running, false)
        counter.initialValue = 7
        compare(counter.running, true)
        const read = spyOn(counter, "getFinished")
        verify(counter.get())
        read.wait(10000)
        compare(read.signalArguments[0][0], 7)
    }
}
