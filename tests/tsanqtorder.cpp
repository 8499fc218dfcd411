// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
// Linked into every executable of a TSan build (CMakeLists.txt), nowhere else.
//
// Qt's event queue, seen by ThreadSanitizer. Debian's QtCore is not instrumented, and its
// event-list lock is a futex TSan cannot see, so what one thread hands another through a posted
// event or a queued invokeMethod() (Qt orders the post before the delivery) is reported as a
// race: the examples' workers handing their results to the application thread, the inspector
// handing keys to its builder thread. Qt guarantees that ordering, and an instrumented Qt would
// show it; this shows it here: the two exported entry points a post goes through when our code
// posts (they are called through the PLT, so the executable's definitions come first) release
// on the receiver's thread, and every delivery acquires on its own thread first (QtCore's
// EventNotifyCallback, run before each event is delivered). A queued functor may be destroyed
// by the sender after the receiver ran it (whichever drops the last reference), so it is
// wrapped: the call releases on the wrapper, its destruction acquires there first. The
// library's own hand-overs say the same with lib/src/transport/handover_p.h. Queued signals are
// not covered: they are posted inside QtCore. QThreadPool::start() hands its runnable to a pool
// thread through QtCore's locks too: the runnable is wrapped, released before the hand-over
// and acquired in the pool thread before it runs (the guide's semaphore snippet constructs its
// semaphore, then tries it from the pool).
#include <QtCore/qcoreapplication.h>
#include <QtCore/qrunnable.h>
#include <QtCore/qthread.h>
#include <QtCore/qthreadpool.h>

#include <dlfcn.h>

extern "C" void __tsan_acquire(void *address);
extern "C" void __tsan_release(void *address);

namespace {
template <class F>
F nextDefinition(const char *symbol)
{
    return reinterpret_cast<F>(::dlsym(RTLD_NEXT, symbol));
}

void postedTo(QObject *receiver)
{
    if (QThread *thread = receiver ? receiver->thread() : nullptr)
        __tsan_release(thread);
}

bool delivering(void **)
{
    __tsan_acquire(QThread::currentThread());
    return false; // not handled here: Qt delivers the event as usual
}

// A functor on its way through the queue (which owns it through this wrapper's reference).
class OrderedSlot : public QtPrivate::QSlotObjectBase
{
public:
    explicit OrderedSlot(QtPrivate::QSlotObjectBase *inner) : QSlotObjectBase(&impl), m_inner(inner)
    { }

private:
    static void impl(int which, QSlotObjectBase *self, QObject *receiver, void **args, bool *ret)
    {
        auto *slot = static_cast<OrderedSlot *>(self);
        switch (which) {
        case Call:
            slot->m_inner->call(receiver, args);
            __tsan_release(slot);
            break;
        case Destroy:
            __tsan_acquire(slot); // after the call, in whichever thread destroys it
            slot->m_inner->destroyIfLastRef();
            delete slot;
            break;
        case Compare:
            *ret = slot->m_inner->compare(args);
            break;
        default:
            break;
        }
    }

    QtPrivate::QSlotObjectBase *m_inner;
};

// A runnable on its way to a pool thread; deleted there after it ran, as the pool would.
class OrderedRunnable : public QRunnable
{
public:
    explicit OrderedRunnable(QRunnable *inner) : m_inner(inner) { }

private:
    void run() override
    {
        __tsan_acquire(this);
        const bool deleteInner = m_inner->autoDelete();
        m_inner->run();
        if (deleteInner)
            delete m_inner;
    }

    QRunnable *m_inner;
};

[[maybe_unused]] const bool registered
    = QInternal::registerCallback(QInternal::EventNotifyCallback, delivering);
} // namespace

bool QMetaObject::invokeMethodImpl(
    QObject *object, QtPrivate::QSlotObjectBase *slot, Qt::ConnectionType type, void *ret)
{
    using Real = bool (*)(QObject *, QtPrivate::QSlotObjectBase *, Qt::ConnectionType, void *);
    static const Real real = nextDefinition<Real>(
        "_ZN11QMetaObject16invokeMethodImplEP7QObjectPN9QtPrivate15QSlotObjectBaseEN2Qt14"
        "ConnectionTypeEPv");
    QtPrivate::QSlotObjectBase *wrapped = slot ? new OrderedSlot(slot) : slot;
    postedTo(object); // after the last write the receiver will read
    return real(object, wrapped, type, ret);
}

void QCoreApplication::postEvent(QObject *receiver, QEvent *event, int priority)
{
    using Real = void (*)(QObject *, QEvent *, int);
    static const Real real
        = nextDefinition<Real>("_ZN16QCoreApplication9postEventEP7QObjectP6QEventi");
    postedTo(receiver);
    real(receiver, event, priority);
}

void QThreadPool::start(QRunnable *runnable, int priority)
{
    using Real = void (*)(QThreadPool *, QRunnable *, int);
    static const Real real = nextDefinition<Real>("_ZN11QThreadPool5startEP9QRunnablei");
    if (!runnable)
        return real(this, runnable, priority);
    auto *wrapped = new OrderedRunnable(runnable);
    __tsan_release(wrapped);
    real(this, wrapped, priority);
}

// QtCore calls start(QRunnable *) from here without the PLT: made again, through the above.
void QThreadPool::start(std::function<void()> functionToRun, int priority)
{
    if (functionToRun)
        start(QRunnable::create(std::move(functionToRun)), priority);
}
