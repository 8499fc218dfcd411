// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "etcdqttestkit_export.h"

#include <QtCore/qobject.h>
#include <QtCore/qurl.h>

#include <chrono>
#include <memory>

class QThread;
class FaultProxyWorker;

// A TCP proxy on 127.0.0.1:<free port> in front of one target, to partition ONE client from
// etcd while other clients stay connected. Its sockets live in the proxy's own thread, so it
// keeps forwarding while a test blocks the main thread (QTRY loops, synchronous calls).
class ETCDQT_TESTKIT_EXPORT FaultProxy : public QObject
{
    Q_OBJECT
public:
    enum class Mode {
        Pass, // forward bytes both ways
        Blackhole, // keep connections open, forward nothing, drop what arrives
        Reset, // abort open connections with a TCP RST, and each new one at once
        Delay // forward both ways, but hold bytes back delay() in delayDirection(): slow
              // answers (ToClient) or late requests (ToTarget), not lost ones
    };
    Q_ENUM(Mode)
    // Which bytes mode Delay holds back: the target's answers, the client's requests, or both.
    enum class Direction { ToClient = 1, ToTarget = 2, Both = ToClient | ToTarget };
    Q_ENUM(Direction)

    explicit FaultProxy(const QString &targetHost, quint16 targetPort, QObject *parent = nullptr);
    ~FaultProxy() override; // closes every connection, then stops the thread

    bool start();
    [[nodiscard]] quint16 port() const { return m_port; }
    [[nodiscard]] QUrl url() const; // http://127.0.0.1:<port>
    [[nodiscard]] QString endpoint() const; // "127.0.0.1:<port>", as gRPC wants it

    // Thread-safe; on return the mode holds for existing and new connections alike.
    void setMode(Mode mode);
    [[nodiscard]] Mode mode() const;
    // Thread-safe: Delay mode holding the bytes that go `direction` back `delay` (ToClient:
    // the target's answers; ToTarget: the client's requests, which reach the target late);
    // 0 is setMode(Pass). Bytes keep their order and none is dropped: a shorter delay never
    // overtakes bytes held under a longer one, Pass delivers what is held at once, Blackhole
    // drops it like other bytes in flight. setMode(Mode::Delay) reuses the last delay and
    // direction set here.
    void setDelay(std::chrono::milliseconds delay, Direction direction = Direction::ToClient);
    [[nodiscard]] std::chrono::milliseconds delay() const;
    [[nodiscard]] Direction delayDirection() const;
    [[nodiscard]] int connectionCount() const; // open client connections
    [[nodiscard]] qint64 heldBytes() const; // what Delay holds back now, both ways, all links

private:
    template <typename Function>
    void runInWorker(Function function);

    std::unique_ptr<QThread> m_thread;
    FaultProxyWorker *m_worker; // lives in m_thread; deleted there
    quint16 m_port = 0;
};
