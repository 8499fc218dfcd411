// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "guardedcommit_p.h"

#include "completionqueue_p.h"
#include "etcdclient_p.h"
#include "handoff_p.h"

#include <QtCore/qcoreapplication.h>

namespace Etcd::Internal {

using namespace std::chrono;

namespace {
using Outcome = std::pair<EtcdStatus, ReplyData>; // the call's status, and etcd's answer

QString message(const char *text)
{
    return QCoreApplication::translate("EtcdRecipe", text);
}

EtcdStatus notConnected()
{
    return EtcdStatus(Etcd::ErrorCode::NotConnected,
        message(QT_TRANSLATE_NOOP("EtcdRecipe", "the client is not connected")));
}

// Starts the call with the door held (see WorkerDoor), its completion queued on `queue`;
// null when there is no session.
std::shared_ptr<CallHandle> send(
    WorkerDoor &door, const EtcdTxn &txn, const Answer<Outcome> &answer, ThreadQueue &queue)
{
    std::lock_guard lock(door.mutex);
    if (!door.transport || !door.engine)
        return nullptr;
    CallTarget target {nullptr,
        [answer](const EtcdStatus &s, ReplyData &&data) {
            answer({s, std::move(data)});
        },
        true, queue.queue()};
    return door.transport->txn(txn, door.options, std::move(target));
}

// Drives this thread's queue until the call answered (etcd, or its end: the fallback) or
// `timeout` passed; then it is aborted, and driven until it answered that (promptly: gRPC
// hands a cancelled call back at once). Either way it returns only once gRPC has handed the
// call's attempt back, so nothing of it is left queued here. With `gate`, the recipe's end
// aborts it too, and its reason is the answer.
std::optional<Outcome> awaitCall(const std::shared_ptr<Handoff<Outcome>> &handoff,
    const std::shared_ptr<CallHandle> &call, ThreadQueue &queue, milliseconds timeout,
    WorkerGate *gate)
{
    auto closed = std::make_shared<Handoff<EtcdStatus>>();
    const quint64 watched = gate ? gate->watch([closed, call](const EtcdStatus &why) {
        closed->provide(why);
        call->abort();
    })
                                 : 0;
    const auto answered = [&handoff, &call] { return handoff->isProvided() && call->isSettled(); };
    // A year is "forever": no clock overflow.
    const auto deadline = std::chrono::steady_clock::now()
        + std::min<milliseconds>(timeout, std::chrono::hours(24 * 365));
    const bool inTime = queue.driveUntil(answered, deadline);
    if (!inTime) {
        call->abort();
        queue.driveUntil(answered, std::nullopt);
    }
    if (watched)
        gate->forget(watched);
    if (const std::optional<EtcdStatus> why = closed->take())
        return Outcome {*why, {}};
    return inTime ? handoff->take() : std::nullopt;
}
} // namespace

WorkerGate::Pass::Pass(std::shared_ptr<WorkerGate> gate) : m_gate(std::move(gate))
{
    std::lock_guard lock(m_gate->m_mutex);
    m_entered = !m_gate->m_closed;
    m_gate->m_inside += m_entered ? 1 : 0;
}

WorkerGate::Pass::~Pass()
{
    if (!m_entered)
        return;
    std::lock_guard lock(m_gate->m_mutex);
    if (--m_gate->m_inside == 0)
        m_gate->m_left.notify_all();
}

quint64 WorkerGate::watch(std::function<void(const EtcdStatus &)> wake)
{
    std::unique_lock lock(m_mutex);
    if (m_closed) {
        lock.unlock();
        wake(m_why);
        return 0;
    }
    m_waits.emplace(++m_next, std::move(wake));
    return m_next;
}

void WorkerGate::forget(quint64 id)
{
    std::lock_guard lock(m_mutex);
    m_waits.erase(id);
}

void WorkerGate::close(const EtcdStatus &why)
{
    std::unique_lock lock(m_mutex);
    m_closed = true;
    m_why = why;
    for (auto &[id, wake] : std::exchange(m_waits, {}))
        wake(why); // a Handoff's provide(): never blocks, never calls back here
    m_left.wait(lock, [this] { return m_inside == 0; });
}

std::shared_ptr<WorkerDoor> workerDoorOf(EtcdClient *client)
{
    return client ? EtcdClientPrivate::get(client)->door : std::make_shared<WorkerDoor>();
}

bool txnReplyFromWorker(const std::shared_ptr<WorkerDoor> &door, const EtcdTxn &txn,
    milliseconds timeout, EtcdStatus *status, ReplyData *reply, WorkerGate *gate)
{
    auto handoff = std::make_shared<Handoff<Outcome>>();
    ThreadQueue &queue = ThreadQueue::current();
    // Answered in this thread while it drives the queue; from another (an abort between
    // attempts, the call dropped by the client's end), the queue is woken to see it.
    handoff->setWaker([&queue, self = std::this_thread::get_id()] {
        if (std::this_thread::get_id() != self)
            queue.wake();
    });
    // Only the call holds the answer: cancelled unanswered, it answers NotConnected at once.
    std::optional<Outcome> outcome;
    const auto call
        = door ? send(*door, txn, Answer<Outcome>(handoff, {notConnected(), {}}), queue) : nullptr;
    if (!call)
        outcome = Outcome {notConnected(), {}};
    else
        outcome = awaitCall(handoff, call, queue, timeout, gate);
    if (!outcome)
        return false;
    *status = outcome->first;
    *reply = std::move(outcome->second);
    return true;
}

bool txnFromWorker(const std::shared_ptr<WorkerDoor> &door, const EtcdTxn &txn,
    milliseconds timeout, EtcdStatus *status, bool *succeeded, WorkerGate *gate)
{
    ReplyData reply;
    if (!txnReplyFromWorker(door, txn, timeout, status, &reply, gate))
        return false;
    *succeeded = status->isOk() && reply.succeeded;
    return true;
}

bool commitGuardedFromWorker(const std::shared_ptr<WorkerDoor> &door, bool held,
    const EtcdFencingToken &token, const EtcdTxn &txn, milliseconds timeout, EtcdStatus *status,
    const QString &over, WorkerGate *gate)
{
    const auto report = [status](const EtcdStatus &s, bool committed) {
        if (status)
            *status = s;
        return committed;
    };
    if (!held || !token.isValid())
        return report(EtcdStatus(Etcd::ErrorCode::FailedPrecondition, over), false);
    EtcdStatus answer;
    bool committed = false;
    if (!txnFromWorker(door, token.guard(txn), timeout, &answer, &committed, gate))
        return report(EtcdStatus(Etcd::ErrorCode::DeadlineExceeded,
                          message(QT_TRANSLATE_NOOP("EtcdRecipe",
                              "no answer in time; the write commits only while it holds"))),
            false);
    // Answered but not committed: the guard failed, so the ownership is over.
    if (answer.isOk() && !committed)
        return report(EtcdStatus(Etcd::ErrorCode::FailedPrecondition, over), false);
    return report(answer, committed);
}

} // namespace Etcd::Internal
