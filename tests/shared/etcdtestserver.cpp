// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "etcdtestserver.h"

#include "deadline_p.h"
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
using EtcdTestKitInternal::remaining;
using std::chrono::milliseconds;

namespace {
constexpr int ServerLaunchAttempts = 5;
// Each readiness try is one short RPC, so an exited etcd is noticed quickly.
constexpr milliseconds ProbeSlice = 250ms;
} // namespace

/*!
    \class EtcdTestServer
    \inmodule EtcdQtTestKit
    \brief One real etcd process on loopback, for tests.

    Runs etcdBinary() (\c{/usr/bin/etcd}, or \c{$ETCDQT_ETCD_BINARY}) on free loopback ports
    with its own temporary data directory (on \c{/dev/shm} when there is one). start() returns
    once a real gRPC call (Maintenance.Status) was answered, not merely once the process runs,
    so a client connected after start() finds a working server.

    Faults are real: stop() and kill() end the process, pause() stops it with SIGSTOP (its TCP
    connections stay open and nothing answers, like a hung machine), restart() brings it back
    on the same ports with the same data. For partitions that affect one client only, put a
    FaultProxy in front of clientPort(); for failover, use EtcdTestCluster.

    \code
    void tst_MyApp::initTestCase()
    {
        ETCDQT_START_OR_SKIP(m_server); // EtcdTestServer m_server; a member of the test
    }

    void tst_MyApp::survivesEtcdHang()
    {
        EtcdClient client({m_server.clientUrl()});
        client.connectToEndpoints();
        // ... the code under test, then:
        QVERIFY(m_server.pause());
        // ... it notices that etcd stopped answering
        QVERIFY(m_server.resume());
        // ... and recovers
    }
    \endcode

    The calls that wait (start(), stop(), restart(), waitForReady()) block the calling thread
    up to their timeout; they are meant for test functions, not for application code.
*/

/*!
    \macro ETCDQT_START_OR_SKIP(server)
    \relates EtcdTestServer

    In a test function, starts \a server (an EtcdTestServer or EtcdTestCluster) or fails the
    test with its log. When etcd is not installed the test is skipped, or fails if the
    environment variable \c ETCDQT_REQUIRE_ETCD is 1 (for CI, where a skip would hide that
    nothing ran). Needs QtTest.
*/

/*!
    Creates a server; nothing runs before start(). \a parent is the QObject parent.
*/
EtcdTestServer::EtcdTestServer(QObject *parent)
    : QObject(parent), d(std::make_unique<EtcdTestServerPrivate>())
{ }

/*!
    Kills etcd (SIGKILL) and removes its data directory.
*/
EtcdTestServer::~EtcdTestServer()
{
    kill();
}

/*!
    Extra etcd command-line flags, e.g. \c{{"--auth-token-ttl=2"}}: \a arguments apply from
    the next start().
*/
void EtcdTestServer::setExtraArguments(const QStringList &arguments)
{
    d->extraArguments = arguments;
}

/*!
    Sets the member \a name (\c{--name}); only a member of a multi-member cluster needs one.
*/
void EtcdTestServer::setName(const QString &name)
{
    d->name = name;
}

/*!
    Fixes the \a clientPort and \a peerPort: start() uses them and never picks others.
    Without this, start() picks free ports once and keeps them across restarts.
*/
void EtcdTestServer::setPorts(quint16 clientPort, quint16 peerPort)
{
    d->clientPort = clientPort;
    d->peerPort = peerPort;
    d->portsFixed = true;
}

/*!
    Sets etcd's \c{--initial-cluster} to \a initialCluster and \c{--initial-cluster-token}
    to \a token, for a member of a multi-member cluster (EtcdTestCluster does this).
*/
void EtcdTestServer::setInitialCluster(const QString &initialCluster, const QString &token)
{
    d->initialCluster = initialCluster;
    d->token = token;
}

/*!
    Sets \c{--initial-cluster-state} to \a state: \c{"new"} (the default) or
    \c{"existing"}, for a member rejoining a running cluster.
*/
void EtcdTestServer::setInitialClusterState(const QString &state)
{
    d->clusterState = state;
}

/*!
    Starts the etcd process without waiting for it to answer; returns whether the process
    started. A cluster launches every member first, since none answers before a quorum runs.

    \sa waitForReady(), start()
*/
bool EtcdTestServer::launch()
{
    if (isRunning() || !d->prepare())
        return false;
    d->spawn();
    return d->process.waitForStarted();
}

/*!
    Returns \c true once the running etcd answered a real RPC within \a timeout, \c false
    if it did not or if the process exited.
*/
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

/*!
    Starts etcd and returns \c true once it answers a real RPC, \c false if it did not within
    \a timeout (log() then says why). When another process took a chosen port in the
    meantime, start() tries again on new ports (or, with fixed ports, on the same ones a
    moment later). Returns \c true at once if etcd already runs.

    \sa ETCDQT_START_OR_SKIP()
*/
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
        const bool retry
            = portWasTaken() && attempt < ServerLaunchAttempts && !deadline.hasExpired();
        kill();
        if (!retry)
            return false;
        if (keepPorts)
            QThread::msleep(200); // give whoever holds our port a moment to let go
        else
            d->forgetPorts();
    }
}

/*!
    Ends etcd with SIGTERM (continuing it first if paused) and waits up to \a timeout for it
    to exit; kills it if it does not, and then returns \c false.
*/
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

/*!
    Ends etcd with SIGKILL and waits for it to exit: a crash, with no clean shutdown.
*/
void EtcdTestServer::kill()
{
    d->process.kill(); // SIGKILL ends a stopped process too
    d->paused = false;
}

/*!
    Stops etcd and starts it again on the same ports with the same data; returns whether it
    answered within \a timeout.
*/
bool EtcdTestServer::restart(milliseconds timeout)
{
    stop();
    return start(timeout);
}

/*!
    Stops etcd with SIGSTOP and returns once the kernel shows it stopped: its connections stay
    open, nothing answers. Returns \c false if etcd does not run or is paused already.

    \sa resume()
*/
bool EtcdTestServer::pause()
{
    if (!isRunning() || d->paused)
        return false;
    d->paused = d->signalAndWait(SIGSTOP, true);
    return d->paused;
}

/*!
    Continues a paused etcd (SIGCONT); returns \c false if it was not paused.
*/
bool EtcdTestServer::resume()
{
    if (!isRunning() || !d->paused)
        return false;
    d->paused = !d->signalAndWait(SIGCONT, false);
    return !d->paused;
}

/*!
    Returns whether the etcd process runs (paused or not); notices an etcd that exited on its
    own.
*/
bool EtcdTestServer::isRunning() const
{
    return d->process.isRunning(); // and reaps an etcd that died on its own
}

/*!
    Returns whether etcd runs and is paused.
*/
bool EtcdTestServer::isPaused() const
{
    return d->paused && isRunning();
}

/*!
    Returns the client URL, \c{http://127.0.0.1:<port>}, for EtcdClient's endpoints.
*/
QUrl EtcdTestServer::clientUrl() const
{
    return QUrl(EtcdTestServerPrivate::url(d->clientPort));
}

/*!
    Returns the client port (0 before the first start()), for example for a FaultProxy.
*/
quint16 EtcdTestServer::clientPort() const
{
    return d->clientPort;
}

/*!
    Returns the peer (raft) port.
*/
quint16 EtcdTestServer::peerPort() const
{
    return d->peerPort;
}

/*!
    Returns the peer URL, \c{http://127.0.0.1:<peer port>}.
*/
QUrl EtcdTestServer::peerUrl() const
{
    return QUrl(EtcdTestServerPrivate::url(d->peerPort));
}

/*!
    Returns \c{127.0.0.1:<client port>}, the address without a scheme.
*/
QString EtcdTestServer::endpoint() const
{
    return u"127.0.0.1:%1"_s.arg(d->clientPort);
}

/*!
    Returns the process id of etcd, 0 when it does not run.
*/
qint64 EtcdTestServer::pid() const
{
    return d->process.processId();
}

/*!
    Returns etcd's data directory, removed when the server is destroyed.
*/
QString EtcdTestServer::dataDir() const
{
    return d->dataPath();
}

/*!
    Returns etcd's output (its last 64 KiB), for failure messages such as
    \c{QVERIFY2(server.start(), qPrintable(server.log()))}.
*/
QString EtcdTestServer::log() const
{
    return QString::fromLocal8Bit(d->readLog(0));
}

/*!
    Returns whether the last run of etcd ended on "address already in use".
*/
bool EtcdTestServer::portWasTaken() const
{
    return !isRunning() && d->readLog(d->logOffset).contains("address already in use");
}

/*!
    Returns whether etcd at \a endpoint (\c{127.0.0.1:<port>}) answered a real RPC within
    \a timeout.
*/
bool EtcdTestServer::probe(const QString &endpoint, milliseconds timeout)
{
    return etcdTestStatus(endpoint, timeout).has_value();
}

/*!
    Returns the etcd executable used: \c{$ETCDQT_ETCD_BINARY}, or \c{/usr/bin/etcd}.
*/
QString EtcdTestServer::etcdBinary()
{
    const QString fromEnv = qEnvironmentVariable("ETCDQT_ETCD_BINARY");
    return fromEnv.isEmpty() ? u"/usr/bin/etcd"_s : fromEnv;
}

/*!
    Returns whether etcdBinary() exists and is executable.
*/
bool EtcdTestServer::etcdAvailable()
{
    return QFileInfo(etcdBinary()).isExecutable();
}

/*!
    Returns a loopback TCP port that was free a moment ago, 0 if none was found.
*/
quint16 EtcdTestServer::freePort()
{
    return freePorts(1).value(0);
}

/*!
    Returns \a count distinct free loopback ports, all held open together while choosing so
    that none repeats; empty if they could not be found.
*/
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
