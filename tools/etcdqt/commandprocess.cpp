// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "commandprocess.h"

#include <QtCore/qfile.h>
#include <QtCore/qsocketnotifier.h>

#include <csignal>
#include <cstring>
#include <spawn.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace Cli {

namespace {
std::vector<char *> pointers(std::vector<QByteArray> &strings)
{
    std::vector<char *> p;
    for (QByteArray &s : strings)
        p.push_back(s.data());
    p.push_back(nullptr);
    return p;
}
} // namespace

CommandProcess::~CommandProcess()
{
    if (m_pid > 0) {
        ::kill(pid_t(m_pid), SIGKILL);
        ::waitpid(pid_t(m_pid), nullptr, 0);
    }
    if (m_pidfd >= 0)
        ::close(m_pidfd);
}

bool CommandProcess::start(const QStringList &command, const QProcessEnvironment &environment)
{
    std::vector<QByteArray> args;
    for (const QString &a : command)
        args.push_back(QFile::encodeName(a));
    std::vector<QByteArray> vars;
    for (const QString &v : environment.toStringList())
        vars.push_back(v.toLocal8Bit());
    std::vector<char *> argv = pointers(args), envp = pointers(vars);
    // The command starts as from a shell: no signal blocked, SIGPIPE not ignored.
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    sigset_t none, pipe;
    sigemptyset(&none);
    sigemptyset(&pipe);
    sigaddset(&pipe, SIGPIPE);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setsigdefault(&attr, &pipe);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    pid_t pid = 0;
    const int error = posix_spawnp(&pid, argv.front(), nullptr, &attr, argv.data(), envp.data());
    posix_spawnattr_destroy(&attr);
    if (error != 0) {
        m_error = QString::fromLocal8Bit(std::strerror(error));
        return false;
    }
    m_pid = pid;
    m_pidfd = int(::syscall(SYS_pidfd_open, pid, 0));
    if (m_pidfd < 0) { // a kernel before 5.3: nothing to watch its end with
        m_error = QString::fromLocal8Bit(std::strerror(errno));
        ::kill(pid, SIGKILL);
        ::waitpid(pid, nullptr, 0);
        m_pid = 0;
        return false;
    }
    m_exit = new QSocketNotifier(m_pidfd, QSocketNotifier::Read, this);
    connect(m_exit, &QSocketNotifier::activated, this, &CommandProcess::reap);
    return true;
}

void CommandProcess::reap()
{
    int status = 0;
    if (::waitpid(pid_t(m_pid), &status, WNOHANG) != pid_t(m_pid))
        return;
    m_pid = 0;
    m_exit->setEnabled(false);
    Q_EMIT finished(WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
}

} // namespace Cli
