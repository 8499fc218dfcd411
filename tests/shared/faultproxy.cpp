// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "faultproxy.h"

#include "handover_p.h" // the library's hand-overs, announced to TSan

#include <QtCore/qthread.h>
#include <QtCore/qtimer.h>
#include <QtNetwork/qtcpserver.h>
#include <QtNetwork/qtcpsocket.h>

#include <sys/socket.h>

#include <algorithm>
#include <atomic>
#include <utility>

using namespace Qt::StringLiterals;
using Clock = std::chrono::steady_clock;

namespace {
// SO_LINGER {1, 0} turns the close() inside abort() into a TCP RST instead of a FIN.
void resetSocket(QTcpSocket *socket)
{
    const qintptr fd = socket->socketDescriptor();
    if (fd >= 0) {
        const linger hard {1, 0};
        ::setsockopt(int(fd), SOL_SOCKET, SO_LINGER, &hard, sizeof hard);
    }
    socket->abort();
}

// Bytes that Delay holds back until `due`.
struct HeldBytes
{
    Clock::time_point due;
    QByteArray bytes;
};

// One direction's held bytes, oldest first; released from the front only, so never reordered.
struct Lane
{
    explicit Lane(QObject *parent) : timer(new QTimer(parent))
    {
        timer->setSingleShot(true);
        timer->setTimerType(Qt::PreciseTimer);
    }

    QList<HeldBytes> held;
    QTimer *timer; // due when held.first() is
};

// One client connection and its upstream twin. Both sockets are children, so deleting the
// link closes both; its connections die with it before the sockets do.
struct Link : QObject
{
    [[nodiscard]] Lane &laneTo(const QTcpSocket *to) { return to == client ? toClient : toTarget; }
    [[nodiscard]] QTcpSocket *receiverOf(const Lane &lane) const
    {
        return &lane == &toClient ? client : upstream;
    }
    [[nodiscard]] bool holds() const
    {
        return !toClient.held.isEmpty() || !toTarget.held.isEmpty();
    }

    QTcpSocket *client = nullptr;
    QTcpSocket *upstream = new QTcpSocket(this);
    Lane toClient {this}; // the target's bytes
    Lane toTarget {this}; // the client's bytes
    bool closing = false; // a side closed; the other hears of it after the held bytes
    bool tainted = false; // bytes were dropped: the streams have gaps now
    bool dropped = false;
};
} // namespace

class FaultProxyWorker : public QObject
{
public:
    FaultProxyWorker(const QString &host, quint16 port) : m_host(host), m_port(port) { }
    ~FaultProxyWorker() override { qDeleteAll(std::exchange(m_links, {})); }

    quint16 listen();
    void applyMode(FaultProxy::Mode mode);

    std::atomic<FaultProxy::Mode> mode {FaultProxy::Mode::Pass};
    std::atomic<std::chrono::milliseconds::rep> delayMs {0};
    std::atomic<FaultProxy::Direction> direction {FaultProxy::Direction::ToClient};
    std::atomic<int> connections {0};
    std::atomic<qint64> heldBytes {0};

private:
    void accept();
    void pump(Link *link, QTcpSocket *from, QTcpSocket *to);
    void hold(Link *link, Lane &lane, const QByteArray &bytes, Clock::time_point due);
    void release(Link *link, Lane &lane, bool all);
    void discardHeld(Lane &lane);
    void discardHeld(Link *link);
    void closed(Link *link);
    void drop(Link *link);
    void reset(Link *link);

    QString m_host;
    quint16 m_port;
    QTcpServer *m_server = new QTcpServer(this);
    QList<Link *> m_links;
};

quint16 FaultProxyWorker::listen()
{
    connect(m_server, &QTcpServer::newConnection, this, &FaultProxyWorker::accept);
    return m_server->listen(QHostAddress::LocalHost, 0) ? m_server->serverPort() : 0;
}

void FaultProxyWorker::accept()
{
    while (QTcpSocket *client = m_server->nextPendingConnection()) {
        if (mode == FaultProxy::Mode::Reset) {
            resetSocket(client);
            client->deleteLater();
            continue;
        }
        auto *link = new Link;
        link->setParent(this);
        link->client = client;
        client->setParent(link);
        QTcpSocket *up = link->upstream;
        connect(client, &QIODevice::readyRead, link, [=, this] { pump(link, client, up); });
        connect(up, &QIODevice::readyRead, link, [=, this] { pump(link, up, client); });
        connect(up, &QAbstractSocket::connected, link, [=, this] { pump(link, client, up); });
        for (Lane *lane : {&link->toClient, &link->toTarget}) {
            connect(
                lane->timer, &QTimer::timeout, link, [=, this] { release(link, *lane, false); });
        }
        for (QTcpSocket *socket : {client, up}) {
            connect(socket, &QAbstractSocket::disconnected, link, [=, this] { closed(link); });
            // Queued: errorOccurred comes while Qt still tears the socket down (state
            // Connected, descriptor gone), and writing to it then warns.
            connect(
                socket, &QAbstractSocket::errorOccurred, link, [=, this] { closed(link); },
                Qt::QueuedConnection);
        }
        m_links.append(link);
        ++connections;
        up->connectToHost(m_host, m_port);
    }
}

void FaultProxyWorker::pump(Link *link, QTcpSocket *from, QTcpSocket *to)
{
    // Client bytes wait in the kernel until the upstream connection exists.
    if (link->dropped || to->state() != QAbstractSocket::ConnectedState || !to->isValid())
        return;
    const QByteArray bytes = from->readAll();
    Lane &lane = link->laneTo(to);
    const FaultProxy::Mode now = mode;
    const auto way
        = to == link->client ? FaultProxy::Direction::ToClient : FaultProxy::Direction::ToTarget;
    switch (now) {
    case FaultProxy::Mode::Pass:
    case FaultProxy::Mode::Delay:
        if (now == FaultProxy::Mode::Delay && (int(direction.load()) & int(way)) != 0) {
            hold(link, lane, bytes, Clock::now() + std::chrono::milliseconds(delayMs.load()));
        } else if (!lane.held.isEmpty()) {
            hold(link, lane, bytes, Clock::now()); // behind what an earlier Delay still holds
            release(link, lane, true);
        } else {
            to->write(bytes);
        }
        break;
    case FaultProxy::Mode::Blackhole:
        // Dropped, never delivered later, and so are bytes a Delay held. A partitioned network
        // loses packets too, though TCP would retransmit them after it heals; here the stream
        // has a gap instead, so a tainted link is reset when Pass returns (see applyMode).
        link->tainted = link->tainted || !bytes.isEmpty() || link->holds();
        discardHeld(link);
        break;
    case FaultProxy::Mode::Reset:
        reset(link);
        break;
    }
}

void FaultProxyWorker::hold(Link *link, Lane &lane, const QByteArray &bytes, Clock::time_point due)
{
    if (bytes.isEmpty())
        return;
    lane.held.append({due, bytes});
    heldBytes += bytes.size();
    if (!lane.timer->isActive())
        release(link, lane, false); // arms the timer
}

// Writes the lane's held bytes that are due (or all of them), oldest first, and re-arms its
// timer for the next. A chunk held under a shorter delay waits behind an older one: order wins.
void FaultProxyWorker::release(Link *link, Lane &lane, bool all)
{
    if (link->dropped)
        return;
    QTcpSocket *to = link->receiverOf(lane);
    const bool deliverable = to->state() == QAbstractSocket::ConnectedState;
    while (!lane.held.isEmpty() && (all || lane.held.first().due <= Clock::now())) {
        const QByteArray bytes = lane.held.takeFirst().bytes;
        heldBytes -= bytes.size();
        if (deliverable)
            to->write(bytes);
    }
    if (!lane.held.isEmpty()) {
        const auto wait = lane.held.first().due - Clock::now();
        lane.timer->start(std::max(
            std::chrono::milliseconds(0), std::chrono::ceil<std::chrono::milliseconds>(wait)));
    } else if (!link->holds() && std::exchange(link->closing, false)) {
        closed(link); // a side's close was held back behind the last bytes to the other
    }
}

void FaultProxyWorker::discardHeld(Lane &lane)
{
    for (const HeldBytes &chunk : std::exchange(lane.held, {}))
        heldBytes -= chunk.bytes.size();
    lane.timer->stop();
}

void FaultProxyWorker::discardHeld(Link *link)
{
    discardHeld(link->toClient);
    discardHeld(link->toTarget);
}

// Either side went away: pass on what is left and close the other side gracefully.
void FaultProxyWorker::closed(Link *link)
{
    if (link->dropped)
        return;
    pump(link, link->client, link->upstream);
    pump(link, link->upstream, link->client);
    bool waits = false; // release() closes the link once each open side has every byte
    for (Lane *lane : {&link->toClient, &link->toTarget}) {
        if (link->receiverOf(*lane)->state() == QAbstractSocket::ConnectedState)
            waits = waits || !lane->held.isEmpty();
        else
            discardHeld(*lane);
    }
    if (waits) {
        link->closing = true;
        return;
    }
    link->client->disconnectFromHost();
    link->upstream->disconnectFromHost();
    if (link->client->state() == QAbstractSocket::UnconnectedState
        && link->upstream->state() == QAbstractSocket::UnconnectedState) {
        drop(link);
    }
}

void FaultProxyWorker::drop(Link *link)
{
    // closed() re-enters itself when disconnectFromHost() emits disconnected synchronously.
    if (std::exchange(link->dropped, true))
        return;
    m_links.removeOne(link);
    --connections;
    discardHeld(link);
    link->deleteLater();
}

void FaultProxyWorker::reset(Link *link)
{
    if (link->dropped)
        return;
    drop(link); // first, so the disconnected that abort() emits finds the link gone
    resetSocket(link->client);
    resetSocket(link->upstream);
}

void FaultProxyWorker::applyMode(FaultProxy::Mode newMode)
{
    mode = newMode;
    const QList<Link *> links = m_links; // reset() edits m_links
    const bool forwards = newMode == FaultProxy::Mode::Pass || newMode == FaultProxy::Mode::Delay;
    for (Link *link : links) {
        if (newMode == FaultProxy::Mode::Reset || (forwards && link->tainted)) {
            reset(link);
        } else {
            // Blackhole drops what is already buffered; Pass forwards what waited upstream
            // and what Delay held; Delay holds what waited upstream.
            pump(link, link->client, link->upstream);
            pump(link, link->upstream, link->client);
        }
    }
}

/*!
    \class FaultProxy
    \inmodule EtcdQtTestKit
    \brief A TCP proxy in front of etcd that cuts, resets or slows one client's connection.

    The proxy listens on 127.0.0.1 on a free port and forwards to one target. Point a client
    at url() instead of the server to partition that client alone while others stay
    connected: setMode() switches every open and new connection at once. The proxy's sockets
    live in its own thread, so it keeps forwarding while a test blocks its thread in a QTRY_
    loop or a synchronous call.

    \code
    EtcdTestServer server;
    ETCDQT_START_OR_SKIP(server);
    FaultProxy proxy(u"127.0.0.1"_s, server.clientPort());
    QVERIFY(proxy.start());
    EtcdClient client({proxy.url()}); // this client alone goes through the proxy
    client.connectToEndpoints();
    // ... the code under test, then:
    proxy.setMode(FaultProxy::Mode::Blackhole); // partitioned: calls time out, watches suspend
    // ... it notices
    proxy.setMode(FaultProxy::Mode::Pass); // healed
    // ... and recovers
    \endcode
*/

/*!
    \enum FaultProxy::Mode
    \value Pass Forward bytes both ways.
    \value Blackhole Keep connections open, forward nothing and drop what arrives: a
           partition that neither side sees as a closed connection.
    \value Reset Abort open connections with a TCP RST, and each new one at once.
    \value Delay Forward both ways, but hold the bytes that go delayDirection() back delay():
           the target's answers (slow answers), the client's requests (requests that reach
           the target late), or both; none is lost.
*/

/*!
    \enum FaultProxy::Direction
    The bytes that mode Delay holds back.
    \value ToClient The target's bytes, on their way to the client: the client waits longer
           for every answer, and its requests reach the target at once.
    \value ToTarget The client's bytes, on their way to the target: a request the client sent
           while it still held something (a lock, a lease) reaches the target late, when it
           may no longer hold it. Its keep-alives are late too.
    \value Both Both ways.
*/

/*!
    Creates a proxy to \a targetHost : \a targetPort in mode Pass; it listens from start().
    \a parent is the QObject parent.
*/
FaultProxy::FaultProxy(const QString &targetHost, quint16 targetPort, QObject *parent)
    : QObject(parent), m_thread(std::make_unique<QThread>()),
      m_worker(new FaultProxyWorker(targetHost, targetPort))
{
    m_thread->setObjectName(u"FaultProxy"_s);
    m_worker->moveToThread(m_thread.get());
}

/*!
    Closes every connection, then stops the proxy's thread.
*/
FaultProxy::~FaultProxy()
{
    // The worker and its sockets are deleted in their own thread, then the thread ends.
    FaultProxyWorker *worker = m_worker;
    runInWorker([worker] { delete worker; });
    m_thread->quit();
    m_thread->wait();
}

template <typename Function>
void FaultProxy::runInWorker(Function function)
{
    if (!m_thread->isRunning() || QThread::currentThread() == m_thread.get())
        function();
    else
        Etcd::Internal::callBlocking(m_worker, std::move(function));
}

/*!
    Starts listening; returns whether a port was found. port() holds it.
*/
bool FaultProxy::start()
{
    if (m_port != 0)
        return true;
    m_thread->start();
    FaultProxyWorker *worker = m_worker;
    quint16 port = 0;
    runInWorker([worker, &port] { port = worker->listen(); });
    m_port = port;
    return m_port != 0;
}

/*!
    \fn quint16 FaultProxy::port() const
    Returns the port the proxy listens on, 0 before start().
*/

/*!
    Returns \c{http://127.0.0.1:<port>}, for EtcdClient's endpoints.
*/
QUrl FaultProxy::url() const
{
    return QUrl(u"http://127.0.0.1:%1"_s.arg(m_port));
}

/*!
    Returns \c{127.0.0.1:<port>}, the address without a scheme.
*/
QString FaultProxy::endpoint() const
{
    return u"127.0.0.1:%1"_s.arg(m_port);
}

/*!
    Switches to \a mode; when it returns, the mode holds for open and new connections alike.
    Thread-safe.
*/
void FaultProxy::setMode(Mode mode)
{
    // Stored first so bytes the worker handles from now on meet the new mode; the blocking
    // call then applies it to what is already open before setMode returns.
    m_worker->mode = mode;
    FaultProxyWorker *worker = m_worker;
    runInWorker([worker, mode] { worker->applyMode(mode); });
}

/*!
    Returns the current mode. Thread-safe.
*/
FaultProxy::Mode FaultProxy::mode() const
{
    return m_worker->mode;
}

/*!
    Switches to mode Delay, holding back \a delay the bytes that go \a direction: the
    target's answers (Direction::ToClient, the default), the client's requests
    (Direction::ToTarget) or both. A zero delay is setMode(Pass). Bytes keep their order and
    none is dropped: bytes held under a longer delay are never overtaken, Pass delivers what
    is held at once, and Blackhole drops it like other bytes in flight. setMode(Mode::Delay)
    reuses the last delay and direction set here. Thread-safe.

    \code
    // A write sent while the client holds a lock reaches etcd after its lease expired:
    proxy.setDelay(std::chrono::milliseconds(ttl) * 2, FaultProxy::Direction::ToTarget);
    \endcode
*/
void FaultProxy::setDelay(std::chrono::milliseconds delay, Direction direction)
{
    m_worker->delayMs = delay.count();
    m_worker->direction = direction;
    setMode(delay > std::chrono::milliseconds::zero() ? Mode::Delay : Mode::Pass);
}

/*!
    Returns the delay of mode Delay. Thread-safe.
*/
std::chrono::milliseconds FaultProxy::delay() const
{
    return std::chrono::milliseconds(m_worker->delayMs.load());
}

/*!
    Returns the bytes mode Delay holds back: Direction::ToClient unless setDelay() said
    otherwise. Thread-safe.
*/
FaultProxy::Direction FaultProxy::delayDirection() const
{
    return m_worker->direction;
}

/*!
    Returns the number of open client connections. Thread-safe.
*/
int FaultProxy::connectionCount() const
{
    return m_worker->connections;
}

/*!
    Returns how many bytes mode Delay holds back now, both ways, over all connections.
    Thread-safe.
*/
qint64 FaultProxy::heldBytes() const
{
    return m_worker->heldBytes;
}
