// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "etcdqmlrecipe.h"
#include "etcdqmlvalues.h"

#include <QtCore/qvariant.h>

// The lease events QML sees: EtcdLeaseEvent::Type.
class EtcdQmlLeaseEventType : public QObject
{
    Q_OBJECT
    QML_NAMED_ELEMENT(LeaseEvent)
    QML_UNCREATABLE("LeaseEvent only holds the lease event types")
public:
    enum Type { Suspended, Expired, Restored, Failed };
    Q_ENUM(Type)
};

class EtcdQmlTransientKeyValue : public EtcdQmlRecipe
{
    Q_OBJECT
    QML_NAMED_ELEMENT(TransientKeyValue)
    Q_PROPERTY(QString key READ key WRITE setKey NOTIFY keyChanged)
    Q_PROPERTY(QString value READ value WRITE setValue NOTIFY valueChanged)
    Q_PROPERTY(int ttl READ ttl WRITE setTtl NOTIFY ttlChanged)
    Q_PROPERTY(QString leaseId READ leaseIdString NOTIFY leaseIdChanged)
public:
    explicit EtcdQmlTransientKeyValue(QObject *parent = nullptr);
    ~EtcdQmlTransientKeyValue() override;

    [[nodiscard]] QString key() const;
    void setKey(const QString &key);
    [[nodiscard]] QString value() const;
    void setValue(const QString &value);
    [[nodiscard]] int ttl() const;
    void setTtl(int ms);
    [[nodiscard]] qint64 leaseId() const;
    [[nodiscard]] QString leaseIdString() const;

    Q_INVOKABLE int remainingValidity() const;

Q_SIGNALS:
    void keyChanged();
    void valueChanged();
    void ttlChanged();
    void leaseIdChanged();
    void leaseEvent(const EtcdQmlLeaseEvent &event);
    void leaseLost(int code, const QString &message);

protected:
    [[nodiscard]] bool isConfigured() const override;
    [[nodiscard]] QString invalidSetting() const override;
    QObject *startRecipe(EtcdClient *client) override;
    void recipeStopped() override;

private:
    void setLeaseId(qint64 leaseId);

    QString m_key;
    QString m_value;
    int m_ttl = 2000;
    qint64 m_leaseId = 0;
};

class EtcdQmlLease : public EtcdQmlRecipe
{
    Q_OBJECT
    QML_NAMED_ELEMENT(Lease)
    Q_PROPERTY(int ttl READ ttl WRITE setTtl NOTIFY ttlChanged)
    Q_PROPERTY(QString leaseId READ leaseIdString NOTIFY leaseIdChanged)
    Q_PROPERTY(State state READ state NOTIFY stateChanged)
public:
    // EtcdSelfHealingKeepAlive::State
    enum State { Inactive, Establishing, Alive, Suspended, Healing, Expired, Failed, Closed };
    Q_ENUM(State)

    explicit EtcdQmlLease(QObject *parent = nullptr);
    ~EtcdQmlLease() override;

    [[nodiscard]] int ttl() const;
    void setTtl(int ms);
    [[nodiscard]] qint64 leaseId() const;
    [[nodiscard]] QString leaseIdString() const;
    [[nodiscard]] State state() const;

    Q_INVOKABLE int remainingValidity() const;

Q_SIGNALS:
    void ttlChanged();
    void leaseIdChanged();
    void stateChanged();
    void leaseEvent(const EtcdQmlLeaseEvent &event);
    void leaseLost(int code, const QString &message);

protected:
    [[nodiscard]] QString invalidSetting() const override;
    QObject *startRecipe(EtcdClient *client) override;
    void recipeStopped() override;

private:
    void setLeaseId(qint64 leaseId);
    void setState(State state);

    int m_ttl = 2000;
    qint64 m_leaseId = 0;
    State m_state = Inactive;
};
