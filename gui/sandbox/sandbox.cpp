// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "sandbox.h"

#include "childprocess.h"
#include "workload.h"
#include "workloadprocess.h"

#include <QtCore/qdir.h>
#include <QtCore/qfile.h>
#include <QtCore/qprocess.h>
#include <QtCore/qtemporarydir.h>

#include <utility>

using namespace std::chrono_literals;
using namespace Qt::StringLiterals;

namespace Inspector {

namespace {

constexpr auto kReadyTimeout = 15s;
constexpr auto kReadyPollInterval = 100ms;
constexpr auto kWorkloadGrace = 1500ms; // elect and lease keep revoke their lease on SIGTERM
constexpr auto kEtcdGrace = 2s;
constexpr int kMaxEtcdAttempts = 3; // a free port can be taken before etcd binds it

} // namespace

Sandbox::Sandbox(QObject *parent) : QObject(parent)
{
    m_readyPoll.setInterval(kReadyPollInterval);
    connect(&m_readyPoll, &QTimer::timeout, this, &Sandbox::pollEtcdReady);
}

Sandbox::~Sandbox()
{
    if (m_state != State::Idle)
        shutDown();
}

QByteArray Sandbox::prefix()
{
    return "/sandbox"_ba;
}

void Sandbox::start()
{
    if (m_state != State::Idle) {
        qCDebug(lcSandbox) << "start() ignored: already started";
        return;
    }
    QString why;
    m_cli = locateCli(&why);
    if (m_cli.isEmpty())
        return fail(why);
    m_etcdProgram = locateEtcd(&why);
    if (m_etcdProgram.isEmpty())
        return fail(why);
    m_dir = std::make_unique<QTemporaryDir>(QDir::tempPath() + u"/etcdqt-sandbox-XXXXXX"_s);
    if (!m_dir->isValid()) {
        why = m_dir->errorString();
        m_dir.reset();
        return fail(tr("Could not create a temporary directory for the sandbox: %1").arg(why));
    }
    m_state = State::Starting;
    m_etcdAttempts = 0;
    qCInfo(lcSandbox).noquote() << "starting in" << m_dir->path() << "with" << m_etcdProgram
                                << "and" << m_cli;
    launchEtcd();
}

void Sandbox::launchEtcd()
{
    if (m_state != State::Starting)
        return; // stopped while a retry was queued
    ++m_etcdAttempts;
    const QList<quint16> ports = SandboxChild::freeLoopbackPorts(2);
    if (ports.size() != 2)
        return fail(tr("No free port on 127.0.0.1 for etcd."));
    m_endpoint = QUrl(u"http://127.0.0.1:%1"_s.arg(ports.at(0)));
    const QString client = m_endpoint.toString();
    const QString peer = u"http://127.0.0.1:%1"_s.arg(ports.at(1));
    const QString name = u"sandbox"_s;

    delete m_etcd;
    m_etcd = new QProcess(this);
    SandboxChild::prepare(*m_etcd);
    m_etcd->setProcessChannelMode(QProcess::MergedChannels);
    m_etcd->setStandardOutputFile(m_dir->filePath(u"etcd.log"_s), QIODevice::Truncate);
    connect(m_etcd, &QProcess::finished, this,
        [this](int exitCode, QProcess::ExitStatus) { onEtcdFinished(exitCode); });
    connect(m_etcd, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart && m_state != State::Idle) {
            fail(
                tr("etcd (%1) could not be started: %2").arg(m_etcdProgram, m_etcd->errorString()));
        }
    });
    m_etcd->start(m_etcdProgram,
        {u"--name"_s, name, u"--data-dir"_s, m_dir->filePath(u"etcd"_s), u"--listen-client-urls"_s,
            client, u"--advertise-client-urls"_s, client, u"--listen-peer-urls"_s, peer,
            u"--initial-advertise-peer-urls"_s, peer, u"--initial-cluster"_s, name + u'=' + peer});
    m_readyDeadline.setRemainingTime(kReadyTimeout);
    m_readyPoll.start();
}

// etcd says when it serves; its log is a file, read again on every poll until it does.
void Sandbox::pollEtcdReady()
{
    QFile log(m_dir->filePath(u"etcd.log"_s));
    if (log.open(QIODevice::ReadOnly) && log.readAll().contains("ready to serve client requests")) {
        m_readyPoll.stop();
        qCInfo(lcSandbox).noquote() << "etcd serves at" << m_endpoint.toString();
        m_state = State::Running;
        startWorkload();
        Q_EMIT started(m_endpoint);
        return;
    }
    if (m_readyDeadline.hasExpired()) {
        fail(tr("etcd was not ready within %n second(s). Its last output:\n%1", nullptr,
            int(std::chrono::seconds(kReadyTimeout).count()))
                 .arg(etcdLogTail()));
    }
}

void Sandbox::onEtcdFinished(int exitCode)
{
    if (m_state == State::Idle)
        return; // stopping
    const QString tail = etcdLogTail();
    if (m_state == State::Running) {
        return fail(tr("etcd exited unexpectedly (exit status %1); the sandbox has stopped. Its "
                       "last output:\n%2")
                        .arg(exitCode)
                        .arg(tail));
    }
    m_readyPoll.stop();
    if (tail.contains(u"address already in use"_s) && m_etcdAttempts < kMaxEtcdAttempts) {
        qCDebug(lcSandbox) << "etcd's port was taken; trying other ports";
        QMetaObject::invokeMethod(this, &Sandbox::launchEtcd, Qt::QueuedConnection);
        return;
    }
    fail(tr("etcd exited before it was ready (exit status %1). Its last output:\n%2")
             .arg(exitCode)
             .arg(tail));
}

void Sandbox::startWorkload()
{
    const QStringList global {u"--endpoints"_s, m_endpoint.toString()};
    for (WorkloadProcess::Spec &spec : SandboxWorkload::specs(prefix())) {
        auto *process = new WorkloadProcess(std::move(spec), m_cli, global, m_dir->path(), this);
        m_workload.append(process);
        process->start();
    }
}

void Sandbox::stop()
{
    if (m_state == State::Idle)
        return;
    shutDown();
    Q_EMIT stopped();
}

void Sandbox::fail(const QString &why)
{
    qCInfo(lcSandbox).noquote() << "failed:" << why; // the signal carries it to the user
    if (m_state != State::Idle)
        shutDown();
    // Deferred: a failure found inside start() still reaches slots connected after it.
    QTimer::singleShot(0, this, [this, why] { Q_EMIT failed(why); });
}

// The workload goes first, while etcd still answers the revokes of its leases.
void Sandbox::shutDown()
{
    m_state = State::Idle;
    m_readyPoll.stop();
    QList<QProcess *> workload;
    for (WorkloadProcess *process : std::as_const(m_workload)) {
        process->halt();
        workload.append(process->process());
    }
    SandboxChild::terminate(workload, kWorkloadGrace);
    if (m_etcd)
        SandboxChild::terminate({m_etcd}, kEtcdGrace);
    qDeleteAll(std::exchange(m_workload, {}));
    if (m_etcd) {
        m_etcd->disconnect(this);
        // deleteLater: shutDown() may run inside this process's own finished() signal.
        std::exchange(m_etcd, nullptr)->deleteLater();
    }
    m_dir.reset();
    m_endpoint.clear();
    qCInfo(lcSandbox) << "stopped";
}

bool Sandbox::isRunning() const
{
    return m_state == State::Running;
}

QUrl Sandbox::endpoint() const
{
    return m_state == State::Running ? m_endpoint : QUrl();
}

QString Sandbox::directory() const
{
    return m_dir ? m_dir->path() : QString();
}

QList<qint64> Sandbox::processIds() const
{
    QList<qint64> pids;
    if (m_etcd && m_etcd->state() != QProcess::NotRunning)
        pids.append(m_etcd->processId());
    for (const WorkloadProcess *process : m_workload) {
        if (const qint64 pid = process->processId())
            pids.append(pid);
    }
    return pids;
}

QStringList Sandbox::processSummary() const
{
    QStringList lines;
    if (m_etcd && m_etcd->state() != QProcess::NotRunning) {
        lines.append(
            tr("etcd: running (pid %1) at %2").arg(m_etcd->processId()).arg(m_endpoint.toString()));
    } else if (m_etcd) {
        lines.append(tr("etcd: not running"));
    }
    for (const WorkloadProcess *process : m_workload)
        lines.append(process->summary());
    return lines;
}

QString Sandbox::etcdLogTail() const
{
    QFile log(m_dir->filePath(u"etcd.log"_s));
    if (!log.open(QIODevice::ReadOnly))
        return {};
    const QList<QByteArray> lines = log.readAll().trimmed().split('\n');
    return QString::fromUtf8(lines.mid(qMax(0, int(lines.size()) - 5)).join('\n'));
}

} // namespace Inspector
