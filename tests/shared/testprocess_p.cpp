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

#include <algorithm>
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
    m_exitCode = -1;
    if (m_posix)
        return startPosix(program, arguments, outputFile);
    m_process.setProgram(program);
    m_process.setArguments(arguments);
    if (!m_environment.isEmpty()) {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const QString &v : std::as_const(m_environment))
            env.insert(v.section(u'=', 0, 0), v.section(u'=', 1));
        m_process.setProcessEnvironment(env);
    }
    if (!m_directory.isEmpty())
        m_process.setWorkingDirectory(m_directory);
    // A file, not a pipe: etcd never blocks on a full pipe while a test blocks the loop.
    m_process.setStandardOutputFile(outputFile, QIODevice::Append);
    m_process.setStandardErrorFile(outputFile, QIODevice::Append);
    m_process.start();
}

void TestProcess::startPosix(
    const QString &program, const QStringList &arguments, const QString &outputFile)
{
    const QByteArray path = QFile::encodeName(program);
    const QByteArray log = QFile::encodeName(outputFile);
    std::vector<QByteArray> args {path};
    for (const QString &a : arguments)
        args.push_back(a.toLocal8Bit());
    std::vector<char *> argv;
    for (QByteArray &a : args)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    std::vector<QByteArray> vars;
    for (const QString &v : std::as_const(m_environment))
        vars.push_back(v.toLocal8Bit());
    std::vector<char *> envp;
    for (QByteArray &v : vars)
        envp.push_back(v.data());
    for (char **e = environ; *e; ++e) { // without the names the additions set
        const QByteArray entry(*e);
        const bool replaced = std::any_of(vars.cbegin(), vars.cend(),
            [&entry](const QByteArray &v) { return entry.startsWith(v.left(v.indexOf('=') + 1)); });
        if (!replaced)
            envp.push_back(*e);
    }
    envp.push_back(nullptr);
    posix_spawn_file_actions_t files;
    posix_spawn_file_actions_init(&files);
    if (!m_directory.isEmpty()) // before the output file, which may be relative to it
        posix_spawn_file_actions_addchdir_np(&files, QFile::encodeName(m_directory).constData());
    posix_spawn_file_actions_addopen(
        &files, 1, log.constData(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    posix_spawn_file_actions_adddup2(&files, 1, 2);
    if (posix_spawnp(&m_pid, path.constData(), &files, nullptr, argv.data(), envp.data()) != 0)
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

int TestProcess::exitCode() const
{
    if (!m_posix)
        return m_process.exitStatus() == QProcess::NormalExit ? m_process.exitCode() : -1;
    return m_exitCode;
}

// Polls waitpid() until the child exited (-1: as long as it takes); the test kit has no
// event loop to wait in, and a child ends within milliseconds of SIGKILL.
bool TestProcess::reaped(int timeoutMs)
{
    const QDeadlineTimer deadline
        = timeoutMs < 0 ? QDeadlineTimer(QDeadlineTimer::Forever) : QDeadlineTimer(timeoutMs);
    for (;;) {
        int status = 0;
        const pid_t done = ::waitpid(m_pid, &status, WNOHANG);
        if (done == m_pid || done < 0) {
            m_exitCode = done == m_pid && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
            m_pid = 0;
            return true;
        }
        if (deadline.hasExpired())
            return false;
        QThread::usleep(1000);
    }
}
