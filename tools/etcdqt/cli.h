// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// Shared by every etcdqt command: global options, JSON lines out, and a clean end on signals.
#pragma once

#include <EtcdQt/etcdclient.h>
#include <EtcdQt/etcdleaseevent.h>
#include <EtcdQt/etcdmetricsregistry.h>

#include <QtCore/qjsonobject.h>
#include <QtCore/qstringlist.h>

#include <chrono>
#include <functional>
#include <limits>
#include <memory>

namespace Cli {

// The global options, parsed from the arguments before the command.
struct Globals
{
    QList<QUrl> endpoints;
    EtcdTlsFiles tls;
    QString user;
    QString password;
    std::shared_ptr<EtcdMetricsRegistry> metrics; // --metrics-port: every client reports here
};

// Parses global options off the front of `args` (leaving the command and its arguments).
// On bad input returns false with `error` set.
bool parseGlobals(QStringList &args, Globals &globals, QString &error);
// --user NAME without ":PASSWORD": the password from ETCDQT_PASSWORD, else asked on the
// terminal; false with `error` set without either. Warns (stderr) when it would go to a host
// other than this one over http://.
bool resolveCredentials(Globals &globals, bool passwordGiven, QString &error);
// --cacert, --cert and --key with an http:// endpoint: false with `error` set.
bool checkTlsFiles(const Globals &globals, QString &error);
std::unique_ptr<EtcdClient> makeClient(const Globals &globals);
// Takes --metrics-port N (and --metrics-address A, default 127.0.0.1) from anywhere before a
// "--" in `args` (global or the command's) and serves every client's metrics there at
// /metrics for as long as the command runs (port 0: a free one); the URL is noted on stderr.
// False with `error` set for a bad value or a port that cannot be bound.
bool serveMetrics(QStringList &args, Globals &globals, QString &error);

// One JSON object, one line, flushed: consumers read events as they happen.
void emitLine(const QJsonObject &object);
// The one-line error of a failed command, on stderr; returns the exit code to use.
int fail(const QString &message);
// A line on stderr about something that happened, not an error.
void note(const QString &message);
// One line of text on stdout, flushed at once (the text output of a watching command).
void printText(const QString &line);
// The exit code of an election command whose leadership was lost (elect, both layouts).
inline constexpr int kSteppedDownExitCode = 3;
// The exit code of a wait that timed out (barrier wait, latch await, lock --wait-ms, queue
// take).
inline constexpr int kTimedOutExitCode = 2;
// Bytes for a terminal: quoted text, or 0x-hex for what a terminal should not get (not
// UTF-8, or control characters: the 4- and 8-byte numbers of permits, counters and latches).
QString shownBytes(const QByteArray &bytes);

// Runs `onSignal(signal)` in the event loop on the first SIGINT or SIGTERM; a second one
// ends the process at once.
void onTerminationSignal(std::function<void(int signal)> onSignal);
// Runs `onSignal` in the event loop on every SIGINT and SIGTERM, for a command that passes
// them on to a child. `fromTerminal`: the terminal sent it (Ctrl+C), to the whole foreground
// process group, so the child has it already.
void onEveryTerminationSignal(std::function<void(int signal, bool fromTerminal)> onSignal);

// The JSON line of a lease event, its type under `field`.
QJsonObject leaseEventObject(const EtcdLeaseEvent &e, const QString &field);

// A --ttl value: whole seconds from 1 to etcd's maximum lease TTL (9,000,000,000 s). False
// (and `error` set to the one-line message) for anything else.
bool parseTtl(const QString &text, qint64 &ttl, QString &error);

// --ttl S (default 2) and --hold-ms N (default -1: hold until a signal), removed from args.
// False with `error` set when the TTL is not one etcd grants or the hold not 0 or more.
bool takeTtlAndHold(QStringList &args, qint64 &ttl, int &holdMs, QString &error);

// A command's value of `--name V` (removed from args), or `fallback`.
QString takeOption(QStringList &args, const QString &name, const QString &fallback = {});
bool takeFlag(QStringList &args, const QString &name);

int leaseCommand(const Globals &globals, QStringList args);
int electCommand(const Globals &globals, QStringList args);
int observeCommand(const Globals &globals, QStringList args);
// The --layout etcd forms of elect and observe (etcd's own election, as Go and etcdctl use).
int electEtcdCommand(const Globals &globals, QStringList args);
int observeEtcdCommand(const Globals &globals, QStringList args);
// Takes --layout off `args`: true for etcd's own layout, false for etcd-recipes' (the default,
// also "recipes"); `error` is set for anything else.
bool takeEtcdLayout(QStringList &args, QString &error);
// What is left of a command's arguments is exactly one path: not empty, not an option.
bool isOnePath(const QStringList &args);
// What is left is `count` operands, none an option, the first (a path) not empty; false with
// `error` set (to `usage` for a wrong count) otherwise.
bool operandsAre(const QStringList &args, qsizetype count, const QString &usage, QString &error);
// Runs the event loop until `reply` finished: prints `line()` and exits 0 when it succeeded,
// else fails with its status.
int printWhenDone(EtcdReply *reply, std::function<QJsonObject()> line);
int lockCommand(const Globals &globals, QStringList args);
int incrCommand(const Globals &globals, QStringList args);
// elect --layout etcd <prefix> --incr <counter-key>: incr's loop under a leadership.
struct ElectIncrOptions
{
    QByteArray counter;
    std::chrono::seconds ttl {10};
    qint64 count = std::numeric_limits<qint64>::max(); // writes; until a signal by default
    qint64 termWrites = 10; // then the leader resigns and campaigns again
    int holdMs = 0; // between each read and its write
    bool fenced = true;
    bool events = false;
};
int electIncr(const Globals &globals, const QByteArray &prefix, const QByteArray &value,
    const ElectIncrOptions &options);
int barrierCommand(const Globals &globals, QStringList args);
int latchCommand(const Globals &globals, QStringList args);
int counterCommand(const Globals &globals, QStringList args);
int inspectCommand(const Globals &globals, QStringList args);
int cacheCommand(const Globals &globals, QStringList args);
int serviceCommand(const Globals &globals, QStringList args);
int queueCommand(const Globals &globals, QStringList args);
int workCommand(const Globals &globals, QStringList args);
// work process: a consumer doing each item's (fenced) effect, for fault tests.
int workProcessCommand(const Globals &globals, QStringList args);

} // namespace Cli
