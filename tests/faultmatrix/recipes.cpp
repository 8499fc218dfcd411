// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// The matrix's rows. A recipe without a subject has no row: scripts/fault-matrix shows its
// cells blank (missing), not as passed or skipped.
#include "matrix.h"
#include "subjects/subjects.h"

using namespace Qt::StringLiterals;

namespace FaultMatrix {

QList<Recipe> recipes()
{
    return {
        {u"mutex"_s, makeMutex},
        {u"rwlock"_s, makeRwLock},
        {u"semaphore"_s, makeSemaphore},
        {u"selector"_s, makeSelector},
        {u"latch"_s, makeLatch},
        {u"election"_s, makeElection},
        {u"selfhealing-lease"_s, makeSelfHealingLease},
        {u"transient-key"_s, makeTransientKey},
        {u"leased-keys"_s, makeLeasedKeys},
        {u"barrier"_s, makeBarrier},
        {u"counted-barrier"_s, makeCountedBarrier},
        {u"double-barrier"_s, makeDoubleBarrier},
        {u"countdown-latch"_s, makeCountDownLatch},
        {u"counter"_s, makeAtomicCounter},
        {u"service-discovery"_s, makeServiceDiscovery},
        {u"observer"_s, makeObserver},
        {u"participants"_s, makeParticipants},
        {u"node-cache"_s, makeNodeCache},
        {u"path-cache"_s, makePathCache},
        {u"queue"_s, makeQueue},
        {u"priority-queue"_s, makePriorityQueue},
        {u"work-queue"_s, makeWorkQueue},
    };
}

} // namespace FaultMatrix
