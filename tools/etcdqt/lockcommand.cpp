// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// etcdqt lock <path> [--ttl S] [--timeout-ms N] -- <command> [args...]: runs the command while
// holding the lock on <path> (etcd's own layout: `etcdctl lock` on the same path excludes it),
// with its stdin, stdout and stderr, and ETCDQT_LOCK_KEY (the hold's key) and ETCDQT_FENCE (its
// create revision, decimal: the fencing token) in its environment. The lock is released when
// the command exits. SIGINT and SIGTERM are passed on to the command (unless they came from the
// terminal, which sent them to the command already).
// Exit status: the command's, or 128+N when signal N ended it; 3 when the lock was lost while
// the command ran (a {"event":"lock_lost",...} line on stderr says so at once; the command is
// not stopped); 2 when the lock was not acquired within --timeout-ms (the command did not run);
// 127 when the command could not be started; 128+N after signal N while waiting; 1 on bad input
// or when etcd is unreachable. Nothing is left in etcd on any of these ways out.
#include "cli.h"
#include "commandprocess.h"

#include <EtcdQt/etcdmutex.h>

#include <QtCore/qcoreapplication.h>
#include <QtCore/qjsondocument.h>
#include <QtCore/qtimer.h>

#include <csignal>

namespace Cli {

namespace {

constexpr int kLockLostExitCode = 3;
constexpr int kCannotRunExitCode = 127; // as a shell says "command not found"

const QString kLockUsage
    = QStringLiteral("usage: lock <path> [--ttl S] [--timeout-ms N] -- <command> [args...]");

} // namespace

int lockCommand(const Globals &globals, QStringList args)
{
    const qsizetype dashes = args.indexOf(QStringLiteral("--"));
    if (dashes < 0 || dashes + 1 >= args.size() || args.at(dashes + 1).isEmpty())
        return fail(kLockUsage);
    const QStringList command = args.mid(dashes + 1);
    args.resize(dashes); // the command's own arguments are not ours to parse
    const QString ttlText = takeOption(args, QStringLiteral("--ttl"), QStringLiteral("10"));
    const bool bounded = args.contains(QStringLiteral("--timeout-ms"));
    const QString timeoutText = takeOption(args, QStringLiteral("--timeout-ms"));
    qint64 ttl = 0;
    if (QString error; !parseTtl(ttlText, ttl, error))
        return fail(error);
    bool ok = false;
    int timeoutMs = -1; // without --timeout-ms: wait as long as it takes
    if (bounded) {
        timeoutMs = timeoutText.toInt(&ok);
        if (!ok || timeoutMs <= 0)
            return fail(QStringLiteral("--timeout-ms must be a positive number of milliseconds"));
    }
    if (!isOnePath(args))
        return fail(kLockUsage);
    const QString path = args.first();

    auto client = makeClient(globals);
    EtcdMutexOptions options;
    options.ttl = std::chrono::seconds(ttl);
    EtcdMutex mutex(client.get(), path.toUtf8(), options);
    CommandProcess child; // with our stdin, stdout and stderr
    enum class Stage { Starting, Waiting, Running, Leaving };
    Stage stage = Stage::Starting;
    EtcdFencingToken token;
    bool lost = false;
    int exitCode = 0;
    // Every way out goes through close(): closed() comes once etcd answered the revokes, so no
    // key of ours (held or waiting) outlives the process.
    const auto leave = [&](int code) {
        if (stage == Stage::Leaving)
            return;
        stage = Stage::Leaving;
        exitCode = code;
        mutex.close();
    };
    QObject::connect(
        &mutex, &EtcdRecipe::closed, &mutex, [&exitCode] { QCoreApplication::exit(exitCode); });

    QTimer deadline;
    deadline.setSingleShot(true);
    // A coarse timer may fire 5% early; a timeout the user asked for must not end sooner.
    deadline.setTimerType(Qt::PreciseTimer);
    QObject::connect(&deadline, &QTimer::timeout, &mutex, [&] {
        if (stage != Stage::Starting && stage != Stage::Waiting)
            return;
        fail(QStringLiteral("lock %1 not acquired within %2 ms").arg(path).arg(timeoutMs));
        leave(kTimedOutExitCode);
    });
    QObject::connect(&mutex, &EtcdMutex::acquired, &mutex, [&] {
        if (stage != Stage::Waiting)
            return;
        stage = Stage::Running;
        deadline.stop();
        token = mutex.fencingToken();
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("ETCDQT_LOCK_KEY"), QString::fromUtf8(token.key));
        environment.insert(QStringLiteral("ETCDQT_FENCE"), QString::number(token.revision));
        if (!child.start(command, environment)) {
            fail(QStringLiteral("cannot run %1: %2").arg(command.first(), child.errorString()));
            leave(kCannotRunExitCode);
        }
    });
    QObject::connect(&mutex, &EtcdMutex::lockLost, &mutex, [&](const EtcdStatus &why) {
        if (stage != Stage::Running)
            return;
        lost = true;
        const QJsonObject line {{QStringLiteral("event"), QStringLiteral("lock_lost")},
            {QStringLiteral("key"), QString::fromUtf8(token.key)},
            {QStringLiteral("fence"), token.revision}, {QStringLiteral("reason"), why.toString()}};
        std::fprintf(
            stderr, "%s\n", QJsonDocument(line).toJson(QJsonDocument::Compact).constData());
        std::fflush(stderr);
    });
    QObject::connect(&child, &CommandProcess::finished, &mutex,
        [&](int commandStatus) { leave(lost ? kLockLostExitCode : commandStatus); });
    onEveryTerminationSignal([&](int signal, bool fromTerminal) {
        if (stage == Stage::Running) {
            if (!fromTerminal && child.processId() > 0) // never kill(0): our process group
                ::kill(pid_t(child.processId()), signal);
            return; // the command decides; its end releases the lock
        }
        leave(128 + signal); // waiting: give up, leaving nothing behind
    });

    if (timeoutMs > 0)
        deadline.start(timeoutMs);
    // One read first: an unreachable etcd is an error, not an endless wait for the lock.
    EtcdReply *probe = mutex.ping();
    QObject::connect(probe, &EtcdReply::finished, &mutex, [&](const EtcdStatus &status) {
        if (stage != Stage::Starting)
            return;
        if (!status.isOk())
            return leave(fail(QStringLiteral("etcd unreachable: %1").arg(status.toString())));
        stage = Stage::Waiting;
        if (!mutex.acquire())
            leave(fail(QStringLiteral("cannot lock %1").arg(path)));
    });
    return QCoreApplication::exec();
}

} // namespace Cli
