// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdstatus.h>

#include <QtCore/qobject.h>

#include <chrono>
#include <functional>
#include <memory>

class EtcdClient;
class EtcdKeepAlive;
class EtcdKeepAlivePrivate;
namespace Etcd::Internal { // the library's own access to a lease's deadline and loss hooks
struct LeaseShared;
std::shared_ptr<LeaseShared> leaseStateOf(const EtcdKeepAlive &keepAlive);
} // namespace Etcd::Internal

class ETCDQT_EXPORT EtcdKeepAlive : public QObject
{
    Q_OBJECT
    Q_PROPERTY(qint64 leaseId READ leaseId CONSTANT)
    Q_PROPERTY(State state READ state NOTIFY stateChanged)
public:
    enum class State { Inactive, Alive, Suspended, Expired, Failed, Stopped };
    Q_ENUM(State)

    EtcdKeepAlive(
        EtcdClient *client, qint64 leaseId, std::chrono::seconds ttl, QObject *parent = nullptr);
    ~EtcdKeepAlive() override;

    [[nodiscard]] qint64 leaseId() const;
    [[nodiscard]] State state() const;
    [[nodiscard]] std::chrono::milliseconds remainingValidity() const;

public Q_SLOTS:
    void start();
    void stop();

Q_SIGNALS:
    void stateChanged(EtcdKeepAlive::State state);
    void renewed(qint64 ttlSeconds);
    void suspended(const EtcdStatus &reason);
    void resumed();
    void expired(const EtcdStatus &reason);
    void keepAliveFailed(const EtcdStatus &reason);

protected:
    void connectNotify(const QMetaMethod &signal) override;
    void disconnectNotify(const QMetaMethod &signal) override;

private:
    friend std::shared_ptr<Etcd::Internal::LeaseShared> Etcd::Internal::leaseStateOf(
        const EtcdKeepAlive &);
    Q_DECLARE_PRIVATE(EtcdKeepAlive)
    std::unique_ptr<EtcdKeepAlivePrivate> const d_ptr;
};

// Kept for the includes written before EtcdScopedKeepAlive had its own header.
#include <EtcdQt/etcdscopedkeepalive.h>
