// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// etcdqt counter get <path>, etcdqt counter add <path> [N]: an EtcdAtomicCounter (etcd-recipes'
// DistributedAtomicLong layout, 8 bytes big-endian). get prints the value (an absent counter
// is created at 0); add adds N (default 1, may be negative) by compare-and-set and prints the
// value it committed: {"value":N}. Exit status: 0 on success, 1 on bad input or a failure
// (etcd unreachable, a key that holds no 8-byte number).
#include "cli.h"

#include <EtcdQt/etcdatomiccounter.h>

#include <QtCore/qcoreapplication.h>

namespace Cli {

namespace {
const QString kCounterUsage = QStringLiteral("usage: counter get <path> | counter add <path> [N]");
} // namespace

int counterCommand(const Globals &globals, QStringList args)
{
    if (args.size() < 2 || args.at(1).isEmpty() || args.at(1).startsWith(QLatin1String("--")))
        return fail(kCounterUsage);
    const QString action = args.takeFirst();
    const QString path = args.takeFirst();
    qint64 delta = 1;
    if (action == QLatin1String("get")) {
        if (!args.isEmpty())
            return fail(kCounterUsage);
    } else if (action == QLatin1String("add")) {
        if (args.size() > 1)
            return fail(kCounterUsage);
        bool ok = true;
        if (!args.isEmpty())
            delta = args.first().toLongLong(&ok);
        if (!ok)
            return fail(QStringLiteral("N must be a whole number, not %1").arg(args.first()));
    } else {
        return fail(kCounterUsage);
    }

    auto client = makeClient(globals);
    EtcdAtomicCounter counter(client.get(), path.toUtf8());
    EtcdValueReply *reply = action == QLatin1String("get") ? counter.get() : counter.add(delta);
    QObject::connect(reply, &EtcdReply::finished, &counter, [reply](const EtcdStatus &status) {
        if (!status.isOk())
            return QCoreApplication::exit(fail(status.toString()));
        emitLine({{QStringLiteral("value"), reply->value()}});
        QCoreApplication::exit(0);
    });
    return QCoreApplication::exec();
}

} // namespace Cli
