// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API.
#pragma once

#include "etcdqt_internal_p.h"
#include "participantqueue_p.h"

#include <EtcdQt/etcdkeyvalue.h>
#include <EtcdQt/etcdrecipe.h>
#include <EtcdQt/etcdstatus.h>

#include <QtCore/qmutex.h>
#include <QtCore/qobject.h>
#include <QtCore/qpointer.h>
#include <QtCore/qtimer.h>

#include <atomic>
#include <memory>
#include <vector>

class EtcdClient;
class EtcdWatch;
struct EtcdWatchEvent;

namespace Etcd::Internal {

class TermSync;

// A candidate as its election's LeaderView sees it; every call comes in the owner thread.
class LeaderViewMember
{
public:
    virtual ~LeaderViewMember() = default;
    [[nodiscard]] virtual QString viewId() const = 0; // its participant id: its place in line
    [[nodiscard]] virtual bool awaitsTurn() const = 0; // campaigning: a vacancy is its business
    virtual void takeTurn() = 0; // the seat is free and it is this member's turn: campaign
    virtual void watchWentLive() = 0;
    // The LEADER events, and the leader id each leaves (empty: nobody). Its handlers may end
    // its term or destroy it.
    virtual void sawLeaderEvents(const QList<EtcdWatchEvent> &events, const QList<QString> &leaders)
        = 0;
    // LEADER as re-read at `revision` after a reconnect (empty: nobody holds it).
    virtual void sawLeaderRead(const QList<EtcdKeyValue> &leader, qint64 revision) = 0;
    virtual void watchFailed(const EtcdStatus &why) = 0;
    virtual void reportConnection(EtcdRecipe::ConnectionState state) = 0;
};

// One election's LEADER key as every candidate of one client in one thread sees it: one watch,
// one reaction to a vacancy, one turn timer and one re-read after a reconnect for all of them.
// A vacancy costs one compare-and-set by the member whose turn it is, not a timer per member,
// and the other members only learn the new leader (bench/run --scale: a thousand candidates in
// one process each arming and cancelling a timer and re-deciding per event were most of a
// hand-off's time).
//
// Ownership is still each member's and the engine's: the view's watch carries one guard that
// tells the term view of every member that leads (TermSync::seeKeyEvents judges each by its
// own token), and each member checks every event against its own fencing token.
class LeaderView : public QObject, public std::enable_shared_from_this<LeaderView>
{
public:
    // A member's place in the view, kept from its first term to its close (a selector that
    // runs term after term keeps one watch, not a new one per term); destroying it leaves.
    class Seat
    {
    public:
        Seat(std::shared_ptr<LeaderView> view, LeaderViewMember *member);
        ~Seat();
        Seat(const Seat &) = delete;
        Seat &operator=(const Seat &) = delete;
        [[nodiscard]] LeaderView &view() const { return *m_view; }
        // A term begins: the watch and the queue are made live if they are not.
        void beginTerm();
        // From the member's win until endTerm(), the engine thread ends `sync`'s leadership
        // when the key is deleted or taken (TermSync::seeKeyEvents).
        void arm(const std::shared_ptr<TermSync> &sync);
        // The term is over: disarmed, and a turn it had passes to the next member in line.
        void endTerm();

    private:
        const std::shared_ptr<LeaderView> m_view;
        LeaderViewMember *const m_member;
        const TermSync *m_armed = nullptr;
    };

    LeaderView(EtcdClient *client, const QByteArray &electionPath);
    ~LeaderView() override;

    // Seats `member` in the view of `electionPath` shared by `client`'s candidates in this
    // thread (a view whose watch failed is not shared any more: a new one is made).
    // Members hear of LEADER only while in a term.
    static std::unique_ptr<Seat> join(
        EtcdClient *client, const QByteArray &electionPath, LeaderViewMember *member);

    // The watch has gone live (it may be suspended now: it resumes where it left off).
    [[nodiscard]] bool isLive() const { return m_live; }
    [[nodiscard]] bool hasFailed() const { return m_failed; }
    // The newest revision at which LEADER was seen deleted.
    [[nodiscard]] qint64 lastDelete() const { return m_lastDelete; }
    // Who holds LEADER, as a member's failed compare-and-set read it.
    void noteHolder(const QString &id);
    // LEADER is read again for every member (sawLeaderRead()), once for all who ask before the
    // read leaves: a client's keep-alives resume together after an outage.
    void requestReread();

private:
    struct Guard; // the leaders' term views, read by the engine thread

    void arm(const std::shared_ptr<TermSync> &sync);
    void disarm(const TermSync *sync);
    void add(LeaderViewMember *member);
    void remove(LeaderViewMember *member);
    void passTurnOf(LeaderViewMember *member);
    void startWatch();
    void onEvents(const QList<EtcdWatchEvent> &events);
    void onActive();
    void onReconnected(qint64 compactedAt);
    void reread(bool resync);
    void onFailed(const EtcdStatus &why);
    void chooseTurn(const QString &lastLeader);
    void onTurn();
    template <class F>
    void forEachMember(F &&f);

    QPointer<EtcdClient> m_client;
    const EtcdClient *const m_key; // the client's address: its key among the shared views
    const QByteArray m_path;
    const QByteArray m_leaderKey;
    std::shared_ptr<ParticipantQueue> m_queue;
    std::shared_ptr<Guard> m_guard;
    std::unique_ptr<EtcdWatch> m_watch;
    std::vector<LeaderViewMember *> m_members; // null: left while being told something
    int m_telling = 0; // nested forEachMember() calls: holes are swept after the outermost
    bool m_live = false;
    bool m_failed = false;
    qint64 m_lastDelete = 0;
    QString m_holder; // who held LEADER when last seen (not a rival for the next turn)
    LeaderViewMember *m_turnOf = nullptr; // whose turn the timer is
    QTimer m_turnTimer;
    QTimer m_rereadTimer; // a failed re-read after compaction, tried again
    int m_rereadDelayMs = 0;
    bool m_rereadAsked = false; // a read for requestReread() is about to leave
};

} // namespace Etcd::Internal
