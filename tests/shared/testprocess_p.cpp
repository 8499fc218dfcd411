// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "testprocess_p.h"

#include <QtCore/qdeadlinetimer.h>
#include <QtCore/qfile.h>
#include <QtCore/qthread.h>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>

#include <vector>

extern char **environ;

TestProcess::TestProcess() : m_posix(qEnvironmentVariable("ETCDQT_TEST_SPAWN") == u"posix") { }

TestProcess::~TestProcess()
{
    kill();
}

void TestProcess::start(
    const QString &program, const QStringList &arguments, const QString &outputFile)
{
    if (!m_posix) {
        m_process.setProgram(program);
        m_process.setArguments(arguments);
        // A file, not a pipe: etcd never blocks on a full pipe while a test blocks the loop.
        m_process.setStandardOutputFile(outputFile, QIODevice::Append);
        m_process.setStandardErrorFile(outputFile, QIODevice::Append);
        m_process.start();
        return;
    }
    const QByteArray path = QFile::encodeName(program);
    const QByteArray log = QFile::encodeName(outputFile);
    std::vector<QByteArray> args {path};
    for (const QString &a : arguments)
        args.push_back(a.toLocal8Bit());
    std::vector<char *> argv;
    for (QByteArray &a : args)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t files;
    posix_spawn_file_actions_init(&files);
    posix_spawn_file_actions_addopen(
        &files, 1, log.constData(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    posix_spawn_file_actions_adddup2(&files, 1, 2);
    if (posix_spawn(&m_pid, path.constData(), &files, nullptr, argv.data(), environ) != 0)
        m_pid = 0;
    posix_spawn_file_actions_destroy(&files);
}

bool TestProcess::waitForStarted()
{
    return m_posix ? m_pid > 0 : m_process.waitForStarted();
}

bool TestProcess::isRunning()
{
    if (!m_posix) // waitForFinished(0) reaps an etcd that died on its own, with no event loop
        return m_process.state() == QProcess::Running && !m_process.waitForFinished(0);
    return m_pid > 0 && !reaped(0);
}

void TestProcess::terminate()
{
    if (!m_posix)
        return m_process.terminate();
    if (m_pid > 0)
        ::kill(m_pid, SIGTERM);
}

void TestProcess::kill()
{
    if (!m_posix) {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.kill(); // SIGKILL ends a stopped process too
            m_process.waitForFinished();
        }
        return;
    }
    if (m_pid > 0) {
        ::kill(m_pid, SIGKILL);
        (void)reaped(-1);
    }
}

bool TestProcess::waitForFinished(int timeoutMs)
{
    if (!m_posix)
        return m_process.waitForFinished(timeoutMs);
    return m_pid <= 0 || reaped(timeoutMs);
}

qint64 TestProcess::processId() const
{
    return m_posix ? m_pid : m_process.processId();
}

// Polls waitpid() until the child exited (-1: as long as it takes); the test kit has no
// event loop to wait in, and a child ends within milliseconds of SIGKILL.
bool TestProcess::reaped(int timeoutMs)
{
    const QDeadlineTimer deadline
        = timeoutMs < 0 ? QDeadlineTimer(QDeadlineTimer::Forever) : QDeadlineTimer(timeoutMs);
    for (;;) {
        const pid_t done = ::waitpid(m_pid, nullptr, WNOHANG);
        if (done == m_pid || done < 0) {
            m_pid = 0;
            return true;
        }
        if (deadline.hasExpired())
            return false;
        QThread::usleep(1000);
    }
}
