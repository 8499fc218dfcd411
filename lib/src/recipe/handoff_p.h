// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API.
#pragma once

#include "handover_p.h"
#include "mailbox_p.h"

#include <QtCore/qobject.h>

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>

namespace Etcd::Internal {

// One value that a worker thread waits for and an object's own thread provides, once.
template <typename T>
class Handoff
{
public:
    void provide(T v)
    {
        {
            std::lock_guard lock(mutex);
            if (value)
                return;
            value = std::move(v);
        }
        answered.notify_all();
    }
    std::optional<T> waitFor(std::chrono::milliseconds timeout)
    {
        std::unique_lock lock(mutex);
        // A year is "forever", and wait_for() overflows steady_clock on milliseconds::max().
        const auto bound
            = std::min<std::chrono::milliseconds>(timeout, std::chrono::hours(24 * 365));
        answered.wait_for(lock, bound, [this] { return value.has_value(); });
        return value;
    }

private:
    std::mutex mutex;
    std::condition_variable answered;
    std::optional<T> value;
};

// The providing side of a Handoff, copyable into callbacks. When the last copy goes away
// unanswered (the object whose thread was to answer died first), the waiter gets `fallback`
// at once instead of waiting out its timeout.
template <typename T>
class Answer
{
public:
    Answer() = default; // answers nobody
    Answer(std::shared_ptr<Handoff<T>> handoff, T fallback)
        : state(std::make_shared<State>(std::move(handoff), std::move(fallback)))
    { }
    explicit operator bool() const { return bool(state); }
    void operator()(T v) const
    {
        if (state)
            state->handoff->provide(std::move(v));
    }

private:
    struct State
    {
        State(std::shared_ptr<Handoff<T>> h, T f)
            : handoff(std::move(h)), fallback(std::move(f)) { }
        ~State() { handoff->provide(std::move(fallback)); } // a no-op once answered
        std::shared_ptr<Handoff<T>> handoff;
        T fallback;
    };
    std::shared_ptr<State> state;
};

// The mailbox a worker thread posts to `recipe` (an EtcdRecipe) through: take it while the
// recipe surely lives (on entry to a blocking call) and post through it ever after. The
// recipe closes it when it is destroyed, so a post made after that (a timeout's cancel()) is
// dropped, and the answers it carried come as their fallbacks, instead of reaching freed memory.
MailboxPtr workerMailboxOf(QObject *recipe);

// From a worker thread: runs `start(answer)` in `context`'s thread and waits at most
// `timeout` for its answer (nullopt when none came in time).
template <typename T, typename Start>
std::optional<T> callInThreadOf(
    QObject *context, std::chrono::milliseconds timeout, T fallback, Start start)
{
    auto handoff = std::make_shared<Handoff<T>>();
    // Only the posted call holds the answer: if it is dropped, the fallback comes at once.
    workerMailboxOf(context)->post([answer = Answer<T>(handoff, std::move(fallback)),
                                       start = std::move(start)]() mutable { start(answer); });
    return handoff->waitFor(timeout);
}

} // namespace Etcd::Internal
