// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// etcdqt service register|list|watch: service discovery from a shell, etcd-recipes' layout
// (<path>/names/<name>/<id> = the instance's JSON, on a lease of its own).
//
// register <path> <name> [--id ID] [--payload TEXT] [--address A] [--port P] [--ssl-port P]
//   [--uri U] [--ttl S]: registers through EtcdServiceRegistry and stays registered until
//   SIGINT/SIGTERM, then revokes the instance's lease (the key goes with it) and exits 0.
//   Lines: {"event":"registered","key":K,"id":I,"lease":L,"instance":{the ten fields}}, every
//   lease event ({"event":"suspended"|"expired"|"restored"|"failed","id":I,...}, leases as hex
//   like inspect and cache watch), {"event":"lost","id":I,"reason":R} when etcd lost the key
//   (it heals), {"event":"failed","id":I,"reason":R} when it cannot come back (exit 3: another
//   registrant took the id). Exit 1 on bad input or an unreachable etcd; 3 when the id is
//   taken at the start.
// list <path> [name] [--json]: the service names, or a service's instances, once.
//   --json: {"service":N} per name; per instance its JSON exactly as etcd holds it.
// watch <path> <name>: the instances ({"event":"instance","id":I,"lease":L,"instance":{...}}),
//   {"event":"snapshot","revision":R,"count":N}, then {"event":"added"|"updated"|"removed",
//   "id":I,"lease":L,"instance":{...},"previous":{...}} (added has no previous, removed no
//   instance), {"event":"resynced","revision":R}, {"event":"suspended"|"reconnected"}; until a
//   signal. Exit 0 on a signal, 1 on bad input or a failed cache.
#include "cli.h"

#include <recipedecoder.h>

#include <EtcdQt/etcdservicecache.h>
#include <EtcdQt/etcdservicediscovery.h>
#include <EtcdQt/etcdserviceregistry.h>

#include <QtCore/qcoreapplication.h>
#include <QtCore/qdatetime.h>
#include <QtCore/qjsondocument.h>

#include <cstdio>

namespace Cli {

namespace {
constexpr int kTakenExitCode = 3; // as barrier set: the ownership is someone else's

const QString kServiceUsage = QStringLiteral(
    "usage: service register <path> <name> [--id ID] [--payload TEXT] [--address A] "
    "[--port P] [--ssl-port P] [--uri U] [--ttl S] | service list <path> [name] [--json] | "
    "service watch <path> <name>");

QJsonObject instanceObject(const EtcdServiceInstance &s)
{
    return QJsonDocument::fromJson(s.toJson()).object();
}

bool noOptionsLeft(const QStringList &args, QString &error)
{
    for (const QString &arg : args) {
        if (arg.startsWith(QLatin1String("--"))) {
            error = QStringLiteral("unknown option, or one without its value: %1").arg(arg);
            return false;
        }
    }
    return true;
}

// A port: 0 to 65535; `port` keeps -1 (none) when the option is absent.
bool takePort(QStringList &args, const QString &option, int &port, QString &error)
{
    if (!args.contains(option))
        return true;
    const QString text = takeOption(args, option);
    bool ok = false;
    port = text.toInt(&ok);
    if (ok && port >= 0 && port <= 65535)
        return true;
    error = QStringLiteral("%1 must be a port from 0 to 65535").arg(option);
    return false;
}

// The instance the register arguments describe; false with `error` on bad input.
bool parseRegistration(QStringList &args, EtcdServiceInstance &s, qint64 &ttl, QString &error)
{
    const QString id = takeOption(args, QStringLiteral("--id"));
    const QString payload = takeOption(args, QStringLiteral("--payload"));
    const QString address = takeOption(args, QStringLiteral("--address"));
    const QString uri = takeOption(args, QStringLiteral("--uri"));
    int port = -1, sslPort = -1;
    if (!parseTtl(takeOption(args, QStringLiteral("--ttl"), QStringLiteral("2")), ttl, error)
        || !takePort(args, QStringLiteral("--port"), port, error)
        || !takePort(args, QStringLiteral("--ssl-port"), sslPort, error)
        || !noOptionsLeft(args, error))
        return false;
    if (args.size() != 2) {
        error = kServiceUsage;
        return false;
    }
    if (args.at(0).isEmpty()) {
        error = QStringLiteral("the service path must not be empty");
        return false;
    }
    s = EtcdServiceInstance::create(args.at(1), payload);
    if (!id.isNull())
        s.id = id;
    s.address = address;
    s.uri = uri;
    s.port = port;
    s.sslPort = sslPort;
    const EtcdStatus valid = s.validate(); // empty name or id, '/' in either
    if (!valid.isOk())
        error = valid.toString();
    return valid.isOk();
}

QJsonObject leaseLine(const EtcdServiceInstance &s, const EtcdLeaseEvent &e)
{
    QJsonObject o = leaseEventObject(e, QStringLiteral("event"));
    o.insert(QStringLiteral("id"), s.id);
    // Hex strings, as inspect and cache watch spell leases: etcd's ids exceed 2^53.
    if (e.type == EtcdLeaseEvent::Type::Restored) {
        o.insert(QStringLiteral("old"), Etcd::Decode::leaseJson(e.leaseId));
        o.insert(QStringLiteral("new"), Etcd::Decode::leaseJson(e.newLeaseId));
    } else {
        o.insert(QStringLiteral("lease"), Etcd::Decode::leaseJson(e.leaseId));
    }
    return o;
}

int registerService(const Globals &globals, QStringList args)
{
    EtcdServiceInstance instance;
    qint64 ttl = 0;
    if (QString error; !parseRegistration(args, instance, ttl, error))
        return fail(error);
    auto client = makeClient(globals);
    EtcdServiceRegistry registry(client.get(), args.at(0).toUtf8(), std::chrono::seconds(ttl));
    int exitCode = 0;
    const auto event
        = [](const QString &name, const EtcdServiceInstance &s, const EtcdStatus &why) {
              emitLine({{QStringLiteral("event"), name}, {QStringLiteral("id"), s.id},
                  {QStringLiteral("reason"), why.toString()}});
          };
    QObject::connect(&registry, &EtcdServiceRegistry::leaseEvent, &registry,
        [](const EtcdServiceInstance &s, const EtcdLeaseEvent &e) { emitLine(leaseLine(s, e)); });
    QObject::connect(&registry, &EtcdServiceRegistry::instanceLost, &registry,
        [event](const EtcdServiceInstance &s, const EtcdStatus &why) {
            event(QStringLiteral("lost"), s, why);
        });
    QObject::connect(&registry, &EtcdServiceRegistry::failed, &registry,
        [&registry, &exitCode, event](const EtcdServiceInstance &s, const EtcdStatus &why) {
            event(QStringLiteral("failed"), s, why);
            exitCode = kTakenExitCode;
            QMetaObject::invokeMethod(&registry, &EtcdServiceRegistry::close, Qt::QueuedConnection);
        });
    // Every way out goes through close(): closed() comes once etcd answered the revoke, so
    // the process never leaves its instance behind to wait out the TTL.
    QObject::connect(&registry, &EtcdRecipe::closed, &registry,
        [&exitCode] { QCoreApplication::exit(exitCode); });
    onTerminationSignal([&registry](int) { registry.close(); });
    EtcdBoolReply *reply = registry.registerService(instance);
    QObject::connect(reply, &EtcdReply::finished, &registry,
        [&registry, &exitCode, instance, reply](const EtcdStatus &status) {
            if (status.isOk() && reply->result()) {
                emitLine({{QStringLiteral("event"), QStringLiteral("registered")},
                    {QStringLiteral("key"), QString::fromUtf8(registry.keyOf(instance))},
                    {QStringLiteral("id"), instance.id},
                    {QStringLiteral("lease"),
                        Etcd::Decode::leaseJson(registry.leaseIdOf(instance))},
                    {QStringLiteral("instance"), instanceObject(instance)}});
                return;
            }
            const bool taken = status.isOk() || status.code() == Etcd::ErrorCode::AlreadyExists
                || status.code() == Etcd::ErrorCode::FailedPrecondition;
            exitCode = taken ? kTakenExitCode : 1;
            fail(taken && status.isOk() ? QStringLiteral("%1 is registered already")
                                              .arg(QString::fromUtf8(registry.keyOf(instance)))
                                        : status.toString());
            QCoreApplication::exit(exitCode); // nothing registered: nothing to revoke
        });
    return QCoreApplication::exec();
}

QString serviceLine(const EtcdServiceInstance &s)
{
    QString endpoint = s.address;
    if (!endpoint.isEmpty() && (s.port >= 0 || s.sslPort >= 0))
        endpoint += QStringLiteral(":%1").arg(s.port >= 0 ? s.port : s.sslPort);
    QString line = QStringLiteral("%1  %2  %3  registered %4")
                       .arg(s.id, endpoint.isEmpty() ? QStringLiteral("-") : endpoint,
                           s.enabled ? QStringLiteral("enabled") : QStringLiteral("disabled"),
                           QDateTime::fromMSecsSinceEpoch(s.registrationTimeUtc, Qt::UTC)
                               .toString(Qt::ISODateWithMs));
    if (!s.uri.isEmpty())
        line += QStringLiteral("  uri ") + s.uri;
    if (!s.jsonPayload.isEmpty())
        line += QStringLiteral("  payload ") + shownBytes(s.jsonPayload.toUtf8());
    return line;
}

void printQuery(const EtcdServiceQueryReply &reply, bool names, bool json)
{
    for (const QByteArray &key : reply.undecodableKeys())
        note(QStringLiteral("%1 holds no service instance JSON: left out")
                 .arg(QString::fromUtf8(key)));
    if (names) {
        for (const QString &name : reply.names()) {
            if (json)
                emitLine({{QStringLiteral("service"), name}});
            else
                printText(name);
        }
        return;
    }
    for (const EtcdServiceInstance &s : reply.instances()) {
        if (json) // the bytes etcd-recipes writes and reads, nothing added
            printText(QString::fromUtf8(s.toJson()));
        else
            printText(serviceLine(s));
    }
}

int list(const Globals &globals, QStringList args)
{
    const bool json = takeFlag(args, QStringLiteral("--json"));
    if (QString error; !noOptionsLeft(args, error))
        return fail(error);
    if (args.isEmpty() || args.size() > 2)
        return fail(kServiceUsage);
    if (args.at(0).isEmpty())
        return fail(QStringLiteral("the service path must not be empty"));
    const bool names = args.size() == 1;
    if (!names && (args.at(1).isEmpty() || args.at(1).contains(u'/')))
        return fail(QStringLiteral("a service name is not empty and has no '/'"));
    auto client = makeClient(globals);
    EtcdServiceDiscovery discovery(client.get(), args.at(0).toUtf8());
    EtcdServiceQueryReply *reply
        = names ? discovery.queryForNames() : discovery.queryForInstances(args.at(1));
    QObject::connect(reply, &EtcdReply::finished, reply, [reply, names, json](const EtcdStatus &s) {
        if (!s.isOk())
            return QCoreApplication::exit(fail(s.toString()));
        printQuery(*reply, names, json);
        QCoreApplication::exit(0);
    });
    return QCoreApplication::exec();
}

// One watch line: the instance (with its lease) and the one it replaced.
QJsonObject watchLine(const QString &event, const EtcdServiceCache &cache,
    const EtcdServiceInstance *current, const EtcdServiceInstance *previous)
{
    const QString id = current ? current->id : previous->id;
    QJsonObject o {{QStringLiteral("event"), event}, {QStringLiteral("id"), id}};
    if (current) {
        o.insert(QStringLiteral("lease"), Etcd::Decode::leaseJson(cache.leaseOf(id)));
        o.insert(QStringLiteral("instance"), instanceObject(*current));
    }
    if (previous)
        o.insert(QStringLiteral("previous"), instanceObject(*previous));
    return o;
}

void connectWatch(EtcdServiceCache &cache)
{
    using Cache = EtcdServiceCache;
    QObject::connect(&cache, &Cache::started, &cache, [&cache] {
        const QList<EtcdServiceInstance> all = cache.instances();
        for (const EtcdServiceInstance &s : all)
            emitLine(watchLine(QStringLiteral("instance"), cache, &s, nullptr));
        emitLine({{QStringLiteral("event"), QStringLiteral("snapshot")},
            {QStringLiteral("revision"), cache.revision()}, {QStringLiteral("count"), all.size()}});
    });
    QObject::connect(&cache, &Cache::instanceAdded, &cache, [&cache](const EtcdServiceInstance &s) {
        emitLine(watchLine(QStringLiteral("added"), cache, &s, nullptr));
    });
    QObject::connect(&cache, &Cache::instanceUpdated, &cache,
        [&cache](const EtcdServiceInstance &s, const EtcdServiceInstance &previous) {
            emitLine(watchLine(QStringLiteral("updated"), cache, &s, &previous));
        });
    QObject::connect(
        &cache, &Cache::instanceRemoved, &cache, [&cache](const EtcdServiceInstance &previous) {
            emitLine(watchLine(QStringLiteral("removed"), cache, nullptr, &previous));
        });
    QObject::connect(&cache, &Cache::resynced, &cache, [](qint64 revision) {
        emitLine({{QStringLiteral("event"), QStringLiteral("resynced")},
            {QStringLiteral("revision"), revision}});
    });
    QObject::connect(
        &cache, &EtcdRecipe::connectionStateChanged, &cache, [](EtcdRecipe::ConnectionState s) {
            if (s == EtcdRecipe::ConnectionState::Suspended)
                emitLine({{QStringLiteral("event"), QStringLiteral("suspended")}});
            else if (s == EtcdRecipe::ConnectionState::Reconnected)
                emitLine({{QStringLiteral("event"), QStringLiteral("reconnected")}});
        });
}

int watch(const Globals &globals, QStringList args)
{
    if (QString error; !noOptionsLeft(args, error))
        return fail(error);
    if (args.size() != 2)
        return fail(kServiceUsage);
    if (args.at(0).isEmpty())
        return fail(QStringLiteral("the service path must not be empty"));
    if (args.at(1).isEmpty() || args.at(1).contains(u'/'))
        return fail(QStringLiteral("a service name is not empty and has no '/'"));
    auto client = makeClient(globals);
    EtcdServiceCache cache(client.get(), args.at(0).toUtf8(), args.at(1));
    connectWatch(cache);
    QObject::connect(&cache, &EtcdServiceCache::failed, &cache,
        [](const EtcdStatus &why) { QCoreApplication::exit(fail(why.toString())); });
    QObject::connect(&cache, &EtcdRecipe::closed, &cache, [] { QCoreApplication::exit(0); });
    onTerminationSignal([&cache](int) { cache.close(); });
    cache.start();
    return QCoreApplication::exec();
}
} // namespace

int serviceCommand(const Globals &globals, QStringList args)
{
    const QString verb = args.isEmpty() ? QString() : args.takeFirst();
    if (verb == QLatin1String("register"))
        return registerService(globals, args);
    if (verb == QLatin1String("list"))
        return list(globals, args);
    if (verb == QLatin1String("watch"))
        return watch(globals, args);
    return fail(kServiceUsage);
}

} // namespace Cli
