// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "childprocess_p.h"

#include <QtCore/qdeadlinetimer.h>
#include <QtCore/qfile.h>
#include <QtCore/qsocketnotifier.h>

#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <mutex>
#include <poll.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char **environ;

struct ChildProcess::Pipe
{
    Pipe(int f, QByteArray *b, void (ChildProcess::*r)()) : fd(f), buffer(b), ready(r) { }
    ~Pipe() { close(); }
    Pipe(const Pipe &) = delete;
    Pipe &operator=(const Pipe &) = delete;
    void close()
    {
        if (notifier) { // it may be the one whose activation brought us here
            notifier->setEnabled(false);
            notifier.release()->deleteLater();
        }
        if (fd >= 0)
            ::close(fd);
        fd = -1;
    }

    int fd;
    QByteArray *buffer;
    void (ChildProcess::*ready)();
    std::unique_ptr<QSocketNotifier> notifier;
};

namespace {
// A write to a child that ended must fail with EPIPE, not end the test (QProcess ignores
// SIGPIPE the same way).
void ignoreSigPipe()
{
    static std::once_flag once;
    std::call_once(once, [] { std::signal(SIGPIPE, SIG_IGN); });
}

std::vector<char *> pointers(std::vector<QByteArray> &strings)
{
    std::vector<char *> p;
    for (QByteArray &s : strings)
        p.push_back(s.data());
    p.push_back(nullptr);
    return p;
}

void closeFd(int &fd)
{
    if (fd >= 0)
        ::close(fd);
    fd = -1;
}
} // namespace

char kernelStateOf(qint64 pid)
{
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return '?';
    // "pid (comm) S ...": comm may hold spaces and parentheses, so search from the right.
    const QByteArray line = stat.readAll();
    const qsizetype paren = line.lastIndexOf(')');
    return paren >= 0 && paren + 2 < line.size() ? line.at(paren + 2) : '?';
}

ChildProcess::ChildProcess(QObject *parent) : QObject(parent)
{
    ignoreSigPipe();
}

ChildProcess::~ChildProcess()
{
    blockSignals(true); // nothing connected is told of an end it did not wait for
    if (m_running) {
        kill();
        waitForFinished(-1);
    }
    closeAll();
}

void ChildProcess::setProcessEnvironment(const QProcessEnvironment &environment)
{
    m_environment = environment.toStringList();
    m_environmentSet = true;
}

void ChildProcess::start(const QString &program, const QStringList &arguments)
{
    if (m_running)
        return;
    closeAll();
    m_out.clear();
    m_err.clear();
    m_exitCode = 0;
    m_exitStatus = QProcess::NormalExit;
    if (!spawn(program, arguments))
        return;
    m_running = true;
    watch();
}

bool ChildProcess::spawn(const QString &program, const QStringList &arguments)
{
    std::vector<QByteArray> args {QFile::encodeName(program)};
    for (const QString &a : arguments)
        args.push_back(a.toLocal8Bit());
    std::vector<QByteArray> vars;
    if (m_environmentSet) {
        for (const QString &v : std::as_const(m_environment))
            vars.push_back(v.toLocal8Bit());
    } else {
        for (char **e = environ; *e; ++e)
            vars.emplace_back(*e);
    }
    std::vector<char *> argv = pointers(args), envp = pointers(vars);
    // Every descriptor close-on-exec: the child gets only the three dup2() makes.
    int in[2] = {-1, -1}, out[2] = {-1, -1}, err[2] = {-1, -1};
    posix_spawn_file_actions_t files;
    posix_spawn_file_actions_init(&files);
    if (!m_directory.isEmpty()) // before the output file, which may be relative to it
        posix_spawn_file_actions_addchdir_np(&files, QFile::encodeName(m_directory).constData());
    const QByteArray outputFile = QFile::encodeName(m_outputFile);
    bool piped = ::pipe2(in, O_CLOEXEC) == 0;
    posix_spawn_file_actions_adddup2(&files, in[0], 0);
    if (!m_outputFile.isEmpty()) {
        posix_spawn_file_actions_addopen(
            &files, 1, outputFile.constData(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    } else {
        piped = piped && ::pipe2(out, O_CLOEXEC) == 0;
        posix_spawn_file_actions_adddup2(&files, out[1], 1);
    }
    if (m_mode == QProcess::MergedChannels) {
        posix_spawn_file_actions_adddup2(&files, 1, 2);
    } else if (m_mode != QProcess::ForwardedErrorChannel && m_mode != QProcess::ForwardedChannels) {
        piped = piped && ::pipe2(err, O_CLOEXEC) == 0;
        posix_spawn_file_actions_adddup2(&files, err[1], 2);
    }
    pid_t pid = 0;
    const bool spawned = piped
        && posix_spawnp(&pid, args.front().constData(), &files, nullptr, argv.data(), envp.data())
            == 0;
    posix_spawn_file_actions_destroy(&files);
    for (int *fd : {&in[0], &out[1], &err[1]}) // the child's ends
        closeFd(*fd);
    if (spawned)
        m_pidfd = int(::syscall(SYS_pidfd_open, pid, 0)); // glibc 2.36's header lacks C linkage
    if (!spawned || m_pidfd < 0) {
        for (int *fd : {&in[1], &out[0], &err[0]})
            closeFd(*fd);
        if (spawned) { // no way to watch it: do not leave it behind
            ::kill(pid, SIGKILL);
            ::waitpid(pid, nullptr, 0);
        }
        return false;
    }
    m_pid = pid;
    m_stdin = in[1];
    if (out[0] >= 0)
        m_stdout = std::make_unique<Pipe>(out[0], &m_out, &ChildProcess::readyReadStandardOutput);
    if (err[0] >= 0)
        m_stderr = std::make_unique<Pipe>(err[0], &m_err, &ChildProcess::readyReadStandardError);
    return true;
}

void ChildProcess::watch()
{
    for (Pipe *p : {m_stdout.get(), m_stderr.get()}) {
        if (!p)
            continue;
        ::fcntl(p->fd, F_SETFL, ::fcntl(p->fd, F_GETFL) | O_NONBLOCK);
        p->notifier = std::make_unique<QSocketNotifier>(p->fd, QSocketNotifier::Read, this);
        connect(p->notifier.get(), &QSocketNotifier::activated, this, [this, p] {
            if (drain(*p))
                Q_EMIT(this->*(p->ready))();
        });
    }
    m_exitNotifier = std::make_unique<QSocketNotifier>(m_pidfd, QSocketNotifier::Read, this);
    connect(m_exitNotifier.get(), &QSocketNotifier::activated, this, &ChildProcess::onExited);
}

bool ChildProcess::waitForStarted(int) const
{
    return m_pid > 0;
}

QProcess::ProcessState ChildProcess::state() const
{
    return m_running ? QProcess::Running : QProcess::NotRunning;
}

qint64 ChildProcess::write(const QByteArray &data)
{
    qint64 written = 0;
    while (m_stdin >= 0 && written < data.size()) {
        const ssize_t n
            = ::write(m_stdin, data.constData() + written, size_t(data.size() - written));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return -1;
        written += n;
    }
    return m_stdin >= 0 ? written : -1;
}

void ChildProcess::closeWriteChannel()
{
    closeFd(m_stdin);
}

QByteArray ChildProcess::readLine()
{
    const qsizetype end = m_out.indexOf('\n');
    const qsizetype n = end < 0 ? m_out.size() : end + 1;
    const QByteArray line = m_out.left(n);
    m_out.remove(0, n);
    return line;
}

bool ChildProcess::waitForReadyRead(int msecs)
{
    return waitFor(Wait::Output, msecs);
}

bool ChildProcess::waitForFinished(int msecs)
{
    return !m_running || waitFor(Wait::Exit, msecs);
}

void ChildProcess::terminate()
{
    if (m_running)
        ::kill(pid_t(m_pid), SIGTERM);
}

void ChildProcess::kill()
{
    if (m_running)
        ::kill(pid_t(m_pid), SIGKILL);
}

// poll() on the pipes and the pidfd until `what` happened or `msecs` passed. The pipes are
// read meanwhile either way: a child blocked on a full pipe would never end.
bool ChildProcess::waitFor(Wait what, int msecs)
{
    const QDeadlineTimer deadline
        = msecs < 0 ? QDeadlineTimer(QDeadlineTimer::Forever) : QDeadlineTimer(msecs);
    for (;;) {
        std::vector<pollfd> fds;
        for (Pipe *p : {m_stdout.get(), m_stderr.get()}) {
            if (p && p->fd >= 0)
                fds.push_back({p->fd, POLLIN, 0});
        }
        if (m_running)
            fds.push_back({m_pidfd, POLLIN, 0});
        if (fds.empty())
            return false;
        const int left = deadline.isForever() ? -1 : int(deadline.remainingTime());
        const int ready = ::poll(fds.data(), nfds_t(fds.size()), left);
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready < 0)
            return false;
        const qsizetype before = m_out.size();
        const bool outputCame = m_stdout && m_stdout->fd >= 0 && drain(*m_stdout);
        if (m_stderr && m_stderr->fd >= 0 && drain(*m_stderr))
            Q_EMIT readyReadStandardError();
        if (outputCame)
            Q_EMIT readyReadStandardOutput();
        if (m_running && fds.back().revents != 0)
            onExited();
        if (what == Wait::Output && (outputCame || m_out.size() > before))
            return true;
        if (what == Wait::Exit && !m_running)
            return true;
        if (!m_running || deadline.hasExpired())
            return false;
    }
}

// Everything the pipe holds now; at its end (the child closed it) it is closed here too.
bool ChildProcess::drain(Pipe &pipe)
{
    bool got = false;
    char chunk[65536];
    while (pipe.fd >= 0) {
        const ssize_t n = ::read(pipe.fd, chunk, sizeof chunk);
        if (n > 0) {
            pipe.buffer->append(chunk, n);
            got = true;
        } else if (n < 0 && errno == EINTR) {
            continue;
        } else {
            if (n == 0 || errno != EAGAIN)
                pipe.close();
            break;
        }
    }
    return got;
}

// The pidfd is readable: the child ended. What it wrote before is read first, so the output
// signals come before finished(), as with QProcess.
void ChildProcess::onExited()
{
    int status = 0;
    if (::waitpid(pid_t(m_pid), &status, WNOHANG) != pid_t(m_pid))
        return; // not yet reapable (a spurious wake-up)
    m_running = false;
    m_exitStatus = WIFEXITED(status) ? QProcess::NormalExit : QProcess::CrashExit;
    m_exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status);
    for (Pipe *p : {m_stdout.get(), m_stderr.get()}) {
        if (p && drain(*p))
            Q_EMIT(this->*(p->ready))();
    }
    closeAll();
    Q_EMIT finished(m_exitCode, m_exitStatus);
}

void ChildProcess::closeAll()
{
    m_stdout.reset();
    m_stderr.reset();
    if (m_exitNotifier) {
        m_exitNotifier->setEnabled(false);
        m_exitNotifier.release()->deleteLater();
    }
    closeFd(m_pidfd);
    closeFd(m_stdin);
}
