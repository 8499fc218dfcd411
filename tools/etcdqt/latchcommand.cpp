// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// etcdqt latch create <path> --count N: creates an EtcdCountDownLatch with N if none exists at
//   <path>; prints {"count":C,"created":true|false}, C the count in etcd (the first creator's).
//   The latch outlives the command.
// etcdqt latch count-down <path>: takes one off the count (never below zero); prints the count
//   after it, {"count":C}.
// etcdqt latch await <path> [--timeout-ms N]: waits until the latch is open; prints
//   {"opened":true}, or {"opened":false} when N ms passed first. A latch that does not exist
//   yet is waited for.
// Exit status: 0 on success, 2 when await timed out, 128+N after signal N while waiting,
// 1 on bad input or a failure (etcd unreachable, no latch to count down).
#include "cli.h"

#include <EtcdQt/etcdcountdownlatch.h>

#include <QtCore/qcoreapplication.h>
#include <QtCore/qtimer.h>

namespace Cli {

namespace {

const QString kLatchUsage = QStringLiteral("usage: latch create <path> --count N | "
                                           "latch count-down <path> | "
                                           "latch await <path> [--timeout-ms N]");

// Runs `reply` to its end: prints what `line` makes of it, or fails with its status.
int finishWith(EtcdValueReply *reply, std::function<QJsonObject(EtcdValueReply *)> line)
{
    QObject::connect(reply, &EtcdReply::finished, reply, [reply, line](const EtcdStatus &status) {
        if (!status.isOk())
            return QCoreApplication::exit(fail(status.toString()));
        emitLine(line(reply));
        QCoreApplication::exit(0);
    });
    return QCoreApplication::exec();
}

int awaitLatch(EtcdCountDownLatch &latch, int timeoutMs)
{
    int exitCode = 0;
    bool leaving = false;
    // Every way out goes through close(), once.
    const auto leave = [&latch, &exitCode, &leaving](int code) {
        if (std::exchange(leaving, true))
            return;
        exitCode = code;
        latch.close();
    };
    QObject::connect(
        &latch, &EtcdRecipe::closed, &latch, [&exitCode] { QCoreApplication::exit(exitCode); });
    QObject::connect(&latch, &EtcdCountDownLatch::opened, &latch, [&leave] {
        emitLine({{QStringLiteral("opened"), true}});
        leave(0);
    });
    // Following the latch ended (etcd unreachable, the watch refused): no answer will come.
    QObject::connect(&latch, &EtcdRecipe::errorOccurred, &latch,
        [&latch, &leave](const QString &, const EtcdStatus &why) {
            if (!latch.isActive())
                leave(fail(why.toString()));
        });
    QTimer deadline;
    deadline.setSingleShot(true);
    // A coarse timer may fire 5% early; a timeout the user asked for must not end sooner.
    deadline.setTimerType(Qt::PreciseTimer);
    QObject::connect(&deadline, &QTimer::timeout, &latch, [&leave] {
        emitLine({{QStringLiteral("opened"), false}});
        leave(kTimedOutExitCode);
    });
    onTerminationSignal([&leave](int signal) { leave(128 + signal); });
    if (timeoutMs > 0)
        deadline.start(timeoutMs);
    latch.start();
    return QCoreApplication::exec();
}

} // namespace

int latchCommand(const Globals &globals, QStringList args)
{
    const bool counted = args.contains(QStringLiteral("--count"));
    const QString countText = takeOption(args, QStringLiteral("--count"));
    const bool bounded = args.contains(QStringLiteral("--timeout-ms"));
    const QString timeoutText = takeOption(args, QStringLiteral("--timeout-ms"));
    if (args.size() != 2 || args.at(1).isEmpty() || args.at(1).startsWith(QLatin1String("--")))
        return fail(kLatchUsage);
    const QString action = args.at(0);
    const bool creating = action == QLatin1String("create");
    const bool awaiting = action == QLatin1String("await");
    if (!creating && !awaiting && action != QLatin1String("count-down"))
        return fail(kLatchUsage);
    if (counted != creating || (bounded && !awaiting))
        return fail(kLatchUsage);
    bool ok = true;
    const qint64 count = creating ? countText.toLongLong(&ok) : 0;
    if (creating && (!ok || count <= 0))
        return fail(QStringLiteral("--count must be a positive number"));
    const int timeoutMs = bounded ? timeoutText.toInt(&ok) : 0; // 0: wait as long as it takes
    if (bounded && (!ok || timeoutMs <= 0))
        return fail(QStringLiteral("--timeout-ms must be a positive number of milliseconds"));

    auto client = makeClient(globals);
    EtcdCountDownLatch latch(client.get(), args.at(1).toUtf8());
    if (awaiting)
        return awaitLatch(latch, timeoutMs);
    if (creating) {
        return finishWith(latch.create(count), [](EtcdValueReply *r) {
            return QJsonObject {
                {QStringLiteral("created"), r->written()}, {QStringLiteral("count"), r->value()}};
        });
    }
    return finishWith(latch.countDown(), [](EtcdValueReply *r) {
        return QJsonObject {{QStringLiteral("count"), r->value()}};
    });
}

} // namespace Cli
