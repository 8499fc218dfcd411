// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// etcdqt work process <path> --effects <prefix> [--visibility-s S] [--max-deliveries M]
//     [--hold-ms N] [--unfenced]: a consumer that does each item's work: receive, N ms of work
// (default 0), then the item's effect, the key <prefix>/<id> set to its value. Fenced (the
// default), the effect and the acknowledgement are one transaction guarded by the claim
// (ackWith), so an effect happens once even when an item is delivered twice; unfenced, the
// effect is a plain put followed by an ack: what at-least-once delivery alone gives. One line
// per delivery {"id":I,"attempt":A} when received, then {"id":I,"committed":true|false}; on
// SIGTERM/SIGINT the item in hand is finished, then the summary
// {"committed":C,"refused":R,"failed":F}: effects etcd committed, refused (the claim was lost:
// fenced, nothing was written), failed (an error or no answer). Exit 0 after a signal's
// summary; 1 on bad input or an unreachable etcd.
#include "cli.h"

#include <EtcdQt/etcdclient.h>
#include <EtcdQt/etcdtxnreply.h>
#include <EtcdQt/etcdworkqueue.h>

#include <QtCore/qcoreapplication.h>
#include <QtCore/qtimer.h>

namespace Cli {

namespace {

const QString kProcessUsage = QStringLiteral(
    "usage: work process <path> --effects <prefix> [--visibility-s S] [--max-deliveries M] "
    "[--hold-ms N] [--unfenced]");

struct Worker
{
    EtcdWorkQueue &queue;
    EtcdClient &client;
    QByteArray effects;
    int holdMs = 0;
    bool fenced = true;
    int committed = 0, refused = 0, failed = 0;
    bool stopping = false, busy = false;

    void next();
    void work(const EtcdWorkItem &item);
    void settled(const EtcdWorkItem &item, const EtcdStatus &s, bool done);
    void stop();
};

void Worker::next()
{
    if (stopping)
        return stop();
    EtcdWorkItemReply *r = queue.receive();
    QObject::connect(r, &EtcdReply::finished, &queue, [this, r](const EtcdStatus &s) {
        if (!s.isOk()) {
            if (s.code() != Etcd::ErrorCode::Cancelled)
                note(QStringLiteral("receive failed: %1").arg(s.toString()));
            return stopping ? stop() : QTimer::singleShot(250, &queue, [this] { next(); });
        }
        const EtcdWorkItem item = r->item();
        busy = true;
        emitLine({{QStringLiteral("id"), QString::fromUtf8(item.id)},
            {QStringLiteral("attempt"), item.attempt}});
        QTimer::singleShot(holdMs, &queue, [this, item] { work(item); });
    });
}

void Worker::work(const EtcdWorkItem &item)
{
    const QByteArray key = effects + '/' + item.id;
    if (fenced) {
        EtcdTxn effect;
        effect.success = {EtcdTxnOp::put(key, item.value)};
        EtcdBoolReply *a = queue.ackWith(item, effect);
        QObject::connect(a, &EtcdReply::finished, &queue,
            [this, a, item](const EtcdStatus &s) { settled(item, s, s.isOk() && a->result()); });
        return;
    }
    EtcdReply *put = client.put(key, item.value);
    QObject::connect(put, &EtcdReply::finished, &queue, [this, item](const EtcdStatus &s) {
        if (s.isOk())
            queue.ack(item); // whether the ack holds does not undo the put
        settled(item, s, s.isOk());
    });
}

void Worker::settled(const EtcdWorkItem &item, const EtcdStatus &s, bool done)
{
    busy = false;
    if (done)
        ++committed;
    else if (s.isOk())
        ++refused;
    else
        ++failed;
    emitLine(
        {{QStringLiteral("id"), QString::fromUtf8(item.id)}, {QStringLiteral("committed"), done}});
    next();
}

void Worker::stop()
{
    if (busy)
        return; // the item in hand settles first, then next() comes here again
    emitLine({{QStringLiteral("committed"), committed}, {QStringLiteral("refused"), refused},
        {QStringLiteral("failed"), failed}});
    QObject::connect(&queue, &EtcdRecipe::closed, &queue, [] { QCoreApplication::exit(0); });
    queue.close();
}

} // namespace

int workProcessCommand(const Globals &globals, QStringList args)
{
    const QString effects = takeOption(args, QStringLiteral("--effects"));
    const QString visibility
        = takeOption(args, QStringLiteral("--visibility-s"), QStringLiteral("30"));
    const QString holdText = takeOption(args, QStringLiteral("--hold-ms"), QStringLiteral("0"));
    const QString maxText
        = takeOption(args, QStringLiteral("--max-deliveries"), QStringLiteral("5"));
    const bool unfenced = takeFlag(args, QStringLiteral("--unfenced"));
    QString error;
    if (!operandsAre(args, 1, kProcessUsage, error))
        return fail(error);
    if (effects.isEmpty())
        return fail(QStringLiteral("--effects <prefix> is required"));
    qint64 ttl = 0;
    if (!parseTtl(visibility, ttl, error))
        return fail(QStringLiteral("--visibility-s: %1").arg(error));
    bool holdOk = false, maxOk = false;
    const int holdMs = holdText.toInt(&holdOk), maxDeliveries = maxText.toInt(&maxOk);
    if (!holdOk || holdMs < 0 || !maxOk || maxDeliveries < 1)
        return fail(QStringLiteral("--hold-ms must be 0 or more, --max-deliveries 1 or more"));
    EtcdWorkQueue::Options options;
    options.visibilityTimeout = std::chrono::seconds(ttl);
    options.maxDeliveries = maxDeliveries;
    auto client = makeClient(globals);
    EtcdWorkQueue queue(client.get(), args.first().toUtf8(), options);
    Worker worker {queue, *client, effects.toUtf8(), holdMs, !unfenced};
    onTerminationSignal([&worker](int) {
        worker.stopping = true;
        if (!worker.busy) // a waiting receive ends Cancelled, and then stop(); an item in hand
            worker.queue.close(); // settles first
    });
    EtcdReply *probe = queue.ping(); // an unreachable etcd is an error, not an endless wait
    QObject::connect(probe, &EtcdReply::finished, &queue, [&worker](const EtcdStatus &s) {
        if (!s.isOk())
            return QCoreApplication::exit(
                fail(QStringLiteral("etcd unreachable: %1").arg(s.toString())));
        worker.next();
    });
    return QCoreApplication::exec();
}

} // namespace Cli
