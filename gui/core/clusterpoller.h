// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// The cluster's members and how each is doing, for the cluster view. etcd has no events for
// membership or member health, so this polls: the member list through the session's client,
// and each member's Status through a small client of its own (the session's client balances
// over its endpoints and cannot ask one member in particular). A member whose Status does not
// answer within kDeadlineMs is shown down; with a tick of kTickMs that is within 2 s of a kill.
#pragma once

#include "inspectorsession.h"

#include <EtcdQt/etcdmember.h>
#include <EtcdQt/etcdserverstatus.h>

#include <QtCore/qhash.h>
#include <QtCore/qobject.h>
#include <QtCore/qtimer.h>

namespace Inspector {

struct MemberHealth
{
    enum class State { Unknown, Healthy, NoLeader, Alarmed, Down };

    EtcdMember member;
    State state = State::Unknown;
    EtcdServerStatus status; // its last answer (kept while it is down: the figures last seen)
    QString error; // why its last Status call failed
    bool connected = false; // the member the session's client is talking to
    bool leader = false; // the raft leader, as the members that answered know it
};

class ClusterPoller : public QObject
{
    Q_OBJECT
public:
    static constexpr int kTickMs = 500;
    static constexpr int kDeadlineMs = 1000;

    // session: the session's client (member list, connected member); options: its endpoints'
    // credentials and TLS files, which the per-member clients use too.
    ClusterPoller(
        EtcdClient *session, const InspectorSession::Options &options, QObject *parent = nullptr);
    ~ClusterPoller() override;

    void setActive(bool active);
    void askOnce(); // one round now (what the view shows before anyone opens it)
    [[nodiscard]] const QList<MemberHealth> &members() const { return m_members; }

    static QString stateText(MemberHealth::State state);

Q_SIGNALS:
    void membersChanged();

private:
    void tick();
    void listMembers();
    void adoptMembers(const QList<EtcdMember> &members);
    void askConnected();
    void askStatus(qsizetype row);
    void noteStatus(quint64 id, const EtcdStatus &status, const EtcdServerStatus &answer);
    void deriveLeader();
    EtcdClient *clientFor(const EtcdMember &member);

    EtcdClient *m_session;
    InspectorSession::Options m_options;
    QTimer m_timer;
    QList<MemberHealth> m_members; // in the member list's order
    QHash<quint64, EtcdClient *> m_clients; // by member id
    QSet<quint64> m_asking; // members with a Status call in flight
    bool m_listing = false;
    bool m_askingConnected = false;
    quint64 m_connectedId = 0;
};

} // namespace Inspector
