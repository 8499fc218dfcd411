// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QtCore/qobject.h>
#include <QtCore/qvariant.h>
#include <QtQml/qqml.h>
#include <QtQml/qqmlparserstatus.h>

#include <memory>

class EtcdClient;
class EtcdStatus;

class EtcdQmlClient : public QObject, public QQmlParserStatus
{
    Q_OBJECT
    Q_INTERFACES(QQmlParserStatus)
    QML_NAMED_ELEMENT(EtcdClient)
    Q_PROPERTY(QVariantList endpoints READ endpoints WRITE setEndpoints NOTIFY endpointsChanged)
    Q_PROPERTY(QString keyPrefix READ keyPrefix WRITE setKeyPrefix NOTIFY keyPrefixChanged)
    Q_PROPERTY(QString user READ user WRITE setUser NOTIFY userChanged)
    Q_PROPERTY(QString password READ password WRITE setPassword NOTIFY passwordChanged)
    Q_PROPERTY(QString caCertificate READ caCertificate WRITE setCaCertificate NOTIFY tlsChanged)
    Q_PROPERTY(QString clientCertificate READ clientCertificate WRITE setClientCertificate NOTIFY
            tlsChanged)
    Q_PROPERTY(QString clientKey READ clientKey WRITE setClientKey NOTIFY tlsChanged)
    Q_PROPERTY(int callDeadline READ callDeadline WRITE setCallDeadline NOTIFY callDeadlineChanged)
    Q_PROPERTY(bool active READ isActive WRITE setActive NOTIFY activeChanged)
    Q_PROPERTY(State state READ state NOTIFY stateChanged)
    Q_PROPERTY(int errorCode READ errorCode NOTIFY errorChanged)
    Q_PROPERTY(QString errorString READ errorString NOTIFY errorChanged)
public:
    enum State { Disconnected, Connecting, Connected, Reconnecting };
    Q_ENUM(State)

    explicit EtcdQmlClient(QObject *parent = nullptr);
    ~EtcdQmlClient() override;

    [[nodiscard]] QVariantList endpoints() const;
    void setEndpoints(const QVariantList &endpoints);
    [[nodiscard]] QString keyPrefix() const;
    void setKeyPrefix(const QString &prefix);
    [[nodiscard]] QString user() const;
    void setUser(const QString &user);
    [[nodiscard]] QString password() const;
    void setPassword(const QString &password);
    [[nodiscard]] QString caCertificate() const;
    void setCaCertificate(const QString &path);
    [[nodiscard]] QString clientCertificate() const;
    void setClientCertificate(const QString &path);
    [[nodiscard]] QString clientKey() const;
    void setClientKey(const QString &path);
    [[nodiscard]] int callDeadline() const;
    void setCallDeadline(int ms);
    [[nodiscard]] bool isActive() const;
    void setActive(bool active);
    [[nodiscard]] State state() const;
    [[nodiscard]] int errorCode() const;
    [[nodiscard]] QString errorString() const;

    // The library client, for the recipe wrappers; null while inactive.
    [[nodiscard]] EtcdClient *etcdClient() const;
    // For the recipe wrappers: takes `object`, made on etcdClient(); it is closed and deleted
    // with EtcdQmlConnection::closeAndLetGo(), or when this client lets go of its connection.
    void adopt(QObject *object);

    void classBegin() override;
    void componentComplete() override;

Q_SIGNALS:
    void endpointsChanged();
    void keyPrefixChanged();
    void userChanged();
    void passwordChanged();
    void tlsChanged();
    void callDeadlineChanged();
    void activeChanged();
    void stateChanged();
    void errorChanged();
    void errorOccurred(int code, const QString &message);
    // For the recipe wrappers: the library client is about to be destroyed (they let go of
    // it while it still exists), then a new one (or none) is in place.
    void etcdClientAboutToReset();
    void etcdClientChanged();

private:
    void rebuild();
    void retireClient();
    void setError(const EtcdStatus &status);

    struct Private;
    std::unique_ptr<Private> const d;
};
