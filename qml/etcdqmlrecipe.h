// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "etcdqmlclient.h"

#include <QtCore/qlist.h>
#include <QtCore/qpointer.h>
#include <QtQml/qqml.h>
#include <QtQml/qqmlparserstatus.h>

class EtcdClient;
class EtcdRecipe;
class EtcdStatus;

// What every recipe type shares: a client, an `active` switch that acts only once the
// component is complete, the recipe's connection state and its last error.
class EtcdQmlRecipe : public QObject, public QQmlParserStatus
{
    Q_OBJECT
    Q_INTERFACES(QQmlParserStatus)
    QML_ANONYMOUS
    Q_PROPERTY(EtcdQmlClient *client READ client WRITE setClient NOTIFY clientChanged)
    Q_PROPERTY(bool active READ isActive WRITE setActive NOTIFY activeChanged)
    Q_PROPERTY(bool running READ isRunning NOTIFY runningChanged)
    Q_PROPERTY(ConnectionState connectionState READ connectionState NOTIFY connectionStateChanged)
    Q_PROPERTY(int errorCode READ errorCode NOTIFY errorChanged)
    Q_PROPERTY(QString errorString READ errorString NOTIFY errorChanged)
public:
    // Inactive, then the library's EtcdRecipe::ConnectionState.
    enum ConnectionState { Inactive, Connected, Suspended, Reconnected, Lost };
    Q_ENUM(ConnectionState)

    ~EtcdQmlRecipe() override;

    [[nodiscard]] EtcdQmlClient *client() const;
    void setClient(EtcdQmlClient *client);
    [[nodiscard]] bool isActive() const;
    void setActive(bool active);
    [[nodiscard]] bool isRunning() const;
    [[nodiscard]] ConnectionState connectionState() const;
    [[nodiscard]] int errorCode() const;
    [[nodiscard]] QString errorString() const;

    void classBegin() override;
    void componentComplete() override;

Q_SIGNALS:
    void clientChanged();
    void activeChanged();
    void runningChanged();
    void connectionStateChanged();
    void errorChanged();
    void errorOccurred(int code, const QString &message);

protected:
    explicit EtcdQmlRecipe(QObject *parent = nullptr);

    // Whether the type's own settings allow starting (a path is set, ...).
    [[nodiscard]] virtual bool isConfigured() const { return true; }
    // Why a setting is one the library refuses (a TTL of 0), or empty: the item then reports
    // InvalidArgument through errorOccurred() instead of starting.
    [[nodiscard]] virtual QString invalidSetting() const { return {}; }
    // Creates and starts the library object on `client`; returns it (owned by the caller).
    virtual QObject *startRecipe(EtcdClient *client) = 0;
    // Called after the library object was let go of: reset the observed state.
    virtual void recipeStopped() { }

    // A setting that the library object takes at construction changed: start over.
    void restart();
    // Stores `value` in `setting`; when it differs, emits `changed` and starts over.
    template <typename Owner, typename T>
    void changeSetting(T &setting, const T &value, void (Owner::*changed)())
    {
        if (setting == value)
            return;
        setting = value;
        Q_EMIT(static_cast<Owner *>(this)->*changed)();
        restart();
    }
    // Follows a library recipe's connection state and errors.
    void followRecipe(EtcdRecipe *recipe);
    void setError(const EtcdStatus &status);
    [[nodiscard]] QObject *current() const { return m_current; }

    template <typename T>
    [[nodiscard]] T *currentAs() const
    {
        return qobject_cast<T *>(m_current.data());
    }

private:
    void update();
    void stop();
    void detach(QObject *object);
    void setConnectionState(ConnectionState state);

    QPointer<EtcdQmlClient> m_client;
    QPointer<QObject> m_current;
    bool m_active = false;
    bool m_complete = false;
    ConnectionState m_connectionState = Inactive;
    int m_errorCode = 0;
    QString m_errorString;
};
