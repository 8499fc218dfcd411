// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdrecipe.h>

#include <QtCore/qbytearray.h>
#include <QtCore/qstring.h>

#include <chrono>
#include <memory>
#include <utility>

class EtcdLeasedKeysPrivate;

using EtcdKeyValueList = QList<std::pair<QByteArray, QByteArray>>;

class ETCDQT_EXPORT EtcdLeasedKeys : public EtcdRecipe
{
    Q_OBJECT
    Q_PROPERTY(qint64 leaseId READ leaseId NOTIFY leaseIdChanged)
    Q_PROPERTY(State state READ state NOTIFY stateChanged)
public:
    enum class State { Inactive, Establishing, Alive, Failed, Closed };
    Q_ENUM(State)

    EtcdLeasedKeys(EtcdClient *client, const EtcdKeyValueList &keyValues, std::chrono::seconds ttl,
        QObject *parent = nullptr);
    ~EtcdLeasedKeys() override;

    [[nodiscard]] EtcdKeyValueList keyValues() const;
    [[nodiscard]] std::chrono::seconds ttl() const;
    [[nodiscard]] qint64 leaseId() const;
    [[nodiscard]] State state() const;
    [[nodiscard]] std::chrono::milliseconds remainingValidity() const;

public Q_SLOTS:
    void start();
    void close();

Q_SIGNALS:
    void stateChanged(EtcdLeasedKeys::State state);
    void leaseIdChanged(qint64 leaseId);
    void established(qint64 leaseId);
    void failed(const EtcdStatus &reason);
    void keepAliveFailed(const EtcdStatus &reason);

private:
    Q_DECLARE_PRIVATE(EtcdLeasedKeys)
    std::unique_ptr<EtcdLeasedKeysPrivate> const d_ptr;
};

namespace Etcd {

ETCDQT_EXPORT EtcdLeasedKeys *putValuesWithKeepAlive(EtcdClient *client,
    const EtcdKeyValueList &keyValues, std::chrono::seconds ttl, QObject *parent = nullptr);
ETCDQT_EXPORT EtcdLeasedKeys *putWithKeepAlive(EtcdClient *client, const QByteArray &key,
    const QByteArray &value, std::chrono::seconds ttl, QObject *parent = nullptr);
ETCDQT_EXPORT EtcdLeasedKeys *putWithKeepAlive(EtcdClient *client, const QByteArray &key,
    const QString &text, std::chrono::seconds ttl, QObject *parent = nullptr);
ETCDQT_EXPORT EtcdLeasedKeys *putWithKeepAlive(EtcdClient *client, const QByteArray &key,
    const char *text, std::chrono::seconds ttl, QObject *parent = nullptr);
ETCDQT_EXPORT EtcdLeasedKeys *putWithKeepAlive(EtcdClient *client, const QByteArray &key,
    qint32 value, std::chrono::seconds ttl, QObject *parent = nullptr);
ETCDQT_EXPORT EtcdLeasedKeys *putWithKeepAlive(EtcdClient *client, const QByteArray &key,
    qint64 value, std::chrono::seconds ttl, QObject *parent = nullptr);

} // namespace Etcd
