// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// Running etcdqt as a process in a test (tst_etcdqtcli, tst_etcdqtcli_service): a finished
// run, many at once, a running tool whose JSON lines are collected as they come.
#pragma once

#include <etcdtestserver.h>

#include <QtCore/qdeadlinetimer.h>
#include <QtCore/qelapsedtimer.h>
#include <QtCore/qjsondocument.h>
#include <QtCore/qjsonobject.h>
#include <childprocess_p.h>
#include <QtCore/qprocess.h>
#include <QtCore/qstringlist.h>

#include <csignal>
#include <memory>
#include <vector>

namespace CliTest {
using namespace Qt::StringLiterals;

inline constexpr int kTtlMs = 2000;
// A run that ends by itself (a refusal, a get): the budget only turns a hang into a failure.
// It is not a measure: an ASan build of the tool on a loaded machine takes seconds to start.
inline constexpr int kRunMs = 30000;

// A finished etcdqt run: its exit code, its JSON lines, its stderr.
struct Run
{
    int exitCode = -1;
    QList<QJsonObject> lines;
    QByteArray log;
};

inline Run finishedRun(ChildProcess &p, int ms)
{
    Run run;
    if (!p.waitForFinished(ms) || p.exitStatus() != QProcess::NormalExit)
        return run;
    run.exitCode = p.exitCode();
    for (const QByteArray &line : p.readAllStandardOutput().split('\n')) {
        if (!line.isEmpty())
            run.lines.append(QJsonDocument::fromJson(line).object());
    }
    run.log = p.readAllStandardError();
    return run;
}

inline Run runCli(const QStringList &args, int ms = kRunMs)
{
    ChildProcess p;
    p.start(QStringLiteral(ETCDQT_CLI), args);
    return finishedRun(p, ms);
}

// Every run at once, each its own process, answers in the order of `cases`. One after the
// other, a refusal's time went on waiting for a core (on a loaded 2-core machine 0.07 s of CPU
// took 0.4-0.8 s), and an unreachable endpoint's on waiting for connects to fail.
inline QList<Run> runAll(const QList<QStringList> &cases, int ms = kRunMs)
{
    std::vector<std::unique_ptr<ChildProcess>> processes;
    for (const QStringList &args : cases) {
        processes.push_back(std::make_unique<ChildProcess>());
        processes.back()->start(QStringLiteral(ETCDQT_CLI), args);
    }
    QList<Run> runs;
    const QDeadlineTimer deadline(ms);
    for (const auto &p : processes)
        runs.append(finishedRun(*p, int(qMax<qint64>(0, deadline.remainingTime()))));
    return runs;
}

// Bad input: exit `exitCode` (1), one "etcdqt: ..." line on stderr, nothing on stdout.
inline bool isOneLineRefusal(const Run &run, int exitCode = 1)
{
    const QList<QByteArray> lines = run.log.trimmed().split('\n');
    return run.exitCode == exitCode && lines.size() == 1 && lines.first().startsWith("etcdqt: ")
        && run.lines.isEmpty();
}

// The cases of `cases` that were not refused with one line (and `exitCode`), all run at once,
// each with what it wrote on stderr.
inline QStringList notRefusedWithOneLine(const QList<QStringList> &cases, int exitCode = 1)
{
    const QList<Run> runs = runAll(cases);
    QStringList wrong;
    for (qsizetype i = 0; i < cases.size(); ++i) {
        if (!isOneLineRefusal(runs.at(i), exitCode))
            wrong.append(
                cases.at(i).join(u' ') + u" -> "_s + QString::fromUtf8(runs.at(i).log.trimmed()));
    }
    return wrong;
}

// Each of `commands` against an endpoint where nothing listens, all at once: every run must
// end with exit 1 and an "etcdqt: ..." error, printing nothing on stdout.
inline QStringList notFailedUnreachable(const QList<QStringList> &commands)
{
    const quint16 port = EtcdTestServer::freePorts(1).first();
    QList<QStringList> cases;
    for (const QStringList &command : commands)
        cases.append(QStringList {u"--endpoints"_s, u"127.0.0.1:%1"_s.arg(port)} + command);
    const QList<Run> runs = runAll(cases, 15000);
    QStringList wrong;
    for (qsizetype i = 0; i < cases.size(); ++i) {
        const Run &r = runs.at(i);
        if (r.exitCode != 1 || !r.log.startsWith("etcdqt: ") || !r.lines.isEmpty())
            wrong.append(commands.at(i).join(u' ') + u": "_s + QString::fromUtf8(r.log));
    }
    return wrong;
}

// The next JSON line the process prints within `ms`; empty when none came.
inline QJsonObject nextLine(ChildProcess &p, int ms = 2 * kTtlMs)
{
    const QDeadlineTimer deadline(ms);
    while (!p.canReadLine() && p.state() == QProcess::Running && !deadline.hasExpired())
        p.waitForReadyRead(int(deadline.remainingTime()));
    return QJsonDocument::fromJson(p.readLine()).object();
}

// A running etcdqt whose JSON lines are collected as they arrive, each stamped with the time
// it came on the test's clock: several tools can be watched at once with QTRY_*.
class Tool
{
public:
    struct Line
    {
        QJsonObject json;
        qint64 atMs = 0;
    };

    // Lines stamped on its own clock, started now.
    explicit Tool(const QStringList &args) : Tool(m_ownClock, args) { m_ownClock.start(); }
    // `program`: another tool that speaks the same JSON lines (the Go interop programs).
    Tool(const QElapsedTimer &clock, const QStringList &args,
        const QString &program = QStringLiteral(ETCDQT_CLI))
    {
        QObject::connect(&process, &ChildProcess::readyReadStandardOutput, &process, [this, &clock] {
            while (process.canReadLine())
                lines.append(
                    {QJsonDocument::fromJson(process.readLine()).object(), clock.elapsed()});
        });
        QObject::connect(&process, &ChildProcess::readyReadStandardError, &process,
            [this] { log += process.readAllStandardError(); });
        process.start(program, args);
    }
    ~Tool()
    {
        if (process.state() != QProcess::NotRunning) {
            process.kill();
            process.waitForFinished();
        }
    }
    Tool(const Tool &) = delete;
    Tool &operator=(const Tool &) = delete;

    // The first line with "event": `name`, or null.
    const Line *event(const QString &name) const
    {
        for (const Line &line : lines) {
            if (line.json.value(u"event"_s).toString() == name)
                return &line;
        }
        return nullptr;
    }
    [[nodiscard]] bool has(const QString &name) const { return event(name) != nullptr; }
    // The JSON of the first line with "event": `name`; empty when there is none.
    [[nodiscard]] QJsonObject json(const QString &name) const
    {
        const Line *line = event(name);
        return line ? line->json : QJsonObject {};
    }
    [[nodiscard]] QStringList events() const
    {
        QStringList names;
        for (const Line &line : lines)
            names.append(line.json.value(u"event"_s).toString());
        return names;
    }
    [[nodiscard]] qint64 token() const
    {
        const Line *elected = event(u"elected"_s);
        return elected ? elected->json.value(u"token"_s).toInteger() : 0;
    }
    // What `observe` printed: the leaders' ids, "-" for a vacant election.
    [[nodiscard]] QStringList leaders() const
    {
        QStringList ids;
        for (const Line &line : lines) {
            const QJsonValue leader = line.json.value(u"leader"_s);
            ids.append(leader.isNull() ? u"-"_s : leader.toString(u"?"_s));
        }
        return ids;
    }
    void sendSignal(int sig) const { ::kill(pid_t(process.processId()), sig); }
    // What it printed so far (its JSON lines, then its log), for failure messages.
    [[nodiscard]] QByteArray transcript() const
    {
        QByteArray text;
        for (const Line &line : lines)
            text += QJsonDocument(line.json).toJson(QJsonDocument::Compact) + '\n';
        return text + log;
    }
    // Waits for the end, at most `ms` (it may have come already, seen by a QTRY's event loop).
    bool ends(int ms)
    {
        return process.state() == QProcess::NotRunning || process.waitForFinished(ms);
    }
    // True when it ended by itself within `ms` with `code`.
    bool exitsWith(int code, int ms)
    {
        return ends(ms) && process.exitStatus() == QProcess::NormalExit
            && process.exitCode() == code;
    }

    ChildProcess process;
    QList<Line> lines;
    QByteArray log; // stderr

private:
    QElapsedTimer m_ownClock;
};
} // namespace CliTest
