// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "etcdqmlselector.h"
#include "etcdqmlconvert_p.h"

#include <EtcdQt/etcdleaderselector.h>

/*!
    \qmltype LeaderSelector
    \inqmlmodule EtcdQt
    \brief Runs for election at \c path while \c active, one term at a time
    (EtcdLeaderSelector without a body: leadership is signalled, not run).

    Becoming \c active starts a term: \c state goes from \c LeaderSelector.Idle to
    \c LeaderSelector.Campaigning, and to \c LeaderSelector.Leading when this item wins:
    elected() is emitted, \c isLeader turns true and \c fencingToken (\c key, \c leaseId,
    \c revision, \c valid) proves the term. The leadership lasts until QML gives it up with
    relinquish() (relinquished() follows; the lease is revoked, so a successor wins at
    once), until \c active turns false (the same), or until it is lost
    (leadershipLost(code, message), then relinquished()). Leadership is never healed.

    Every term ends with termFinished() and \c state back at \c LeaderSelector.Idle: the
    item then stays out of the election until requeue() starts the next term, or at once
    when \c autoRequeue is true. relinquish() during \c LeaderSelector.Campaigning withdraws
    the candidacy. \c leader is the election's leader as this item's watch saw it while a
    term ran (empty when nobody leads).

    \c ttl (default 2000) is that of the leadership and participation leases, in
    milliseconds rounded up to whole seconds; 0 or less is refused with
    \c EtcdError.InvalidArgument, and nothing starts. \c clientId is this candidate's id
    (empty: "LeaderSelector:<7 random>", readable once running). A term that could not run
    reports its reason through errorOccurred(code, message).
*/

EtcdQmlLeaderSelector::EtcdQmlLeaderSelector(QObject *parent) : EtcdQmlPathRecipe(2000, parent) { }

EtcdQmlLeaderSelector::~EtcdQmlLeaderSelector() = default;

/*! \qmlproperty bool LeaderSelector::autoRequeue
    Whether a new term starts by itself when one finished (also one ended by relinquish(),
    so the item runs again at once); default false. Turning it on while idle starts one. */
void EtcdQmlLeaderSelector::setAutoRequeue(bool requeue)
{
    if (requeue == m_autoRequeue)
        return;
    m_autoRequeue = requeue;
    Q_EMIT autoRequeueChanged();
    if (requeue && m_state == Idle)
        this->requeue();
}

/*! \qmlmethod bool LeaderSelector::relinquish()
    Gives up the leadership, or withdraws while campaigning. Returns \c false when there is
    neither. */
bool EtcdQmlLeaderSelector::relinquish()
{
    auto *selector = currentAs<EtcdLeaderSelector>();
    if (!selector || (m_state != Leading && m_state != Campaigning))
        return false;
    selector->resign();
    return true;
}

/*! \qmlmethod bool LeaderSelector::requeue()
    Starts the next term after termFinished(). Returns \c false when not running or not
    idle. */
bool EtcdQmlLeaderSelector::requeue()
{
    auto *selector = currentAs<EtcdLeaderSelector>();
    if (!selector || m_state != Idle)
        return false;
    return selector->start();
}

QObject *EtcdQmlLeaderSelector::startRecipe(EtcdClient *client)
{
    EtcdLeaderSelectorOptions options;
    options.ttl = Etcd::Qml::ttlFromMilliseconds(ttl());
    options.clientId = clientId();
    auto *selector = new EtcdLeaderSelector(client, path().toUtf8(), options);
    followRecipe(selector);
    // The term's token is in place (markLeader) before the state says Leading.
    connect(selector, &EtcdLeaderSelector::stateChanged, this,
        [this, selector](EtcdLeaderSelector::State state) {
            if (state == EtcdLeaderSelector::State::Leading)
                setFencingToken(EtcdQmlFencingToken(selector->fencingToken()));
            setState(State(int(state)));
        });
    connect(selector, &EtcdLeaderSelector::elected, this, &EtcdQmlLeaderSelector::elected);
    connect(selector, &EtcdLeaderSelector::leadershipLost, this,
        [this](const EtcdStatus &why) { Q_EMIT leadershipLost(int(why.code()), why.message()); });
    connect(
        selector, &EtcdLeaderSelector::relinquished, this, &EtcdQmlLeaderSelector::relinquished);
    connect(selector, &EtcdLeaderSelector::leaderChanged, this, &EtcdQmlLeaderSelector::setLeader);
    connect(
        selector, &EtcdLeaderSelector::termFinished, this, &EtcdQmlLeaderSelector::onTermFinished);
    if (!selector->start()) {
        delete selector;
        qCWarning(
            lcEtcdQml, "LeaderSelector: the election on %s did not start", qUtf8Printable(path()));
        return nullptr;
    }
    takeClientId(selector->clientId());
    setState(State(int(selector->state())));
    return selector;
}

void EtcdQmlLeaderSelector::onTermFinished()
{
    setLeader(QString());
    Q_EMIT termFinished();
    if (m_autoRequeue)
        requeue();
}

void EtcdQmlLeaderSelector::recipeStopped()
{
    // Switched off (or the client went): close() resigned a leadership.
    const bool wasLeader = m_state == Leading;
    setState(Idle);
    setLeader(QString());
    if (wasLeader)
        Q_EMIT relinquished();
}

void EtcdQmlLeaderSelector::setState(State state)
{
    if (state == m_state)
        return;
    const bool wasLeader = isLeader();
    m_state = state;
    if (!isLeader())
        setFencingToken({});
    Q_EMIT stateChanged();
    if (wasLeader != isLeader())
        Q_EMIT isLeaderChanged();
}

void EtcdQmlLeaderSelector::setLeader(const QString &leader)
{
    if (leader == m_leader)
        return;
    m_leader = leader;
    Q_EMIT leaderChanged();
}

void EtcdQmlLeaderSelector::setFencingToken(const EtcdQmlFencingToken &token)
{
    if (token == m_fencingToken)
        return;
    m_fencingToken = token;
    Q_EMIT fencingTokenChanged();
}
