// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "guardedcommit_p.h"

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

// Starts the call with the door held (see WorkerDoor); false when there is no session.
bool send(WorkerDoor &door, const EtcdTxn &txn, const Answer<Outcome> &answer)
{
    std::lock_guard lock(door.mutex);
    if (!door.transport || !door.engine)
        return false;
    CallTarget target {nullptr,
        [answer](const EtcdStatus &s, ReplyData &&data) {
            answer({s, std::move(data)});
        },
        true};
    door.transport->txn(txn, door.options, std::move(target));
    return true;
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
    // Only the call holds the answer: cancelled unanswered, it answers NotConnected at once.
    std::optional<Outcome> outcome;
    if (!door || !send(*door, txn, Answer<Outcome>(handoff, {notConnected(), {}}))) {
        outcome = Outcome {notConnected(), {}};
    } else {
        const quint64 watched = gate ? gate->watch([handoff](const EtcdStatus &why) {
            handoff->provide({why, {}});
        })
                                     : 0;
        outcome = handoff->waitFor(timeout);
        if (watched)
            gate->forget(watched);
    }
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
