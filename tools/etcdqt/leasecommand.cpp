// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// etcdqt lease keep <key> <value> --ttl S [--no-heal]: a transient key, one JSON line per
// lease event, revoked on SIGINT/SIGTERM.
#include "cli.h"

#include <EtcdQt/etcdreplies.h>
#include <EtcdQt/etcdtransientkeyvalue.h>

#include <QtCore/qcoreapplication.h>

namespace Cli {

namespace {

int keep(const Globals &globals, QStringList args)
{
    const QString ttlText = takeOption(args, QStringLiteral("--ttl"), QStringLiteral("2"));
    const bool noHeal = takeFlag(args, QStringLiteral("--no-heal"));
    qint64 ttl = 0;
    if (QString error; !parseTtl(ttlText, ttl, error))
        return fail(error);
    if (args.size() != 2 || args.first().isEmpty())
        return fail(QStringLiteral("usage: lease keep <key> <value> --ttl S [--no-heal]"));
    auto client = makeClient(globals);
    EtcdTransientKeyValue kv(client.get(), args.at(0).toUtf8(), args.at(1).toUtf8(),
        std::chrono::seconds(ttl),
        noHeal ? EtcdLeaseResilience::disabled() : EtcdLeaseResilience {});
    int exitCode = 0;
    QObject::connect(&kv, &EtcdTransientKeyValue::started, &kv, [&kv] {
        emitLine({{QStringLiteral("event"), QStringLiteral("granted")},
            {QStringLiteral("lease"), kv.leaseId()},
            {QStringLiteral("key"), QString::fromUtf8(kv.key())}});
    });
    QObject::connect(&kv, &EtcdTransientKeyValue::leaseEvent, &kv,
        [](const EtcdLeaseEvent &e) { emitLine(leaseEventObject(e, QStringLiteral("event"))); });
    QObject::connect(&kv, &EtcdTransientKeyValue::failed, &kv, [&](const EtcdStatus &why) {
        exitCode = fail(why.toString());
        QCoreApplication::exit(exitCode);
    });
    // Revoke on the way out, and leave only once etcd has answered: the key is gone then.
    QObject::connect(
        &kv, &EtcdRecipe::closed, &kv, [&exitCode] { QCoreApplication::exit(exitCode); });
    onTerminationSignal([&kv](int) { kv.close(); });
    kv.start();
    return QCoreApplication::exec();
}

} // namespace

int leaseCommand(const Globals &globals, QStringList args)
{
    if (!args.isEmpty() && args.first() == QLatin1String("keep"))
        return keep(globals, args.mid(1));
    return fail(QStringLiteral("usage: lease keep <key> <value> --ttl S [--no-heal]"));
}

} // namespace Cli
