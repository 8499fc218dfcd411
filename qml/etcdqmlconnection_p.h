// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QtCore/qobject.h>
#include <QtCore/qset.h>

#include <chrono>
#include <memory>

class EtcdClient;

// One library client of a QML EtcdClient and the library objects (recipes, watch sessions)
// started on it, which it owns. A closed object is deleted once it said closed() (its
// leases' revokes were answered); a retired connection deletes its client once none of its
// objects is left. The grace period (see bound()) is only an upper bound for both.
class EtcdQmlConnection : public QObject
{
    Q_OBJECT
public:
    explicit EtcdQmlConnection(std::unique_ptr<EtcdClient> client);
    ~EtcdQmlConnection() override;

    [[nodiscard]] EtcdClient *client() const { return m_client.get(); }

    // Takes `object`, made on client(), until closeAndLetGo() or the connection's end.
    void adopt(QObject *object);
    // No longer in use: closes the objects still open and deletes itself (client included)
    // once they are gone. Parented to the application meanwhile; at once without an
    // application in this thread. Nothing waits, except the application's destructor: it
    // lets retired connections finish first (bounded), so the revokes of items destroyed
    // after its event loop ended still reach etcd.
    void retire();

    // Closes `object` (close(), or a watch session's cancel) without blocking and lets it
    // go: deleted once closed() came (EtcdRecipe), on the next loop turn otherwise, after
    // bound() at the latest; at once when no application runs in this thread.
    static void closeAndLetGo(QObject *object);
    // How long a revoke may take on `client`: its call deadline plus 1 s (at most 10 s), or
    // 5 s when its calls have no deadline.
    [[nodiscard]] static std::chrono::milliseconds bound(const EtcdClient *client);

private:
    void letGo(QObject *object);
    void forget(QObject *object);
    void finishIfDone();

    std::unique_ptr<EtcdClient> m_client;
    QSet<QObject *> m_open; // adopted, not let go yet
    QSet<QObject *> m_letGo; // let go, waiting for closed()
    QSet<QObject *> m_closed; // said closed() before being let go
    bool m_retired = false;
};
