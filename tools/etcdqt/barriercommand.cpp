// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// etcdqt barrier set|remove|wait: etcd-recipes' DistributedBarrier (key "<path>") from a shell.
//   set <path> [--ttl S] [--hold-ms N]: sets the barrier on a self-healing lease of S seconds
//     (2 by default), prints {"set":true,"path":P,"leaseId":L}, one {"leaseEvent":...} line per
//     event of its lease while it holds, and after N ms (without --hold-ms: on SIGINT/SIGTERM)
//     removes it and prints {"removed":true}. Exit status: 0 after the removal; 3 when the
//     barrier was set already ({"set":false}, nothing changed) or stopped being this command's
//     while it held it (someone else wrote over it, or its lease expired and another client
//     set it before the heal; the other client's barrier is left alone); 128+N after signal N
//     before the barrier was set. Removed by someone else meanwhile, it says so on stderr and
//     holds on as asked; its removal then finds the barrier gone ({"removed":true}).
//   remove <path>: removes the barrier whoever set it, prints {"removed":true}; exit status 0.
//   wait <path> [--timeout-ms N] [--no-wait-on-missing]: waits for the barrier to be removed,
//     prints {"lifted":true} (exit 0) or, after N ms, {"lifted":false} (exit 2). A barrier
//     nobody has set is waited for until it is set and removed, unless --no-wait-on-missing
//     (then it has lifted at once). 128+N after signal N.
// All: 1 on bad input or when etcd is unreachable. Nothing of the command's is left in etcd.
#include "cli.h"

#include <EtcdQt/etcdbarrier.h>

#include <QtCore/qcoreapplication.h>
#include <QtCore/qtimer.h>

namespace Cli {

namespace {

constexpr int kNotHeldExitCode = 3;

const QString kBarrierUsage = QStringLiteral("usage: barrier set <path> [--ttl S] [--hold-ms N] | "
                                             "barrier remove <path> | barrier wait <path> "
                                             "[--timeout-ms N] [--no-wait-on-missing]");

// The one remaining argument, the barrier's path; empty when the arguments are not just that.
QString pathArgument(const QStringList &args)
{
    if (args.size() != 1 || args.first().startsWith(QLatin1String("--")))
        return {};
    return args.first();
}

int setCommand(const Globals &globals, QStringList args)
{
    qint64 ttl = 0;
    int holdMs = -1; // without --hold-ms: until SIGINT/SIGTERM
    if (QString error; !takeTtlAndHold(args, ttl, holdMs, error))
        return fail(error);
    const QString path = pathArgument(args);
    if (path.isEmpty())
        return fail(kBarrierUsage);

    auto client = makeClient(globals);
    EtcdBarrierOptions options;
    options.ttl = std::chrono::seconds(ttl);
    EtcdBarrier barrier(client.get(), path.toUtf8(), options);
    enum class Stage { Setting, Holding, Removing, Leaving };
    Stage stage = Stage::Setting;
    int exitCode = 0;
    QTimer hold;
    hold.setSingleShot(true);
    hold.setTimerType(Qt::PreciseTimer);
    // Every way out goes through close(): closed() comes once etcd answered the revoke of a
    // barrier still being set, so the process never ends with its key waiting out the TTL.
    const auto leave = [&](int code) {
        if (std::exchange(stage, Stage::Leaving) == Stage::Leaving)
            return;
        exitCode = code;
        hold.stop();
        barrier.close();
    };
    QObject::connect(
        &barrier, &EtcdRecipe::closed, &barrier, [&exitCode] { QCoreApplication::exit(exitCode); });
    // removeBarrier() answers once the key is deleted and its lease revoked.
    const auto removeNow = [&] {
        if (stage != Stage::Holding)
            return;
        stage = Stage::Removing;
        hold.stop();
        EtcdBoolReply *removal = barrier.removeBarrier();
        QObject::connect(
            removal, &EtcdReply::finished, &barrier, [&, removal](const EtcdStatus &s) {
                if (!s.isOk())
                    return leave(
                        fail(QStringLiteral("cannot remove %1: %2").arg(path, s.toString())));
                emitLine({{QStringLiteral("removed"), removal->result()}});
                leave(0);
            });
    };
    QObject::connect(&hold, &QTimer::timeout, &barrier, removeNow);
    QObject::connect(&barrier, &EtcdBarrier::leaseEvent, &barrier, [](const EtcdLeaseEvent &e) {
        emitLine(leaseEventObject(e, QStringLiteral("leaseEvent")));
    });
    const auto notHeld = [&](const EtcdStatus &why) {
        if (stage != Stage::Holding)
            return;
        fail(QStringLiteral("barrier %1 is not held by this command any more: %2")
                 .arg(path, why.toString()));
        leave(kNotHeldExitCode);
    };
    QObject::connect(&barrier, &EtcdBarrier::failed, &barrier, notHeld);
    // Lifted by someone (`barrier remove`, the inspector): what the command held is gone, and
    // nobody else holds it. Written over: it is someone else's barrier now.
    QObject::connect(&barrier, &EtcdBarrier::barrierLost, &barrier, [&](const EtcdStatus &why) {
        if (why.code() != Etcd::ErrorCode::NotFound)
            return notHeld(why);
        note(QStringLiteral("barrier %1 was removed by someone else").arg(path));
    });
    // Before it is set: close() revokes whatever lease is being set up, and nothing is left.
    onTerminationSignal([&](int signal) {
        if (stage == Stage::Setting)
            leave(128 + signal);
        else
            removeNow();
    });
    // setBarrier() reads the key first: a barrier set already costs no lease.
    EtcdBoolReply *setting = barrier.setBarrier();
    QObject::connect(setting, &EtcdReply::finished, &barrier, [&, setting](const EtcdStatus &s) {
        if (stage != Stage::Setting)
            return; // a signal ended it meanwhile
        if (!s.isOk())
            return leave(fail(QStringLiteral("cannot set %1: %2").arg(path, s.toString())));
        if (!setting->result()) {
            emitLine({{QStringLiteral("set"), false}, {QStringLiteral("path"), path}});
            fail(QStringLiteral("barrier %1 is set already").arg(path));
            return leave(kNotHeldExitCode);
        }
        emitLine({{QStringLiteral("set"), true}, {QStringLiteral("path"), path},
            {QStringLiteral("leaseId"), barrier.leaseId()}});
        stage = Stage::Holding;
        if (holdMs >= 0)
            hold.start(holdMs);
    });
    return QCoreApplication::exec();
}

int removeCommand(const Globals &globals, QStringList args)
{
    const QString path = pathArgument(args);
    if (path.isEmpty())
        return fail(kBarrierUsage);
    auto client = makeClient(globals);
    EtcdBarrier barrier(client.get(), path.toUtf8());
    int exitCode = 0;
    QObject::connect(
        &barrier, &EtcdRecipe::closed, &barrier, [&exitCode] { QCoreApplication::exit(exitCode); });
    EtcdBoolReply *removal = barrier.removeBarrier();
    QObject::connect(removal, &EtcdReply::finished, &barrier, [&, removal](const EtcdStatus &s) {
        if (s.isOk())
            emitLine({{QStringLiteral("removed"), removal->result()}});
        else
            exitCode = fail(QStringLiteral("cannot remove %1: %2").arg(path, s.toString()));
        barrier.close();
    });
    return QCoreApplication::exec();
}

int waitCommand(const Globals &globals, QStringList args)
{
    const bool bounded = args.contains(QStringLiteral("--timeout-ms"));
    const QString timeoutText = takeOption(args, QStringLiteral("--timeout-ms"));
    const bool liftIfMissing = takeFlag(args, QStringLiteral("--no-wait-on-missing"));
    bool ok = false;
    int timeoutMs = -1; // without --timeout-ms: wait as long as it takes
    if (bounded) {
        timeoutMs = timeoutText.toInt(&ok);
        if (!ok || timeoutMs <= 0)
            return fail(QStringLiteral("--timeout-ms must be a positive number of milliseconds"));
    }
    const QString path = pathArgument(args);
    if (path.isEmpty())
        return fail(kBarrierUsage);

    auto client = makeClient(globals);
    EtcdBarrierOptions options;
    options.waitOnMissingBarriers = !liftIfMissing;
    EtcdBarrier barrier(client.get(), path.toUtf8(), options);
    bool done = false;
    int exitCode = 0;
    QTimer deadline;
    deadline.setSingleShot(true);
    // A coarse timer may fire 5% early; a timeout the user asked for must not end sooner.
    deadline.setTimerType(Qt::PreciseTimer);
    // close() ends the wait (and its watch); closed() follows on the next turn of the loop.
    const auto leave = [&](int code) {
        if (std::exchange(done, true))
            return;
        exitCode = code;
        deadline.stop();
        barrier.close();
    };
    QObject::connect(
        &barrier, &EtcdRecipe::closed, &barrier, [&exitCode] { QCoreApplication::exit(exitCode); });
    QObject::connect(&barrier, &EtcdBarrier::lifted, &barrier, [&] {
        if (done)
            return;
        emitLine({{QStringLiteral("lifted"), true}});
        leave(0);
    });
    QObject::connect(&deadline, &QTimer::timeout, &barrier, [&] {
        if (done)
            return;
        emitLine({{QStringLiteral("lifted"), false}});
        leave(kTimedOutExitCode);
    });
    // A wait that cannot go on (etcd unreachable, the watch failed) ends with an error.
    QObject::connect(&barrier, &EtcdRecipe::errorOccurred, &barrier,
        [&](const QString &, const EtcdStatus &why) {
            if (!done)
                leave(fail(QStringLiteral("cannot wait on %1: %2").arg(path, why.toString())));
        });
    onTerminationSignal([&](int signal) { leave(128 + signal); });
    if (timeoutMs > 0)
        deadline.start(timeoutMs);
    barrier.startWaiting();
    return QCoreApplication::exec();
}

} // namespace

int barrierCommand(const Globals &globals, QStringList args)
{
    const QString verb = args.isEmpty() ? QString() : args.takeFirst();
    if (verb == QLatin1String("set"))
        return setCommand(globals, args);
    if (verb == QLatin1String("remove"))
        return removeCommand(globals, args);
    if (verb == QLatin1String("wait"))
        return waitCommand(globals, args);
    return fail(kBarrierUsage);
}

} // namespace Cli
