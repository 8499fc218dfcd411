// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "etcdqmlcache.h"
#include "etcdqmlrecipe.h"
#include "etcdqmlvalues.h"

#include <EtcdQt/etcdserviceinstance.h>
#include <EtcdQt/etcdservicemodel.h>

#include <QtCore/qvariant.h>

class EtcdServiceRegistry;

class EtcdQmlServiceRegistration : public EtcdQmlRecipe
{
    Q_OBJECT
    QML_NAMED_ELEMENT(ServiceRegistration)
    Q_PROPERTY(QString servicePath READ servicePath WRITE setServicePath NOTIFY servicePathChanged)
    Q_PROPERTY(QString name READ name WRITE setName NOTIFY nameChanged)
    Q_PROPERTY(QString instanceId READ instanceId WRITE setInstanceId NOTIFY instanceIdChanged)
    Q_PROPERTY(QString address READ address WRITE setAddress NOTIFY addressChanged)
    Q_PROPERTY(int port READ port WRITE setPort NOTIFY portChanged)
    Q_PROPERTY(int sslPort READ sslPort WRITE setSslPort NOTIFY sslPortChanged)
    Q_PROPERTY(QString payload READ payload WRITE setPayload NOTIFY payloadChanged)
    Q_PROPERTY(QString uri READ uri WRITE setUri NOTIFY uriChanged)
    Q_PROPERTY(bool enabled READ isEnabled WRITE setEnabled NOTIFY enabledChanged)
    Q_PROPERTY(int ttl READ ttl WRITE setTtl NOTIFY ttlChanged)
    Q_PROPERTY(bool registered READ isRegistered NOTIFY registeredChanged)
    Q_PROPERTY(QString leaseId READ leaseIdString NOTIFY leaseIdChanged)
public:
    explicit EtcdQmlServiceRegistration(QObject *parent = nullptr);
    ~EtcdQmlServiceRegistration() override;

    [[nodiscard]] QString servicePath() const { return m_servicePath; }
    void setServicePath(const QString &path);
    [[nodiscard]] QString name() const { return m_name; }
    void setName(const QString &name);
    [[nodiscard]] QString instanceId() const { return m_instanceId; }
    void setInstanceId(const QString &id);
    [[nodiscard]] QString address() const { return m_address; }
    void setAddress(const QString &address);
    [[nodiscard]] int port() const { return m_port; }
    void setPort(int port);
    [[nodiscard]] int sslPort() const { return m_sslPort; }
    void setSslPort(int port);
    [[nodiscard]] QString payload() const { return m_payload; }
    void setPayload(const QString &payload);
    [[nodiscard]] QString uri() const { return m_uri; }
    void setUri(const QString &uri);
    [[nodiscard]] bool isEnabled() const { return m_enabled; }
    void setEnabled(bool enabled);
    [[nodiscard]] int ttl() const { return m_ttl; }
    void setTtl(int ms);
    [[nodiscard]] bool isRegistered() const { return m_registered; }
    [[nodiscard]] QString leaseIdString() const;

Q_SIGNALS:
    void servicePathChanged();
    void nameChanged();
    void instanceIdChanged();
    void addressChanged();
    void portChanged();
    void sslPortChanged();
    void payloadChanged();
    void uriChanged();
    void enabledChanged();
    void ttlChanged();
    void registeredChanged();
    void leaseIdChanged();
    void leaseEvent(const EtcdQmlLeaseEvent &event);
    void leaseLost(int code, const QString &message);
    void registrationFailed(int code, const QString &message);

protected:
    [[nodiscard]] QString invalidSetting() const override;
    QObject *startRecipe(EtcdClient *client) override;
    void recipeStopped() override;

private:
    // A field the instance carries: changed once the instance was written, it is updated in
    // place (updateService()); otherwise the item starts over.
    template <typename T>
    void changeField(T &field, const T &value, void (EtcdQmlServiceRegistration::*changed)())
    {
        if (field == value)
            return;
        field = value;
        Q_EMIT(this->*changed)();
        updateInstance();
    }
    [[nodiscard]] EtcdServiceInstance fromSettings(EtcdServiceInstance instance) const;
    void updateInstance();
    void follow(EtcdServiceRegistry *registry);
    void ended(const EtcdStatus &reason);
    void showLease(qint64 leaseId);
    void setRegistered(bool registered);

    QString m_servicePath;
    QString m_name;
    QString m_instanceId;
    QString m_address;
    int m_port = -1;
    int m_sslPort = -1;
    QString m_payload;
    QString m_uri;
    bool m_enabled = true;
    int m_ttl = 2000;
    bool m_registered = false;
    bool m_written = false; // registered() came, and the registry still holds the instance
    qint64 m_leaseId = 0;
    EtcdServiceInstance m_instance; // as registered or last updated, while running
};

// The library's model of the instances, with lease ids as decimal strings, empty for none, as
// everywhere in the module.
class EtcdQmlServiceModel : public EtcdServiceModel
{
    Q_OBJECT
public:
    using EtcdServiceModel::EtcdServiceModel;

    [[nodiscard]] QVariant data(const QModelIndex &index, int role) const override;
    // The row of `id` as a JS object: one field per role (but display and instance).
    [[nodiscard]] QVariant rowObject(const QString &id) const;
};

class EtcdQmlServiceList : public EtcdQmlCache
{
    Q_OBJECT
    QML_NAMED_ELEMENT(ServiceList)
    Q_PROPERTY(QString servicePath READ servicePath WRITE setServicePath NOTIFY servicePathChanged)
    Q_PROPERTY(QString name READ name WRITE setName NOTIFY nameChanged)
    Q_PROPERTY(int count READ count NOTIFY countChanged)
    Q_PROPERTY(QAbstractItemModel *model READ model CONSTANT)
public:
    explicit EtcdQmlServiceList(QObject *parent = nullptr);
    ~EtcdQmlServiceList() override;

    [[nodiscard]] QString servicePath() const { return m_servicePath; }
    void setServicePath(const QString &path);
    [[nodiscard]] QString name() const { return m_name; }
    void setName(const QString &name);
    [[nodiscard]] int count() const;
    [[nodiscard]] QAbstractItemModel *model() const;

    Q_INVOKABLE QVariant instance(const QString &instanceId) const;

Q_SIGNALS:
    void servicePathChanged();
    void nameChanged();
    void countChanged();
    void instanceAdded(const QVariant &instance);
    void instanceUpdated(const QVariant &instance);
    void instanceRemoved(const QString &instanceId);

protected:
    [[nodiscard]] QString invalidSetting() const override;
    QObject *startRecipe(EtcdClient *client) override;
    void recipeStopped() override;

private:
    QString m_servicePath;
    QString m_name;
    EtcdQmlServiceModel *m_model;
};
