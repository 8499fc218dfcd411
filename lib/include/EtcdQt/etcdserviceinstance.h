// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdstatus.h>

#include <QtCore/qbytearray.h>
#include <QtCore/qmetatype.h>
#include <QtCore/qobjectdefs.h>
#include <QtCore/qstring.h>

#include <optional>

// One registered instance of a service: etcd-recipes' ServiceInstance, field for field, and
// its JSON byte for byte (the ten fields in their order, every one always written).
struct ETCDQT_EXPORT EtcdServiceInstance
{
    Q_GADGET
    Q_PROPERTY(QString name MEMBER name)
    Q_PROPERTY(QString jsonPayload MEMBER jsonPayload)
    Q_PROPERTY(QString address MEMBER address)
    Q_PROPERTY(int port MEMBER port)
    Q_PROPERTY(int sslPort MEMBER sslPort)
    Q_PROPERTY(qint64 registrationTimeUtc MEMBER registrationTimeUtc)
    Q_PROPERTY(ServiceType serviceType MEMBER serviceType)
    Q_PROPERTY(QString uri MEMBER uri)
    Q_PROPERTY(bool enabled MEMBER enabled)
    Q_PROPERTY(QString id MEMBER id)
    Q_PROPERTY(bool dynamic READ isDynamic)

public:
    enum class ServiceType { Dynamic, Static, Permanent, DynamicSequential };
    Q_ENUM(ServiceType)

    QString name {};
    QString jsonPayload {}; // opaque text, often JSON itself (escaped inside the document)
    QString address {};
    int port = -1;
    int sslPort = -1;
    qint64 registrationTimeUtc = 0; // ms since the epoch
    ServiceType serviceType = ServiceType::Dynamic;
    QString uri {};
    bool enabled = true;
    QString id {};

    [[nodiscard]] static EtcdServiceInstance create(
        const QString &name, const QString &jsonPayload = {});
    [[nodiscard]] bool isDynamic() const noexcept;
    [[nodiscard]] static QString typeName(ServiceType type);
    [[nodiscard]] EtcdStatus validate() const;
    [[nodiscard]] QByteArray toJson() const;
    [[nodiscard]] static std::optional<EtcdServiceInstance> fromJson(
        const QByteArray &json, EtcdStatus *status = nullptr);

    friend bool operator==(const EtcdServiceInstance &a, const EtcdServiceInstance &b) = default;
};

// A codec for typed recipes (see etcdcodec.h): an instance as etcd-recipes' JSON.
struct ETCDQT_EXPORT EtcdServiceInstanceCodec
{
    using Value = EtcdServiceInstance;
    static QByteArray encode(const EtcdServiceInstance &value);
    static std::optional<EtcdServiceInstance> decode(const QByteArray &bytes);
};

Q_DECLARE_METATYPE(EtcdServiceInstance)
