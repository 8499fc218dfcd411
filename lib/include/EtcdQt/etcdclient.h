// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdreplies.h>
#include <EtcdQt/etcdretrypolicy.h>

#include <QtCore/qobject.h>
#include <QtCore/qurl.h>

#include <chrono>
#include <memory>

class EtcdClientPrivate;
class EtcdMetrics;

// PEM files for https:// endpoints. An empty CA means the system's trusted roots; a client
// certificate and its key go together (mutual TLS).
struct EtcdTlsFiles
{
    QString caCertificate {};
    QString clientCertificate {};
    QString clientKey {};
};

class ETCDQT_EXPORT EtcdClient : public QObject
{
    Q_OBJECT
    Q_PROPERTY(QList<QUrl> endpoints READ endpoints WRITE setEndpoints NOTIFY endpointsChanged)
    Q_PROPERTY(QByteArray keyPrefix READ keyPrefix WRITE setKeyPrefix NOTIFY keyPrefixChanged)
    Q_PROPERTY(State state READ state NOTIFY stateChanged)
public:
    enum class State { Disconnected, Connecting, Connected, Reconnecting };
    Q_ENUM(State)

    explicit EtcdClient(QObject *parent = nullptr);
    explicit EtcdClient(const QList<QUrl> &endpoints, QObject *parent = nullptr);
    ~EtcdClient() override;

    [[nodiscard]] QList<QUrl> endpoints() const;
    void setEndpoints(const QList<QUrl> &endpoints);
    [[nodiscard]] QByteArray keyPrefix() const;
    void setKeyPrefix(const QByteArray &prefix);
    [[nodiscard]] State state() const;
    [[nodiscard]] QString user() const;
    void setCredentials(const QString &user, const QString &password);
    [[nodiscard]] EtcdTlsFiles tlsFiles() const;
    void setTlsFiles(const EtcdTlsFiles &files);

    [[nodiscard]] std::chrono::milliseconds callDeadline() const;
    void setCallDeadline(std::chrono::milliseconds deadline);
    [[nodiscard]] std::chrono::milliseconds connectTimeout() const;
    void setConnectTimeout(std::chrono::milliseconds timeout);
    [[nodiscard]] std::chrono::milliseconds streamLivenessInterval() const;
    void setStreamLivenessInterval(std::chrono::milliseconds interval);
    [[nodiscard]] std::chrono::milliseconds leaseSafetyMargin() const;
    void setLeaseSafetyMargin(std::chrono::milliseconds margin);
    [[nodiscard]] EtcdRpcResilience rpcResilience() const;
    void setRpcResilience(const EtcdRpcResilience &resilience);
    [[nodiscard]] std::shared_ptr<EtcdMetrics> metrics() const;
    void setMetrics(std::shared_ptr<EtcdMetrics> sink);

    EtcdRangeReply *get(const QByteArray &key, const EtcdRangeOptions &options = {});
    EtcdPutReply *put(
        const QByteArray &key, const QByteArray &value, const EtcdPutOptions &options = {});
    EtcdDeleteReply *remove(const QByteArray &key, const EtcdDeleteOptions &options = {});
    EtcdTxnReply *txn(const EtcdTxn &txn);
    EtcdEmptyReply *compact(
        qint64 revision, Etcd::CompactionMode mode = Etcd::CompactionMode::Logical);

    EtcdLeaseGrantReply *grantLease(std::chrono::seconds ttl, qint64 leaseId = 0);
    EtcdEmptyReply *revokeLease(qint64 leaseId);
    EtcdLeaseTimeToLiveReply *leaseTimeToLive(
        qint64 leaseId, Etcd::LeaseKeys keys = Etcd::LeaseKeys::Omit);
    EtcdLeaseListReply *leases();

    EtcdMemberListReply *memberList();
    EtcdServerStatusReply *serverStatus();

    EtcdLockReply *lock(const QByteArray &name, qint64 leaseId);
    EtcdEmptyReply *unlock(const QByteArray &key);

public Q_SLOTS:
    void connectToEndpoints();
    void disconnectFromEndpoints();

Q_SIGNALS:
    void endpointsChanged();
    void keyPrefixChanged();
    void stateChanged(EtcdClient::State state);
    void errorOccurred(const EtcdStatus &status);

private:
    Q_DECLARE_PRIVATE(EtcdClient)
    std::unique_ptr<EtcdClientPrivate> const d_ptr;
};
