// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "providerlogic_p.h"
#include "recipelayer_p.h"

#include <EtcdQt/etcdservicecache.h>
#include <EtcdQt/etcdserviceprovider.h>

#include <QtCore/qpointer.h>
#include <QtCore/qtimer.h>

using namespace Etcd::Internal;
using namespace std::chrono_literals;

/*!
    \class EtcdServiceProvider
    \inmodule EtcdQt
    \brief A client-side load balancer over the live instances of one service, as
    etcd-recipes' \c ServiceProvider.

    instance() picks one of availableInstances() by the strategy, from a warm
    EtcdServiceCache: no RPC, nothing decoded, so it costs nanoseconds and may be called per
    request. The available instances are the cache's instances that are enabled and not
    ejected; the list is kept ready as the cache changes, not filtered per call.

    An application that finds an instance failing calls noteError(); after errorThreshold
    errors (default 3) the instance is ejected for downPeriod() (default 30 s) and emits
    instanceEjected(). When the period is over it is available again with its error count at
    zero, and instanceRestored() follows. Errors are counted per instance: its service name
    and id, whatever else changes in its registration. An instance the cache drops starts
    again from zero errors if it comes back; an ejection lasts its period even then.

    The provider constructed with a client, a service path and a name owns its cache and
    starts it in start(); the cache's connection state, errors and closed() are the
    provider's. One constructed on a cache someone else owns (several providers may share a
    cache) reports that cache's connection state, but not its errors or closed(): start()
    and close() of such a provider leave the cache alone.

    A provider lives in one thread, like its cache; instance() and noteError() are called
    in that thread.
*/

/*!
    \enum EtcdServiceProvider::Strategy
    How instance() chooses among the available instances.
    \value Random Any of them, uniformly (etcd-recipes' \c RandomStrategy).
    \value RoundRobin Each in turn, in the cache's order (by id); a cursor that goes on
        counting as instances come and go (etcd-recipes' \c RoundRobinStrategy).
    \value Sticky The same one as last time while it is available; when it is not, one
        chosen at random, which then sticks (etcd-recipes' \c StickyStrategy).
    \value Custom The selector's choice (see setSelector()); none without a selector.
*/

/*!
    \typedef EtcdServiceProvider::Selector
    A user strategy: given the available instances (never an empty list), returns the index
    of the one to use, or -1 for none. An index outside the list counts as none.
*/

/*! \fn void EtcdServiceProvider::started()
    Emitted once after start(), when the cache is live (at once when it already was). */

/*! \fn void EtcdServiceProvider::countChanged()
    Emitted when the number of available instances changed. */

/*! \fn void EtcdServiceProvider::strategyChanged()
    Emitted when the strategy changed. */

/*! \fn void EtcdServiceProvider::errorThresholdChanged()
    Emitted when errorThreshold changed. */

/*! \fn void EtcdServiceProvider::instanceEjected(const EtcdServiceInstance &instance)
    Emitted when noteError() ejected \a instance: it is not picked for downPeriod(). */

/*! \fn void EtcdServiceProvider::instanceRestored(const EtcdServiceInstance &instance)
    Emitted when the ejection of \a instance (as it was when ejected) ended. instance() has
    counted it available again from the period's end, even before this signal. */

class EtcdServiceProviderPrivate
{
    Q_DECLARE_PUBLIC(EtcdServiceProvider)
public:
    EtcdServiceProviderPrivate(EtcdServiceProvider *q, EtcdServiceCache *cache, bool owned);
    void follow();
    void refresh();
    void reportRestored();
    void arm();
    void reportCount();
    void cacheStarted();

    EtcdServiceProvider *q_ptr;
    QPointer<EtcdServiceCache> cache;
    bool owned = false; // cache is ours: a child, started, closed and deleted with us
    ProviderLogic logic;
    QTimer restoreTimer;
    int reportedCount = 0;
    bool startedSent = false;
};

EtcdServiceProviderPrivate::EtcdServiceProviderPrivate(
    EtcdServiceProvider *q, EtcdServiceCache *c, bool own)
    : q_ptr(q), cache(c), owned(own), restoreTimer(q)
{
    // Both are children of the provider, so that they move to its thread with it.
    if (own)
        c->setParent(q);
    restoreTimer.setSingleShot(true);
    restoreTimer.setTimerType(Qt::PreciseTimer);
}

void EtcdServiceProviderPrivate::follow()
{
    Q_Q(EtcdServiceProvider);
    QObject::connect(&restoreTimer, &QTimer::timeout, q, [this] {
        reportRestored();
        arm();
        reportCount();
    });
    if (!cache)
        return;
    QObject::connect(cache, &EtcdServiceCache::instancesChanged, q, [this] { refresh(); });
    QObject::connect(cache, &EtcdServiceCache::started, q, [this] { cacheStarted(); });
    QObject::connect(cache, &QObject::destroyed, q, [this] { refresh(); });
    if (owned) {
        RecipeLayer::adopt(q, cache);
        QObject::connect(cache, &EtcdServiceCache::failed, q, [q] { q->setActive(false); });
    } else {
        // Someone else's cache: its state is ours to report, its errors and closed() are not.
        QObject::connect(cache, &EtcdRecipe::connectionStateChanged, q,
            [q](EtcdRecipe::ConnectionState state) { q->reportConnectionState(state); });
        q->reportConnectionState(cache->connectionState());
    }
    refresh();
}

void EtcdServiceProviderPrivate::refresh()
{
    logic.setInstances(cache ? cache->instances() : QList<EtcdServiceInstance>());
    reportCount();
}

// Ejections over by now, announced in the order they ended; before any new ejection, so
// that a listener sees an instance restored before it is ejected again.
void EtcdServiceProviderPrivate::reportRestored()
{
    Q_Q(EtcdServiceProvider);
    QPointer<EtcdServiceProvider> guard(q);
    for (const EtcdServiceInstance &i : logic.restoreDue()) {
        if (!guard)
            return;
        Q_EMIT q->instanceRestored(i);
    }
}

// The timer for the next ejection's end. It may fire early (the interval is capped at a
// day) or late: the logic goes by its clock, and a firing with nothing due re-arms it.
void EtcdServiceProviderPrivate::arm()
{
    const std::optional<ProviderLogic::TimePoint> next = logic.nextRestore();
    if (!next) {
        restoreTimer.stop();
        return;
    }
    const auto left
        = std::chrono::ceil<std::chrono::milliseconds>(*next - std::chrono::steady_clock::now());
    restoreTimer.start(std::clamp<std::chrono::milliseconds>(left, 0ms, 24h));
}

void EtcdServiceProviderPrivate::reportCount()
{
    const int count = int(logic.candidates().size());
    if (std::exchange(reportedCount, count) != count)
        Q_EMIT q_func()->countChanged();
}

void EtcdServiceProviderPrivate::cacheStarted()
{
    Q_Q(EtcdServiceProvider);
    refresh();
    if (q->isActive() && !std::exchange(startedSent, true))
        Q_EMIT q->started();
}

/*!
    Constructs a provider of the service \a serviceName registered under \a servicePath on
    \a client, choosing by \a strategy, with a cache of its own; no I/O until start().
    \a parent is the QObject parent.
*/
EtcdServiceProvider::EtcdServiceProvider(EtcdClient *client, const QByteArray &servicePath,
    const QString &serviceName, Strategy strategy, QObject *parent)
    : EtcdRecipe(client, QStringLiteral("ServiceProvider[%1]").arg(serviceName), parent),
      d_ptr(new EtcdServiceProviderPrivate(
          this, new EtcdServiceCache(client, servicePath, serviceName), true))
{
    d_ptr->logic.setStrategy(strategy);
    d_ptr->follow();
}

/*!
    Constructs a provider over \a cache, which someone else owns and starts (several
    providers may share one), choosing by \a strategy. It picks from the cache's instances
    as soon as there are any. \a parent is the QObject parent.
*/
EtcdServiceProvider::EtcdServiceProvider(
    EtcdServiceCache *cache, Strategy strategy, QObject *parent)
    : EtcdRecipe(cache ? cache->client() : nullptr,
        QStringLiteral("ServiceProvider[%1]").arg(cache ? cache->serviceName() : QString()),
        parent),
      d_ptr(new EtcdServiceProviderPrivate(this, cache, false))
{
    d_ptr->logic.setStrategy(strategy);
    d_ptr->follow();
}

/*! Destroys the provider, and its cache when it owns one. */
EtcdServiceProvider::~EtcdServiceProvider()
{
    Q_D(EtcdServiceProvider);
    if (!d->cache)
        return;
    QObject::disconnect(d->cache, nullptr, this, nullptr);
    if (d->owned)
        delete d->cache.data();
}

/*! The cache the provider picks from (null once a cache someone else owned was destroyed). */
EtcdServiceCache *EtcdServiceProvider::cache() const
{
    return d_func()->cache;
}

/*! \property EtcdServiceProvider::strategy
    How instance() chooses (see Strategy). */
EtcdServiceProvider::Strategy EtcdServiceProvider::strategy() const
{
    return d_func()->logic.strategy();
}

/*!
    Sets the strategy to \a strategy. Custom chooses with the selector setSelector() set, and
    picks nothing without one. Leaving Sticky forgets the instance it stuck to.
*/
void EtcdServiceProvider::setStrategy(Strategy strategy)
{
    Q_D(EtcdServiceProvider);
    const Strategy previous = d->logic.strategy();
    d->logic.setStrategy(strategy);
    if (previous != strategy)
        Q_EMIT strategyChanged();
}

/*! Chooses with \a selector from now on: the strategy becomes Custom. */
void EtcdServiceProvider::setSelector(Selector selector)
{
    Q_D(EtcdServiceProvider);
    const Strategy previous = d->logic.strategy();
    d->logic.setSelector(std::move(selector));
    if (previous != Strategy::Custom)
        Q_EMIT strategyChanged();
}

/*! \property EtcdServiceProvider::errorThreshold
    How many noteError() calls eject an instance (default 3, at least 1). */
int EtcdServiceProvider::errorThreshold() const
{
    return d_func()->logic.errorThreshold();
}

/*! Sets errorThreshold to \a errors (values below 1 count as 1); counts reached already
    eject at the next error. */
void EtcdServiceProvider::setErrorThreshold(int errors)
{
    Q_D(EtcdServiceProvider);
    const int previous = d->logic.errorThreshold();
    d->logic.setErrorThreshold(errors);
    if (previous != d->logic.errorThreshold())
        Q_EMIT errorThresholdChanged();
}

/*! How long an ejected instance stays out (default 30 s). */
std::chrono::milliseconds EtcdServiceProvider::downPeriod() const
{
    return d_func()->logic.downPeriod();
}

/*! Sets downPeriod() to \a period (negative counts as zero) for ejections from now on. */
void EtcdServiceProvider::setDownPeriod(std::chrono::milliseconds period)
{
    d_func()->logic.setDownPeriod(period);
}

/*! \property EtcdServiceProvider::count
    The number of available instances: enabled and not ejected. */
int EtcdServiceProvider::count() const
{
    return int(d_func()->logic.candidates().size());
}

/*!
    Returns an available instance chosen by the strategy, or nothing when none is available
    (etcd-recipes throws there). No RPC: it reads the cache's copy, so before the cache is
    live, and after close(), it picks from what the cache held then.
*/
std::optional<EtcdServiceInstance> EtcdServiceProvider::instance()
{
    return d_func()->logic.pick();
}

/*! Every instance the cache holds, enabled, disabled or ejected, sorted by id. */
QList<EtcdServiceInstance> EtcdServiceProvider::allInstances() const
{
    const EtcdServiceCache *c = d_func()->cache;
    return c ? c->instances() : QList<EtcdServiceInstance>();
}

/*! The instances instance() chooses from: the cache's that are enabled and not ejected. */
QList<EtcdServiceInstance> EtcdServiceProvider::availableInstances() const
{
    return d_func()->logic.candidates();
}

/*!
    Counts an error of \a instance (by its service name and id). The errorThreshold'th one
    ejects it for downPeriod() and emits instanceEjected(); errors of an ejected instance
    are not counted.
*/
void EtcdServiceProvider::noteError(const EtcdServiceInstance &instance)
{
    Q_D(EtcdServiceProvider);
    QPointer<EtcdServiceProvider> guard(this);
    d->reportRestored();
    if (!guard)
        return;
    if (d->logic.noteError(instance)) {
        d->arm();
        Q_EMIT instanceEjected(instance);
        if (!guard)
            return;
    }
    d->reportCount();
}

/*! Returns whether \a instance is ejected now (by its service name and id). */
bool EtcdServiceProvider::isEjected(const EtcdServiceInstance &instance) const
{
    return d_func()->logic.isEjected(instance);
}

/*!
    Starts the provider: an owned cache starts; a cache someone else owns is theirs to
    start. started() follows once the cache is live. One-shot.
*/
void EtcdServiceProvider::start()
{
    Q_D(EtcdServiceProvider);
    if (isActive() || isClosed())
        return;
    setActive(true);
    if (d->owned && d->cache)
        d->cache->start();
    else if (d->cache && d->cache->isStarted())
        QTimer::singleShot(0, this, [d] { d->cacheStarted(); });
}

/*!
    Closes the provider: an owned cache closes (closed() follows it); a cache someone else
    owns goes on (closed() on the next turn of the event loop). instanceRestored() is
    emitted no more; instance() goes on picking from the cache's last copy. Idempotent.
*/
void EtcdServiceProvider::close()
{
    Q_D(EtcdServiceProvider);
    if (isClosed())
        return;
    d->restoreTimer.stop();
    markClosed();
    if (d->owned && d->cache)
        d->cache->close();
    else
        emitClosedAfter(nullptr);
}
