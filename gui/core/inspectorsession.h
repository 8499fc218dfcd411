// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// One live inspection of a cluster under a prefix: the keys read in pages pinned to one
// revision, then kept current by one watch from that revision on; every ~100 ms the changed
// keys are decoded into a new view, diffed into recipe events and hand-offs, and published.
// The watch starts further back so that leadership hand-offs still in MVCC history are
// replayed into the timeline. Lease TTLs are polled at a bounded rate (etcd has no lease
// events) and counted down locally in between. Nothing here blocks the thread it lives in.
#pragma once

#include "leaseclock.h"
#include "leasegroups.h"
#include "recipeevent.h"

#include <EtcdQt/etcdclient.h>

#include <recipeview.h>

#include <QtCore/qobject.h>
#include <QtCore/qthread.h>
#include <QtCore/qurl.h>

#include <memory>

class EtcdWatch;
class QTimer;
struct EtcdWatchEvent;

namespace Inspector {

class HistoryReplay;
class LeasePoller;
struct ViewChanges;

class InspectorSession : public QObject
{
    Q_OBJECT
    Q_PROPERTY(Phase phase READ phase NOTIFY phaseChanged)
public:
    enum class Phase { Idle, Connecting, Loading, Live, Resyncing, Failed };
    Q_ENUM(Phase)

    struct Options
    {
        QList<QUrl> endpoints;
        QByteArray prefix = QByteArrayLiteral("/");
        EtcdTlsFiles tls;
        QString user;
        QString password; // kept in memory only, for the client
        int coalesceMs = 100;
        qint64 backfillRevisions = 100000; // how far back the timeline is rebuilt; 0: none
    };

    explicit InspectorSession(QObject *parent = nullptr);
    ~InspectorSession() override;

    // Checks the options (false + errorOccurred when they cannot work) and starts.
    bool start(const Options &options);
    void stop();
    void reload(); // read everything again (and diff it against what was shown)

    [[nodiscard]] Phase phase() const { return m_phase; }
    [[nodiscard]] QString phaseText() const;
    [[nodiscard]] const Etcd::Decode::View &view() const { return m_view; }
    // The view's leases and their keys, grouped with the view on the builder thread.
    [[nodiscard]] const QList<LeaseGroup> &leaseGroups() const { return m_leaseGroups; }
    [[nodiscard]] const LeaseClock &leaseClock() const { return m_leaseClock; }
    [[nodiscard]] qint64 revision() const { return m_revision; }
    [[nodiscard]] EtcdClient *client() const { return m_client; }
    [[nodiscard]] const Options &options() const { return m_options; }

    static QString validate(const Options &options); // empty when fine, else why not

Q_SIGNALS:
    void phaseChanged(InspectorSession::Phase phase);
    void connectionStateChanged(EtcdClient::State state);
    void viewUpdated();
    void eventsDerived(const QList<Inspector::RecipeEvent> &events);
    void handOffsDerived(const QList<Inspector::HandOff> &handOffs);
    void leasesReconciled();
    void errorOccurred(const QString &message);
    void watchEventsApplied(int count); // live watch events, per delivery (the events/s chart)

private:
    void setPhase(Phase phase);
    void loadPage(const QByteArray &from, qint64 revision);
    void loaded(qint64 revision);
    void startWatch(qint64 fromRevision);
    void onEvents(const QList<EtcdWatchEvent> &events);
    void onResyncRequested(qint64 compactRevision);
    void retryLater(const QString &why);
    void rebuild();
    void built(Etcd::Decode::View view, QList<LeaseGroup> leases, const ViewChanges &changes,
        bool baseline, int generation);
    void publish(const ViewChanges &changes);
    void noteFlapping(const QList<HandOff> &handOffs);
    void applyEvent(const EtcdWatchEvent &event);
    void primeLiveTerms();
    [[nodiscard]] QList<HandOff> withoutLiveTerms(const QList<HandOff> &handOffs) const;

    Options m_options;
    EtcdClient *m_client = nullptr;
    EtcdWatch *m_watch = nullptr;
    LeasePoller *m_poller = nullptr;
    LeaseClock m_leaseClock; // lives as long as the session: models keep a pointer to it
    Phase m_phase = Phase::Idle;
    QMap<QByteArray, EtcdKeyValue> m_keys;
    QMap<QByteArray, EtcdKeyValue> m_loading; // pages read so far
    QList<EtcdWatchEvent> m_heldBack; // live events that arrived while a reload was reading
    bool m_reading = false;
    QHash<qint64, int> m_keysPerLease;
    Etcd::Decode::View m_view;
    QList<LeaseGroup> m_leaseGroups; // m_view's
    qint64 m_revision = 0; // what m_keys reflect
    qint64 m_loadedRevision = 0; // the first load's: events at or below it are history
    qint64 m_baseRevision = 0; // the latest load's: live events at or below it are in m_keys
    bool m_dirty = false;
    bool m_building = false; // a build is on the builder thread
    QThread m_builderThread;
    QObject *m_builder = nullptr; // the builder thread's context object
    bool m_viewShown = false;
    QTimer *m_coalesce = nullptr;
    std::unique_ptr<HistoryReplay> m_history;
    // Terms of etcd-recipes' elections (a "<election>/LEADER" key per term), from each live
    // event rather than from the coalesced views: a term shorter than the coalescing window
    // starts and ends between two views, and a diff of the views never sees it.
    std::unique_ptr<HistoryReplay> m_liveTerms;
    QSet<QByteArray> m_leaderKeyElections; // their hand-offs come from m_liveTerms
    QList<HandOff> m_liveHandOffs; // derived while applying the events of one delivery
    bool m_diffAfterReload = false; // events were missed: that diff's hand-offs all count
    QHash<QByteArray, QList<QDateTime>> m_recentHandOffs; // live only: flapping
    QSet<QByteArray> m_flapping;
    int m_generation = 0; // a stop or reload orphans the replies of earlier loads
};

} // namespace Inspector
