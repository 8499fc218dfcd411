// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "etcdserverpb/rpc.grpc.pb.h"
#include "etcdtestgrpc.h"
#include "etcdtestserver.h"
#include "faultproxy.h"

#include <QtCore/qelapsedtimer.h>
#include <QtCore/qregularexpression.h>
#include <QtNetwork/qtcpserver.h>
#include <QtNetwork/qtcpsocket.h>
#include <QtTest/qtest.h>

#include <grpcpp/grpcpp.h>

#include <atomic>
#include <future>
#include <mutex>
#include <thread>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace {
// Maintenance.Status over an existing channel; wait_for_ready off, as clients use it, so a
// broken connection shows up as UNAVAILABLE rather than as a wait.
grpc::StatusCode statusOver(
    const std::shared_ptr<grpc::Channel> &channel, std::chrono::milliseconds timeout)
{
    auto stub = etcdserverpb::Maintenance::NewStub(channel);
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + timeout);
    etcdserverpb::StatusResponse response;
    return stub->Status(&context, etcdserverpb::StatusRequest(), &response).error_code();
}

int code(grpc::StatusCode statusCode)
{
    return int(statusCode);
}

using Clock = std::chrono::steady_clock;

qint64 msBetween(Clock::time_point from, Clock::time_point to)
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(to - from).count();
}

// A Put over an existing channel: the proxied client's own request.
bool putOver(const std::shared_ptr<grpc::Channel> &channel, const std::string &key,
    const std::string &value, std::chrono::milliseconds timeout)
{
    auto stub = etcdserverpb::KV::NewStub(channel);
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + timeout);
    etcdserverpb::PutRequest request;
    request.set_key(key);
    request.set_value(value);
    etcdserverpb::PutResponse response;
    return stub->Put(&context, request, &response).ok();
}

// One Watch stream of the proxied client on a prefix. A reader thread notes every event and
// the moment it arrived, so arrival times are not those of a test busy elsewhere.
class WatchFeed
{
public:
    struct Event
    {
        std::string key;
        std::string value;
        Clock::time_point arrived;
    };

    WatchFeed(const std::shared_ptr<grpc::Channel> &channel, const std::string &prefix)
        : m_stub(etcdserverpb::Watch::NewStub(channel)), m_stream(m_stub->Watch(&m_context))
    {
        etcdserverpb::WatchRequest request;
        request.mutable_create_request()->set_key(prefix);
        std::string end = prefix;
        ++end.back(); // the prefix's range end
        request.mutable_create_request()->set_range_end(end);
        etcdserverpb::WatchResponse created;
        m_created = m_stream->Write(request) && m_stream->Read(&created) && created.created();
        if (m_created)
            m_reader = std::thread([this] { read(); });
    }
    ~WatchFeed()
    {
        m_context.TryCancel();
        if (m_reader.joinable())
            m_reader.join();
        m_stream->Finish(); // CANCELLED at once; ends the call cleanly
    }

    [[nodiscard]] bool isCreated() const { return m_created; }
    [[nodiscard]] std::vector<Event> events() const
    {
        std::scoped_lock lock(m_mutex);
        return m_events;
    }
    [[nodiscard]] int count() const { return int(events().size()); }

private:
    void read()
    {
        etcdserverpb::WatchResponse response;
        while (m_stream->Read(&response)) {
            const Clock::time_point now = Clock::now();
            std::scoped_lock lock(m_mutex);
            for (const auto &event : response.events())
                m_events.push_back({event.kv().key(), event.kv().value(), now});
        }
    }

    grpc::ClientContext m_context;
    std::unique_ptr<etcdserverpb::Watch::Stub> m_stub;
    std::unique_ptr<
        grpc::ClientReaderWriter<etcdserverpb::WatchRequest, etcdserverpb::WatchResponse>>
        m_stream;
    bool m_created = false;
    mutable std::mutex m_mutex;
    std::vector<Event> m_events;
    std::thread m_reader;
};

QByteArray watchedKey(int i)
{
    return "kit/watch/" + QByteArray::number(1000 + i);
}

// Several KiB each, so the events cross the proxy in many reads of its socket.
std::string watchedValue(int i)
{
    return std::string(4096 + i, char('a' + i % 26)) + std::to_string(i);
}
} // namespace

class tst_FaultProxy : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void passForwards();
    void blackholeStallsOnlyTheProxiedClient();
    void resetFailsFast();
    void connectionCountFollowsClients();
    void delayHoldsBackOnlyAnswers();
    void delayToTargetHoldsBackOnlyRequests();
    void delayKeepsWatchEventsWholeAndInOrder();
    void passReleasesWhatDelayHeld();
    void delayedCloseFollowsTheHeldBytes();
    void clientCloseFollowsTheRequestsHeld();

private:
    EtcdTestServer m_server;
};

void tst_FaultProxy::initTestCase()
{
    ETCDQT_START_OR_SKIP(m_server);
}

void tst_FaultProxy::init()
{
    QTest::failOnWarning(QRegularExpression(u".*"_s));
}

void tst_FaultProxy::passForwards()
{
    FaultProxy proxy(u"127.0.0.1"_s, m_server.clientPort());
    QVERIFY(proxy.start());
    QVERIFY(proxy.port() != 0);
    QCOMPARE(proxy.url(), QUrl(u"http://127.0.0.1:%1"_s.arg(proxy.port())));
    QCOMPARE(proxy.mode(), FaultProxy::Mode::Pass);
    QVERIFY(EtcdTestServer::probe(proxy.endpoint(), 2s));
    QVERIFY(etcdTestPut(proxy.endpoint(), "kit/proxied", "through"));
    QCOMPARE(etcdTestGet(m_server.endpoint(), "kit/proxied").value_or("<absent>"),
        QByteArray("through"));
}

void tst_FaultProxy::blackholeStallsOnlyTheProxiedClient()
{
    FaultProxy proxy(u"127.0.0.1"_s, m_server.clientPort());
    QVERIFY(proxy.start());
    const auto proxied = etcdTestChannel(proxy.endpoint());
    QCOMPARE(code(statusOver(proxied, 2s)), code(grpc::StatusCode::OK));

    proxy.setMode(FaultProxy::Mode::Blackhole);
    QCOMPARE(proxy.mode(), FaultProxy::Mode::Blackhole);
    QCOMPARE(code(statusOver(proxied, 500ms)), code(grpc::StatusCode::DEADLINE_EXCEEDED));
    QCOMPARE(proxy.connectionCount(), 1); // held open, silently
    QVERIFY(EtcdTestServer::probe(m_server.endpoint(), 2s));

    proxy.setMode(FaultProxy::Mode::Pass);
    QCOMPARE(code(statusOver(etcdTestChannel(proxy.endpoint()), 2s)), code(grpc::StatusCode::OK));
    // The blackholed connection lost bytes, so Pass resets it; the old channel reconnects.
    QTRY_COMPARE_WITH_TIMEOUT(code(statusOver(proxied, 500ms)), code(grpc::StatusCode::OK), 5000);
}

void tst_FaultProxy::resetFailsFast()
{
    FaultProxy proxy(u"127.0.0.1"_s, m_server.clientPort());
    QVERIFY(proxy.start());
    const auto channel = etcdTestChannel(proxy.endpoint());
    QCOMPARE(code(statusOver(channel, 2s)), code(grpc::StatusCode::OK));
    QCOMPARE(proxy.connectionCount(), 1);

    proxy.setMode(FaultProxy::Mode::Reset);
    QCOMPARE(proxy.connectionCount(), 0);
    QElapsedTimer timer;
    timer.start();
    QCOMPARE(code(statusOver(channel, 5s)), code(grpc::StatusCode::UNAVAILABLE));
    QCOMPARE_LT(timer.elapsed(), 1000);
    timer.restart();
    QCOMPARE(code(statusOver(etcdTestChannel(proxy.endpoint()), 5s)),
        code(grpc::StatusCode::UNAVAILABLE));
    QCOMPARE_LT(timer.elapsed(), 1000);

    proxy.setMode(FaultProxy::Mode::Pass);
    QCOMPARE(code(statusOver(etcdTestChannel(proxy.endpoint()), 2s)), code(grpc::StatusCode::OK));
    QTRY_COMPARE_WITH_TIMEOUT(code(statusOver(channel, 500ms)), code(grpc::StatusCode::OK), 5000);
}

void tst_FaultProxy::connectionCountFollowsClients()
{
    FaultProxy proxy(u"127.0.0.1"_s, m_server.clientPort());
    QVERIFY(proxy.start());
    QCOMPARE(proxy.connectionCount(), 0);
    auto first = etcdTestChannel(proxy.endpoint());
    auto second = etcdTestChannel(proxy.endpoint());
    QCOMPARE(code(statusOver(first, 2s)), code(grpc::StatusCode::OK));
    QCOMPARE(code(statusOver(second, 2s)), code(grpc::StatusCode::OK));
    QTRY_COMPARE(proxy.connectionCount(), 2);
    first.reset();
    QTRY_COMPARE(proxy.connectionCount(), 1);

    QTcpSocket raw;
    raw.connectToHost(QHostAddress::LocalHost, proxy.port());
    QVERIFY(raw.waitForConnected(2000));
    QTRY_COMPARE(proxy.connectionCount(), 2);
    raw.disconnectFromHost();
    QTRY_COMPARE(proxy.connectionCount(), 1);
}

// The request goes through at once (etcd has the value); only its answer waits, D and then
// some. Delay 0 is Pass again.
void tst_FaultProxy::delayHoldsBackOnlyAnswers()
{
    constexpr auto delay = 600ms;
    FaultProxy proxy(u"127.0.0.1"_s, m_server.clientPort());
    QVERIFY(proxy.start());
    const auto channel = etcdTestChannel(proxy.endpoint());
    QCOMPARE(code(statusOver(channel, 2s)), code(grpc::StatusCode::OK));

    proxy.setDelay(delay);
    QCOMPARE(proxy.mode(), FaultProxy::Mode::Delay);
    QCOMPARE(proxy.delay(), delay);
    std::atomic<bool> answered = false;
    const Clock::time_point sent = Clock::now();
    auto put = std::async(std::launch::async, [&] {
        const bool ok = putOver(channel, "kit/delayed", "late", 10s);
        answered = true;
        return std::pair(ok, msBetween(sent, Clock::now()));
    });
    QTRY_COMPARE_WITH_TIMEOUT(
        etcdTestValue(m_server.endpoint(), "kit/delayed"), QByteArray("late"), 5000);
    QVERIFY2(!answered, "the answer came back before the delay was over");
    const auto [ok, tookMs] = put.get();
    QVERIFY(ok);
    QCOMPARE_GE(tookMs, qint64(delay.count()));
    QCOMPARE_LT(tookMs, qint64((delay + 2s).count()));
    // HTTP/2 control frames (PING acks) follow the answers and wait out the delay too.
    QTRY_COMPARE_WITH_TIMEOUT(proxy.heldBytes(), 0, 5000);

    proxy.setDelay(0ms);
    QCOMPARE(proxy.mode(), FaultProxy::Mode::Pass);
    // Within the deadline only if nothing holds the answer back any more.
    QCOMPARE(code(statusOver(channel, delay)), code(grpc::StatusCode::OK));
}

// Direction::ToTarget: the request reaches etcd D late (a write sent while the client held
// something commits, or is refused, after it may have lost it); the answer comes straight back.
void tst_FaultProxy::delayToTargetHoldsBackOnlyRequests()
{
    constexpr auto delay = 600ms;
    FaultProxy proxy(u"127.0.0.1"_s, m_server.clientPort());
    QVERIFY(proxy.start());
    const auto channel = etcdTestChannel(proxy.endpoint());
    QCOMPARE(code(statusOver(channel, 2s)), code(grpc::StatusCode::OK));

    proxy.setDelay(delay, FaultProxy::Direction::ToTarget);
    QCOMPARE(proxy.mode(), FaultProxy::Mode::Delay);
    QCOMPARE(proxy.delayDirection(), FaultProxy::Direction::ToTarget);
    const Clock::time_point sent = Clock::now();
    auto put = std::async(std::launch::async, [&] {
        const bool ok = putOver(channel, "kit/late-request", "late", 10s);
        return std::pair(ok, msBetween(sent, Clock::now()));
    });
    QTRY_VERIFY_WITH_TIMEOUT(proxy.heldBytes() > 0, 5000); // the request waits in the proxy
    QCOMPARE(etcdTestValue(m_server.endpoint(), "kit/late-request"), QByteArray("<absent>"));
    QTRY_COMPARE_WITH_TIMEOUT(
        etcdTestValue(m_server.endpoint(), "kit/late-request"), QByteArray("late"), 5000);
    const qint64 committedMs = msBetween(sent, Clock::now());
    QCOMPARE_GE(committedMs, qint64(delay.count()));
    const auto [ok, tookMs] = put.get();
    QVERIFY(ok);
    QCOMPARE_GE(tookMs, qint64(delay.count()));
    QCOMPARE_LT(tookMs, qint64((delay + 2s).count()));
    QTRY_COMPARE_WITH_TIMEOUT(proxy.heldBytes(), 0, 5000);

    proxy.setDelay(0ms);
    QCOMPARE(proxy.mode(), FaultProxy::Mode::Pass);
    QCOMPARE(code(statusOver(channel, delay)), code(grpc::StatusCode::OK));
}

// Events of a watch stream arrive whole and in order through a delay, including those sent
// after the delay was shortened: bytes held under the long delay are never overtaken.
void tst_FaultProxy::delayKeepsWatchEventsWholeAndInOrder()
{
    constexpr auto longDelay = 400ms;
    constexpr auto shortDelay = 20ms;
    constexpr int count = 60;
    FaultProxy proxy(u"127.0.0.1"_s, m_server.clientPort());
    QVERIFY(proxy.start());
    WatchFeed feed(etcdTestChannel(proxy.endpoint()), "kit/watch/");
    QVERIFY(feed.isCreated());

    proxy.setDelay(longDelay);
    const Clock::time_point firstSent = Clock::now();
    for (int i = 0; i < count; ++i) {
        if (i == count / 2)
            proxy.setDelay(shortDelay);
        QVERIFY(etcdTestPut(
            m_server.endpoint(), watchedKey(i), QByteArray::fromStdString(watchedValue(i))));
    }
    QTRY_COMPARE_WITH_TIMEOUT(feed.count(), count, 10000);
    const std::vector<WatchFeed::Event> events = feed.events();
    for (int i = 0; i < count; ++i) {
        QCOMPARE(QByteArray::fromStdString(events[i].key), watchedKey(i));
        QVERIFY2(events[i].value == watchedValue(i), qPrintable(u"event %1"_s.arg(i)));
    }
    QCOMPARE_GE(msBetween(firstSent, events.front().arrived), qint64(longDelay.count()));
    // HTTP/2 control frames (PING acks) follow the answers and wait out the delay too.
    QTRY_COMPARE_WITH_TIMEOUT(proxy.heldBytes(), 0, 5000);
    QCOMPARE(proxy.connectionCount(), 1); // the stream's one connection, never reset

    proxy.setMode(FaultProxy::Mode::Pass);
    QVERIFY(etcdTestPut(m_server.endpoint(), watchedKey(count), "x"));
    QTRY_COMPARE_WITH_TIMEOUT(feed.count(), count + 1, 5000);
    QCOMPARE(QByteArray::fromStdString(feed.events().back().key), watchedKey(count));
}

// An answer held under a delay longer than the test's patience is delivered when Pass
// returns, on the same connection.
void tst_FaultProxy::passReleasesWhatDelayHeld()
{
    FaultProxy proxy(u"127.0.0.1"_s, m_server.clientPort());
    QVERIFY(proxy.start());
    const auto channel = etcdTestChannel(proxy.endpoint());
    QCOMPARE(code(statusOver(channel, 2s)), code(grpc::StatusCode::OK));

    proxy.setDelay(60s);
    auto put = std::async(
        std::launch::async, [&] { return putOver(channel, "kit/released", "now", 10s); });
    QTRY_COMPARE_WITH_TIMEOUT(
        etcdTestValue(m_server.endpoint(), "kit/released"), QByteArray("now"), 5000);
    QTRY_VERIFY_WITH_TIMEOUT(proxy.heldBytes() > 0, 5000); // the answer waits in the proxy
    QVERIFY(put.wait_for(0s) == std::future_status::timeout);

    proxy.setMode(FaultProxy::Mode::Pass);
    QCOMPARE(proxy.heldBytes(), 0);
    QVERIFY(put.wait_for(5s) == std::future_status::ready);
    QVERIFY(put.get());
    QCOMPARE(proxy.connectionCount(), 1);
    QCOMPARE(proxy.delay(), 60s); // what setMode(Mode::Delay) would reuse
}

// When the target closes, the client gets every held byte first, in order, and then the
// close. The target here is a plain TCP server: etcd never closes a healthy connection.
void tst_FaultProxy::delayedCloseFollowsTheHeldBytes()
{
    constexpr auto delay = 300ms;
    QTcpServer target;
    QVERIFY(target.listen(QHostAddress::LocalHost));
    FaultProxy proxy(u"127.0.0.1"_s, target.serverPort());
    QVERIFY(proxy.start());
    QByteArray sent;
    for (int i = 0; sent.size() < 1 << 20; ++i)
        sent += QByteArray::number(i) + '\n'; // a reordered or lost chunk breaks the count
    QTcpSocket client;
    QByteArray received;
    Clock::time_point firstByte;
    bool wholeAtClose = false;
    connect(&client, &QIODevice::readyRead, this, [&] {
        if (received.isEmpty())
            firstByte = Clock::now();
        received += client.readAll();
    });
    connect(&client, &QAbstractSocket::disconnected, this, [&] {
        received += client.readAll();
        wholeAtClose = received == sent;
    });
    client.connectToHost(QHostAddress::LocalHost, proxy.port());
    QVERIFY(target.waitForNewConnection(5000));
    QTcpSocket *server = target.nextPendingConnection();

    proxy.setDelay(delay);
    const Clock::time_point wrote = Clock::now();
    server->write(sent);
    server->disconnectFromHost();
    QTRY_COMPARE_WITH_TIMEOUT(client.state(), QAbstractSocket::UnconnectedState, 10000);
    QVERIFY2(wholeAtClose, qPrintable(u"%1 of %2 bytes"_s.arg(received.size()).arg(sent.size())));
    QCOMPARE_GE(msBetween(wrote, firstByte), qint64(delay.count()));
    QCOMPARE(proxy.heldBytes(), 0);
    QTRY_COMPARE(proxy.connectionCount(), 0);
}

// Direction::ToTarget, the other way round: when the client closes, the target gets every
// held byte first, in order, and then the close.
void tst_FaultProxy::clientCloseFollowsTheRequestsHeld()
{
    constexpr auto delay = 300ms;
    QTcpServer target;
    QVERIFY(target.listen(QHostAddress::LocalHost));
    FaultProxy proxy(u"127.0.0.1"_s, target.serverPort());
    QVERIFY(proxy.start());
    QByteArray sent;
    for (int i = 0; sent.size() < 1 << 20; ++i)
        sent += QByteArray::number(i) + '\n';
    QTcpSocket client;
    client.connectToHost(QHostAddress::LocalHost, proxy.port());
    QVERIFY(target.waitForNewConnection(5000));
    QTcpSocket *server = target.nextPendingConnection();
    QByteArray received;
    Clock::time_point firstByte;
    bool wholeAtClose = false;
    connect(server, &QIODevice::readyRead, this, [&] {
        if (received.isEmpty())
            firstByte = Clock::now();
        received += server->readAll();
    });
    connect(server, &QAbstractSocket::disconnected, this, [&] {
        received += server->readAll();
        wholeAtClose = received == sent;
    });
    QTRY_COMPARE(client.state(), QAbstractSocket::ConnectedState);

    proxy.setDelay(delay, FaultProxy::Direction::ToTarget);
    const Clock::time_point wrote = Clock::now();
    client.write(sent);
    client.disconnectFromHost();
    QTRY_COMPARE_WITH_TIMEOUT(server->state(), QAbstractSocket::UnconnectedState, 10000);
    QVERIFY2(wholeAtClose, qPrintable(u"%1 of %2 bytes"_s.arg(received.size()).arg(sent.size())));
    QCOMPARE_GE(msBetween(wrote, firstByte), qint64(delay.count()));
    QCOMPARE(proxy.heldBytes(), 0);
    QTRY_COMPARE(proxy.connectionCount(), 0);
}

QTEST_GUILESS_MAIN(tst_FaultProxy)
#include "tst_faultproxy.moc"
