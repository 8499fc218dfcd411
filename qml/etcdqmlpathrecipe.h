// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "etcdqmlrecipe.h"
#include "etcdqmlvalues.h"

struct EtcdFencingToken;

// What the recipes that live under one etcd path on leases share: the path, the id written
// into their keys, and the TTL of their leases (milliseconds; 0 or less is refused).
class EtcdQmlPathRecipe : public EtcdQmlRecipe
{
    Q_OBJECT
    QML_ANONYMOUS
    Q_PROPERTY(QString path READ path WRITE setPath NOTIFY pathChanged)
    Q_PROPERTY(QString clientId READ clientId WRITE setClientId NOTIFY clientIdChanged)
    Q_PROPERTY(int ttl READ ttl WRITE setTtl NOTIFY ttlChanged)
public:
    ~EtcdQmlPathRecipe() override;

    [[nodiscard]] QString path() const { return m_path; }
    void setPath(const QString &path);
    [[nodiscard]] QString clientId() const { return m_clientId; }
    void setClientId(const QString &clientId);
    [[nodiscard]] int ttl() const { return m_ttl; }
    void setTtl(int ms);

Q_SIGNALS:
    void pathChanged();
    void clientIdChanged();
    void ttlChanged();

protected:
    EtcdQmlPathRecipe(int defaultTtl, QObject *parent);

    [[nodiscard]] bool isConfigured() const override;
    [[nodiscard]] QString invalidSetting() const override;
    // The library's id when ours was empty (it picked one): readable from QML once running.
    void takeClientId(const QString &chosen);

private:
    QString m_path;
    QString m_clientId;
    int m_ttl;
};

// A recipe held while active (a permit, a read or write hold): `held` and the hold's fencing
// token, with acquired() and released(); the type says how a hold is lost.
class EtcdQmlHold : public EtcdQmlPathRecipe
{
    Q_OBJECT
    QML_ANONYMOUS
    Q_PROPERTY(bool held READ isHeld NOTIFY heldChanged)
    Q_PROPERTY(EtcdQmlFencingToken fencingToken READ fencingToken NOTIFY heldChanged)
public:
    ~EtcdQmlHold() override;

    [[nodiscard]] bool isHeld() const { return m_held; }
    [[nodiscard]] EtcdQmlFencingToken fencingToken() const { return m_fencingToken; }

Q_SIGNALS:
    void heldChanged();
    void acquired();
    void released();

protected:
    explicit EtcdQmlHold(QObject *parent);

    void recipeStopped() override;
    void takeHold(const EtcdFencingToken &token);
    void dropLostHold();

private:
    bool m_held = false;
    EtcdQmlFencingToken m_fencingToken;
};
