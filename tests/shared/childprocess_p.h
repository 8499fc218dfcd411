// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QtCore/qbytearray.h>
#include <QtCore/qobject.h>
#include <QtCore/qprocess.h>
#include <QtCore/qstringlist.h>

#include <memory>

class QSocketNotifier;

// The kernel's state letter of process `pid` (R running, S sleeping, T stopped, ...; from
// /proc/PID/stat), '?' when it cannot be read (no such process).
[[nodiscard]] char kernelStateOf(qint64 pid);

// A child process for the tests: the part of QProcess's API they use (same names, same
// meaning), started with posix_spawn() instead of QProcess's fork(). After a fork in a process
// with threads, GCC 12's TSan ignores every thread the process starts later, so a test that ran
// a tool through QProcess went unwatched from then on (issue 22, item 6). Output arrives
// through pipes watched by socket notifiers (readyReadStandardOutput/Error), the exit through a
// pidfd; the waitFor*() calls poll() the same descriptors, without an event loop.
class ChildProcess : public QObject
{
    Q_OBJECT
public:
    explicit ChildProcess(QObject *parent = nullptr);
    ~ChildProcess() override; // kills a child still running and reaps it, as QProcess does

    // Before start(). The environment replaces the inherited one (QProcess's rule).
    void setProcessEnvironment(const QProcessEnvironment &environment);
    void setWorkingDirectory(const QString &directory) { m_directory = directory; }
    // SeparateChannels (default), MergedChannels (stderr into stdout) or
    // ForwardedErrorChannel (stderr goes to the test's own).
    void setProcessChannelMode(QProcess::ProcessChannelMode mode) { m_mode = mode; }
    // Standard output (and, merged, errors) appended to a file instead of a pipe.
    void setStandardOutputFile(const QString &file) { m_outputFile = file; }

    // A program without a slash is looked up in PATH. Fails (NotRunning) when it cannot run.
    void start(const QString &program, const QStringList &arguments = {});
    bool waitForStarted(int msecs = 30000) const;
    [[nodiscard]] QProcess::ProcessState state() const;
    [[nodiscard]] qint64 processId() const { return m_pid; }

    qint64 write(const QByteArray &data); // to its standard input, whole
    void closeWriteChannel();

    // Standard output read so far (what the notifiers or a waitFor*() call have collected).
    [[nodiscard]] bool canReadLine() const { return m_out.contains('\n'); }
    QByteArray readLine();
    QByteArray readAll() { return readAllStandardOutput(); }
    QByteArray readAllStandardOutput() { return std::exchange(m_out, {}); }
    QByteArray readAllStandardError() { return std::exchange(m_err, {}); }

    // True once new standard output came within `msecs` (-1: no limit).
    bool waitForReadyRead(int msecs = 30000);
    // True once it ended within `msecs` (-1: no limit); at once when it does not run.
    bool waitForFinished(int msecs = 30000);
    void terminate(); // SIGTERM
    void kill(); // SIGKILL: ends a stopped child too

    [[nodiscard]] int exitCode() const { return m_exitCode; }
    [[nodiscard]] QProcess::ExitStatus exitStatus() const { return m_exitStatus; }

Q_SIGNALS:
    void readyReadStandardOutput();
    void readyReadStandardError();
    void finished(int exitCode, QProcess::ExitStatus exitStatus);

private:
    struct Pipe;
    enum class Wait { Output, Exit };

    bool spawn(const QString &program, const QStringList &arguments);
    void watch();
    bool waitFor(Wait what, int msecs);
    bool drain(Pipe &pipe); // true when it read something
    void pumpOutput();
    void onExited();
    void closeAll();

    QStringList m_environment; // NAME=value; empty: the test's own
    bool m_environmentSet = false;
    QString m_directory, m_outputFile;
    QProcess::ProcessChannelMode m_mode = QProcess::SeparateChannels;
    qint64 m_pid = 0; // 0: never started or failed to
    bool m_running = false;
    int m_pidfd = -1, m_stdin = -1;
    std::unique_ptr<Pipe> m_stdout, m_stderr;
    std::unique_ptr<QSocketNotifier> m_exitNotifier;
    QByteArray m_out, m_err;
    int m_exitCode = 0;
    QProcess::ExitStatus m_exitStatus = QProcess::NormalExit;
};
