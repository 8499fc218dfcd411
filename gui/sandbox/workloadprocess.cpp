// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "workloadprocess.h"

#include "childprocess.h"

#include <QtCore/qdir.h>
#include <QtCore/qprocess.h>

namespace Inspector {

WorkloadProcess::WorkloadProcess(Spec spec, const QString &program,
    const QStringList &globalArguments, const QString &logDirectory, QObject *parent)
    : QObject(parent), m_spec(std::move(spec)), m_program(program),
      m_globalArguments(globalArguments), m_process(new QProcess(this))
{
    SandboxChild::prepare(*m_process);
    // Output goes to a file, or (small, read after each run) to us: a pipe never fills up.
    const QString log = QDir(logDirectory).filePath(m_spec.name + QLatin1String(".log"));
    if (m_spec.onOutput) {
        m_process->setStandardErrorFile(log, QIODevice::Append);
    } else {
        m_process->setProcessChannelMode(QProcess::MergedChannels);
        m_process->setStandardOutputFile(log, QIODevice::Append);
    }
    connect(m_process, &QProcess::finished, this,
        [this](int exitCode, QProcess::ExitStatus) { onFinished(exitCode); });
    connect(m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error != QProcess::FailedToStart || m_halted)
            return;
        qCWarning(lcSandbox).noquote()
            << m_spec.name << "could not start" << m_program << ":" << m_process->errorString();
        scheduleNextRun(); // finished() does not come for a run that never started
    });

    m_pause.setSingleShot(true);
    connect(&m_pause, &QTimer::timeout, this, &WorkloadProcess::launch);
    m_lifetime.setSingleShot(true);
    connect(&m_lifetime, &QTimer::timeout, m_process, &QProcess::terminate);
}

WorkloadProcess::~WorkloadProcess()
{
    halt();
    if (m_process->state() != QProcess::NotRunning)
        SandboxChild::terminate({m_process}, std::chrono::milliseconds(500));
}

void WorkloadProcess::start()
{
    m_halted = false;
    launch();
}

void WorkloadProcess::halt()
{
    m_halted = true;
    m_pause.stop();
    m_lifetime.stop();
}

qint64 WorkloadProcess::processId() const
{
    return m_process->state() == QProcess::NotRunning ? 0 : m_process->processId();
}

QString WorkloadProcess::summary() const
{
    if (m_process->state() != QProcess::NotRunning)
        return tr("%1: running (pid %2, run %3)").arg(m_spec.name).arg(processId()).arg(m_runs);
    if (m_halted)
        return tr("%1: stopped").arg(m_spec.name);
    return tr("%1: waiting for its next run (last exit status %2)")
        .arg(m_spec.name)
        .arg(m_lastExitCode);
}

void WorkloadProcess::launch()
{
    if (m_halted)
        return;
    ++m_runs;
    const QStringList arguments = m_globalArguments + m_spec.arguments();
    qCDebug(lcSandbox).noquote() << m_spec.name << "runs" << arguments.join(u' ');
    m_process->start(m_program, arguments);
    if (m_spec.lifetime.count() > 0)
        m_lifetime.start(m_spec.lifetime);
}

void WorkloadProcess::onFinished(int exitCode)
{
    m_lifetime.stop();
    m_lastExitCode = exitCode;
    if (m_halted)
        return;
    if (m_spec.onOutput)
        m_spec.onOutput(m_process->readAllStandardOutput());
    scheduleNextRun();
}

void WorkloadProcess::scheduleNextRun()
{
    if (!m_halted)
        m_pause.start(m_spec.pause);
}

} // namespace Inspector
