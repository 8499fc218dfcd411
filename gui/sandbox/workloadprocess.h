// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// One part of the sandbox's workload: an etcdqt command run again and again, a pause after
// each run, its output appended to <name>.log in the sandbox's directory. Internal to
// EtcdQtInspectorSandbox.
#pragma once

#include <QtCore/qobject.h>
#include <QtCore/qstringlist.h>
#include <QtCore/qtimer.h>

#include <chrono>
#include <functional>

class QProcess;

namespace Inspector {

class WorkloadProcess : public QObject
{
    Q_OBJECT
public:
    struct Spec
    {
        QString name; // "candidate-1": shown in summaries, names the log file
        std::function<QStringList()> arguments; // the etcdqt command of the next run
        std::chrono::milliseconds pause {1000}; // between a run's end and the next run
        std::chrono::milliseconds lifetime {0}; // > 0: SIGTERM a run that lasts this long
        // When set, stdout is read (it must stay small) and handed over after each run.
        std::function<void(const QByteArray &output)> onOutput {};
    };

    WorkloadProcess(Spec spec, const QString &program, const QStringList &globalArguments,
        const QString &logDirectory, QObject *parent = nullptr);
    ~WorkloadProcess() override;

    void start();
    void halt(); // no further runs; a running one is left for SandboxChild::terminate()

    [[nodiscard]] QString name() const { return m_spec.name; }
    [[nodiscard]] QProcess *process() const { return m_process; }
    [[nodiscard]] qint64 processId() const; // 0 between runs
    [[nodiscard]] QString summary() const; // translated, e.g. "candidate-1: running (pid 42)"

private:
    void launch();
    void onFinished(int exitCode);
    void scheduleNextRun();

    Spec m_spec;
    QString m_program;
    QStringList m_globalArguments;
    QProcess *m_process = nullptr;
    QTimer m_pause;
    QTimer m_lifetime;
    bool m_halted = false;
    int m_runs = 0;
    int m_lastExitCode = -1;
};

} // namespace Inspector
