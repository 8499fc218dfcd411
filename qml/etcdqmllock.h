// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "etcdqmlrecipe.h"
#include "etcdqmlvalues.h"

#include <QtCore/qvariant.h>

class EtcdQmlDistributedLock : public EtcdQmlRecipe
{
    Q_OBJECT
    QML_NAMED_ELEMENT(DistributedLock)
    Q_PROPERTY(QString path READ path WRITE setPath NOTIFY pathChanged)
    Q_PROPERTY(int ttl READ ttl WRITE setTtl NOTIFY ttlChanged)
    Q_PROPERTY(bool held READ isHeld NOTIFY heldChanged)
    Q_PROPERTY(EtcdQmlFencingToken fencingToken READ fencingToken NOTIFY heldChanged)
public:
    explicit EtcdQmlDistributedLock(QObject *parent = nullptr);
    ~EtcdQmlDistributedLock() override;

    [[nodiscard]] QString path() const;
    void setPath(const QString &path);
    [[nodiscard]] int ttl() const;
    void setTtl(int ms);
    [[nodiscard]] bool isHeld() const;
    [[nodiscard]] EtcdQmlFencingToken fencingToken() const;

Q_SIGNALS:
    void pathChanged();
    void ttlChanged();
    void heldChanged();
    void acquired();
    void released();
    void lockLost(int code, const QString &message);

protected:
    [[nodiscard]] bool isConfigured() const override;
    [[nodiscard]] QString invalidSetting() const override;
    QObject *startRecipe(EtcdClient *client) override;
    void recipeStopped() override;

private:
    void setHeld(bool held);

    QString m_path;
    int m_ttl = 10000;
    bool m_held = false;
    EtcdQmlFencingToken m_fencingToken;
};

class EtcdQmlBarrier : public EtcdQmlRecipe
{
    Q_OBJECT
    QML_NAMED_ELEMENT(Barrier)
    Q_PROPERTY(QString path READ path WRITE setPath NOTIFY pathChanged)
    Q_PROPERTY(QString clientId READ clientId WRITE setClientId NOTIFY clientIdChanged)
    Q_PROPERTY(int ttl READ ttl WRITE setTtl NOTIFY ttlChanged)
    Q_PROPERTY(bool waitOnMissingBarriers READ waitOnMissingBarriers WRITE setWaitOnMissingBarriers
            NOTIFY waitOnMissingBarriersChanged)
    Q_PROPERTY(State state READ state NOTIFY stateChanged)
    Q_PROPERTY(int waiterCount READ waiterCount NOTIFY waiterCountChanged)
    Q_PROPERTY(QString leaseId READ leaseId NOTIFY leaseIdChanged)
public:
    // EtcdBarrier::State
    enum State { Unset, Setting, Set, Lost, Failed, Removed };
    Q_ENUM(State)

    explicit EtcdQmlBarrier(QObject *parent = nullptr);
    ~EtcdQmlBarrier() override;

    [[nodiscard]] QString path() const;
    void setPath(const QString &path);
    [[nodiscard]] QString clientId() const;
    void setClientId(const QString &clientId);
    [[nodiscard]] int ttl() const;
    void setTtl(int ms);
    [[nodiscard]] bool waitOnMissingBarriers() const;
    void setWaitOnMissingBarriers(bool wait);
    [[nodiscard]] State state() const;
    [[nodiscard]] int waiterCount() const;
    [[nodiscard]] QString leaseId() const;

    Q_INVOKABLE bool setBarrier();
    Q_INVOKABLE bool removeBarrier();
    Q_INVOKABLE bool startWaiting();

Q_SIGNALS:
    void pathChanged();
    void ttlChanged();
    void clientIdChanged();
    void waitOnMissingBarriersChanged();
    void stateChanged();
    void waiterCountChanged();
    void leaseIdChanged();
    void setFinished(bool result);
    void removeFinished(bool result);
    void lifted();
    void waitFailed(int code, const QString &message);
    void leaseEvent(const EtcdQmlLeaseEvent &event);
    // Someone else removed or wrote over the barrier this object set: it no longer keeps it.
    void barrierLost(int code, const QString &message);

protected:
    [[nodiscard]] bool isConfigured() const override;
    [[nodiscard]] QString invalidSetting() const override;
    QObject *startRecipe(EtcdClient *client) override;
    void recipeStopped() override;

private:
    void setState(State state);
    void setWaiterCount(int count);
    void setLeaseId(qint64 leaseId);

    QString m_path;
    QString m_clientId;
    int m_ttl = 2000;
    bool m_waitOnMissingBarriers = true;
    State m_state = Unset;
    int m_waiterCount = 0;
    qint64 m_leaseId = -1;
};
