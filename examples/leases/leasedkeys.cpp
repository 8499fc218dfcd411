// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
// Grant, put, renew and revoke in one object: two keys on one lease appear together and go
// together. Typed values are written as etcd-recipes writes them (here a 4-byte port).
// Usage: etcdqt-example-leasedkeys [http://127.0.0.1:2379]
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
    EtcdLeasedKeys *registration = Etcd::putValuesWithKeepAlive(&client,
        {{"/example/services/worker-1/host"_ba, "10.0.0.1"_ba},
            {"/example/services/worker-1/port"_ba, Etcd::encodeInt32(8080)}},
        5s, &app);
    QObject::connect(registration, &EtcdLeasedKeys::failed, &app, [](const EtcdStatus &why) {
        out() << "could not register (no lease left behind): " << why.toString() << Qt::endl;
        QCoreApplication::exit(1);
    });
    QObject::connect(registration, &EtcdLeasedKeys::keepAliveFailed, &app,
        [](const EtcdStatus &why) { out() << "renewal stopped: " << why.toString() << Qt::endl; });
    QObject::connect(registration, &EtcdLeasedKeys::established, &app, [&](qint64 lease) {
        out() << "both keys live on lease " << lease << "; serving for 6 s" << Qt::endl;
        QTimer::singleShot(6s, registration, &EtcdLeasedKeys::close); // revokes the lease
    });
    // Once etcd answered the revoke, both keys are gone together.
    QObject::connect(registration, &EtcdRecipe::closed, &app, [&] {
        auto *check = client.get("/example/services/worker-1/"_ba, {.prefix = true});
        QObject::connect(check, &EtcdReply::finished, &app, [check] {
            out() << "closed; keys left: " << check->keyValues().size() << Qt::endl;
            QCoreApplication::quit();
        });
    });
    return QCoreApplication::exec();
}
