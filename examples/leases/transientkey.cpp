// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
// A transient key: it exists while the object is active, and is put back under a new lease
// if its lease is lost. The typed form writes a JSON document with a codec.
// Usage: etcdqt-example-transientkey [http://127.0.0.1:2379] [seconds, default 10]
#include "exampleutil.h"

#include <EtcdQt/EtcdQt>

#include <QtCore/qcoreapplication.h>
#include <QtCore/qjsonobject.h>
#include <QtCore/qtimer.h>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    EtcdClient client({endpointArgument(argc, argv)});
    const int seconds = secondsArgument(argc, argv, 10);
    client.connectToEndpoints();
    const QJsonDocument status(
        QJsonObject {{u"state"_s, u"ready"_s}, {u"pid"_s, qint64(app.applicationPid())}});
    EtcdTypedTransientKeyValue<EtcdJsonCodec> presence(&client, "/example/nodes/this"_ba, status);
    EtcdTransientKeyValue *kv = presence.untyped();
    QObject::connect(kv, &EtcdTransientKeyValue::started, &app, [kv, seconds] {
        out() << kv->key() << " = " << kv->value() << " on lease " << kv->leaseId() << " for "
              << seconds << " s" << Qt::endl;
    });
    QObject::connect(kv, &EtcdTransientKeyValue::leaseEvent, &app,
        [](const EtcdLeaseEvent &e) { out() << "lease " << e.typeName() << Qt::endl; });
    QObject::connect(
        kv, &EtcdRecipe::connectionStateChanged, &app, [](EtcdRecipe::ConnectionState s) {
            out() << "connection: " << QVariant::fromValue(s).toString() << Qt::endl;
        });
    QObject::connect(kv, &EtcdTransientKeyValue::failed, &app, [](const EtcdStatus &why) {
        out() << "failed: " << why.toString() << Qt::endl;
        QCoreApplication::exit(1);
    });
    presence.start();
    QTimer::singleShot(std::chrono::seconds(seconds), kv, &EtcdTransientKeyValue::close);
    // Quit once the revoke was answered: the key is gone now, not after the TTL.
    QObject::connect(kv, &EtcdRecipe::closed, &app, [] {
        out() << "closed: key and lease revoked" << Qt::endl;
        QCoreApplication::quit();
    });
    return QCoreApplication::exec();
}
