// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API.
#pragma once

#include <QtCore/qmetaobject.h>
#include <QtCore/qobject.h>
#include <QtCore/qthread.h>

#include <memory>
#include <utility>

// ETCDQT_TSAN: the build runs under TSan, and this file may be built without it (the generated
// gRPC code, see cmake/EtcdQtBuildFlags.cmake) while still announcing its hand-overs.
#if defined(__SANITIZE_THREAD__) || defined(ETCDQT_TSAN)
#include <sanitizer/tsan_interface.h>
#define ETCDQT_TSAN_HANDOVER 1
// In libtsan, not declared by GCC 12's header: this thread's memory accesses are not recorded
// between the two (its synchronisation still is).
extern "C" void __tsan_ignore_thread_begin();
extern "C" void __tsan_ignore_thread_end();
#endif

namespace Etcd::Internal {

// Data handed to another thread through code ThreadSanitizer cannot see into: Qt's event queue
// and gRPC's completion path, both built without instrumentation (Debian's packages). Their
// locks and atomics order the hand-over, but TSan does not see them and reports every later
// access in the receiving thread. So each hand-over says it happened: release in the sending
// thread after its last write, acquire in the receiving thread before its first read, on the
// address of what orders it. Without TSan these compile to nothing.
inline void handOverRelease([[maybe_unused]] const void *address)
{
#ifdef ETCDQT_TSAN_HANDOVER
    __tsan_release(const_cast<void *>(address));
#endif
}

inline void handOverAcquire([[maybe_unused]] const void *address)
{
#ifdef ETCDQT_TSAN_HANDOVER
    __tsan_acquire(const_cast<void *>(address));
#endif
}

#ifdef ETCDQT_TSAN_HANDOVER
// A functor on its way through Qt's event queue. What orders it there is the receiving
// thread's event-list lock: every post to a thread happens before that thread's next
// delivery. So the hand-over releases on the receiving QThread and the delivery acquires on
// its own QThread, an address it knows without reading the functor. Qt moves the functor into
// its slot object in the sending thread, so each move releases again (the last release covers
// every write). Qt may destroy it in the sending thread after the delivery (the sender drops
// its reference to the slot object last), so the delivery releases on the sender's QThread,
// and whichever thread destroys it acquires on its own first.
template <class F>
class HandedOver
{
public:
    HandedOver(QObject *context, F f)
        : m_receiver(context->thread()), m_sender(QThread::currentThread()), m_f(std::move(f))
    {
        handOverRelease(m_receiver);
    }
    HandedOver(HandedOver &&other) noexcept
        : m_receiver(other.m_receiver), m_sender(other.m_sender), m_f(std::move(other.m_f))
    {
        handOverRelease(m_receiver);
    }
    HandedOver(const HandedOver &) = delete;
    HandedOver &operator=(const HandedOver &) = delete;
    HandedOver &operator=(HandedOver &&) = delete;
    ~HandedOver() { handOverAcquire(QThread::currentThread()); }
    void operator()()
    {
        handOverAcquire(QThread::currentThread());
        m_f();
        handOverRelease(m_sender);
    }

private:
    QThread *m_receiver;
    QThread *m_sender;
    F m_f;
};

// Calls into gRPC copy our functors and messages inside gRPC's own synchronisation, which TSan
// does not see; their completion reads the copies in gRPC's threads. The copies are gRPC's
// business: the writes made inside such a call are not recorded.
class GrpcCallSection
{
public:
    GrpcCallSection() { __tsan_ignore_thread_begin(); }
    ~GrpcCallSection() { __tsan_ignore_thread_end(); }
    GrpcCallSection(const GrpcCallSection &) = delete;
    GrpcCallSection &operator=(const GrpcCallSection &) = delete;
};
#else
struct GrpcCallSection
{
    GrpcCallSection() { } // user-provided: a section is never an "unused variable"
};
#endif

// QMetaObject::invokeMethod(context, f, Qt::QueuedConnection) for a call that may cross
// threads: f runs in context's thread on a later turn of its event loop, or never if context
// dies first. Use it for every queued functor of the library, so no hand-over is missed.
template <class F>
void postQueued(QObject *context, F &&f)
{
#ifdef ETCDQT_TSAN_HANDOVER
    QMetaObject::invokeMethod(
        context, HandedOver<std::decay_t<F>>(context, std::forward<F>(f)), Qt::QueuedConnection);
#else
    QMetaObject::invokeMethod(context, std::forward<F>(f), Qt::QueuedConnection);
#endif
}

// QMetaObject::invokeMethod(context, f) (Qt::AutoConnection), announced like postQueued():
// f runs now when called in context's thread, else there on a later turn of its event loop.
template <class F>
void runInThreadOf(QObject *context, F &&f)
{
    if (context->thread() == QThread::currentThread())
        f();
    else
        postQueued(context, std::forward<F>(f));
}

// QMetaObject::invokeMethod(context, f, Qt::BlockingQueuedConnection), announced like
// postQueued(): f runs in context's thread while the caller waits (never call it from that
// thread), and what f wrote is the caller's to read once it returns.
template <class F>
void callBlocking(QObject *context, F &&f)
{
#ifdef ETCDQT_TSAN_HANDOVER
    QMetaObject::invokeMethod(context, HandedOver<std::decay_t<F>>(context, std::forward<F>(f)),
        Qt::BlockingQueuedConnection);
    handOverAcquire(QThread::currentThread());
#else
    QMetaObject::invokeMethod(context, std::forward<F>(f), Qt::BlockingQueuedConnection);
#endif
}

} // namespace Etcd::Internal
