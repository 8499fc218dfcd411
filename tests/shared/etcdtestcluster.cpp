// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "etcdtestcluster.h"

#include "etcdserverpb/rpc.pb.h"
#include "etcdtestgrpc.h"
#include "etcdtestserver.h"

#include <QtCore/qdeadlinetimer.h>
#include <QtCore/qthread.h>
#include <QtCore/quuid.h>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using std::chrono::milliseconds;

namespace {
constexpr int LaunchAttempts = 4;
constexpr milliseconds StatusTimeout = 200ms;
// Between polling rounds; a round itself is a few loopback RPCs.
constexpr unsigned long PollPauseMs = 20;

milliseconds remaining(const QDeadlineTimer &deadline)
{
    return milliseconds(std::max<qint64>(0, deadline.remainingTime()));
}
} // namespace

EtcdTestCluster::EtcdTestCluster(int size, QObject *parent) : QObject(parent), m_size(size) { }

EtcdTestCluster::~EtcdTestCluster() = default;

void EtcdTestCluster::setHeartbeatInterval(milliseconds interval)
{
    m_heartbeat = interval;
}

void EtcdTestCluster::setElectionTimeout(milliseconds timeout)
{
    m_election = timeout;
}

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

bool EtcdTestCluster::start(milliseconds timeout)
{
    const QDeadlineTimer deadline(timeout);
    for (int attempt = 1;; ++attempt) {
        createMembers();
        if (launchAll(remaining(deadline)))
            return true;
        const bool retry = anyPortWasTaken() && attempt < LaunchAttempts && !deadline.hasExpired();
        // Killed but kept until the next attempt, so log() can still explain a failure.
        for (const auto &member : m_members)
            member->kill();
        if (!retry)
            return false;
    }
}

QList<QUrl> EtcdTestCluster::clientUrls() const
{
    QList<QUrl> urls;
    for (const auto &member : m_members)
        urls.append(member->clientUrl());
    return urls;
}

QUrl EtcdTestCluster::clientUrl(int i) const
{
    return member(i)->clientUrl();
}

QString EtcdTestCluster::endpoint(int i) const
{
    return member(i)->endpoint();
}

EtcdTestServer *EtcdTestCluster::member(int i) const
{
    return m_members.at(size_t(i)).get();
}

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

bool EtcdTestCluster::waitForLeader(milliseconds timeout) const
{
    return leaderIndex(timeout) >= 0;
}

int EtcdTestCluster::killLeader(milliseconds timeout)
{
    const int leader = leaderIndex(timeout);
    if (leader >= 0)
        kill(leader);
    return leader;
}

void EtcdTestCluster::kill(int i)
{
    member(i)->kill();
}

bool EtcdTestCluster::stop(int i)
{
    return member(i)->stop();
}

bool EtcdTestCluster::restart(int i, milliseconds timeout)
{
    // With its data dir in place etcd ignores this, but it documents that the member rejoins.
    member(i)->setInitialClusterState(u"existing"_s);
    return member(i)->restart(timeout);
}

bool EtcdTestCluster::pause(int i)
{
    return member(i)->pause();
}

bool EtcdTestCluster::resume(int i)
{
    return member(i)->resume();
}

bool EtcdTestCluster::isRunning(int i) const
{
    return member(i)->isRunning();
}

QString EtcdTestCluster::log() const
{
    QString all;
    for (int i = 0; i < int(m_members.size()); ++i)
        all += u"==== member m%1 ====\n"_s.arg(i) + member(i)->log();
    return all;
}
