// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
// A lease with a key bound to it, kept alive two ways: scoped (renews exactly while the
// handle lives) and unscoped (renews until you stop it). Then revoked: the key goes at once.
// Usage: etcdqt-example-keepalive [http://127.0.0.1:2379]
#include "exampleutil.h"

#include <EtcdQt/EtcdQt>

#include <QtCore/qcoreapplication.h>
#include <QtCore/qtimer.h>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    EtcdClient client({endpointArgument(argc, argv)});
    client.connectToEndpoints();
    auto *grant = client.grantLease(5s);
    QObject::connect(grant, &EtcdReply::finished, &app, [&](const EtcdStatus &s) {
        if (!s.isOk()) {
            out() << "grant failed: " << s.toString() << Qt::endl;
            return QCoreApplication::exit(1);
        }
        const qint64 lease = grant->leaseId();
        client.put("/example/services/worker-1"_ba, "10.0.0.1:8080"_ba, {.lease = lease});
        out() << "lease " << lease << " granted (TTL 5 s), key bound to it" << Qt::endl;

        // Scoped: renews while `scope` lives; the handler hears only of renewal that stopped
        // on its own, never of the scope ending.
        auto scope
            = std::make_shared<EtcdScopedKeepAlive>(&client, lease, 5s, [](const EtcdStatus &why) {
                  out() << "renewal stopped: " << why.toString() << Qt::endl;
              });
        QTimer::singleShot(6s, &app, [&, scope, lease]() mutable {
            out() << "after 6 s (past the TTL) the scoped handle still keeps it: "
                  << scope->keepAlive()->remainingValidity().count() << " ms left" << Qt::endl;
            scope.reset(); // end of scope: renewal stops

            // Unscoped: you own the lifetime, and stop it yourself.
            auto *renewal = new EtcdKeepAlive(&client, lease, 5s, &app);
            QObject::connect(
                renewal, &EtcdKeepAlive::keepAliveFailed, &app, [](const EtcdStatus &why) {
                    out() << "renewal stopped: " << why.toString() << Qt::endl;
                });
            renewal->start();
            QTimer::singleShot(3s, &app, [&, renewal, lease] {
                renewal->stop();
                // Revoke is best effort: the TTL bounds the lease whatever happens.
                QObject::connect(
                    client.revokeLease(lease), &EtcdReply::finished, &app, [](const EtcdStatus &s) {
                        out() << "revoked (" << s.toString() << "): the key is gone now"
                              << Qt::endl;
                        QCoreApplication::quit();
                    });
            });
        });
    });
    return QCoreApplication::exec();
}
