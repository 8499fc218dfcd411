// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// etcdqt observe <path>: who leads the election, {"leader":"ID"} or {"leader":null} once
// started, then one such line per change, until SIGINT/SIGTERM.
#include "cli.h"

#include <EtcdQt/etcdleaderobserver.h>

#include <QtCore/qcoreapplication.h>

namespace Cli {

namespace {

void emitLeader(const QString &leaderId)
{
    emitLine({{QStringLiteral("leader"),
        leaderId.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(leaderId)}});
}

} // namespace

int observeCommand(const Globals &globals, QStringList args)
{
    QString layoutError;
    if (takeEtcdLayout(args, layoutError))
        return observeEtcdCommand(globals, args);
    if (!layoutError.isEmpty())
        return fail(layoutError);
    if (!isOnePath(args))
        return fail(QStringLiteral("usage: observe <path>"));
    auto client = makeClient(globals);
    EtcdLeaderObserver observer(client.get(), args.first().toUtf8());
    QObject::connect(&observer, &EtcdLeaderObserver::started, &observer,
        [&observer] { emitLeader(observer.currentLeader()); });
    // A change before started() is part of what started() reports.
    QObject::connect(&observer, &EtcdLeaderObserver::leaderChanged, &observer,
        [&observer](const QString &leaderId) {
            if (observer.isStarted())
                emitLeader(leaderId);
        });
    QObject::connect(&observer, &EtcdLeaderObserver::failed, &observer,
        [](const EtcdStatus &why) { QCoreApplication::exit(fail(why.toString())); });
    QObject::connect(&observer, &EtcdRecipe::closed, &observer, [] { QCoreApplication::exit(0); });
    onTerminationSignal([&observer](int) { observer.close(); });
    observer.start();
    return QCoreApplication::exec();
}

} // namespace Cli
