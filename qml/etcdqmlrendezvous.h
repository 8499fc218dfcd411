// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "etcdqmlpathrecipe.h"

struct EtcdCountedBarrierOptions;

// What the counted and the double barrier share: how many members meet.
class EtcdQmlRendezvous : public EtcdQmlPathRecipe
{
    Q_OBJECT
    QML_ANONYMOUS
    Q_PROPERTY(int memberCount READ memberCount WRITE setMemberCount NOTIFY memberCountChanged)
public:
    ~EtcdQmlRendezvous() override;

    [[nodiscard]] int memberCount() const { return m_memberCount; }
    void setMemberCount(int count);

Q_SIGNALS:
    void memberCountChanged();
    void arrivalFailed(int code, const QString &message);

protected:
    explicit EtcdQmlRendezvous(QObject *parent);

    [[nodiscard]] QString invalidSetting() const override;
    [[nodiscard]] EtcdCountedBarrierOptions options() const;

private:
    int m_memberCount = 0;
};

class EtcdQmlCountedBarrier : public EtcdQmlRendezvous
{
    Q_OBJECT
    QML_NAMED_ELEMENT(CountedBarrier)
    Q_PROPERTY(bool waiting READ isWaiting NOTIFY waitingChanged)
    Q_PROPERTY(int waiterCount READ waiterCount NOTIFY waiterCountChanged)
public:
    explicit EtcdQmlCountedBarrier(QObject *parent = nullptr);
    ~EtcdQmlCountedBarrier() override;

    [[nodiscard]] bool isWaiting() const { return m_arrivals > 0; }
    [[nodiscard]] int waiterCount() const { return m_waiterCount; }

    Q_INVOKABLE bool arrive();

Q_SIGNALS:
    void waitingChanged();
    void waiterCountChanged();
    void tripped();

protected:
    QObject *startRecipe(EtcdClient *client) override;
    void recipeStopped() override;

private:
    void arrivalEnded();
    void setWaiterCount(int count);

    int m_arrivals = 0; // arrive() calls not answered yet
    int m_waiterCount = 0;
};

class EtcdQmlDoubleBarrier : public EtcdQmlRendezvous
{
    Q_OBJECT
    QML_NAMED_ELEMENT(DoubleBarrier)
    Q_PROPERTY(Phase phase READ phase NOTIFY phaseChanged)
    Q_PROPERTY(int enterWaiterCount READ enterWaiterCount NOTIFY enterWaiterCountChanged)
    Q_PROPERTY(int leaveWaiterCount READ leaveWaiterCount NOTIFY leaveWaiterCountChanged)
public:
    // Where this member is: outside, waiting to enter, inside, waiting to leave.
    enum Phase { Outside, Entering, Inside, Leaving };
    Q_ENUM(Phase)

    explicit EtcdQmlDoubleBarrier(QObject *parent = nullptr);
    ~EtcdQmlDoubleBarrier() override;

    [[nodiscard]] Phase phase() const { return m_phase; }
    [[nodiscard]] int enterWaiterCount() const { return m_enterWaiterCount; }
    [[nodiscard]] int leaveWaiterCount() const { return m_leaveWaiterCount; }

    Q_INVOKABLE bool enter();
    Q_INVOKABLE bool leave();

Q_SIGNALS:
    void phaseChanged();
    void enterWaiterCountChanged();
    void leaveWaiterCountChanged();
    void entered();
    void left();

protected:
    QObject *startRecipe(EtcdClient *client) override;
    void recipeStopped() override;

private:
    void setPhase(Phase phase);
    void setEnterWaiterCount(int count);
    void setLeaveWaiterCount(int count);

    Phase m_phase = Outside;
    int m_enterWaiterCount = 0;
    int m_leaveWaiterCount = 0;
};
