// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "etcdqmlpathrecipe.h"

class EtcdQmlLeaderSelector : public EtcdQmlPathRecipe
{
    Q_OBJECT
    QML_NAMED_ELEMENT(LeaderSelector)
    Q_PROPERTY(bool autoRequeue READ autoRequeue WRITE setAutoRequeue NOTIFY autoRequeueChanged)
    Q_PROPERTY(State state READ state NOTIFY stateChanged)
    Q_PROPERTY(bool isLeader READ isLeader NOTIFY isLeaderChanged)
    Q_PROPERTY(QString leader READ leader NOTIFY leaderChanged)
    Q_PROPERTY(EtcdQmlFencingToken fencingToken READ fencingToken NOTIFY fencingTokenChanged)
public:
    // EtcdLeaderSelector::State; Idle also while inactive.
    enum State { Idle, Campaigning, Leading, Relinquishing, Closed };
    Q_ENUM(State)

    explicit EtcdQmlLeaderSelector(QObject *parent = nullptr);
    ~EtcdQmlLeaderSelector() override;

    [[nodiscard]] bool autoRequeue() const { return m_autoRequeue; }
    void setAutoRequeue(bool requeue);
    [[nodiscard]] State state() const { return m_state; }
    [[nodiscard]] bool isLeader() const { return m_state == Leading; }
    [[nodiscard]] QString leader() const { return m_leader; }
    [[nodiscard]] EtcdQmlFencingToken fencingToken() const { return m_fencingToken; }

    Q_INVOKABLE bool relinquish();
    Q_INVOKABLE bool requeue();

Q_SIGNALS:
    void autoRequeueChanged();
    void stateChanged();
    void isLeaderChanged();
    void leaderChanged();
    void fencingTokenChanged();
    void elected();
    void leadershipLost(int code, const QString &message);
    void relinquished();
    void termFinished();

protected:
    QObject *startRecipe(EtcdClient *client) override;
    void recipeStopped() override;

private:
    void onTermFinished();
    void setState(State state);
    void setLeader(const QString &leader);
    void setFencingToken(const EtcdQmlFencingToken &token);

    bool m_autoRequeue = false;
    State m_state = Idle;
    QString m_leader;
    EtcdQmlFencingToken m_fencingToken;
};
