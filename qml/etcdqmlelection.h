// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "etcdqmlrecipe.h"
#include "etcdqmlvalues.h"

#include <QtCore/qabstractitemmodel.h>
#include <QtCore/qvariant.h>

class EtcdQmlLeaderElection : public EtcdQmlRecipe
{
    Q_OBJECT
    QML_NAMED_ELEMENT(LeaderElection)
    Q_PROPERTY(QString path READ path WRITE setPath NOTIFY pathChanged)
    Q_PROPERTY(Layout layout READ layout WRITE setLayout NOTIFY layoutChanged)
    Q_PROPERTY(QString clientId READ clientId WRITE setClientId NOTIFY clientIdChanged)
    Q_PROPERTY(int ttl READ ttl WRITE setTtl NOTIFY ttlChanged)
    Q_PROPERTY(bool isLeader READ isLeader NOTIFY isLeaderChanged)
    Q_PROPERTY(QString leader READ leader NOTIFY leaderChanged)
    Q_PROPERTY(QAbstractItemModel *participants READ participants NOTIFY participantsChanged)
    Q_PROPERTY(EtcdQmlFencingToken fencingToken READ fencingToken NOTIFY fencingTokenChanged)
public:
    enum class Layout { Recipes, Etcd };
    Q_ENUM(Layout)

    explicit EtcdQmlLeaderElection(QObject *parent = nullptr);
    ~EtcdQmlLeaderElection() override;

    [[nodiscard]] QString path() const;
    void setPath(const QString &path);
    [[nodiscard]] Layout layout() const;
    void setLayout(Layout layout);
    [[nodiscard]] QString clientId() const;
    void setClientId(const QString &clientId);
    [[nodiscard]] int ttl() const;
    void setTtl(int ms);
    [[nodiscard]] bool isLeader() const;
    [[nodiscard]] QString leader() const;
    [[nodiscard]] QAbstractItemModel *participants() const;
    [[nodiscard]] EtcdQmlFencingToken fencingToken() const;

Q_SIGNALS:
    void pathChanged();
    void layoutChanged();
    void clientIdChanged();
    void ttlChanged();
    void isLeaderChanged();
    void leaderChanged();
    void participantsChanged();
    void fencingTokenChanged();
    void elected();
    void leadershipLost(int code, const QString &message);
    void relinquished();

protected:
    [[nodiscard]] bool isConfigured() const override;
    [[nodiscard]] QString invalidSetting() const override;
    QObject *startRecipe(EtcdClient *client) override;
    void recipeStopped() override;

private:
    QObject *startLatch(EtcdClient *client);
    QObject *startEtcdElection(EtcdClient *client);
    void syncLeadership();
    void takeLeadership(bool leading, const EtcdFencingToken &token);
    void setLeader(const QString &leader);

    QString m_path;
    Layout m_layout = Layout::Recipes;
    QString m_clientId;
    int m_ttl = 2000;
    bool m_isLeader = false;
    QString m_leader;
    QPointer<QAbstractItemModel> m_participants;
    EtcdQmlFencingToken m_fencingToken;
};

class EtcdQmlLeaderObserver : public EtcdQmlRecipe
{
    Q_OBJECT
    QML_NAMED_ELEMENT(LeaderObserver)
    Q_PROPERTY(QString path READ path WRITE setPath NOTIFY pathChanged)
    Q_PROPERTY(QString leader READ leader NOTIFY leaderChanged)
public:
    explicit EtcdQmlLeaderObserver(QObject *parent = nullptr);
    ~EtcdQmlLeaderObserver() override;

    [[nodiscard]] QString path() const;
    void setPath(const QString &path);
    [[nodiscard]] QString leader() const;

Q_SIGNALS:
    void pathChanged();
    void leaderChanged();

protected:
    [[nodiscard]] bool isConfigured() const override;
    QObject *startRecipe(EtcdClient *client) override;
    void recipeStopped() override;

private:
    void setLeader(const QString &leader);

    QString m_path;
    QString m_leader;
};
