// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API.
#pragma once

#include <EtcdQt/etcdfencing.h>
#include <EtcdQt/etcdstatus.h>
#include <EtcdQt/etcdtxn.h>

#include <chrono>
#include <memory>

class EtcdClient;

namespace Etcd::Internal {

struct ReplyData;
struct WorkerDoor;

// The door of `client` (owner thread); recipes keep it for their worker-thread calls.
std::shared_ptr<WorkerDoor> workerDoorOf(EtcdClient *client);

// From a worker thread: sends `txn` straight to the transport from this thread and waits at
// most `timeout` for etcd's answer, handed over where it arrives (no owner or engine thread in
// between, so a busy one delays nothing). Returns whether an answer came; then `status` says
// how the call went and `succeeded` whether the transaction's compares held.
bool txnFromWorker(const std::shared_ptr<WorkerDoor> &door, const EtcdTxn &txn,
    std::chrono::milliseconds timeout, EtcdStatus *status, bool *succeeded);

// txnFromWorker(), with etcd's whole answer in `reply` (the transaction's results and revision).
bool txnReplyFromWorker(const std::shared_ptr<WorkerDoor> &door, const EtcdTxn &txn,
    std::chrono::milliseconds timeout, EtcdStatus *status, ReplyData *reply);

// From a worker thread: sends `txn` guarded by `token` as txnFromWorker() does. `held` is the
// caller's ownership as the engine last decided it: a write for an ownership already over is
// refused at once (FailedPrecondition, `over`) without a round trip. True when it committed;
// otherwise `status` says why (the guard failed: the ownership is over; etcd refused or was
// unreachable; DeadlineExceeded: no answer in time, the write may still commit, but only while the
// ownership holds).
bool commitGuardedFromWorker(const std::shared_ptr<WorkerDoor> &door, bool held,
    const EtcdFencingToken &token, const EtcdTxn &txn, std::chrono::milliseconds timeout,
    EtcdStatus *status, const QString &over);

} // namespace Etcd::Internal
