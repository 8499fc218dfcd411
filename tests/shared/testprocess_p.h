// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QtCore/qprocess.h>
#include <QtCore/qstringlist.h>

#include <sys/types.h>

// The process behind an EtcdTestServer, and the tools the tests run (etcdctl, openssl): the few
// QProcess calls they make, with the output appended to one file. With ETCDQT_TEST_SPAWN=posix it
// is started by posix_spawn() instead of QProcess's fork(): after a fork in a process with threads
// GCC 12's TSan ignores every thread that process starts later (the clients' engine and gRPC
// threads, since each test starts etcd first), and posix_spawn() does not go through its fork
// interceptor (issue 22, item 6: the switch is for the TSan work; QProcess stays the default
// meanwhile).
class TestProcess
{
public:
    TestProcess();
    ~TestProcess();
    TestProcess(const TestProcess &) = delete;
    TestProcess &operator=(const TestProcess &) = delete;

    // Before start(): variables (NAME=value) added to the environment, and the directory the
    // process starts in. A program without a slash is looked up in PATH.
    void setEnvironment(const QStringList &additions) { m_environment = additions; }
    void setWorkingDirectory(const QString &directory) { m_directory = directory; }
    // Output and errors are appended to outputFile.
    void start(const QString &program, const QStringList &arguments, const QString &outputFile);
    bool waitForStarted();
    // Whether it runs; reaps a process that exited on its own.
    [[nodiscard]] bool isRunning();
    void terminate();
    void kill();
    // True once it exited (at once when it does not run).
    bool waitForFinished(int timeoutMs = 30000);
    [[nodiscard]] qint64 processId() const;
    // The exit code once finished (-1 after a signal or before it finished).
    [[nodiscard]] int exitCode() const;

private:
    [[nodiscard]] bool reaped(int timeoutMs);

    void startPosix(const QString &program, const QStringList &arguments, const QString &output);

    const bool m_posix;
    QProcess m_process;
    pid_t m_pid = 0; // posix_spawn's child, 0 when none runs
    int m_exitCode = -1;
    QStringList m_environment;
    QString m_directory;
};
