// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "guardedcommit_p.h"

#include "etcdclient_p.h"
#include "handoff_p.h"

#include <QtCore/qcoreapplication.h>

namespace Etcd::Internal {

using namespace std::chrono;

namespace {
using Outcome = std::pair<EtcdStatus, bool>;

QString message(const char *text)
{
    return QCoreApplication::translate("EtcdRecipe", text);
}

// Starts the call with the door held (see WorkerDoor); false when there is no session.
bool send(WorkerDoor &door, const EtcdTxn &txn, const Answer<Outcome> &answer, const QString &over)
{
    std::lock_guard lock(door.mutex);
    if (!door.transport || !door.engine)
        return false;
    CallTarget target {
        door.engine, [answer, over](const EtcdStatus &s, ReplyData &&data) {
            const bool committed = s.isOk() && data.succeeded;
            answer(
                {s.isOk() && !committed ? EtcdStatus(Etcd::ErrorCode::FailedPrecondition, over) : s,
                    committed});
        }};
    door.transport->txn(txn, door.options, std::move(target));
    return true;
}
} // namespace

std::shared_ptr<WorkerDoor> workerDoorOf(EtcdClient *client)
{
    return client ? EtcdClientPrivate::get(client)->door : std::make_shared<WorkerDoor>();
}

bool commitGuardedFromWorker(const std::shared_ptr<WorkerDoor> &door, bool held,
    const EtcdFencingToken &token, const EtcdTxn &txn, milliseconds timeout, EtcdStatus *status,
    const QString &over)
{
    const auto report = [status](const EtcdStatus &s, bool committed) {
        if (status)
            *status = s;
        return committed;
    };
    if (!held || !token.isValid())
        return report(EtcdStatus(Etcd::ErrorCode::FailedPrecondition, over), false);
    const EtcdStatus gone(Etcd::ErrorCode::NotConnected,
        message(QT_TRANSLATE_NOOP("EtcdRecipe", "the client is not connected")));
    auto handoff = std::make_shared<Handoff<Outcome>>();
    // Only the call holds the answer: cancelled unanswered, it answers NotConnected at once.
    if (!door || !send(*door, token.guard(txn), Answer<Outcome>(handoff, {gone, false}), over))
        return report(gone, false);
    const std::optional<Outcome> outcome = handoff->waitFor(timeout);
    if (!outcome)
        return report(EtcdStatus(Etcd::ErrorCode::DeadlineExceeded,
                          message(QT_TRANSLATE_NOOP("EtcdRecipe",
                              "no answer in time; the write commits only while it holds"))),
            false);
    return report(outcome->first, outcome->second);
}

} // namespace Etcd::Internal
