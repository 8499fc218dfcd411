// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API.
#pragma once

#include "handover_p.h"

#include <QtCore/qmetaobject.h>
#include <QtCore/qobject.h>
#include <QtCore/qthread.h>

#include <atomic>
#include <memory>
#include <mutex>

namespace Etcd::Internal {

// A thread-safe way to post work to an object that may die at any time in its own thread:
// the object closes its mailbox before it goes, and nothing is posted to it after that.
class Mailbox : public std::enable_shared_from_this<Mailbox>
{
public:
    explicit Mailbox(QObject *target) : m_target(target), m_thread(target->thread()) { }

    // A delivery already queued when the mailbox closes is dropped when it comes up (close()
    // and delivery both happen in the target's thread), so nothing arrives after close().
    template <class F>
    void post(F &&f)
    {
        std::lock_guard lock(m_mutex);
        if (!m_target)
            return;
        postQueued(m_target, [self = shared_from_this(), f = std::forward<F>(f)]() mutable {
            if (self->isOpen())
                f();
        });
    }
    void close()
    {
        std::lock_guard lock(m_mutex);
        m_target = nullptr;
    }
    bool isOpen()
    {
        std::lock_guard lock(m_mutex);
        return m_target != nullptr;
    }
    // Open, with its target in the calling thread: a Courier there may call it directly. (A
    // target is moved only from its own thread, so the answer holds while this thread runs.)
    bool opensHere()
    {
        std::lock_guard lock(m_mutex);
        return m_target && m_target->thread() == QThread::currentThread();
    }
    // The target's thread when the mailbox was made: where its Courier lives.
    [[nodiscard]] QThread *thread() const { return m_thread; }

private:
    std::mutex m_mutex;
    QObject *m_target;
    QThread *const m_thread;
};

using MailboxPtr = std::shared_ptr<Mailbox>;

// The owner side of one registration with the engine (a watch, a kept-alive lease): a
// process-unique id and the mailbox the engine posts to while the registration is open.
struct EngineLink
{
    quint64 id = 0;
    MailboxPtr mailbox;

    [[nodiscard]] bool isOpen() const { return bool(mailbox); }
    void open(QObject *target)
    {
        static std::atomic<quint64> ids {0};
        id = ++ids;
        mailbox = std::make_shared<Mailbox>(target);
    }
    void close()
    {
        if (mailbox)
            mailbox->close();
        mailbox.reset();
    }
};

} // namespace Etcd::Internal
