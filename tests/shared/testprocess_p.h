// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QtCore/qprocess.h>
#include <QtCore/qstringlist.h>

#include <sys/types.h>

// The process behind an EtcdTestServer: the few QProcess calls the test kit makes, with its
// output appended to one file. With ETCDQT_TEST_SPAWN=posix it is started by posix_spawn()
// instead of QProcess's fork(): after a fork in a process with threads GCC 12's TSan ignores
// every thread that process starts later (the clients' engine and gRPC threads, since each
// test starts etcd first), and posix_spawn() does not go through its fork interceptor
// (issue 22, item 6: the switch is for the TSan work; QProcess stays the default meanwhile).
class TestProcess
{
public:
    TestProcess();
    ~TestProcess();
    TestProcess(const TestProcess &) = delete;
    TestProcess &operator=(const TestProcess &) = delete;

    void start(const QString &program, const QStringList &arguments, const QString &outputFile);
    bool waitForStarted();
    // Whether it runs; reaps a process that exited on its own.
    [[nodiscard]] bool isRunning();
    void terminate();
    void kill();
    // True once it exited (at once when it does not run).
    bool waitForFinished(int timeoutMs = 30000);
    [[nodiscard]] qint64 processId() const;

private:
    [[nodiscard]] bool reaped(int timeoutMs);

    const bool m_posix;
    QProcess m_process;
    pid_t m_pid = 0; // posix_spawn's child, 0 when none runs
};
