// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "casnumber_p.h"
#include "clientcalls_p.h"
#include "recipereplies_p.h"

#include <EtcdQt/etcdatomiccounter.h>
#include <EtcdQt/etcdclient.h>

using namespace Etcd::Internal;
using namespace std::chrono;

/*!
    \class EtcdAtomicCounter
    \inmodule EtcdQt
    \brief A 64-bit counter shared through etcd: etcd-recipes' DistributedAtomicLong, the
    key \c{<path>} holding the value as 8 bytes big-endian, with no lease.

    Every change is a compare-and-set: a transaction that writes the new value only if the
    key's modification revision is still the one the value was read at (or, for a counter
    that does not exist yet, only if the key is still absent). A change that lost the race
    reads the winner's value and tries again after a random pause of up to 100 ms times the
    attempts so far, as etcd-recipes does, for as long as it takes. So every add(),
    subtract(), increment() and decrement() answers the value it committed, which no other
    change anywhere answered: counters make unique ids.

    A counter that does not exist is created by the first operation that reaches it, with
    initialValue(); only the first creator's initial value counts, later objects see the
    value in etcd whatever their own initialValue(). An add() on an absent counter creates
    it holding initialValue() plus the delta, in one transaction. Unlike etcd-recipes'
    get(), which answers -1 for an absent counter, get() here creates it too and answers
    initialValue(), so a get() and the changes after it agree on where the count started.

    The operations of one object run one at a time, in call order, and the object remembers
    the value it saw last: an uncontended change costs one transaction. Values wrap around
    at the 64-bit limits, as a Kotlin Long does. A key that holds anything but 8 bytes fails
    every operation with FailedPrecondition, and is left alone. The counter lives until
    remove() deletes it; close() only ends this object's use of it.
*/

class EtcdAtomicCounterPrivate
{
public:
    EtcdAtomicCounterPrivate(EtcdAtomicCounter *q, const QByteArray &path, qint64 initialValue)
        : q(q), path(path), initialValue(initialValue), queue(q, path)
    { }

    // A reply already failed when the operation cannot run (empty path, closed); else null.
    EtcdValueReply *refusal(bool closed) const
    {
        if (path.isEmpty())
            return RecipeReplies::failedValue(q,
                EtcdStatus(Etcd::ErrorCode::InvalidArgument, EtcdRecipe::tr("empty counter path")));
        if (closed)
            return RecipeReplies::failedValue(
                q, EtcdStatus(Etcd::ErrorCode::Cancelled, EtcdRecipe::tr("closed")));
        return nullptr;
    }

    // The rule of add(): absent, the counter starts at initialValue.
    CasNumber::Rule adding(qint64 delta) const
    {
        return [delta, initial = initialValue](const CasNumber::Snapshot &s) {
            const quint64 base = quint64(s.exists ? s.value : initial);
            return CasNumber::Step::write(qint64(base + quint64(delta))); // wraps, as a Long
        };
    }

    EtcdAtomicCounter *q;
    QByteArray path;
    qint64 initialValue;
    CasNumber::Queue queue;
};

/*!
    Constructs a counter at \a path on \a client; an absent counter is created with \a initialValue
    by the first operation. No I/O happens until then. The object is a child of \a parent.
*/
EtcdAtomicCounter::EtcdAtomicCounter(
    EtcdClient *client, const QByteArray &path, qint64 initialValue, QObject *parent)
    : EtcdRecipe(
        client, QStringLiteral("DistributedAtomicLong[%1]").arg(QString::fromUtf8(path)), parent),
      d_ptr(new EtcdAtomicCounterPrivate(this, path, initialValue))
{ }

/*! Destroys the object; operations still queued or in flight end unanswered. */
EtcdAtomicCounter::~EtcdAtomicCounter() = default;

/*! \property EtcdAtomicCounter::path
    The counter's key. */
QByteArray EtcdAtomicCounter::path() const
{
    return d_func()->path;
}

/*!
    \property EtcdAtomicCounter::initialValue
    The value this object creates an absent
    counter with; the counter's first creator decides.
*/
qint64 EtcdAtomicCounter::initialValue() const
{
    return d_func()->initialValue;
}

/*!
    Reads the counter: the reply's value() is the value in etcd. An absent counter is
    created with initialValue() first (the reply's written() is then true). Fails with
    InvalidArgument for an empty path and Cancelled after close().
*/
EtcdValueReply *EtcdAtomicCounter::get()
{
    Q_D(EtcdAtomicCounter);
    if (EtcdValueReply *refused = d->refusal(isClosed()))
        return refused;
    setActive(true);
    const auto rule = [initial = d->initialValue](const CasNumber::Snapshot &s) {
        return s.exists ? CasNumber::Step::keep() : CasNumber::Step::write(initial);
    };
    return d->queue.enqueue(rule, CasNumber::Queue::Start::FromRead);
}

/*!
    Adds \a delta (which may be negative) to the counter; the reply's value() is the value
    this call committed. Fails with InvalidArgument for an empty path and Cancelled after
    close().
*/
EtcdValueReply *EtcdAtomicCounter::add(qint64 delta)
{
    Q_D(EtcdAtomicCounter);
    if (EtcdValueReply *refused = d->refusal(isClosed()))
        return refused;
    setActive(true);
    return d->queue.enqueue(d->adding(delta), CasNumber::Queue::Start::FromCache);
}

/*! Subtracts \a delta from the counter; see add(). */
EtcdValueReply *EtcdAtomicCounter::subtract(qint64 delta)
{
    return add(qint64(0 - quint64(delta))); // wraps, as a Long
}

/*! Adds one to the counter; see add(). */
EtcdValueReply *EtcdAtomicCounter::increment()
{
    return add(1);
}

/*! Subtracts one from the counter; see add(). */
EtcdValueReply *EtcdAtomicCounter::decrement()
{
    return add(-1);
}

/*!
    For worker threads: get(), waited for at most \a timeout. The value, or nullopt with
    \a status set: the failure, or DeadlineExceeded when no answer came in time. Refused
    (WrongThread) in this object's thread.
*/
std::optional<qint64> EtcdAtomicCounter::waitForValue(milliseconds timeout, EtcdStatus *status)
{
    if (refuseOwnThread(this, "EtcdAtomicCounter::waitForValue()", status))
        return std::nullopt;
    return waitForReply<EtcdValueReply>(
        this, timeout, status, [this] { return get(); },
        [](EtcdValueReply *r) { return r->value(); });
}

/*!
    For worker threads: add(\a delta), waited for at most \a timeout. The committed value,
    or nullopt with \a status set: the failure, or DeadlineExceeded when no answer came in
    time (the addition may still commit). Refused (WrongThread) in this object's thread.
*/
std::optional<qint64> EtcdAtomicCounter::addAndWait(
    qint64 delta, milliseconds timeout, EtcdStatus *status)
{
    if (refuseOwnThread(this, "EtcdAtomicCounter::addAndWait()", status))
        return std::nullopt;
    return waitForReply<EtcdValueReply>(
        this, timeout, status, [this, delta] { return add(delta); },
        [](EtcdValueReply *r) { return r->value(); });
}

/*!
    Deletes the counter at \a path through \a client (etcd-recipes' delete()); an object
    that uses it afterwards creates it again. Without a client the reply fails with
    Etcd::ErrorCode::NotConnected.
*/
EtcdReply *EtcdAtomicCounter::remove(EtcdClient *client, const QByteArray &path)
{
    if (path.isEmpty())
        return RecipeReplies::failedValue(
            client, EtcdStatus(Etcd::ErrorCode::InvalidArgument, tr("empty counter path")));
    return removeOn(client, path);
}

/*!
    Ends this object's use of the counter: operations not started yet finish with
    Cancelled, one in flight reports its outcome, later calls are refused. The counter
    stays in etcd. Idempotent; closed() follows on the next loop turn.
*/
void EtcdAtomicCounter::close()
{
    Q_D(EtcdAtomicCounter);
    if (isClosed())
        return;
    d->queue.close();
    markClosed();
    emitClosedAfter(nullptr);
}
