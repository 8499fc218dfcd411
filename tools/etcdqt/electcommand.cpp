// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// etcdqt elect <path> [--id ID] [--ttl S] [--hold-ms N]: runs for election, one JSON line per
// step, leads for N ms (or until SIGINT/SIGTERM) and hands off. Exit status: 0 after a hand-off
// or a signal, 3 after stepping down (the lease was lost), 1 on bad input or a failure.
#include "cli.h"

#include <EtcdQt/etcdleaderselector.h>

#include <QtCore/qcoreapplication.h>
#include <QtCore/qtimer.h>

namespace Cli {

namespace {

const QString kElectUsage = QStringLiteral("usage: elect <path> [--id ID] [--ttl S] [--hold-ms N]");

QJsonObject event(const QString &name, const EtcdLeaderSelector &selector)
{
    return {{QStringLiteral("event"), name}, {QStringLiteral("id"), selector.clientId()}};
}

} // namespace

int electCommand(const Globals &globals, QStringList args)
{
    QString layoutError;
    if (takeEtcdLayout(args, layoutError))
        return electEtcdCommand(globals, args);
    if (!layoutError.isEmpty())
        return fail(layoutError);
    const QString id = takeOption(args, QStringLiteral("--id"));
    qint64 ttl = 0;
    int holdMs = -1; // without --hold-ms: until SIGINT/SIGTERM
    if (QString error; !takeTtlAndHold(args, ttl, holdMs, error))
        return fail(error);
    if (!isOnePath(args))
        return fail(kElectUsage);

    auto client = makeClient(globals);
    EtcdLeaderSelectorOptions options;
    options.ttl = std::chrono::seconds(ttl);
    options.clientId = id;
    EtcdLeaderSelector selector(client.get(), args.first().toUtf8(), options);
    int exitCode = 0;
    // Every way out goes through close(): closed() comes once etcd answered the revoke of the
    // leadership lease, so the process never ends with the key waiting out its TTL.
    auto closeLater = [&selector] {
        QMetaObject::invokeMethod(&selector, &EtcdLeaderSelector::close, Qt::QueuedConnection);
    };
    QObject::connect(&selector, &EtcdLeaderSelector::started, &selector,
        [&selector] { emitLine(event(QStringLiteral("started"), selector)); });
    QObject::connect(&selector, &EtcdLeaderSelector::elected, &selector, [&selector, holdMs] {
        QJsonObject line = event(QStringLiteral("elected"), selector);
        line.insert(QStringLiteral("token"), selector.fencingToken().revision);
        emitLine(line);
        if (holdMs >= 0) // close() hands off as resign() does, and then reports closed()
            QTimer::singleShot(holdMs, Qt::PreciseTimer, &selector, &EtcdLeaderSelector::close);
    });
    QObject::connect(&selector, &EtcdLeaderSelector::leadershipLost, &selector,
        [&selector, &exitCode](const EtcdStatus &reason) {
            exitCode = kSteppedDownExitCode;
            QJsonObject line = event(QStringLiteral("stepped_down"), selector);
            line.insert(QStringLiteral("reason"), reason.toString());
            emitLine(line);
        });
    QObject::connect(&selector, &EtcdLeaderSelector::relinquished, &selector,
        [&selector] { emitLine(event(QStringLiteral("relinquished"), selector)); });
    // A term that ended without close() (stepped down, or failed) ends the command too.
    QObject::connect(&selector, &EtcdLeaderSelector::termFinished, &selector, closeLater);
    QObject::connect(&selector, &EtcdLeaderSelector::failed, &selector,
        [&exitCode, closeLater](const EtcdStatus &why) {
            exitCode = fail(why.toString());
            closeLater();
        });
    QObject::connect(&selector, &EtcdRecipe::closed, &selector,
        [&exitCode] { QCoreApplication::exit(exitCode); });
    onTerminationSignal([&selector](int) { selector.close(); });
    selector.start();
    return QCoreApplication::exec();
}

} // namespace Cli
