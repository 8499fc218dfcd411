// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "etcdtestcluster.h"

#include "deadline_p.h"
#include "etcdserverpb/rpc.pb.h"
#include "etcdtestgrpc.h"
#include "etcdtestserver.h"

#include <QtCore/qdeadlinetimer.h>
#include <QtCore/qthread.h>
#include <QtCore/quuid.h>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using EtcdTestKitInternal::remaining;
using std::chrono::milliseconds;

namespace {
constexpr int ClusterLaunchAttempts = 4;
constexpr milliseconds StatusTimeout = 200ms;
// Between polling rounds; a round itself is a few loopback RPCs.
constexpr unsigned long PollPauseMs = 20;
} // namespace

/*!
    \class EtcdTestCluster
    \inmodule EtcdQtTestKit
    \brief A new etcd cluster on loopback, for failover tests.

    Each member is an EtcdTestServer with its own data directory and ports. Members default
    to a 50 ms heartbeat and a 500 ms election timeout, so a new raft leader is elected well
    within a second after killLeader(). ETCDQT_START_OR_SKIP() works with a cluster too.

    Members are addressed by index, 0 to size() - 1.
*/

/*!
    \fn int EtcdTestCluster::size() const
    Returns the number of members.
*/

/*!
    \fn std::chrono::milliseconds EtcdTestCluster::heartbeatInterval() const
    Returns raft's heartbeat interval for the members (50 ms unless set).
*/

/*!
    \fn std::chrono::milliseconds EtcdTestCluster::electionTimeout() const
    Returns raft's election timeout for the members (500 ms unless set).
*/

/*!
    Creates a cluster of \a size members; nothing runs before start(). \a parent is the
    QObject parent.
*/
EtcdTestCluster::EtcdTestCluster(int size, QObject *parent) : QObject(parent), m_size(size) { }

/*!
    Kills every member and removes their data.
*/
EtcdTestCluster::~EtcdTestCluster() = default;

/*!
    Sets raft's heartbeat \a interval for every member, from the next start().
*/
void EtcdTestCluster::setHeartbeatInterval(milliseconds interval)
{
    m_heartbeat = interval;
}

/*!
    Sets raft's election \a timeout for every member, from the next start().
*/
void EtcdTestCluster::setElectionTimeout(milliseconds timeout)
{
    m_election = timeout;
}

/*!
    Extra etcd flags for every member: \a arguments apply from the next start().
*/
void EtcdTestCluster::setExtraArguments(const QStringList &arguments)
{
    m_extraArguments = arguments;
}

// Fresh members on fresh ports with a fresh token: a failed attempt leaves nothing behind
// that a new cluster could mistake for its own.
void EtcdTestCluster::createMembers()
{
    const QList<quint16> ports = EtcdTestServer::freePorts(2 * m_size);
    const QString token = u"etcdqt-cluster-"_s + QUuid::createUuid().toString(QUuid::WithoutBraces);
    QStringList peers;
    for (int i = 0; i < m_size; ++i)
        peers.append(u"m%1=http://127.0.0.1:%2"_s.arg(i).arg(ports.value(m_size + i)));
    const QStringList timing {u"--heartbeat-interval=%1"_s.arg(m_heartbeat.count()),
        u"--election-timeout=%1"_s.arg(m_election.count())};
    m_members.clear();
    for (int i = 0; i < m_size; ++i) {
        auto member = std::make_unique<EtcdTestServer>();
        member->setName(u"m%1"_s.arg(i));
        member->setPorts(ports.value(i), ports.value(m_size + i));
        member->setInitialCluster(peers.join(u','), token);
        member->setExtraArguments(timing + m_extraArguments);
        m_members.push_back(std::move(member));
    }
}

// All members first: none can become ready before a quorum of them runs.
bool EtcdTestCluster::launchAll(milliseconds timeout)
{
    const QDeadlineTimer deadline(timeout);
    for (const auto &member : m_members) {
        if (!member->launch())
            return false;
    }
    for (const auto &member : m_members) {
        if (!member->waitForReady(remaining(deadline)))
            return false;
    }
    return true;
}

bool EtcdTestCluster::anyPortWasTaken() const
{
    return std::any_of(m_members.cbegin(), m_members.cend(),
        [](const auto &member) { return member->portWasTaken(); });
}

/*!
    Starts every member and returns \c true once each answers a real RPC (which etcd does
    only once the cluster has a quorum), \c false if they did not within \a timeout.
*/
bool EtcdTestCluster::start(milliseconds timeout)
{
    const QDeadlineTimer deadline(timeout);
    for (int attempt = 1;; ++attempt) {
        createMembers();
        if (launchAll(remaining(deadline)))
            return true;
        const bool retry
            = anyPortWasTaken() && attempt < ClusterLaunchAttempts && !deadline.hasExpired();
        // Killed but kept until the next attempt, so log() can still explain a failure.
        for (const auto &member : m_members)
            member->kill();
        if (!retry)
            return false;
    }
}

/*!
    Returns the client URLs of all members, for EtcdClient's endpoints.
*/
QList<QUrl> EtcdTestCluster::clientUrls() const
{
    QList<QUrl> urls;
    for (const auto &member : m_members)
        urls.append(member->clientUrl());
    return urls;
}

/*!
    Returns the client URL of member \a i.
*/
QUrl EtcdTestCluster::clientUrl(int i) const
{
    return member(i)->clientUrl();
}

/*!
    Returns \c{127.0.0.1:<client port>} of member \a i.
*/
QString EtcdTestCluster::endpoint(int i) const
{
    return member(i)->endpoint();
}

/*!
    Returns member \a i, owned by the cluster, or \c nullptr before start().
*/
EtcdTestServer *EtcdTestCluster::member(int i) const
{
    return m_members.at(size_t(i)).get();
}

/*!
    Returns the index of the running member that reports itself raft leader (of the highest
    term, should two do), or -1 if none does within \a timeout.
*/
int EtcdTestCluster::leaderIndex(milliseconds timeout) const
{
    const QDeadlineTimer deadline(timeout);
    while (true) {
        // Asking each member whether it leads (rather than whom it follows) ignores the stale
        // answers followers give about a leader that has just died.
        int leader = -1;
        quint64 leaderTerm = 0;
        for (int i = 0; i < int(m_members.size()); ++i) {
            if (!isRunning(i) || member(i)->isPaused())
                continue;
            const auto status = etcdTestStatus(endpoint(i), StatusTimeout);
            if (status && status->leader() != 0 && status->leader() == status->header().member_id()
                && status->raftterm() >= leaderTerm) {
                leader = i;
                leaderTerm = status->raftterm();
            }
        }
        if (leader >= 0 || deadline.hasExpired())
            return leader;
        QThread::msleep(PollPauseMs);
    }
}

/*!
    Returns whether some member became raft leader within \a timeout.
*/
bool EtcdTestCluster::waitForLeader(milliseconds timeout) const
{
    return leaderIndex(timeout) >= 0;
}

/*!
    Kills the raft leader found within \a timeout and returns its index, or -1 if there was
    none.
*/
int EtcdTestCluster::killLeader(milliseconds timeout)
{
    const int leader = leaderIndex(timeout);
    if (leader >= 0)
        kill(leader);
    return leader;
}

/*!
    Kills member \a i with SIGKILL.
*/
void EtcdTestCluster::kill(int i)
{
    member(i)->kill();
}

/*!
    Stops member \a i with SIGTERM; returns whether it exited in time.
*/
bool EtcdTestCluster::stop(int i)
{
    return member(i)->stop();
}

/*!
    Restarts member \a i with its old data and ports, rejoining the cluster; returns whether
    it answered within \a timeout.
*/
bool EtcdTestCluster::restart(int i, milliseconds timeout)
{
    // With its data dir in place etcd ignores this, but it documents that the member rejoins.
    member(i)->setInitialClusterState(u"existing"_s);
    return member(i)->restart(timeout);
}

/*!
    Pauses member \a i (SIGSTOP); returns whether it was running and is stopped now.

    \sa EtcdTestServer::pause()
*/
bool EtcdTestCluster::pause(int i)
{
    return member(i)->pause();
}

/*!
    Continues member \a i (SIGCONT); returns whether it was paused.
*/
bool EtcdTestCluster::resume(int i)
{
    return member(i)->resume();
}

/*!
    Returns whether member \a i runs.
*/
bool EtcdTestCluster::isRunning(int i) const
{
    return member(i)->isRunning();
}

/*!
    Returns every member's log, one after the other, for failure messages.
*/
QString EtcdTestCluster::log() const
{
    QString all;
    for (int i = 0; i < int(m_members.size()); ++i)
        all += u"==== member m%1 ====\n"_s.arg(i) + member(i)->log();
    return all;
}
