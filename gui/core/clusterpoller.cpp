// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "clusterpoller.h"

#include <EtcdQt/etcdclient.h>
#include <EtcdQt/etcdreplies.h>

#include <QtCore/qcoreapplication.h>

namespace Inspector {

ClusterPoller::ClusterPoller(
    EtcdClient *session, const InspectorSession::Options &options, QObject *parent)
    : QObject(parent), m_session(session), m_options(options)
{
    m_timer.setInterval(kTickMs);
    connect(&m_timer, &QTimer::timeout, this, &ClusterPoller::tick);
}

ClusterPoller::~ClusterPoller() = default;

void ClusterPoller::setActive(bool active)
{
    if (active == m_timer.isActive())
        return;
    if (!active)
        return m_timer.stop();
    m_timer.start();
    tick();
}

void ClusterPoller::askOnce()
{
    tick();
}

QString ClusterPoller::stateText(MemberHealth::State state)
{
    switch (state) {
    case MemberHealth::State::Unknown:
        return QCoreApplication::translate("Inspector::ClusterPoller", "asking…");
    case MemberHealth::State::Healthy:
        return QCoreApplication::translate("Inspector::ClusterPoller", "healthy");
    case MemberHealth::State::NoLeader:
        return QCoreApplication::translate("Inspector::ClusterPoller", "no leader");
    case MemberHealth::State::Alarmed:
        return QCoreApplication::translate("Inspector::ClusterPoller", "alarm");
    case MemberHealth::State::Down:
        return QCoreApplication::translate("Inspector::ClusterPoller", "down");
    }
    return {};
}

// One round: the member list (membership changes rarely, but a member added or removed shows
// within a tick), who the session talks to, and every member's Status not still in flight.
void ClusterPoller::tick()
{
    listMembers();
    askConnected();
    for (qsizetype row = 0; row < m_members.size(); ++row)
        askStatus(row);
}

void ClusterPoller::listMembers()
{
    if (std::exchange(m_listing, true))
        return;
    EtcdMemberListReply *reply = m_session->memberList();
    connect(reply, &EtcdReply::finished, this, [this, reply](const EtcdStatus &status) {
        m_listing = false;
        if (status.isOk()) // else the last list stays: the session's endpoint may be the one down
            adoptMembers(reply->members());
    });
}

void ClusterPoller::adoptMembers(const QList<EtcdMember> &members)
{
    QList<MemberHealth> next;
    for (const EtcdMember &m : members) {
        const auto known = std::find_if(m_members.cbegin(), m_members.cend(),
            [&m](const MemberHealth &h) { return h.member.id == m.id; });
        MemberHealth h = known == m_members.cend() ? MemberHealth {} : *known;
        h.member = m;
        h.connected = m.id == m_connectedId; // its answer may have come before the list
        next.append(h);
    }
    for (auto it = m_clients.begin(); it != m_clients.end();) {
        const bool kept = std::any_of(next.cbegin(), next.cend(),
            [id = it.key()](const MemberHealth &h) { return h.member.id == id; });
        if (kept) {
            ++it;
        } else {
            it.value()->deleteLater();
            it = m_clients.erase(it);
        }
    }
    const bool added = next.size() > m_members.size();
    m_members = next;
    deriveLeader();
    Q_EMIT membersChanged();
    if (added) // a new member's Status is asked now, not a tick later
        tick();
}

void ClusterPoller::askConnected()
{
    if (std::exchange(m_askingConnected, true))
        return;
    EtcdServerStatusReply *reply = m_session->serverStatus();
    connect(reply, &EtcdReply::finished, this, [this, reply](const EtcdStatus &status) {
        m_askingConnected = false;
        const quint64 id = status.isOk() ? reply->serverStatus().memberId : 0;
        if (id == m_connectedId)
            return;
        m_connectedId = id;
        for (MemberHealth &h : m_members)
            h.connected = h.member.id == id;
        Q_EMIT membersChanged();
    });
}

void ClusterPoller::askStatus(qsizetype row)
{
    const EtcdMember &member = m_members.at(row).member;
    EtcdClient *client = clientFor(member);
    if (!client || m_asking.contains(member.id))
        return;
    m_asking.insert(member.id);
    EtcdServerStatusReply *reply = client->serverStatus();
    connect(reply, &EtcdReply::finished, this, [this, reply, id = member.id](const EtcdStatus &s) {
        m_asking.remove(id);
        noteStatus(id, s, reply->serverStatus());
    });
}

void ClusterPoller::noteStatus(quint64 id, const EtcdStatus &status, const EtcdServerStatus &answer)
{
    const auto it = std::find_if(m_members.begin(), m_members.end(),
        [id](const MemberHealth &h) { return h.member.id == id; });
    if (it == m_members.end())
        return; // removed from the cluster meanwhile
    if (status.isOk()) {
        it->status = answer;
        it->error.clear();
        it->state = !answer.errors.isEmpty() ? MemberHealth::State::Alarmed
            : answer.leaderId == 0           ? MemberHealth::State::NoLeader
                                             : MemberHealth::State::Healthy;
    } else {
        it->error = status.message();
        it->state = MemberHealth::State::Down;
    }
    deriveLeader();
    Q_EMIT membersChanged();
}

// The leader is whom the members that answered last name, at the highest raft term among
// them: a member cut off from the others still names the leader of an older term.
void ClusterPoller::deriveLeader()
{
    quint64 leader = 0;
    quint64 term = 0;
    for (const MemberHealth &h : std::as_const(m_members)) {
        if (h.state == MemberHealth::State::Down || h.state == MemberHealth::State::Unknown)
            continue;
        if (h.status.raftTerm >= term && h.status.leaderId != 0) {
            term = h.status.raftTerm;
            leader = h.status.leaderId;
        }
    }
    for (MemberHealth &h : m_members)
        h.leader = leader != 0 && h.member.id == leader;
}

// A member that has not started yet has no client URL (etcd lists it once added); a member
// that has gets a client of its own, which fails fast: one attempt, no retries.
EtcdClient *ClusterPoller::clientFor(const EtcdMember &member)
{
    if (EtcdClient *known = m_clients.value(member.id))
        return known;
    if (member.clientUrls.isEmpty())
        return nullptr;
    const QUrl url(member.clientUrls.first());
    if (!url.isValid())
        return nullptr;
    auto *client = new EtcdClient({url}, this);
    if (!m_options.user.isEmpty())
        client->setCredentials(m_options.user, m_options.password);
    if (!m_options.tls.caCertificate.isEmpty() || !m_options.tls.clientCertificate.isEmpty())
        client->setTlsFiles(m_options.tls);
    client->setCallDeadline(std::chrono::milliseconds(kDeadlineMs));
    client->setConnectTimeout(std::chrono::milliseconds(kDeadlineMs));
    client->setRpcResilience(EtcdRpcResilience::disabled());
    client->connectToEndpoints();
    m_clients.insert(member.id, client);
    return client;
}

} // namespace Inspector
