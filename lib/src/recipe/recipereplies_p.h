// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API.
#pragma once

#include "handoff_p.h"
#include "handover_p.h"

#include <EtcdQt/etcdkeyvalue.h>
#include <EtcdQt/etcdqueueitemreply.h>
#include <EtcdQt/etcdrecipereplies.h>
#include <EtcdQt/etcdstatus.h>
#include <EtcdQt/etcdworkitemreply.h>

#include <chrono>
#include <functional>
#include <optional>

namespace Etcd::Internal {

// True, with a warning (and WrongThread in `status`), when called in `o`'s own thread: a
// blocking call there would block the events it waits for.
bool refuseOwnThread(const QObject *o, const char *what, EtcdStatus *status = nullptr);

// Makes and finishes the replies of recipe operations. Replies are children of the recipe,
// so they live in its thread; finish() emits finished() and the reply deletes itself.
class RecipeReplies
{
public:
    static EtcdValueReply *valueReply(QObject *recipe) { return new EtcdValueReply(recipe); }
    static EtcdBoolReply *boolReply(QObject *recipe) { return new EtcdBoolReply(recipe); }
    static EtcdQueueItemReply *queueItemReply(QObject *recipe)
    {
        return new EtcdQueueItemReply(recipe);
    }
    static EtcdWorkItemReply *workItemReply(QObject *recipe)
    {
        return new EtcdWorkItemReply(recipe);
    }
    static EtcdDeadLettersReply *deadLettersReply(QObject *recipe)
    {
        return new EtcdDeadLettersReply(recipe);
    }
    static void finish(
        EtcdValueReply *r, const EtcdStatus &status, qint64 value = 0, qint64 revision = 0);
    static void finish(
        EtcdBoolReply *r, const EtcdStatus &status, bool result = false, qint64 revision = 0);
    // Found when `item` has a key; its value and key then.
    static void finish(EtcdQueueItemReply *r, const EtcdStatus &status, const EtcdKeyValue &item,
        qint64 revision = 0);
    // Found when `item` is valid.
    static void finish(EtcdWorkItemReply *r, const EtcdStatus &status, const EtcdWorkItem &item);
    static void finish(
        EtcdDeadLettersReply *r, const EtcdStatus &status, const QList<EtcdDeadLetter> &letters);
    // A reply refused before any RPC (bad input, closed): finished on the next event-loop
    // turn, so the caller has connected.
    // Success known before any RPC: finished on the next event-loop turn.
    static void finishLater(EtcdValueReply *r, qint64 value);
    static void finishLater(EtcdBoolReply *r, bool result);
    static EtcdValueReply *failedValue(QObject *recipe, const EtcdStatus &why);
    static EtcdBoolReply *failedBool(QObject *recipe, const EtcdStatus &why);
    static EtcdQueueItemReply *failedQueueItem(QObject *recipe, const EtcdStatus &why);
    static EtcdWorkItemReply *failedWorkItem(QObject *recipe, const EtcdStatus &why);
    static EtcdDeadLettersReply *failedDeadLetters(QObject *recipe, const EtcdStatus &why);
};

// From a worker thread: runs `make()` in `recipe`'s thread and waits at most `timeout` for
// the reply it returns. The reply's result, or nullopt with `status` set (the reply's
// failure, or DeadlineExceeded: the outcome is then unknown).
template <typename Reply, typename Read>
auto waitForReply(QObject *recipe, std::chrono::milliseconds timeout, EtcdStatus *status,
    std::function<Reply *()> make, Read read)
    -> std::optional<decltype(read(std::declval<Reply *>()))>
{
    using Value = decltype(read(std::declval<Reply *>()));
    using Outcome = std::pair<EtcdStatus, Value>;
    const Outcome dropped {EtcdStatus(Etcd::ErrorCode::Cancelled, EtcdReply::tr("closed")), {}};
    const auto outcome = callInThreadOf<Outcome>(
        recipe, timeout, dropped, [make = std::move(make), read](const Answer<Outcome> &answer) {
            Reply *r = make();
            QObject::connect(r, &EtcdReply::finished, r, [answer, r, read](const EtcdStatus &s) {
                answer({s, read(r)});
            });
        });
    const EtcdStatus result = outcome ? outcome->first
                                      : EtcdStatus(Etcd::ErrorCode::DeadlineExceeded,
                                          EtcdReply::tr("no answer in time; outcome unknown"));
    if (status)
        *status = result;
    if (!result.isOk())
        return std::nullopt;
    return outcome->second;
}

// For "wait forever": a bound that std::condition_variable's clock arithmetic survives.
inline constexpr std::chrono::milliseconds kWaitForever = std::chrono::hours(24 * 365);

// From a worker thread: runs begin(answer) in `recipe`'s thread and blocks until the wait
// answers or `timeout` passes. Then cancel() runs there and must answer false if the wait is
// still pending; an answer that raced the timeout is still read. False at once when the
// recipe dies meanwhile (its answers are dropped unanswered).
template <typename Begin, typename Cancel>
bool waitCancellable(QObject *recipe, std::chrono::milliseconds timeout, Begin begin, Cancel cancel)
{
    auto handoff = std::make_shared<Handoff<bool>>();
    const MailboxPtr mailbox = workerMailboxOf(recipe); // the recipe may go while we wait
    mailbox->post(
        [answer = Answer<bool>(handoff, false), begin]() mutable { begin(std::move(answer)); });
    if (const auto v = handoff->waitFor(timeout))
        return *v;
    mailbox->post([cancel]() mutable { cancel(); });
    return handoff->waitFor(std::chrono::seconds(10)).value_or(false);
}

} // namespace Etcd::Internal
