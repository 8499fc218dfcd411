// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include <EtcdQt/etcdretrypolicy.h>

#include "etcdqt_internal_p.h"

#include <QtCore/qrandom.h>

#include <cmath>

/*!
    \class EtcdRetryPolicy
    \inmodule EtcdQt
    \brief How long to wait before the next attempt, and when to give up.

    nextDelay() takes the 1-based number of the attempt that just failed and the time spent
    so far, and returns the pause before the next attempt, or nothing to give up. The
    factories match etcd-recipes' RetryPolicy:
    \list
    \li exponentialBackoff(): initial * factor^(attempt-1), capped at maxDelay, with
        +/- jitterRatio random spread (still capped); gives up after maxAttempts retries or
        once maxElapsed has passed.
    \li bounded(n, delay): the fixed delay for n retries (n + 1 attempts in all).
    \li unbounded() (etcd-recipes calls it forever): exponentialBackoff() with its defaults,
        never giving up.
    \li never(): gives up at once.
    \endlist
    A factory given invalid arguments logs a warning and returns a policy that never retries
    (isValid() is false).
*/

using Duration = EtcdRetryPolicy::Duration;

EtcdRetryPolicy EtcdRetryPolicy::exponentialBackoff(Duration initialDelay, Duration maxDelay,
    double factor, double jitterRatio, int maxAttempts, Duration maxElapsed)
{
    EtcdRetryPolicy p;
    const bool ok = initialDelay.count() > 0 && maxDelay >= initialDelay && factor >= 1.0
        && jitterRatio >= 0.0 && jitterRatio < 1.0 && maxAttempts >= 0 && maxElapsed.count() > 0;
    if (!ok) {
        qCWarning(lcEtcdClient, "EtcdRetryPolicy::exponentialBackoff: invalid arguments");
        p.m_valid = false;
        return p;
    }
    p.m_kind = Kind::Exponential;
    p.m_initial = initialDelay;
    p.m_max = maxDelay;
    p.m_factor = factor;
    p.m_jitter = jitterRatio;
    p.m_maxAttempts = maxAttempts;
    p.m_maxElapsed = maxElapsed;
    return p;
}

EtcdRetryPolicy EtcdRetryPolicy::bounded(int maxAttempts, Duration delay)
{
    EtcdRetryPolicy p;
    if (maxAttempts < 0 || delay.count() < 0) {
        qCWarning(lcEtcdClient, "EtcdRetryPolicy::bounded: invalid arguments");
        p.m_valid = false;
        return p;
    }
    p.m_kind = Kind::Fixed;
    p.m_maxAttempts = maxAttempts;
    p.m_initial = p.m_max = delay;
    return p;
}

EtcdRetryPolicy EtcdRetryPolicy::unbounded()
{
    return exponentialBackoff();
}

EtcdRetryPolicy EtcdRetryPolicy::never()
{
    return EtcdRetryPolicy();
}

/*!
    Returns the pause after failed attempt number \a attempt (1-based) when \a elapsed has
    passed since the first attempt began; nothing means give up.
*/
std::optional<Duration> EtcdRetryPolicy::nextDelay(int attempt, Duration elapsed) const
{
    return nextDelay(attempt, elapsed, QRandomGenerator::global()->generateDouble());
}

/*!
    The same as nextDelay(attempt, elapsed), with the jitter drawn from \a unitRandom in
    [0, 1): 0 gives the lowest delay, 0.5 the unjittered one.
*/
std::optional<Duration> EtcdRetryPolicy::nextDelay(
    int attempt, Duration elapsed, double unitRandom) const
{
    if (!m_valid || attempt < 1 || m_kind == Kind::Never || attempt > m_maxAttempts)
        return std::nullopt;
    if (m_kind == Kind::Fixed)
        return m_initial;
    if (elapsed >= m_maxElapsed)
        return std::nullopt;
    const double base = std::min(
        double(m_initial.count()) * std::pow(m_factor, attempt - 1), double(m_max.count()));
    const double spread = (2.0 * unitRandom - 1.0) * m_jitter;
    const double jittered = std::min(base * (1.0 + spread), double(m_max.count()));
    return Duration(std::max<qint64>(1, std::llround(jittered)));
}

/*!
    \class EtcdRpcResilience
    \inmodule EtcdQt
    \brief Retry policy and per-attempt timeout of one-shot requests.

    The default retries 4 times, 250 ms apart, and bounds each attempt by 30 s, as
    etcd-recipes' RpcResilience.DEFAULT does.
*/

/*! Returns one attempt, no timeout: etcd-recipes' RpcResilience.DISABLED. */
EtcdRpcResilience EtcdRpcResilience::disabled()
{
    return EtcdRpcResilience {EtcdRetryPolicy::never(), Duration(0)};
}

/*!
    \class EtcdLeaseResilience
    \inmodule EtcdQt
    \brief How a self-healing lease heals: retryPolicy paces the re-grant attempts
    (EtcdRetryPolicy::never() disables healing), healOperationTimeout bounds each attempt.
*/

/*! No healing: an expired lease stays expired. */
EtcdLeaseResilience EtcdLeaseResilience::disabled()
{
    return EtcdLeaseResilience {EtcdRetryPolicy::never(), Duration(10000)};
}

/*!
    \typedef EtcdRetryPolicy::Duration
    The unit of every delay: std::chrono::milliseconds.
*/

/*!
    \enum EtcdRetryPolicy::Kind
    \value Never no retry
    \value Fixed the same delay before each retry (bounded())
    \value Exponential a growing, jittered delay (exponentialBackoff(), unbounded())
*/

// clang-format off
/*!
    \fn EtcdRetryPolicy EtcdRetryPolicy::exponentialBackoff(EtcdRetryPolicy::Duration initialDelay, EtcdRetryPolicy::Duration maxDelay, double factor, double jitterRatio, int maxAttempts, EtcdRetryPolicy::Duration maxElapsed)
    Returns a policy that waits \a initialDelay after the first failure, \a factor times longer
    after each further one up to \a maxDelay, spread by +/- \a jitterRatio, and gives up after
    \a maxAttempts retries or once \a maxElapsed has passed. Invalid arguments (a non-positive initial
    delay, a maximum below it, a factor below 1, a jitter outside [0, 1)) give a policy that never
    retries and whose isValid() is false.
*/
// clang-format on

/*!
    \fn EtcdRetryPolicy EtcdRetryPolicy::bounded(int maxAttempts, EtcdRetryPolicy::Duration delay)
    Returns a policy that retries \a maxAttempts times, \a delay apart. Negative arguments
    give a policy that never retries and whose isValid() is false.
*/

/*!
    \fn EtcdRetryPolicy EtcdRetryPolicy::unbounded()
    Returns exponentialBackoff() with its defaults: it never gives up.
*/

/*!
    \fn EtcdRetryPolicy EtcdRetryPolicy::never()
    Returns a policy that gives up at once.
*/

/*!
    \fn EtcdRetryPolicy::Kind EtcdRetryPolicy::kind() const
    Returns the kind of policy.
*/

/*!
    \fn bool EtcdRetryPolicy::isValid() const
    Returns \c false if a factory was given invalid arguments (the policy then never retries).
*/

/*!
    \fn int EtcdRetryPolicy::maxAttempts() const
    Returns the number of retries after which the policy gives up.
*/

/*!
    \fn EtcdRetryPolicy::Duration EtcdRetryPolicy::initialDelay() const
    Returns the delay after the first failure (the fixed delay of bounded()).
*/

/*!
    \fn EtcdRetryPolicy::Duration EtcdRetryPolicy::maxDelay() const
    Returns the longest delay.
*/

/*!
    \fn EtcdRetryPolicy::Duration EtcdRetryPolicy::maxElapsed() const
    Returns the time since the first attempt after which the policy gives up.
*/

/*!
    \fn double EtcdRetryPolicy::factor() const
    Returns the growth of the delay per failure (1 for a fixed delay).
*/

/*!
    \fn double EtcdRetryPolicy::jitterRatio() const
    Returns the random spread of each delay, as a fraction of it.
*/

/*!
    \variable EtcdRpcResilience::retryPolicy
    \brief how often, and how far apart, a failed request is retried.
*/

/*!
    \variable EtcdRpcResilience::attemptTimeout
    \brief the deadline of each attempt.
*/

/*!
    \variable EtcdLeaseResilience::retryPolicy
    \brief paces the re-grant attempts; EtcdRetryPolicy::never() disables healing. When
    etcd answered that the lease is gone, the first attempt starts at once.
*/

/*!
    \variable EtcdLeaseResilience::healOperationTimeout
    \brief the deadline of each heal attempt (grant and establish).
*/
