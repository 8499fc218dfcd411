// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API.
#pragma once

#include <EtcdQt/etcdfencing.h>
#include <EtcdQt/etcdstatus.h>
#include <EtcdQt/etcdtxn.h>

#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>

class EtcdClient;

namespace Etcd::Internal {

struct ReplyData;
struct WorkerDoor;

// The blocking calls of worker threads inside one recipe, which must not outlive it: the
// recipe's end (close()) wakes each from its wait for etcd, with `why` (the call itself runs
// on, unread), and waits until every one has left the recipe's code, which it uses to the end.
class WorkerGate
{
public:
    // A worker inside the recipe; false (and nothing may be done) once the gate closed.
    class Pass
    {
    public:
        explicit Pass(std::shared_ptr<WorkerGate> gate);
        ~Pass();
        Pass(const Pass &) = delete;
        Pass &operator=(const Pass &) = delete;
        explicit operator bool() const { return m_entered; }
        [[nodiscard]] WorkerGate *gate() const { return m_gate.get(); }

    private:
        std::shared_ptr<WorkerGate> m_gate;
        bool m_entered = false;
    };

    // While a call waits for etcd: `wake` ends the wait. 0 when the gate closed (then `wake`
    // ran already).
    quint64 watch(std::function<void(const EtcdStatus &)> wake);
    void forget(quint64 id);
    void close(const EtcdStatus &why); // the recipe's thread, as the recipe goes

private:
    std::mutex m_mutex;
    std::condition_variable m_left;
    int m_inside = 0;
    bool m_closed = false;
    EtcdStatus m_why;
    quint64 m_next = 0;
    std::map<quint64, std::function<void(const EtcdStatus &)>> m_waits;
};

// The door of `client` (owner thread); recipes keep it for their worker-thread calls.
std::shared_ptr<WorkerDoor> workerDoorOf(EtcdClient *client);

// From a worker thread: sends `txn` straight to the transport from this thread and waits at
// most `timeout` for etcd's answer, handed over where it arrives (no owner or engine thread in
// between, so a busy one delays nothing). Returns whether an answer came; then `status` says
// how the call went and `succeeded` whether the transaction's compares held.
bool txnFromWorker(const std::shared_ptr<WorkerDoor> &door, const EtcdTxn &txn,
    std::chrono::milliseconds timeout, EtcdStatus *status, bool *succeeded,
    WorkerGate *gate = nullptr);

// txnFromWorker(), with etcd's whole answer in `reply` (the transaction's results and revision).
// With `gate`, the recipe's end answers the wait (see WorkerGate).
bool txnReplyFromWorker(const std::shared_ptr<WorkerDoor> &door, const EtcdTxn &txn,
    std::chrono::milliseconds timeout, EtcdStatus *status, ReplyData *reply,
    WorkerGate *gate = nullptr);

// From a worker thread: sends `txn` guarded by `token` as txnFromWorker() does. `held` is the
// caller's ownership as the engine last decided it: a write for an ownership already over is
// refused at once (FailedPrecondition, `over`) without a round trip. True when it committed;
// otherwise `status` says why (the guard failed: the ownership is over; etcd refused or was
// unreachable; DeadlineExceeded: no answer in time, the write may still commit, but only while the
// ownership holds).
bool commitGuardedFromWorker(const std::shared_ptr<WorkerDoor> &door, bool held,
    const EtcdFencingToken &token, const EtcdTxn &txn, std::chrono::milliseconds timeout,
    EtcdStatus *status, const QString &over, WorkerGate *gate = nullptr);

} // namespace Etcd::Internal
