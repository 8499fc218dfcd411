// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// etcdqt queue put|take|size: etcd-recipes' DistributedQueue (FIFO, EtcdQueue) and, with
// --priority, its DistributedPriorityQueue (EtcdPriorityQueue), from a shell.
//   put <path> <value> [--priority P]: enqueues the value (at priority P, 0..65535, lower
//     taken first) and prints {"enqueued":true,"path":P} (with "priority":P when given).
//   take <path> [--timeout-ms N] [--priority]: takes the head, waiting for an item as long as
//     it takes (at most N ms), and prints {"value":V}: UTF-8 text, else hex under "valueHex"
//     (as cache watch and inspect spell bytes). An item whose take was on the wire when the
//     time ran out or a signal came is printed, never dropped. --priority: in priority order.
//   size <path> [--priority]: {"size":N}, the items in the queue.
// Exit status: 0 on success; 2 when take timed out (nothing printed); 128+N after signal N
// while take waited (nothing taken); 1 on bad input, an unreachable etcd or a failure.
#include "cli.h"

#include <recipedecoder.h>

#include <EtcdQt/etcdpriorityqueue.h>
#include <EtcdQt/etcdqueue.h>
#include <EtcdQt/etcdqueueitemreply.h>

#include <QtCore/qcoreapplication.h>
#include <QtCore/qtimer.h>

namespace Cli {

namespace {

const QString kQueueUsage
    = QStringLiteral("usage: queue put <path> <value> [--priority P] | "
                     "queue take <path> [--timeout-ms N] [--priority] | queue size <path> "
                     "[--priority]");

std::unique_ptr<EtcdAbstractQueue> makeAbstractQueue(
    EtcdClient *client, const QString &path, bool priority)
{
    if (priority)
        return std::make_unique<EtcdPriorityQueue>(client, path.toUtf8());
    return std::make_unique<EtcdQueue>(client, path.toUtf8());
}

int queuePut(const Globals &globals, QStringList args)
{
    const bool prioritized = args.contains(QStringLiteral("--priority"));
    const QString priorityText = takeOption(args, QStringLiteral("--priority"));
    if (QString error; !operandsAre(args, 2, kQueueUsage, error))
        return fail(error);
    bool ok = true;
    const int priority = prioritized ? priorityText.toInt(&ok) : 0;
    if (prioritized && (!ok || priority < 0 || priority > EtcdPriorityQueue::kMaxPriority))
        return fail(QStringLiteral("--priority must be a number from 0 to %1")
                        .arg(EtcdPriorityQueue::kMaxPriority));

    const QString path = args.at(0);
    const QByteArray value = args.at(1).toUtf8();
    auto client = makeClient(globals);
    EtcdQueue fifo(client.get(), path.toUtf8());
    EtcdPriorityQueue ranked(client.get(), path.toUtf8());
    EtcdReply *reply = prioritized ? ranked.enqueue(value, priority) : fifo.enqueue(value);
    return printWhenDone(reply, [path, prioritized, priority] {
        QJsonObject o {{QStringLiteral("enqueued"), true}, {QStringLiteral("path"), path}};
        if (prioritized)
            o.insert(QStringLiteral("priority"), priority);
        return o;
    });
}

int queueSize(const Globals &globals, QStringList args)
{
    const bool prioritized = takeFlag(args, QStringLiteral("--priority"));
    if (QString error; !operandsAre(args, 1, kQueueUsage, error))
        return fail(error);
    auto client = makeClient(globals);
    const auto queue = makeAbstractQueue(client.get(), args.first(), prioritized);
    EtcdValueReply *reply = queue->size();
    return printWhenDone(reply, [reply] {
        return QJsonObject {{QStringLiteral("size"), reply->value()}};
    });
}

// The take: one dequeue(), never a poll. A deadline or a signal ends it with close(), which
// cancels a waiting take but lets a delete already on the wire deliver its item: so the
// command exits once the reply has finished (and the queue has closed), printing whatever it
// took.
int takeFromQueue(EtcdAbstractQueue &queue, const QString &path, int timeoutMs)
{
    enum class Stage { Probing, Taking, Done };
    Stage stage = Stage::Probing;
    int exitCode = 0;
    int endedWith = 0; // why the command ended the take: kTimedOutExitCode or 128+N
    bool closed = false;
    QTimer deadline;
    deadline.setSingleShot(true);
    // A coarse timer may fire 5% early; a timeout the user asked for must not end sooner.
    deadline.setTimerType(Qt::PreciseTimer);
    const auto exitWhenDone = [&] {
        if (stage == Stage::Done && closed)
            QCoreApplication::exit(exitCode);
    };
    QObject::connect(&queue, &EtcdRecipe::closed, &queue, [&] {
        closed = true;
        exitWhenDone();
    });
    const auto finish = [&](int code) {
        stage = Stage::Done;
        exitCode = code;
        deadline.stop();
        queue.close(); // idempotent; closed() follows
    };
    const auto end = [&](int code) {
        if (stage == Stage::Done || endedWith != 0)
            return;
        endedWith = code;
        if (stage == Stage::Probing)
            return finish(code);
        queue.close(); // the reply finishes: Cancelled, or with an item taken meanwhile
    };
    QObject::connect(&deadline, &QTimer::timeout, &queue, [&] {
        note(QStringLiteral("nothing taken from %1 within %2 ms").arg(path).arg(timeoutMs));
        end(kTimedOutExitCode);
    });
    onTerminationSignal([&](int signal) { end(128 + signal); });

    const auto taken = [&](EtcdQueueItemReply *reply, const EtcdStatus &status) {
        if (status.isOk() && reply->found()) {
            QJsonObject line;
            Etcd::Decode::insertBytes(line, QStringLiteral("value"), reply->value());
            emitLine(line);
            return finish(0);
        }
        if (status.code() == Etcd::ErrorCode::Cancelled && endedWith != 0)
            return finish(endedWith);
        finish(fail(QStringLiteral("cannot take from %1: %2").arg(path, status.toString())));
    };
    if (timeoutMs > 0)
        deadline.start(timeoutMs);
    // One read first: an unreachable etcd is an error, not an endless wait for an item.
    EtcdReply *probe = queue.ping();
    QObject::connect(probe, &EtcdReply::finished, &queue, [&](const EtcdStatus &status) {
        if (stage != Stage::Probing)
            return; // a deadline or a signal ended it meanwhile
        if (!status.isOk())
            return finish(fail(QStringLiteral("etcd unreachable: %1").arg(status.toString())));
        stage = Stage::Taking;
        EtcdQueueItemReply *reply = queue.dequeue();
        QObject::connect(reply, &EtcdReply::finished, &queue,
            [&taken, reply](const EtcdStatus &s) { taken(reply, s); });
    });
    return QCoreApplication::exec();
}

int queueTake(const Globals &globals, QStringList args)
{
    const bool bounded = args.contains(QStringLiteral("--timeout-ms"));
    const QString timeoutText = takeOption(args, QStringLiteral("--timeout-ms"));
    const bool prioritized = takeFlag(args, QStringLiteral("--priority"));
    if (QString error; !operandsAre(args, 1, kQueueUsage, error))
        return fail(error);
    bool ok = true;
    const int timeoutMs = bounded ? timeoutText.toInt(&ok) : 0; // 0: as long as it takes
    if (bounded && (!ok || timeoutMs <= 0))
        return fail(QStringLiteral("--timeout-ms must be a positive number of milliseconds"));
    auto client = makeClient(globals);
    const auto queue = makeAbstractQueue(client.get(), args.first(), prioritized);
    return takeFromQueue(*queue, args.first(), timeoutMs);
}

} // namespace

int queueCommand(const Globals &globals, QStringList args)
{
    const QString verb = args.isEmpty() ? QString() : args.takeFirst();
    if (verb == QLatin1String("put"))
        return queuePut(globals, args);
    if (verb == QLatin1String("take"))
        return queueTake(globals, args);
    if (verb == QLatin1String("size"))
        return queueSize(globals, args);
    return fail(kQueueUsage);
}

} // namespace Cli
