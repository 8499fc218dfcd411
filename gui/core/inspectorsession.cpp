// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "inspectorsession.h"

#include "handover_p.h"
#include "historyreplay.h"
#include "leasepoller.h"
#include "viewdiff.h"

#include <EtcdQt/etcdcodec.h>
#include <EtcdQt/etcdreplies.h>
#include <EtcdQt/etcdwatch.h>

#include <recipedecoder.h>

#include <QtCore/qfileinfo.h>
#include <QtCore/qloggingcategory.h>
#include <QtCore/qtimer.h>

Q_LOGGING_CATEGORY(lcSession, "etcdqt.inspector.session", QtWarningMsg)

namespace Inspector {

using namespace Etcd::Decode;

namespace {
constexpr qint64 kPageSize = 2000; // keys per range read: well under gRPC's 4 MiB
constexpr int kRetryMs = 1000;
constexpr int kFlappingHandOffs = 4; // etcd-mixin's etcdHighNumberOfLeaderChanges
constexpr qint64 kFlappingWindowSecs = 15 * 60;
} // namespace

InspectorSession::InspectorSession(QObject *parent)
    : QObject(parent), m_coalesce(new QTimer(this)), m_history(std::make_unique<HistoryReplay>())
{
    m_builderThread.setObjectName(QStringLiteral("etcdqt-inspector-build"));
    m_builder = new QObject; // lives in the builder thread; deleted there when it finishes
    m_builder->moveToThread(&m_builderThread);
    connect(&m_builderThread, &QThread::finished, m_builder, &QObject::deleteLater);
    m_builderThread.start();
    m_coalesce->setSingleShot(true);
    connect(m_coalesce, &QTimer::timeout, this, &InspectorSession::rebuild);
}

InspectorSession::~InspectorSession()
{
    m_builderThread.quit();
    m_builderThread.wait(); // a build in progress finishes first: it calls back into this
    // The client hands its last answers to their replies as it goes; their handlers use
    // this session's members, so it must go while they live (not later, as a child), and
    // what they emit must not reach a window that is itself being destroyed.
    blockSignals(true);
    delete std::exchange(m_watch, nullptr);
    delete std::exchange(m_poller, nullptr);
    delete std::exchange(m_client, nullptr);
}

QString InspectorSession::validate(const Options &o)
{
    if (o.endpoints.isEmpty())
        return tr("No endpoint given.");
    for (const QUrl &url : o.endpoints) {
        if (!url.isValid() || url.host().isEmpty() || url.port() <= 0
            || (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https")))
            return tr("Endpoint \"%1\" is not of the form http(s)://host:port.")
                .arg(url.toString());
    }
    if (o.prefix.isEmpty())
        return tr("The prefix must not be empty (use / for every key).");
    for (const QString &file : {o.tls.caCertificate, o.tls.clientCertificate, o.tls.clientKey}) {
        if (!file.isEmpty() && !QFileInfo(file).isReadable())
            return tr("TLS file \"%1\" cannot be read.").arg(file);
    }
    if (o.tls.clientCertificate.isEmpty() != o.tls.clientKey.isEmpty())
        return tr("A client certificate needs its key, and a key its certificate.");
    if (o.coalesceMs < 0)
        return tr("The update interval must not be negative.");
    return {};
}

bool InspectorSession::start(const Options &options)
{
    if (const QString why = validate(options); !why.isEmpty()) {
        Q_EMIT errorOccurred(why);
        return false;
    }
    stop();
    m_options = options;
    m_client = new EtcdClient(this);
    m_client->setEndpoints(options.endpoints);
    if (!options.user.isEmpty())
        m_client->setCredentials(options.user, options.password);
    if (!options.tls.caCertificate.isEmpty() || !options.tls.clientCertificate.isEmpty())
        m_client->setTlsFiles(options.tls);
    connect(m_client, &EtcdClient::stateChanged, this, &InspectorSession::connectionStateChanged);
    connect(m_client, &EtcdClient::errorOccurred, this,
        [](const EtcdStatus &s) { qCInfo(lcSession) << "client:" << s.toString(); });
    m_poller = new LeasePoller(m_client, &m_keysPerLease, &m_leaseClock, this);
    connect(m_poller, &LeasePoller::reconciled, this, &InspectorSession::leasesReconciled);
    connect(m_poller, &LeasePoller::anomaliesFound, this, [this](qint64 lease, unsigned bits) {
        RecipeEvent e;
        e.time = QDateTime::currentDateTime();
        e.revision = m_revision;
        e.type = RecipeEvent::Type::Anomaly;
        e.actor = tr("lease %1").arg(QString::number(lease, 16));
        e.text = tr("lease %1: %2").arg(QString::number(lease, 16), LeaseClock::describe(bits));
        Q_EMIT eventsDerived({e});
    });
    m_coalesce->setInterval(options.coalesceMs);
    m_client->connectToEndpoints();
    setPhase(Phase::Connecting);
    loadPage(options.prefix, 0);
    return true;
}

void InspectorSession::stop()
{
    ++m_generation;
    m_coalesce->stop();
    delete std::exchange(m_watch, nullptr);
    delete std::exchange(m_poller, nullptr);
    if (EtcdClient *c = std::exchange(m_client, nullptr)) {
        c->disconnectFromEndpoints();
        c->deleteLater();
    }
    m_keys.clear();
    m_loading.clear();
    m_keysPerLease.clear();
    m_leaseClock.retainOnly({});
    m_heldBack.clear();
    m_reading = false;
    m_viewShown = false;
    m_view = {};
    m_leaseGroups = {};
    m_loadedRevision = 0;
    m_baseRevision = 0;
    m_recentHandOffs.clear();
    m_flapping.clear();
    m_history = std::make_unique<HistoryReplay>();
    m_liveTerms = std::make_unique<HistoryReplay>();
    m_leaderKeyElections.clear();
    m_liveHandOffs.clear();
    m_diffAfterReload = false;
    setPhase(Phase::Idle);
}

void InspectorSession::reload()
{
    if (!m_client)
        return;
    ++m_generation;
    setPhase(Phase::Resyncing);
    m_reading = true;
    m_loading.clear();
    loadPage(m_options.prefix, 0);
}

QString InspectorSession::phaseText() const
{
    switch (m_phase) {
    case Phase::Idle:
        return tr("Not connected");
    case Phase::Connecting:
        return tr("Connecting…");
    case Phase::Loading:
        return tr("Loading keys…");
    case Phase::Live:
        return tr("Live at revision %1").arg(m_revision);
    case Phase::Resyncing:
        return tr("Resynchronising…");
    case Phase::Failed:
        return tr("Failed; retrying");
    }
    return {};
}

void InspectorSession::setPhase(Phase phase)
{
    if (m_phase == phase)
        return;
    m_phase = phase;
    Q_EMIT phaseChanged(phase);
}

// Pages after the first are pinned to the first page's revision: one consistent snapshot.
void InspectorSession::loadPage(const QByteArray &from, qint64 revision)
{
    EtcdRangeOptions o;
    o.rangeEnd = Etcd::prefixEnd(m_options.prefix);
    o.limit = kPageSize;
    o.revision = revision;
    EtcdRangeReply *reply = m_client->get(from, o);
    const int generation = m_generation;
    connect(reply, &EtcdReply::finished, this, [=, this](const EtcdStatus &status) {
        if (generation != m_generation)
            return;
        if (!status.isOk())
            return retryLater(tr("Reading %1 failed: %2")
                                  .arg(QString::fromUtf8(m_options.prefix), status.toString()));
        if (m_phase == Phase::Connecting || m_phase == Phase::Failed)
            setPhase(Phase::Loading);
        const qint64 pinned = revision > 0 ? revision : reply->revision();
        const QList<EtcdKeyValue> kvs = reply->keyValues();
        for (const EtcdKeyValue &kv : kvs)
            m_loading.insert(kv.key, kv);
        if (reply->hasMore() && !kvs.isEmpty())
            return loadPage(kvs.last().key + '\0', pinned);
        loaded(pinned);
    });
}

void InspectorSession::retryLater(const QString &why)
{
    qCInfo(lcSession) << why;
    Q_EMIT errorOccurred(why);
    setPhase(Phase::Failed);
    const int generation = ++m_generation;
    QTimer::singleShot(kRetryMs, this, [this, generation] {
        if (generation == m_generation && m_client) {
            m_loading.clear();
            loadPage(m_options.prefix, 0);
        }
    });
}

void InspectorSession::loaded(qint64 revision)
{
    m_reading = false;
    m_keys = std::exchange(m_loading, {});
    m_keysPerLease.clear();
    for (const EtcdKeyValue &kv : std::as_const(m_keys)) {
        if (kv.lease != 0)
            ++m_keysPerLease[kv.lease];
    }
    m_revision = revision;
    m_baseRevision = revision;
    m_diffAfterReload = m_viewShown; // a reload: what changed meanwhile came in no event
    primeLiveTerms();
    // Live events that overtook the read: those after its revision still apply.
    for (const EtcdWatchEvent &e : std::exchange(m_heldBack, {})) {
        if (e.revision > revision)
            applyEvent(e);
    }
    rebuild();
    if (!m_watch) {
        m_loadedRevision = revision;
        const qint64 back = m_options.backfillRevisions;
        startWatch(back > 0 ? std::max<qint64>(1, revision - back) : revision + 1);
    } else if (m_watch->state() == EtcdWatch::State::AwaitingResync) {
        m_watch->resync(m_revision + 1);
    }
    m_poller->setActive(true);
    setPhase(Phase::Live);
}

// One watch for everything: history up to the load's revision feeds the timeline only; the
// rest keeps the keys current. AwaitResync: a compaction during an outage makes us re-read
// rather than silently skip what changed.
void InspectorSession::startWatch(qint64 fromRevision)
{
    EtcdWatchOptions o;
    o.prefix = true;
    o.startRevision = fromRevision;
    m_watch = new EtcdWatch(m_client, m_options.prefix, o, this);
    m_watch->setResyncMode(EtcdWatch::ResyncMode::AwaitResync);
    connect(m_watch, &EtcdWatch::eventsReceived, this, &InspectorSession::onEvents);
    connect(m_watch, &EtcdWatch::resyncRequested, this, &InspectorSession::onResyncRequested);
    connect(m_watch, &EtcdWatch::stateChanged, this, [this](EtcdWatch::State s) {
        if (s == EtcdWatch::State::Suspended && m_phase == Phase::Live)
            setPhase(Phase::Connecting);
        else if (s == EtcdWatch::State::Active && m_phase == Phase::Connecting)
            setPhase(Phase::Live);
    });
    connect(m_watch, &EtcdWatch::failed, this, [this](const EtcdStatus &why) {
        m_watch->deleteLater();
        m_watch = nullptr;
        retryLater(tr("The watch on %1 ended: %2")
                       .arg(QString::fromUtf8(m_options.prefix), why.toString()));
    });
    m_watch->start();
}

void InspectorSession::onResyncRequested(qint64 compactRevision)
{
    // Still replaying history and nothing live is missing: replay from what is left.
    if (compactRevision <= m_loadedRevision + 1 && m_revision == m_loadedRevision) {
        m_watch->resync(compactRevision);
        return;
    }
    reload();
}

void InspectorSession::onEvents(const QList<EtcdWatchEvent> &events)
{
    QList<HandOff> replayed;
    int applied = 0;
    for (const EtcdWatchEvent &e : events) {
        if (e.revision <= m_loadedRevision) {
            if (auto h = m_history->feed(e))
                replayed.append(*h);
        } else if (m_reading) {
            m_heldBack.append(e);
        } else if (e.revision > m_baseRevision) {
            applyEvent(e); // (a lagging watch may repeat what a reload already read)
            ++applied;
        }
    }
    if (applied > 0)
        Q_EMIT watchEventsApplied(applied);
    if (!replayed.isEmpty())
        Q_EMIT handOffsDerived(replayed);
    if (!m_liveHandOffs.isEmpty()) {
        const QList<HandOff> live = std::exchange(m_liveHandOffs, {});
        Q_EMIT handOffsDerived(live);
        noteFlapping(live);
    }
    if (m_dirty && !m_coalesce->isActive())
        m_coalesce->start();
}

// The terms under way as the read found them: the next live event on a LEADER key is judged
// against them (who led before), and no hand-off is made up for a term already shown.
void InspectorSession::primeLiveTerms()
{
    m_liveTerms = std::make_unique<HistoryReplay>();
    for (const EtcdKeyValue &kv : std::as_const(m_keys)) {
        if (!HistoryReplay::isLeaderKey(kv.key))
            continue;
        EtcdWatchEvent current;
        current.type = EtcdWatchEvent::Type::Put;
        current.keyValue = kv;
        current.keyValue.version = std::max<qint64>(2, kv.version); // no new term: a reading
        current.revision = kv.modRevision;
        m_liveTerms->feed(current);
        m_leaderKeyElections.insert(HistoryReplay::electionOf(kv.key));
    }
}

// The views' hand-offs of the elections whose terms come from live events, left out: the
// events said them already, each term on its own. After a reload they stay (no event told).
QList<HandOff> InspectorSession::withoutLiveTerms(const QList<HandOff> &handOffs) const
{
    if (m_diffAfterReload)
        return handOffs;
    QList<HandOff> kept;
    for (const HandOff &h : handOffs) {
        if (!m_leaderKeyElections.contains(h.election))
            kept.append(h);
    }
    return kept;
}

void InspectorSession::applyEvent(const EtcdWatchEvent &e)
{
    if (HistoryReplay::isLeaderKey(e.keyValue.key)) {
        m_leaderKeyElections.insert(HistoryReplay::electionOf(e.keyValue.key));
        if (std::optional<HandOff> h = m_liveTerms->feed(e)) {
            h->backfilled = false;
            h->time = QDateTime::currentDateTime();
            m_liveHandOffs.append(*h);
        }
    }
    const auto old = m_keys.constFind(e.keyValue.key);
    if (old != m_keys.cend() && old->lease != 0 && --m_keysPerLease[old->lease] <= 0)
        m_keysPerLease.remove(old->lease);
    if (e.type == EtcdWatchEvent::Type::Put) {
        m_keys.insert(e.keyValue.key, e.keyValue);
        if (e.keyValue.lease != 0)
            ++m_keysPerLease[e.keyValue.lease];
    } else {
        m_keys.remove(e.keyValue.key);
    }
    m_revision = std::max(m_revision, e.revision);
    m_dirty = true;
}

// Decoding and diffing 10,000 keys takes tens of milliseconds: they run on the builder
// thread, from a copy of the keys, so the thread this session lives in (the GUI's) only
// applies watch events and hands out finished views. One build at a time; changes that
// arrive meanwhile are built next.
void InspectorSession::rebuild()
{
    if (m_building) {
        m_dirty = true;
        return;
    }
    m_dirty = false;
    m_building = true;
    Snapshot snapshot {m_options.prefix, m_revision, m_keys.values(), {}};
    const bool baseline = !m_viewShown; // the first view is the baseline, not a burst of events
    // postQueued: QMetaObject::invokeMethod, announced to TSan (Qt's event queue is not
    // instrumented, so it cannot see that the post orders the builder's reads).
    Etcd::Internal::postQueued(m_builder,
        [this, snapshot = std::move(snapshot), previous = m_view, baseline,
            generation = m_generation, now = QDateTime::currentDateTime()] {
            View view = decode(snapshot);
            QList<LeaseGroup> leases = leaseGroupsOf(view);
            ViewChanges changes;
            if (!baseline)
                changes = diffViews(previous, view, now);
            // Safe: ~InspectorSession waits for this thread before this object goes.
            Etcd::Internal::postQueued(this,
                [this, view = std::move(view), leases = std::move(leases),
                    changes = std::move(changes), baseline, generation]() mutable {
                    built(std::move(view), std::move(leases), changes, baseline, generation);
                });
        });
}

void InspectorSession::built(
    View view, QList<LeaseGroup> leases, const ViewChanges &changes, bool baseline, int generation)
{
    m_building = false;
    if (generation == m_generation && m_client) {
        // The view replaced is freed on the builder thread, not this one: at 100,000 keys
        // its 92,000 recipes are hundreds of thousands of blocks to give back.
        Etcd::Internal::postQueued(m_builder,
            [replaced = std::exchange(m_view, std::move(view)),
                replacedLeases = std::exchange(m_leaseGroups, std::move(leases))] {
                Q_UNUSED(replaced)
                Q_UNUSED(replacedLeases)
            });
        m_viewShown = true;
        Q_EMIT viewUpdated();
        if (!baseline)
            publish(changes);
    }
    if (m_dirty && !m_coalesce->isActive())
        m_coalesce->start();
}

void InspectorSession::publish(const ViewChanges &changes)
{
    const QList<HandOff> handOffs = withoutLiveTerms(changes.handOffs);
    m_diffAfterReload = false;
    if (!handOffs.isEmpty()) {
        Q_EMIT handOffsDerived(handOffs);
        noteFlapping(handOffs);
    }
    if (!changes.events.isEmpty())
        Q_EMIT eventsDerived(changes.events);
}

// Per application election, the etcd-mixin rule for raft leaders: >= 4 new terms within
// 15 minutes. Said once when an election starts flapping, again only after it calmed down.
void InspectorSession::noteFlapping(const QList<HandOff> &handOffs)
{
    const QDateTime now = QDateTime::currentDateTime();
    QList<RecipeEvent> alerts;
    for (const HandOff &h : handOffs) {
        if (h.to.isEmpty())
            continue;
        QList<QDateTime> &times = m_recentHandOffs[h.election];
        times.append(h.time);
        times.removeIf([&](const QDateTime &t) { return t.secsTo(now) > kFlappingWindowSecs; });
        const bool flapping = times.size() >= kFlappingHandOffs;
        if (flapping && !m_flapping.contains(h.election)) {
            RecipeEvent e;
            e.time = now;
            e.revision = h.revision;
            e.type = RecipeEvent::Type::Flapping;
            e.kind = Kind::Election;
            e.path = h.election;
            e.actor = h.to;
            e.text
                = tr("%1 is flapping: %n new leader(s) in 15 minutes", nullptr, int(times.size()))
                      .arg(QString::fromUtf8(h.election));
            alerts.append(e);
        }
        if (flapping)
            m_flapping.insert(h.election);
        else
            m_flapping.remove(h.election);
    }
    if (!alerts.isEmpty())
        Q_EMIT eventsDerived(alerts);
}

} // namespace Inspector
