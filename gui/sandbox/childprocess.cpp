// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "childprocess.h"

#include <QtCore/qdeadlinetimer.h>
#include <QtCore/qprocess.h>
#include <QtNetwork/qtcpserver.h>

#include <csignal>
#include <memory>
#include <sys/types.h>
#include <unistd.h>
#include <vector>
#ifdef Q_OS_LINUX
#include <sys/prctl.h>
#endif

Q_LOGGING_CATEGORY(lcSandbox, "etcdqt.inspector.sandbox", QtWarningMsg)

namespace Inspector::SandboxChild {

namespace {

void signalGroup(qint64 leader, int signal)
{
    if (leader > 0)
        ::kill(-static_cast<pid_t>(leader), signal);
}

} // namespace

void prepare(QProcess &process)
{
    process.setStandardInputFile(QProcess::nullDevice());
    // Runs in the child between fork and exec: async-signal-safe calls only.
    process.setChildProcessModifier([parent = ::getpid()] {
        ::setpgid(0, 0);
#ifdef Q_OS_LINUX
        ::prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (::getppid() != parent) // the sandbox died before prctl took effect
            ::_exit(127);
#else
        Q_UNUSED(parent);
#endif
    });
}

// Distinct free ports: all are held open together while choosing, so none repeats.
QList<quint16> freeLoopbackPorts(int count)
{
    std::vector<std::unique_ptr<QTcpServer>> held;
    QList<quint16> ports;
    for (int i = 0; i < count; ++i) {
        auto server = std::make_unique<QTcpServer>();
        if (!server->listen(QHostAddress::LocalHost, 0))
            return {};
        ports.append(server->serverPort());
        held.push_back(std::move(server));
    }
    return ports;
}

int terminate(const QList<QProcess *> &processes, std::chrono::milliseconds grace)
{
    QList<qint64> leaders;
    for (QProcess *process : processes) {
        if (process && process->state() != QProcess::NotRunning)
            leaders.append(process->processId());
    }
    for (qint64 leader : leaders)
        signalGroup(leader, SIGTERM);

    const QDeadlineTimer deadline(grace);
    int killed = 0;
    for (QProcess *process : processes) {
        if (!process || process->state() == QProcess::NotRunning)
            continue;
        if (process->waitForFinished(int(deadline.remainingTime())))
            continue;
        qCDebug(lcSandbox) << "killing" << process->program() << process->processId() << "after"
                           << grace.count() << "ms";
        signalGroup(process->processId(), SIGKILL);
        process->kill(); // the leader itself, should it have left its group
        process->waitForFinished(1000);
        ++killed;
    }
    // A leader that exited in time may have left members behind (a command it did not reap).
    // The group id stays reserved while any member lives, so this reaches only our processes.
    for (qint64 leader : leaders)
        signalGroup(leader, SIGKILL);
    return killed;
}

} // namespace Inspector::SandboxChild
