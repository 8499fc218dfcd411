// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>

namespace Etcd::Internal {

// What a recipe shares with worker threads (a leadership body, a caller of a blocking wait)
// and with the engine thread that decides loss: one value behind one mutex, and one condition
// that every change notifies. The recipe layer's single way to do it: the waits are rare and
// short-lived, so one mutex and one condition per recipe are enough. Shared by shared_ptr, so
// a worker still waiting when its recipe goes reads a valid (closed) state.
template <typename T>
class SharedState
{
public:
    // Returns f(value) under the lock.
    template <typename F>
    auto read(F &&f) const
    {
        std::lock_guard lock(m_mutex);
        return f(m_value);
    }
    // Runs f(value) under the lock, then wakes every waiter; returns what f returned.
    template <typename F>
    auto update(F &&f)
    {
        std::unique_lock lock(m_mutex);
        if constexpr (std::is_void_v<decltype(f(m_value))>) {
            f(m_value);
            lock.unlock();
            m_changed.notify_all();
        } else {
            auto result = f(m_value);
            lock.unlock();
            m_changed.notify_all();
            return result;
        }
    }
    // Waits at most `timeout` until done(value) holds; then returns then(value), read under
    // the same lock (so what the caller gets is the state that ended the wait).
    template <typename Done, typename Then>
    auto waitFor(std::chrono::milliseconds timeout, Done done, Then then) const
    {
        // A year is "forever", and wait_for() overflows steady_clock on milliseconds::max().
        const auto bound
            = std::min<std::chrono::milliseconds>(timeout, std::chrono::hours(24 * 365));
        std::unique_lock lock(m_mutex);
        m_changed.wait_for(lock, bound, [&] { return done(m_value); });
        return then(m_value);
    }
    // Waits until done(value) holds, or at most until `deadline` (none: no bound); then
    // returns then(value), read under the same lock.
    template <typename Done, typename Then>
    auto waitUntil(
        std::optional<std::chrono::steady_clock::time_point> deadline, Done done, Then then) const
    {
        std::unique_lock lock(m_mutex);
        const auto holds = [&] { return done(m_value); };
        if (deadline)
            m_changed.wait_until(lock, *deadline, holds);
        else
            m_changed.wait(lock, holds);
        return then(m_value);
    }

private:
    mutable std::mutex m_mutex;
    mutable std::condition_variable m_changed;
    T m_value {};
};

} // namespace Etcd::Internal
