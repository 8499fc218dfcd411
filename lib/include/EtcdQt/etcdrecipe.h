// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdleaseevent.h>
#include <EtcdQt/etcdstatus.h>

#include <QtCore/qlist.h>
#include <QtCore/qobject.h>

#include <memory>

class EtcdClient;
class EtcdReply;
class EtcdRecipePrivate;
namespace Etcd::Internal {
class LockQueue;
class RecipeLayer;
} // namespace Etcd::Internal

class ETCDQT_EXPORT EtcdRecipe : public QObject
{
    Q_OBJECT
    Q_PROPERTY(ConnectionState connectionState READ connectionState NOTIFY connectionStateChanged)
    Q_PROPERTY(bool active READ isActive NOTIFY activeChanged)
public:
    enum class ConnectionState { Connected, Suspended, Reconnected, Lost };
    Q_ENUM(ConnectionState)

    ~EtcdRecipe() override;

    [[nodiscard]] EtcdClient *client() const;
    [[nodiscard]] ConnectionState connectionState() const;
    [[nodiscard]] bool isActive() const;
    [[nodiscard]] virtual bool isHealthy() const;
    [[nodiscard]] QList<EtcdStatus> errors() const;
    void clearErrors();
    EtcdReply *ping();

Q_SIGNALS:
    void connectionStateChanged(
        EtcdRecipe::ConnectionState state, EtcdRecipe::ConnectionState previous);
    void activeChanged();
    void errorOccurred(const QString &context, const EtcdStatus &status);
    void leaseLost(const EtcdStatus &reason);
    void closed();

protected:
    EtcdRecipe(EtcdClient *client, const QString &errorContext, QObject *parent);

    void setActive(bool active);
    void markClosed();
    void emitClosedAfter(EtcdReply *revoke);
    [[nodiscard]] bool isClosed() const;
    void recordError(const EtcdStatus &status);
    void keepError(const EtcdStatus &status); // recordError() without logging it again
    void reportLeaseEvent(const EtcdLeaseEvent &event);
    void reportConnectionState(ConnectionState state);

private:
    friend class Etcd::Internal::LockQueue; // the shared machinery of the locks
    friend class Etcd::Internal::RecipeLayer; // what every recipe shares (lib/src/recipe)
    Q_DECLARE_PRIVATE(EtcdRecipe)
    std::unique_ptr<EtcdRecipePrivate> const d_ptr;
};
