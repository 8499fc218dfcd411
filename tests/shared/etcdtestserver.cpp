// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "etcdtestserver.h"

#include "etcdserverpb/rpc.pb.h"
#include "etcdtestgrpc.h"
#include "etcdtestserver_p.h"

#include <QtCore/qdeadlinetimer.h>
#include <QtCore/qfileinfo.h>
#include <QtCore/qthread.h>
#include <QtNetwork/qtcpserver.h>

#include <signal.h>

#include <vector>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using std::chrono::milliseconds;

namespace {
constexpr int LaunchAttempts = 5;
// Each readiness try is one short RPC, so an exited etcd is noticed quickly.
constexpr milliseconds ProbeSlice = 250ms;

milliseconds remaining(const QDeadlineTimer &deadline)
{
    return milliseconds(std::max<qint64>(0, deadline.remainingTime()));
}
} // namespace

EtcdTestServer::EtcdTestServer(QObject *parent)
    : QObject(parent), d(std::make_unique<EtcdTestServerPrivate>())
{ }

EtcdTestServer::~EtcdTestServer()
{
    kill();
}

void EtcdTestServer::setExtraArguments(const QStringList &arguments)
{
    d->extraArguments = arguments;
}

void EtcdTestServer::setName(const QString &name)
{
    d->name = name;
}

void EtcdTestServer::setPorts(quint16 clientPort, quint16 peerPort)
{
    d->clientPort = clientPort;
    d->peerPort = peerPort;
    d->portsFixed = true;
}

void EtcdTestServer::setInitialCluster(const QString &initialCluster, const QString &token)
{
    d->initialCluster = initialCluster;
    d->token = token;
}

void EtcdTestServer::setInitialClusterState(const QString &state)
{
    d->clusterState = state;
}

bool EtcdTestServer::launch()
{
    if (isRunning() || !d->prepare())
        return false;
    d->spawn();
    return d->process.waitForStarted();
}

bool EtcdTestServer::waitForReady(milliseconds timeout)
{
    const QDeadlineTimer deadline(timeout);
    while (isRunning()) {
        if (probe(endpoint(), std::min(ProbeSlice, remaining(deadline))))
            return true;
        if (deadline.hasExpired())
            return false;
    }
    return false;
}

bool EtcdTestServer::start(milliseconds timeout)
{
    if (isRunning())
        return true;
    const QDeadlineTimer deadline(timeout);
    // Ports chosen once stay: clients and the data dir's membership refer to them.
    const bool keepPorts = d->portsFixed || d->clientPort != 0;
    for (int attempt = 1;; ++attempt) {
        if (launch() && waitForReady(remaining(deadline)))
            return true;
        const bool retry = portWasTaken() && attempt < LaunchAttempts && !deadline.hasExpired();
        kill();
        if (!retry)
            return false;
        if (keepPorts)
            QThread::msleep(200); // give whoever holds our port a moment to let go
        else
            d->forgetPorts();
    }
}

bool EtcdTestServer::stop(milliseconds timeout)
{
    if (!isRunning())
        return true;
    resume(); // a stopped process acts on SIGTERM only once continued
    d->process.terminate();
    if (d->process.waitForFinished(int(timeout.count())))
        return true;
    kill();
    return false;
}

void EtcdTestServer::kill()
{
    if (d->process.state() != QProcess::NotRunning) {
        d->process.kill(); // SIGKILL ends a stopped process too
        d->process.waitForFinished();
    }
    d->paused = false;
}

bool EtcdTestServer::restart(milliseconds timeout)
{
    stop();
    return start(timeout);
}

bool EtcdTestServer::pause()
{
    if (!isRunning() || d->paused)
        return false;
    d->paused = d->signalAndWait(SIGSTOP, true);
    return d->paused;
}

bool EtcdTestServer::resume()
{
    if (!isRunning() || !d->paused)
        return false;
    d->paused = !d->signalAndWait(SIGCONT, false);
    return !d->paused;
}

bool EtcdTestServer::isRunning() const
{
    // waitForFinished(0) reaps an etcd that died on its own, without needing an event loop.
    return d->process.state() == QProcess::Running && !d->process.waitForFinished(0);
}

bool EtcdTestServer::isPaused() const
{
    return d->paused && isRunning();
}

QUrl EtcdTestServer::clientUrl() const
{
    return QUrl(EtcdTestServerPrivate::url(d->clientPort));
}

quint16 EtcdTestServer::clientPort() const
{
    return d->clientPort;
}

quint16 EtcdTestServer::peerPort() const
{
    return d->peerPort;
}

QUrl EtcdTestServer::peerUrl() const
{
    return QUrl(EtcdTestServerPrivate::url(d->peerPort));
}

QString EtcdTestServer::endpoint() const
{
    return u"127.0.0.1:%1"_s.arg(d->clientPort);
}

qint64 EtcdTestServer::pid() const
{
    return d->process.processId();
}

QString EtcdTestServer::dataDir() const
{
    return d->dataPath();
}

QString EtcdTestServer::log() const
{
    return QString::fromLocal8Bit(d->readLog(0));
}

bool EtcdTestServer::portWasTaken() const
{
    return !isRunning() && d->readLog(d->logOffset).contains("address already in use");
}

bool EtcdTestServer::probe(const QString &endpoint, milliseconds timeout)
{
    return etcdTestStatus(endpoint, timeout).has_value();
}

QString EtcdTestServer::etcdBinary()
{
    const QString fromEnv = qEnvironmentVariable("ETCDQT_ETCD_BINARY");
    return fromEnv.isEmpty() ? u"/usr/bin/etcd"_s : fromEnv;
}

bool EtcdTestServer::etcdAvailable()
{
    return QFileInfo(etcdBinary()).isExecutable();
}

quint16 EtcdTestServer::freePort()
{
    return freePorts(1).value(0);
}

QList<quint16> EtcdTestServer::freePorts(int count)
{
    std::vector<std::unique_ptr<QTcpServer>> held;
    QList<quint16> ports;
    for (int i = 0; i < count; ++i) {
        held.push_back(std::make_unique<QTcpServer>());
        if (!held.back()->listen(QHostAddress::LocalHost, 0))
            return {};
        ports.append(held.back()->serverPort());
    }
    return ports;
}
