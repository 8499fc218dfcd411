// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "etcdqmlelection.h"
#include "etcdqmlconvert_p.h"

#include <EtcdQt/etcdelection.h>
#include <EtcdQt/etcdleaderlatch.h>
#include <EtcdQt/etcdleaderobserver.h>
#include <EtcdQt/etcdleaderselector.h>
#include <EtcdQt/etcdparticipants.h>

#include <QtCore/qrandom.h>

/*!
    \qmltype LeaderElection
    \inqmlmodule EtcdQt
    \brief Takes part in a leader election while \c active (EtcdLeaderLatch underneath).

    \c ttl is in milliseconds (rounded up to whole seconds for etcd; 0 or less is refused with
    errorOccurred(code, message), \c EtcdError.InvalidArgument, and nothing starts). \c participants
   is a model with the roles \c clientId and \c isLeader, and \c leader the id of whoever leads,
    both while active. Switching \c active off resigns; destroying the item does too,
    without waiting for etcd. \c fencingToken holds \c key, \c leaseId, \c revision and
    \c valid of the current term. elected() starts a term; leadershipLost(code, message) ends
    one that was lost, relinquished() one that was given up (also by switching \c active off).

    With \c{layout: LeaderElection.Etcd} it runs in etcd's own election layout instead (the
    one of Go's \c concurrency.Election and \c{etcdctl elect}; EtcdElection underneath):
    \c clientId is the value the candidate campaigns with, \c leader the value of whoever
    leads (a Go service's too), and \c participants stays null.
*/

EtcdQmlLeaderElection::EtcdQmlLeaderElection(QObject *parent) : EtcdQmlRecipe(parent) { }

EtcdQmlLeaderElection::~EtcdQmlLeaderElection() = default;

QString EtcdQmlLeaderElection::path() const
{
    return m_path;
}

void EtcdQmlLeaderElection::setPath(const QString &path)
{
    if (path == m_path)
        return;
    m_path = path;
    Q_EMIT pathChanged();
    restart();
}

/*! \qmlproperty enumeration LeaderElection::layout
    \c LeaderElection.Recipes (the default): etcd-recipes' layout, shared with Kotlin
    applications. \c LeaderElection.Etcd: etcd's own, shared with Go services and etcdctl. */
EtcdQmlLeaderElection::Layout EtcdQmlLeaderElection::layout() const
{
    return m_layout;
}

void EtcdQmlLeaderElection::setLayout(Layout layout)
{
    if (layout == m_layout)
        return;
    m_layout = layout;
    Q_EMIT layoutChanged();
    restart();
}

/*! \qmlproperty string LeaderElection::clientId
    This participant's id; empty picks "LeaderSelector:<random>", readable once active. */
QString EtcdQmlLeaderElection::clientId() const
{
    return m_clientId;
}

void EtcdQmlLeaderElection::setClientId(const QString &clientId)
{
    if (clientId == m_clientId)
        return;
    m_clientId = clientId;
    Q_EMIT clientIdChanged();
    restart();
}

int EtcdQmlLeaderElection::ttl() const
{
    return m_ttl;
}

void EtcdQmlLeaderElection::setTtl(int ms)
{
    if (ms == m_ttl)
        return;
    m_ttl = ms;
    Q_EMIT ttlChanged();
    restart();
}

bool EtcdQmlLeaderElection::isLeader() const
{
    return m_isLeader;
}

QString EtcdQmlLeaderElection::leader() const
{
    return m_leader;
}

QAbstractItemModel *EtcdQmlLeaderElection::participants() const
{
    return m_participants;
}

EtcdQmlFencingToken EtcdQmlLeaderElection::fencingToken() const
{
    return m_fencingToken;
}

bool EtcdQmlLeaderElection::isConfigured() const
{
    return !m_path.isEmpty();
}

QString EtcdQmlLeaderElection::invalidSetting() const
{
    return Etcd::Qml::ttlProblem(m_ttl);
}

QObject *EtcdQmlLeaderElection::startRecipe(EtcdClient *client)
{
    return m_layout == Layout::Etcd ? startEtcdElection(client) : startLatch(client);
}

// The candidate's value is its client id; without one, a random one as the latch picks.
QObject *EtcdQmlLeaderElection::startEtcdElection(EtcdClient *client)
{
    EtcdElectionOptions options;
    options.ttl = Etcd::Qml::ttlFromMilliseconds(m_ttl);
    auto *election = new EtcdElection(client, m_path.toUtf8(), options);
    followRecipe(election);
    connect(election, &EtcdElection::stateChanged, this, &EtcdQmlLeaderElection::syncLeadership);
    connect(election, &EtcdElection::elected, this, [this] {
        syncLeadership();
        Q_EMIT elected();
    });
    connect(election, &EtcdElection::leadershipLost, this, [this](const EtcdStatus &reason) {
        syncLeadership();
        Q_EMIT leadershipLost(int(reason.code()), reason.message());
    });
    connect(election, &EtcdElection::leaderChanged, this,
        [this](const QByteArray &value) { setLeader(QString::fromUtf8(value)); });
    connect(election, &EtcdElection::failed, this, &EtcdQmlLeaderElection::setError);
    if (m_clientId.isEmpty()) {
        m_clientId = QStringLiteral("LeaderElection:%1")
                         .arg(QRandomGenerator::system()->generate64(), 0, 36);
        Q_EMIT clientIdChanged();
    }
    if (!election->campaign(m_clientId.toUtf8())) {
        delete election;
        qCWarning(
            lcEtcdQml, "LeaderElection: the election on %s did not start", qUtf8Printable(m_path));
        return nullptr;
    }
    return election;
}

QObject *EtcdQmlLeaderElection::startLatch(EtcdClient *client)
{
    EtcdLeaderSelectorOptions options;
    options.ttl = Etcd::Qml::ttlFromMilliseconds(m_ttl);
    options.clientId = m_clientId;
    auto *latch = new EtcdLeaderLatch(client, m_path.toUtf8(), options);
    followRecipe(latch);
    connect(
        latch, &EtcdLeaderLatch::leadershipChanged, this, &EtcdQmlLeaderElection::syncLeadership);
    connect(latch, &EtcdLeaderLatch::elected, this, [this] {
        syncLeadership();
        Q_EMIT elected();
    });
    connect(latch, &EtcdLeaderLatch::leadershipLost, this, [this](const EtcdStatus &reason) {
        syncLeadership();
        Q_EMIT leadershipLost(int(reason.code()), reason.message());
    });
    connect(latch, &EtcdLeaderLatch::relinquished, this, &EtcdQmlLeaderElection::relinquished);

    // The participants live as long as the latch (they are its child).
    auto *model = new EtcdParticipantsModel(client, m_path.toUtf8(), latch);
    connect(model, &EtcdParticipantsModel::leaderChanged, this, &EtcdQmlLeaderElection::setLeader);
    connect(model, &EtcdParticipantsModel::failed, this, &EtcdQmlLeaderElection::setError);
    m_participants = model;
    Q_EMIT participantsChanged();
    model->start();

    if (!latch->start()) {
        delete latch;
        m_participants.clear();
        Q_EMIT participantsChanged();
        qCWarning(
            lcEtcdQml, "LeaderElection: the election on %s did not start", qUtf8Printable(m_path));
        return nullptr;
    }
    if (latch->clientId() != m_clientId) {
        m_clientId = latch->clientId();
        Q_EMIT clientIdChanged();
    }
    return latch;
}

void EtcdQmlLeaderElection::recipeStopped()
{
    // Switched off (or the client went): the latch was closed, which resigns a leadership.
    const bool wasLeader = m_isLeader;
    m_isLeader = false;
    if (wasLeader)
        Q_EMIT isLeaderChanged();
    if (m_fencingToken.isValid()) {
        m_fencingToken = {};
        Q_EMIT fencingTokenChanged();
    }
    m_participants.clear();
    Q_EMIT participantsChanged();
    setLeader(QString());
    if (wasLeader)
        Q_EMIT relinquished();
}

void EtcdQmlLeaderElection::syncLeadership()
{
    if (auto *latch = currentAs<EtcdLeaderLatch>())
        takeLeadership(latch->hasLeadership(), latch->fencingToken());
    else if (auto *election = currentAs<EtcdElection>())
        takeLeadership(election->isLeader(), election->fencingToken());
}

void EtcdQmlLeaderElection::takeLeadership(bool leading, const EtcdFencingToken &fencing)
{
    const EtcdQmlFencingToken token
        = leading ? EtcdQmlFencingToken(fencing) : EtcdQmlFencingToken();
    if (token != m_fencingToken) {
        m_fencingToken = token;
        Q_EMIT fencingTokenChanged();
    }
    if (leading != m_isLeader) {
        m_isLeader = leading;
        Q_EMIT isLeaderChanged();
    }
}

void EtcdQmlLeaderElection::setLeader(const QString &leader)
{
    if (leader == m_leader)
        return;
    m_leader = leader;
    Q_EMIT leaderChanged();
}

/*!
    \qmltype LeaderObserver
    \inqmlmodule EtcdQt
    \brief Follows who leads an election at \c path while \c active, without taking part.
*/

EtcdQmlLeaderObserver::EtcdQmlLeaderObserver(QObject *parent) : EtcdQmlRecipe(parent) { }

EtcdQmlLeaderObserver::~EtcdQmlLeaderObserver() = default;

QString EtcdQmlLeaderObserver::path() const
{
    return m_path;
}

void EtcdQmlLeaderObserver::setPath(const QString &path)
{
    if (path == m_path)
        return;
    m_path = path;
    Q_EMIT pathChanged();
    restart();
}

QString EtcdQmlLeaderObserver::leader() const
{
    return m_leader;
}

bool EtcdQmlLeaderObserver::isConfigured() const
{
    return !m_path.isEmpty();
}

QObject *EtcdQmlLeaderObserver::startRecipe(EtcdClient *client)
{
    auto *observer = new EtcdLeaderObserver(client, m_path.toUtf8());
    followRecipe(observer);
    connect(observer, &EtcdLeaderObserver::leaderChanged, this, &EtcdQmlLeaderObserver::setLeader);
    // The leader already in place when the observer starts is its seed, not a change.
    connect(observer, &EtcdLeaderObserver::started, this,
        [this, observer] { setLeader(observer->currentLeader()); });
    connect(observer, &EtcdLeaderObserver::failed, this, &EtcdQmlLeaderObserver::setError);
    observer->start();
    return observer;
}

void EtcdQmlLeaderObserver::recipeStopped()
{
    setLeader(QString());
}

void EtcdQmlLeaderObserver::setLeader(const QString &leader)
{
    if (leader == m_leader)
        return;
    m_leader = leader;
    Q_EMIT leaderChanged();
}
