// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// The subject factories, one per recipe (each defined in its family's file).
#pragma once

#include "../matrix.h"

namespace FaultMatrix {

std::unique_ptr<Subject> makeMutex();
std::unique_ptr<Subject> makeRwLock();
std::unique_ptr<Subject> makeSemaphore();
std::unique_ptr<Subject> makeSelector();
std::unique_ptr<Subject> makeLatch();
std::unique_ptr<Subject> makeElection();
std::unique_ptr<Subject> makeSelfHealingLease();
std::unique_ptr<Subject> makeTransientKey();
std::unique_ptr<Subject> makeLeasedKeys();
std::unique_ptr<Subject> makeBarrier();
std::unique_ptr<Subject> makeCountedBarrier();
std::unique_ptr<Subject> makeDoubleBarrier();
std::unique_ptr<Subject> makeCountDownLatch();
std::unique_ptr<Subject> makeAtomicCounter();
std::unique_ptr<Subject> makeServiceDiscovery();
std::unique_ptr<Subject> makeObserver();
std::unique_ptr<Subject> makeParticipants();
std::unique_ptr<Subject> makeNodeCache();
std::unique_ptr<Subject> makePathCache();
std::unique_ptr<Subject> makeQueue();
std::unique_ptr<Subject> makePriorityQueue();
std::unique_ptr<Subject> makeWorkQueue();

} // namespace FaultMatrix
