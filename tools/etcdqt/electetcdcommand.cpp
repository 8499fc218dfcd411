// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// etcdqt elect --layout etcd <prefix> [--value V] [--ttl S] [--hold-ms N] and
// etcdqt observe --layout etcd <prefix>: etcd's own election (Go's concurrency.Election,
// etcdctl elect). Same exit codes as the default layout: 0 after a resign or a signal, 3 after
// the leadership was lost, 1 on bad input or a failure.
// etcdqt elect --layout etcd <prefix> --incr <counter-key> [--term-writes N] [--count N]
// [--ttl S] [--hold-ms N] [--fenced|--unfenced] [--events]: incr's counting loop under a
// leadership instead of a lock (see incrcommand.cpp): while it leads, the candidate reads the
// counter, works --hold-ms and writes it plus one, guarded by its term, N times (10), then
// resigns and campaigns again; a lost leadership is counted and campaigned for again. Until a
// signal, or --count writes; then incr's summary line. Exit status as incr's.
#include "cli.h"

#include <EtcdQt/etcdelection.h>

#include <QtCore/qcoreapplication.h>
#include <QtCore/qsysinfo.h>
#include <QtCore/qtimer.h>

#include <algorithm>

namespace Cli {

namespace {

QJsonValue textOrNull(const QByteArray &bytes, bool present)
{
    return present ? QJsonValue(QString::fromUtf8(bytes)) : QJsonValue(QJsonValue::Null);
}

void emitLeader(const EtcdElection &e)
{
    const bool someone = !e.leaderKey().isEmpty();
    emitLine({{QStringLiteral("leader"), textOrNull(e.leader(), someone)},
        {QStringLiteral("key"), textOrNull(e.leaderKey(), someone)}});
}

// Every way out goes through close(): closed() comes once etcd answered the revoke of the
// campaign's lease, so the process never leaves its key waiting out the TTL.
void followCampaign(EtcdElection &election, int holdMs, int &exitCode)
{
    QObject::connect(&election, &EtcdElection::elected, &election, [&election, holdMs] {
        const EtcdFencingToken token = election.fencingToken();
        emitLine({{QStringLiteral("event"), QStringLiteral("elected")},
            {QStringLiteral("key"), QString::fromUtf8(token.key)},
            {QStringLiteral("token"), token.revision},
            {QStringLiteral("value"), QString::fromUtf8(election.value())}});
        if (holdMs >= 0)
            QTimer::singleShot(holdMs, Qt::PreciseTimer, &election, [&election] {
                if (election.resign())
                    election.close();
            });
    });
    QObject::connect(&election, &EtcdElection::resigned, &election, [] {
        emitLine({{QStringLiteral("event"), QStringLiteral("resigned")}});
    });
    QObject::connect(&election, &EtcdElection::leadershipLost, &election,
        [&election, &exitCode](const EtcdStatus &reason) {
            exitCode = kSteppedDownExitCode;
            emitLine({{QStringLiteral("event"), QStringLiteral("stepped_down")},
                {QStringLiteral("reason"), reason.toString()}});
            election.close();
        });
}

} // namespace

int electEtcdCommand(const Globals &globals, QStringList args)
{
    const QString value = takeOption(args, QStringLiteral("--value"),
        QStringLiteral("%1:%2").arg(QSysInfo::machineHostName()).arg(qApp->applicationPid()));
    const QString counter = takeOption(args, QStringLiteral("--incr"));
    const QString termWrites = takeOption(args, QStringLiteral("--term-writes"));
    const QString count = takeOption(args, QStringLiteral("--count"));
    const bool fenced = takeFlag(args, QStringLiteral("--fenced"));
    const bool unfenced = takeFlag(args, QStringLiteral("--unfenced"));
    const bool events = takeFlag(args, QStringLiteral("--events"));
    qint64 ttl = 0;
    int holdMs = -1; // without --hold-ms: until SIGINT/SIGTERM
    if (QString error; !takeTtlAndHold(args, ttl, holdMs, error))
        return fail(error);
    if (!isOnePath(args))
        return fail(QStringLiteral("usage: elect --layout etcd <prefix> [--value V] [--ttl S] "
                                   "[--hold-ms N] [--incr <counter-key> [--term-writes N] "
                                   "[--count N] [--fenced|--unfenced] [--events]]"));
    if (!counter.isEmpty()) {
        ElectIncrOptions options;
        options.counter = counter.toUtf8();
        options.ttl = std::chrono::seconds(ttl);
        options.fenced = !unfenced;
        options.events = events;
        bool ok = true;
        if (!termWrites.isEmpty())
            options.termWrites = termWrites.toLongLong(&ok);
        if (!ok || options.termWrites <= 0)
            return fail(QStringLiteral("--term-writes must be a positive number of writes"));
        if (!count.isEmpty())
            options.count = count.toLongLong(&ok);
        if (!ok || options.count <= 0)
            return fail(QStringLiteral("--count must be a positive number of writes"));
        if (fenced && unfenced)
            return fail(QStringLiteral("--fenced and --unfenced exclude each other"));
        if (counter.startsWith(QLatin1String("--")))
            return fail(QStringLiteral("--incr takes a counter key"));
        options.holdMs = std::max(holdMs, 0); // with --incr: the work between read and write
        return electIncr(globals, args.first().toUtf8(), value.toUtf8(), options);
    }
    if (!termWrites.isEmpty() || !count.isEmpty() || fenced || unfenced || events)
        return fail(QStringLiteral("--term-writes, --count, --fenced, --unfenced and --events "
                                   "go with --incr"));
    auto client = makeClient(globals);
    EtcdElectionOptions options;
    options.ttl = std::chrono::seconds(ttl);
    EtcdElection election(client.get(), args.first().toUtf8(), options);
    int exitCode = 0;
    followCampaign(election, holdMs, exitCode);
    QObject::connect(&election, &EtcdRecipe::closed, &election,
        [&exitCode] { QCoreApplication::exit(exitCode); });
    onTerminationSignal([&election](int) { election.close(); });
    // One read first: an unreachable etcd is an error, not an endless campaign.
    EtcdReply *probe = election.ping();
    QObject::connect(probe, &EtcdReply::finished, &election, [&](const EtcdStatus &status) {
        if (election.state() == EtcdElection::State::Closed)
            return;
        if (!status.isOk())
            return QCoreApplication::exit(
                fail(QStringLiteral("etcd unreachable: %1").arg(status.toString())));
        if (!election.campaign(value.toUtf8())) {
            const QList<EtcdStatus> why = election.errors();
            return QCoreApplication::exit(
                fail(why.isEmpty() ? QStringLiteral("cannot campaign") : why.last().toString()));
        }
        emitLine({{QStringLiteral("event"), QStringLiteral("campaigning")},
            {QStringLiteral("value"), value}});
    });
    return QCoreApplication::exec();
}

int observeEtcdCommand(const Globals &globals, QStringList args)
{
    if (!isOnePath(args))
        return fail(QStringLiteral("usage: observe --layout etcd <prefix>"));
    auto client = makeClient(globals);
    EtcdElection election(client.get(), args.first().toUtf8());
    QObject::connect(
        &election, &EtcdElection::observed, &election, [&election] { emitLeader(election); });
    // A change before observed() is part of what observed() reports.
    QObject::connect(&election, &EtcdElection::leaderChanged, &election, [&election] {
        if (election.isObserving())
            emitLeader(election);
    });
    QObject::connect(&election, &EtcdElection::failed, &election,
        [](const EtcdStatus &why) { QCoreApplication::exit(fail(why.toString())); });
    QObject::connect(&election, &EtcdRecipe::closed, &election, [] { QCoreApplication::exit(0); });
    onTerminationSignal([&election](int) { election.close(); });
    election.observe();
    return QCoreApplication::exec();
}

} // namespace Cli
