// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// etcdqt work enqueue|receive|ack|dlq|size: etcd-recipes' DistributedWorkQueue (EtcdWorkQueue)
// from a shell.
//   enqueue <path> <value> [--delay-ms N]: {"enqueued":true,"path":P} (delayed: due in N ms).
//   receive <path> [--timeout-ms N] [--visibility-s S] [--max-deliveries M] [--ack]
//     [--hold-ms N]: claims the first item (waiting at most N ms) and prints
//     {"id":I,"value":V,"attempt":A,"claimRevision":R}. With --ack it acknowledges
//     ({"acked":true} follows), after --hold-ms when given (the work's time). Without, it keeps
//     the claim --hold-ms long (default 0; until a signal when -1) and exits without an ack:
//     the claim ends with the consumer's lease (revoked on exit, or expiring after S seconds,
//     default 30, when the process dies), and the item is delivered again. An orphan this
//     consumer reclaims goes to the dead letters once delivered M times (default 5).
//   ack <path> <id>: acknowledges the delivery that holds the claim on <id> now, from any
//     process ({"acked":true}; false: nothing claims it).
//   dlq <path> [--requeue ID | --purge ID]: {"deadLetters":[{"id","value","attempts"}…]}, or
//     moves one back to the queue / deletes it ({"requeued"|"purged":true|false}).
//   size <path>: {"size":N}, the items waiting.
// Exit status: 0 on success; 2 when receive timed out (nothing printed); 1 on bad input, an
// unreachable etcd, a failure, or an ack that found no claim.
#include "cli.h"

#include <recipedecoder.h>

#include <EtcdQt/etcdclient.h>
#include <EtcdQt/etcdcodec.h>
#include <EtcdQt/etcdrangereply.h>
#include <EtcdQt/etcdtxnreply.h>
#include <EtcdQt/etcdworkqueue.h>

#include <QtCore/qcoreapplication.h>
#include <QtCore/qjsonarray.h>
#include <QtCore/qtimer.h>

namespace Cli {

namespace {

const QString kWorkUsage = QStringLiteral(
    "usage: work enqueue <path> <value> [--delay-ms N] | work receive <path> [--timeout-ms N] "
    "[--visibility-s S] [--max-deliveries M] [--ack] [--hold-ms N] | work ack <path> <id> | work "
    "dlq <path> "
    "[--requeue ID | --purge ID] | work size <path> | work process <path> --effects <prefix> …");

// A whole number of milliseconds from `min` (the option's value, when given).
bool takeMillis(QStringList &args, const QString &name, int min, int &value, QString &error)
{
    const bool given = args.contains(name);
    const QString text = takeOption(args, name);
    bool ok = true;
    if (given)
        value = text.toInt(&ok);
    if (given && (!ok || value < min)) {
        error = QStringLiteral("%1 must be a whole number of milliseconds, %2 or more")
                    .arg(name)
                    .arg(min);
        return false;
    }
    return true;
}

// A count of 1 or more (the option's value, when given).
bool takeCount(QStringList &args, const QString &name, int &value, QString &error)
{
    const bool given = args.contains(name);
    const QString text = takeOption(args, name);
    bool ok = true;
    if (given)
        value = text.toInt(&ok);
    if (given && (!ok || value < 1)) {
        error = QStringLiteral("%1 must be a whole number, 1 or more").arg(name);
        return false;
    }
    return true;
}

int workEnqueue(const Globals &globals, QStringList args)
{
    int delayMs = 0;
    if (QString error; !takeMillis(args, QStringLiteral("--delay-ms"), 0, delayMs, error)
        || !operandsAre(args, 2, kWorkUsage, error))
        return fail(error);
    auto client = makeClient(globals);
    EtcdWorkQueue queue(client.get(), args.at(0).toUtf8());
    EtcdReply *r = queue.enqueue(args.at(1).toUtf8(), std::chrono::milliseconds(delayMs));
    const QString path = args.at(0);
    return printWhenDone(r, [path, delayMs] {
        QJsonObject o {{QStringLiteral("enqueued"), true}, {QStringLiteral("path"), path}};
        if (delayMs > 0)
            o.insert(QStringLiteral("delayMs"), delayMs);
        return o;
    });
}

QJsonObject itemObject(const EtcdWorkItem &item)
{
    QJsonObject o {{QStringLiteral("id"), QString::fromUtf8(item.id)},
        {QStringLiteral("attempt"), item.attempt},
        {QStringLiteral("claimRevision"), item.claim.revision}};
    Etcd::Decode::insertBytes(o, QStringLiteral("value"), item.value);
    return o;
}

// One receive; then --ack, or the claim held --hold-ms. close() ends it either way (and
// revokes the consumer lease: a held claim ends with it).
struct Receiver
{
    // A constructor, not aggregate initialisation: the QTimer member has an explicit one.
    Receiver(EtcdWorkQueue &q, QString p, int timeout, int hold, bool acknowledge)
        : queue(q), path(std::move(p)), timeoutMs(timeout), holdMs(hold), ack(acknowledge)
    { }

    EtcdWorkQueue &queue;
    QString path;
    int timeoutMs = 0;
    int holdMs = 0;
    bool ack = false;
    int exitCode = 0;
    bool received = false;
    bool closing = false;
    QTimer deadline;

    void finish(int code)
    {
        exitCode = code;
        closing = true;
        deadline.stop();
        queue.close(); // closed() exits
    }
    void onItem(EtcdWorkItemReply *r, const EtcdStatus &s);
    void acknowledge(const EtcdWorkItem &item);
    void start();
};

void Receiver::onItem(EtcdWorkItemReply *r, const EtcdStatus &s)
{
    if (!s.isOk() && s.code() == Etcd::ErrorCode::Cancelled && exitCode != 0)
        return finish(exitCode); // the deadline or a signal cancelled it
    if (!s.isOk())
        return finish(fail(QStringLiteral("cannot receive from %1: %2").arg(path, s.toString())));
    received = true;
    deadline.stop();
    emitLine(itemObject(r->item()));
    if (ack && holdMs > 0) // the work takes that long, then it is acknowledged
        return QTimer::singleShot(holdMs, &queue, [this, item = r->item()] { acknowledge(item); });
    if (ack)
        return acknowledge(r->item());
    if (holdMs >= 0)
        QTimer::singleShot(holdMs, &queue, [this] { finish(0); });
}

void Receiver::acknowledge(const EtcdWorkItem &item)
{
    {
        EtcdBoolReply *a = queue.ack(item);
        QObject::connect(a, &EtcdReply::finished, &queue, [this, a](const EtcdStatus &st) {
            if (!st.isOk())
                return finish(fail(st.toString()));
            emitLine({{QStringLiteral("acked"), a->result()}});
            finish(a->result() ? 0 : fail(QStringLiteral("the claim was lost before the ack")));
        });
    }
}

void Receiver::start()
{
    deadline.setSingleShot(true);
    deadline.setTimerType(Qt::PreciseTimer); // a coarse timer may fire 5% early
    QObject::connect(&deadline, &QTimer::timeout, &queue, [this] {
        note(QStringLiteral("nothing received from %1 within %2 ms").arg(path).arg(timeoutMs));
        exitCode = kTimedOutExitCode;
        closing = true;
        queue.close(); // cancels the receive; a claim on the wire still arrives and is kept
    });
    QObject::connect(
        &queue, &EtcdRecipe::closed, &queue, [this] { QCoreApplication::exit(exitCode); });
    onTerminationSignal([this](int signal) {
        if (exitCode == 0)
            exitCode = received ? 0 : 128 + signal;
        closing = true;
        queue.close();
    });
    if (timeoutMs > 0)
        deadline.start(timeoutMs);
    EtcdReply *probe = queue.ping(); // an unreachable etcd is an error, not an endless wait
    QObject::connect(probe, &EtcdReply::finished, &queue, [this](const EtcdStatus &s) {
        if (closing)
            return; // a deadline or a signal ended it meanwhile
        if (!s.isOk())
            return finish(fail(QStringLiteral("etcd unreachable: %1").arg(s.toString())));
        EtcdWorkItemReply *r = queue.receive();
        QObject::connect(
            r, &EtcdReply::finished, &queue, [this, r](const EtcdStatus &st) { onItem(r, st); });
    });
}

int workReceive(const Globals &globals, QStringList args)
{
    int timeoutMs = 0, holdMs = 0, visibilityS = 30, maxDeliveries = 5;
    const bool ack = takeFlag(args, QStringLiteral("--ack"));
    const QString visibility
        = takeOption(args, QStringLiteral("--visibility-s"), QStringLiteral("30"));
    QString error;
    if (!takeMillis(args, QStringLiteral("--timeout-ms"), 1, timeoutMs, error)
        || !takeMillis(args, QStringLiteral("--hold-ms"), -1, holdMs, error)
        || !takeCount(args, QStringLiteral("--max-deliveries"), maxDeliveries, error)
        || !operandsAre(args, 1, kWorkUsage, error))
        return fail(error);
    qint64 ttl = 0;
    if (!parseTtl(visibility, ttl, error))
        return fail(QStringLiteral("--visibility-s: %1").arg(error));
    visibilityS = int(ttl);
    EtcdWorkQueue::Options options;
    options.visibilityTimeout = std::chrono::seconds(visibilityS);
    options.maxDeliveries = maxDeliveries;
    auto client = makeClient(globals);
    EtcdWorkQueue queue(client.get(), args.first().toUtf8(), options);
    Receiver receiver(queue, args.first(), timeoutMs, holdMs, ack);
    receiver.start();
    return QCoreApplication::exec();
}

// The delivery that claims <id> now, as its consumer's handle: the claim's key, lease and
// create revision (the fencing token) and the claimed copy's value.
int workAck(const Globals &globals, QStringList args)
{
    if (QString error; !operandsAre(args, 2, kWorkUsage, error))
        return fail(error);
    const QByteArray path = args.at(0).toUtf8(), id = args.at(1).toUtf8();
    auto client = makeClient(globals);
    EtcdWorkQueue queue(client.get(), path);
    EtcdTxn read;
    read.success = {EtcdTxnOp::get(path + "/claims/" + id), EtcdTxnOp::get(path + "/claimed/" + id),
        EtcdTxnOp::get(path + "/attempts/" + id)};
    EtcdTxnReply *r = client->txn(read);
    QObject::connect(r, &EtcdReply::finished, &queue, [&queue, r, id](const EtcdStatus &s) {
        if (!s.isOk())
            return QCoreApplication::exit(fail(s.toString()));
        const QList<EtcdTxnOpResult> results = r->results();
        const QList<EtcdKeyValue> claim = results.value(0).keyValues;
        if (claim.isEmpty()) {
            emitLine({{QStringLiteral("acked"), false}});
            return QCoreApplication::exit(
                fail(QStringLiteral("nothing claims %1").arg(QString::fromUtf8(id))));
        }
        EtcdWorkItem item;
        item.id = id;
        item.value = results.value(1).keyValues.value(0).value;
        item.attempt = Etcd::decodeInt32(results.value(2).keyValues.value(0).value).value_or(0);
        item.claim = {claim.first().key, claim.first().lease, claim.first().createRevision};
        EtcdBoolReply *a = queue.ack(item);
        QObject::connect(a, &EtcdReply::finished, &queue, [a](const EtcdStatus &st) {
            if (!st.isOk())
                return QCoreApplication::exit(fail(st.toString()));
            emitLine({{QStringLiteral("acked"), a->result()}});
            QCoreApplication::exit(a->result() ? 0 : 1);
        });
    });
    return QCoreApplication::exec();
}

int workDlq(const Globals &globals, QStringList args)
{
    const bool requeue = args.contains(QStringLiteral("--requeue"));
    const bool purge = args.contains(QStringLiteral("--purge"));
    const QString id
        = takeOption(args, requeue ? QStringLiteral("--requeue") : QStringLiteral("--purge"));
    if (QString error; !operandsAre(args, 1, kWorkUsage, error))
        return fail(error);
    if ((requeue && purge) || ((requeue || purge) && id.isEmpty()))
        return fail(kWorkUsage);
    auto client = makeClient(globals);
    EtcdWorkQueue queue(client.get(), args.first().toUtf8());
    if (requeue || purge) {
        EtcdBoolReply *r
            = requeue ? queue.requeueDeadLetter(id.toUtf8()) : queue.purgeDeadLetter(id.toUtf8());
        const QString field = requeue ? QStringLiteral("requeued") : QStringLiteral("purged");
        return printWhenDone(r, [r, field] { return QJsonObject {{field, r->result()}}; });
    }
    EtcdDeadLettersReply *r = queue.deadLetters();
    return printWhenDone(r, [r] {
        QJsonArray letters;
        for (const EtcdDeadLetter &d : r->deadLetters()) {
            QJsonObject o {{QStringLiteral("id"), QString::fromUtf8(d.id)},
                {QStringLiteral("attempts"), d.attempts}};
            Etcd::Decode::insertBytes(o, QStringLiteral("value"), d.value);
            letters.append(o);
        }
        return QJsonObject {{QStringLiteral("deadLetters"), letters}};
    });
}

int workSize(const Globals &globals, QStringList args)
{
    if (QString error; !operandsAre(args, 1, kWorkUsage, error))
        return fail(error);
    auto client = makeClient(globals);
    EtcdWorkQueue queue(client.get(), args.first().toUtf8());
    EtcdValueReply *r = queue.size();
    return printWhenDone(r, [r] { return QJsonObject {{QStringLiteral("size"), r->value()}}; });
}

} // namespace

int workCommand(const Globals &globals, QStringList args)
{
    const QString verb = args.isEmpty() ? QString() : args.takeFirst();
    if (verb == QLatin1String("enqueue"))
        return workEnqueue(globals, args);
    if (verb == QLatin1String("receive"))
        return workReceive(globals, args);
    if (verb == QLatin1String("ack"))
        return workAck(globals, args);
    if (verb == QLatin1String("dlq"))
        return workDlq(globals, args);
    if (verb == QLatin1String("size"))
        return workSize(globals, args);
    if (verb == QLatin1String("process"))
        return workProcessCommand(globals, args);
    return fail(kWorkUsage);
}

} // namespace Cli
