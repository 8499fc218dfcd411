// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdboolreply.h>
#include <EtcdQt/etcdrecipe.h>
#include <EtcdQt/etcdretrypolicy.h>

#include <chrono>
#include <memory>

class EtcdTransientKeyValuePrivate;

class ETCDQT_EXPORT EtcdTransientKeyValue : public EtcdRecipe
{
    Q_OBJECT
    Q_PROPERTY(QByteArray key READ key CONSTANT)
    Q_PROPERTY(QByteArray value READ value NOTIFY valueChanged)
    Q_PROPERTY(qint64 leaseId READ leaseId NOTIFY leaseIdChanged)
public:
    EtcdTransientKeyValue(EtcdClient *client, const QByteArray &key, const QByteArray &value,
        std::chrono::seconds ttl = std::chrono::seconds(2),
        const EtcdLeaseResilience &resilience = {}, QObject *parent = nullptr);
    ~EtcdTransientKeyValue() override;

    [[nodiscard]] QByteArray key() const;
    [[nodiscard]] QByteArray value() const;
    [[nodiscard]] std::chrono::seconds ttl() const;
    [[nodiscard]] qint64 leaseId() const;
    [[nodiscard]] bool isHealthy() const override;
    [[nodiscard]] std::chrono::milliseconds remainingValidity() const;
    EtcdBoolReply *setValue(const QByteArray &value);

public Q_SLOTS:
    void start();
    void close();

Q_SIGNALS:
    void started();
    void leaseIdChanged(qint64 leaseId);
    void valueChanged();
    void leaseEvent(const EtcdLeaseEvent &event);
    void failed(const EtcdStatus &reason);

private:
    Q_DECLARE_PRIVATE(EtcdTransientKeyValue)
    std::unique_ptr<EtcdTransientKeyValuePrivate> const d_ptr;
};

// Kept for the includes written when the template shared this header. Last, after
// EtcdTransientKeyValue, because it includes this header back.
#include <EtcdQt/etcdtypedtransientkeyvalue.h>
