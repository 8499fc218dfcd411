// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
// A service announcing itself. It is a tiny TCP service (each connection gets one line,
// "hello from <id>") that registers as an instance of "greeter" with EtcdServiceRegistry:
// its JSON at /example/services/names/greeter/<id>, on a lease of its own (TTL 2 s) that is
// kept alive and healed. It registers disabled while it warms up and flips `enabled` once,
// half a second later: clients pick enabled instances only. Every lease event is printed;
// revoke the lease from elsewhere to watch the instance come back under a new one:
//   etcdctl lease revoke <lease printed below>
// Ctrl+C, SIGTERM or the end of the given seconds unregisters: the lease is revoked and the
// key goes at once, not a TTL later. Run etcdqt-example-choose beside it.
// Prints "registered <key> at 127.0.0.1:<port> on lease <hex> (TTL 2 s), disabled while it
// warms up", "ready: enabled", "lease expired|restored|...: <hex> ...", "unregistered <key>",
// "closed".
// Usage: etcdqt-example-announce [http://127.0.0.1:2379] [seconds, default: until Ctrl+C]
#include "exampleutil.h"
#include "stopsignals.h"

#include <EtcdQt/EtcdQt>

#include <QtCore/qcoreapplication.h>
#include <QtCore/qtimer.h>
#include <QtNetwork/qtcpserver.h>
#include <QtNetwork/qtcpsocket.h>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace {
QString hex(qint64 leaseId)
{
    return QString::number(leaseId, 16); // as etcdctl prints and takes lease ids
}

// The service itself: one line per connection, then it hangs up.
void serve(QTcpServer &server, const QString &id)
{
    QObject::connect(&server, &QTcpServer::newConnection, &server, [&server, id] {
        while (QTcpSocket *peer = server.nextPendingConnection()) {
            QObject::connect(peer, &QTcpSocket::disconnected, peer, &QObject::deleteLater);
            peer->write("hello from " + id.toUtf8() + '\n');
            peer->disconnectFromHost();
        }
    });
}

void printLeaseEvents(EtcdServiceRegistry &registry)
{
    QObject::connect(&registry, &EtcdServiceRegistry::leaseEvent, &registry,
        [](const EtcdServiceInstance &, const EtcdLeaseEvent &e) {
            QString line = u"lease %1: %2"_s.arg(e.typeName(), hex(e.leaseId));
            if (e.type == EtcdLeaseEvent::Type::Restored)
                line += u" -> %1, the instance written again"_s.arg(hex(e.newLeaseId));
            else if (!e.cause.isOk())
                line += u" ("_s + e.cause.toString() + u')';
            say(line);
        });
    QObject::connect(&registry, &EtcdServiceRegistry::instanceLost, &registry,
        [](const EtcdServiceInstance &, const EtcdStatus &why) {
            say(u"lost: "_s + why.toString() + u"; healing"_s);
        });
}
} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    EtcdClient client({endpointArgument(argc, argv)});
    const int seconds = secondsArgument(argc, argv);
    client.connectToEndpoints();
    QTcpServer server;
    if (!server.listen(QHostAddress::LocalHost)) {
        say(u"cannot listen: "_s + server.errorString());
        return 1;
    }
    //! [instance]
    EtcdServiceInstance self
        = EtcdServiceInstance::create(u"greeter"_s, uR"({"protocol":"line"})"_s);
    self.address = server.serverAddress().toString();
    self.port = server.serverPort();
    self.enabled = false; // not picked before it is ready
    //! [instance]
    serve(server, self.id);

    //! [registry]
    EtcdServiceRegistry registry(&client, "/example/services"_ba, 2s);
    //! [registry]
    const QString key = QString::fromUtf8(registry.keyOf(self));
    int exitCode = 0;
    printLeaseEvents(registry);
    //! [update]
    // The one update: enabled from now on, in etcd now and in every later heal.
    const auto ready = [&registry, &self] {
        if (!registry.isRegistered(self))
            return; // stopped while it warmed up
        self.enabled = true;
        EtcdBoolReply *reply = registry.updateService(self);
        QObject::connect(reply, &EtcdReply::finished, &registry, [reply](const EtcdStatus &s) {
            if (!s.isOk())
                return say(u"update failed: "_s + s.toString());
            // false: a heal is under way, and it writes the latest JSON.
            say(reply->result() ? u"ready: enabled"_s : u"ready: enabled once healed"_s);
        });
    };
    //! [update]
    QObject::connect(&registry, &EtcdServiceRegistry::registered, &app, [&, ready] {
        say(u"registered %1 at %2:%3 on lease %4 (TTL 2 s), disabled while it warms up"_s.arg(
            key, self.address, QString::number(self.port), hex(registry.leaseIdOf(self))));
        QTimer::singleShot(500ms, &registry, ready);
    });
    QObject::connect(&registry, &EtcdServiceRegistry::failed, &app,
        [&](const EtcdServiceInstance &, const EtcdStatus &why) {
            say(u"failed for good: "_s + why.toString());
            exitCode = 1;
            registry.close();
        });
    //! [unregister]
    // Unregistering revokes the lease: once etcd answered, no key and no lease are left.
    bool stopping = false;
    const auto stop = [&] {
        if (std::exchange(stopping, true))
            return;
        EtcdBoolReply *reply = registry.unregisterService(self);
        QObject::connect(reply, &EtcdReply::finished, &registry, [&](const EtcdStatus &s) {
            say(s.isOk() ? u"unregistered "_s + key : u"unregister: "_s + s.toString());
            registry.close();
        });
    };
    //! [unregister]
    QObject::connect(&registry, &EtcdRecipe::closed, &app, [&exitCode] {
        say(u"closed"_s);
        QCoreApplication::exit(exitCode);
    });
    ExampleUtil::stopOnSignalsOrAfter(&registry, seconds, stop);

    //! [register]
    EtcdBoolReply *reply = registry.registerService(self);
    QObject::connect(reply, &EtcdReply::finished, &app, [](const EtcdStatus &s) {
        if (!s.isOk()) { // the id was taken, or etcd refused: nothing to unregister
            say(u"registration failed: "_s + s.toString());
            QCoreApplication::exit(1);
        }
    });
    //! [register]
    return QCoreApplication::exec();
}
