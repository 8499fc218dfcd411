// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// A private etcd on loopback, in a temporary directory, plus a demo workload of separate
// etcdqt processes under prefix(): three election candidates that hand off, two lock
// contenders, a barrier with two waiters, a latch, transient keys, and service instances that
// register and go. etcdqt-inspector
// --sandbox shows it live; scripts/demo runs it through etcdqt-sandbox when there is no
// display. Every process is a child of this object and ends with stop() or the destructor.
#pragma once

#include <QtCore/qdeadlinetimer.h>
#include <QtCore/qlist.h>
#include <QtCore/qobject.h>
#include <QtCore/qstringlist.h>
#include <QtCore/qtimer.h>
#include <QtCore/qurl.h>

#include <memory>

class QProcess;
class QTemporaryDir;

namespace Inspector {

class WorkloadProcess;

class Sandbox : public QObject
{
    Q_OBJECT
public:
    explicit Sandbox(QObject *parent = nullptr);
    ~Sandbox() override; // stops everything (as stop() does, without emitting stopped())

    static QByteArray prefix(); // "/sandbox": the workload's keys are all under it

    // Returns at once; started() follows once etcd serves and the workload runs, or failed().
    void start();
    // Ends every process (SIGTERM, SIGKILL after a short grace), removes the temporary
    // directory and emits stopped(). Blocks for at most a few seconds; does nothing when
    // neither running nor starting.
    void stop();

    [[nodiscard]] bool isRunning() const; // between started() and stop() or failed()
    [[nodiscard]] QUrl endpoint() const; // etcd's client URL while running, else empty
    [[nodiscard]] QString directory() const; // the temporary directory while it exists
    [[nodiscard]] QList<qint64> processIds() const; // etcd and the workload runs alive now
    [[nodiscard]] QStringList processSummary() const; // one translated line per process

    // The etcdqt tool the workload runs: $ETCDQT_CLI when set (an error if it names no
    // executable), else etcdqt next to this application, else the build tree's. Empty and
    // `why` set when there is none.
    static QString locateCli(QString *why);
    // etcd from PATH; empty and `why` set when there is none.
    static QString locateEtcd(QString *why);

Q_SIGNALS:
    void started(const QUrl &endpoint);
    void failed(const QString &why); // translated; everything is stopped already
    void stopped();

private:
    enum class State { Idle, Starting, Running };

    void launchEtcd();
    void pollEtcdReady();
    void onEtcdFinished(int exitCode);
    void startWorkload();
    void fail(const QString &why);
    void shutDown();
    [[nodiscard]] QString etcdLogTail() const;

    State m_state = State::Idle;
    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_cli;
    QString m_etcdProgram;
    QProcess *m_etcd = nullptr;
    QUrl m_endpoint;
    int m_etcdAttempts = 0;
    QTimer m_readyPoll;
    QDeadlineTimer m_readyDeadline;
    QList<WorkloadProcess *> m_workload;
};

} // namespace Inspector
