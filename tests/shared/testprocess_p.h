// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "childprocess_p.h"

#include <QtCore/qstringlist.h>

// The process behind an EtcdTestServer, and the tools the tests run with their output in a file
// (etcdctl, openssl): a ChildProcess, spawned without QProcess's fork (after which GCC 12's TSan
// ignores every thread the test starts later), output and errors appended to one file, never
// a pipe: etcd cannot block on a full pipe while a test blocks its event loop.
class TestProcess
{
public:
    TestProcess() = default;
    ~TestProcess() { kill(); }
    TestProcess(const TestProcess &) = delete;
    TestProcess &operator=(const TestProcess &) = delete;

    // Before start(): variables (NAME=value) added to the environment, and the directory the
    // process starts in. A program without a slash is looked up in PATH.
    void setEnvironment(const QStringList &additions);
    void setWorkingDirectory(const QString &directory) { m_child.setWorkingDirectory(directory); }
    // Output and errors are appended to outputFile.
    void start(const QString &program, const QStringList &arguments, const QString &outputFile);
    bool waitForStarted() { return m_child.waitForStarted(); }
    // Whether it runs; reaps a process that exited on its own, with no event loop.
    [[nodiscard]] bool isRunning();
    void terminate() { m_child.terminate(); }
    void kill(); // SIGKILL (which ends a stopped process too), then reaps it
    // True once it exited (at once when it does not run).
    bool waitForFinished(int timeoutMs = 30000) { return m_child.waitForFinished(timeoutMs); }
    [[nodiscard]] qint64 processId() const { return m_child.processId(); }
    // The exit code once finished (-1 after a signal or before it finished).
    [[nodiscard]] int exitCode() const;

private:
    ChildProcess m_child;
};
