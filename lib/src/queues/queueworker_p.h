// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API.
#pragma once

#include "handoff_p.h"
#include "handover_p.h"

#include <EtcdQt/etcdreply.h>
#include <EtcdQt/etcdstatus.h>

#include <QtCore/qobject.h>

#include <chrono>
#include <functional>
#include <memory>

namespace Etcd::Internal {

// From a worker thread: starts one take-like wait in `context`'s thread and waits at most
// `timeout` for it. start(answer) begins it and returns its id; on timeout cancel(id) runs in
// that thread and must answer at once (an answer that raced the timeout is kept: a taken item
// is never dropped). A cancelled wait reads as DeadlineExceeded.
template <typename Outcome>
Outcome waitFromWorker(QObject *context, std::chrono::milliseconds timeout,
    std::function<quint64(Answer<Outcome>)> start, std::function<void(quint64)> cancel)
{
    auto handoff = std::make_shared<Handoff<Outcome>>();
    auto id = std::make_shared<quint64>(0); // written and read in `context`'s thread only
    Outcome gone;
    gone.status = EtcdStatus(Etcd::ErrorCode::Cancelled, EtcdReply::tr("closed"));
    const MailboxPtr mailbox = workerMailboxOf(context); // the recipe may go while we wait
    mailbox->post([answer = Answer<Outcome>(handoff, gone), start, id] { *id = start(answer); });
    if (const std::optional<Outcome> v = handoff->waitFor(timeout))
        return *v;
    // Posted after start(): it runs after it, in the same thread.
    mailbox->post([cancel, id] { cancel(*id); });
    Outcome late = handoff->waitFor(std::chrono::seconds(10)).value_or(gone);
    if (late.status.code() == Etcd::ErrorCode::Cancelled && !late.found())
        late.status = EtcdStatus(
            Etcd::ErrorCode::DeadlineExceeded, EtcdReply::tr("nothing arrived in time"));
    return late;
}

} // namespace Etcd::Internal
