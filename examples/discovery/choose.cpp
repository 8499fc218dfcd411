// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
// A client choosing an instance of "greeter" (see etcdqt-example-announce) for each call.
// EtcdServiceDiscovery keeps a live cache of the service's instances under /example/services,
// and a round-robin EtcdServiceProvider on it picks one per call from memory, without an RPC;
// disabled instances are never picked. A call is a TCP connection that must answer with a
// line within a second. A failed call is reported with noteError(): after two errors the
// instance is ejected for five seconds, then tried again. Instances arriving, changing and
// leaving are printed as the cache sees them.
// Prints "watching greeter under /example/services: <n> instance(s)", "arrived: greeter/<id>
// at <address:port> (enabled|disabled)", "call <n> -> <address:port> (greeter/<id>):
// <answer>" or "... failed: <why>", "ejected greeter/<id> for 5 s", "restored greeter/<id>",
// "changed: ...", "left: greeter/<id>", "no instance of greeter available", "closed".
// Usage: etcdqt-example-choose [http://127.0.0.1:2379] [seconds, default: until Ctrl+C]
#include "exampleutil.h"
#include "stopsignals.h"

#include <EtcdQt/EtcdQt>

#include <QtCore/qcoreapplication.h>
#include <QtCore/qtimer.h>
#include <QtNetwork/qtcpsocket.h>

#include <functional>
#include <memory>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace {
const QString kService = u"greeter"_s;

QString who(const EtcdServiceInstance &s)
{
    return s.name + u'/' + s.id;
}

QString described(const EtcdServiceInstance &s)
{
    return u"%1 at %2:%3 (%4)"_s.arg(
        who(s), s.address, QString::number(s.port), s.enabled ? u"enabled"_s : u"disabled"_s);
}

// One call: connect and read the answer line. `done` runs once, with the answer or the error.
void call(const EtcdServiceInstance &s, QObject *context,
    const std::function<void(bool ok, const QString &text)> &done)
{
    auto *socket = new QTcpSocket(context);
    const auto finish
        = [socket, done, over = std::make_shared<bool>(false)](bool ok, const QString &text) {
              if (std::exchange(*over, true))
                  return;
              socket->disconnect();
              socket->deleteLater();
              done(ok, text);
          };
    QObject::connect(socket, &QTcpSocket::readyRead, socket, [socket, finish] {
        if (socket->canReadLine())
            finish(true, QString::fromUtf8(socket->readLine().trimmed()));
    });
    // The service hangs up after its line: an answer read before that still counts.
    QObject::connect(socket, &QTcpSocket::errorOccurred, socket, [socket, finish] {
        if (socket->canReadLine())
            finish(true, QString::fromUtf8(socket->readLine().trimmed()));
        finish(false, socket->errorString());
    });
    QTimer::singleShot(1s, socket, [finish] { finish(false, u"no answer within 1 s"_s); });
    socket->connectToHost(s.address, quint16(s.port));
}

void printChanges(EtcdServiceCache *cache, EtcdServiceProvider *provider)
{
    QObject::connect(cache, &EtcdServiceCache::started, cache, [cache] {
        say(u"watching %1 under %2: %3 instance(s)"_s.arg(
            kService, QString::fromUtf8(cache->servicePath()), QString::number(cache->count())));
        for (const EtcdServiceInstance &s : cache->instances())
            say(u"arrived: "_s + described(s));
    });
    QObject::connect(cache, &EtcdServiceCache::instanceAdded, cache,
        [](const EtcdServiceInstance &s) { say(u"arrived: "_s + described(s)); });
    QObject::connect(cache, &EtcdServiceCache::instanceUpdated, cache,
        [](const EtcdServiceInstance &s) { say(u"changed: "_s + described(s)); });
    QObject::connect(cache, &EtcdServiceCache::instanceRemoved, cache,
        [](const EtcdServiceInstance &s) { say(u"left: "_s + who(s)); });
    QObject::connect(provider, &EtcdServiceProvider::instanceEjected, provider,
        [](const EtcdServiceInstance &s) { say(u"ejected %1 for 5 s"_s.arg(who(s))); });
    QObject::connect(provider, &EtcdServiceProvider::instanceRestored, provider,
        [](const EtcdServiceInstance &s) { say(u"restored "_s + who(s)); });
}
} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    EtcdClient client({endpointArgument(argc, argv)});
    const int seconds = secondsArgument(argc, argv);
    client.connectToEndpoints();
    //! [provider]
    EtcdServiceDiscovery discovery(&client, "/example/services"_ba);
    EtcdServiceProvider *provider
        = discovery.serviceProvider(kService, EtcdServiceProvider::Strategy::RoundRobin);
    provider->setErrorThreshold(2);
    provider->setDownPeriod(5s); // short, so that a run shows the instance come back
    //! [provider]
    EtcdServiceCache *cache = provider->cache();
    printChanges(cache, provider);
    QObject::connect(cache, &EtcdServiceCache::failed, &app, [](const EtcdStatus &why) {
        say(u"failed: "_s + why.toString());
        QCoreApplication::exit(1);
    });
    QObject::connect(cache, &EtcdRecipe::closed, &app, [] {
        say(u"closed"_s);
        QCoreApplication::quit();
    });

    // One call at a time, every half second, to whichever instance the provider picks.
    QTimer ticker;
    int calls = 0;
    bool busy = false;
    bool none = false; // "no instance" was said: not again until there was one
    QObject::connect(&ticker, &QTimer::timeout, provider, [&] {
        if (busy)
            return;
        //! [pick]
        const std::optional<EtcdServiceInstance> picked = provider->instance();
        if (!picked) {
            if (!std::exchange(none, true))
                say(u"no instance of %1 available"_s.arg(kService));
            return;
        }
        none = false;
        busy = true;
        const QString line = u"call %1 -> %2:%3 (%4)"_s.arg(
            QString::number(++calls), picked->address, QString::number(picked->port), who(*picked));
        call(*picked, provider, [&, s = *picked, line](bool ok, const QString &text) {
            busy = false;
            if (ok)
                return say(line + u": "_s + text);
            say(line + u" failed: "_s + text);
            provider->noteError(s); // its second error ejects it
        });
        //! [pick]
    });
    ticker.start(500ms);

    // Nothing of ours is in etcd: closing only stops the watch.
    const auto stop = [&] {
        ticker.stop();
        discovery.close();
    };
    ExampleUtil::stopOnSignalsOrAfter(provider, seconds, stop);
    return QCoreApplication::exec();
}
