// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// etcdqt cache watch <prefix> [--json]: an EtcdPathChildrenCache of the keys under prefix.
// First the snapshot, one line per child in name order ({"event":"child","name":N,"key":K,
// "value":V,"createRevision":C,"modRevision":M,"version":V,"lease":L}) and then
// {"event":"snapshot","revision":R,"count":N}; then each change in revision order:
// {"event":"added"|"updated"|"removed","name":N,"key":K,"value":V,"previous":P,"revision":R}
// (added has no previous, removed no value), {"event":"resynced","revision":R} after a
// compacted gap was read over (its differences came as ordinary changes before it), and
// {"event":"suspended"}/{"event":"reconnected"} while the watch is down. Values are UTF-8
// text, else hex under valueHex/previousHex; leases hex, null for none. Names are relative to
// the prefix and keep their '/'. Without --json the same, as text. Until SIGINT/SIGTERM.
// Exit status: 0 on a signal; 1 on bad input, an unreachable etcd or a failed watch.
#include "cli.h"

#include <recipedecoder.h>

#include <EtcdQt/etcdpathchildrencache.h>

#include <QtCore/qcoreapplication.h>

#include <cstdio>

namespace Cli {

namespace {
const QString kCacheUsage = QStringLiteral("usage: cache watch <prefix> [--json]");

// Prints what the cache reports, as JSON lines or as text.
class Printer
{
public:
    explicit Printer(bool json) : m_json(json) { }

    void child(const QString &name, const EtcdKeyValue &kv) const
    {
        if (!m_json)
            return printText(
                QStringLiteral("%1 = %2  (created %3, modified %4, version %5, "
                               "lease %6)")
                    .arg(name, shownBytes(kv.value))
                    .arg(kv.createRevision)
                    .arg(kv.modRevision)
                    .arg(kv.version)
                    .arg(kv.lease == 0 ? QStringLiteral("-") : QString::number(kv.lease, 16)));
        QJsonObject o {{QStringLiteral("event"), QStringLiteral("child")},
            {QStringLiteral("name"), name}, {QStringLiteral("key"), QString::fromUtf8(kv.key)},
            {QStringLiteral("createRevision"), kv.createRevision},
            {QStringLiteral("modRevision"), kv.modRevision},
            {QStringLiteral("version"), kv.version},
            {QStringLiteral("lease"), Etcd::Decode::leaseJson(kv.lease)}};
        Etcd::Decode::insertBytes(o, QStringLiteral("value"), kv.value);
        emitLine(o);
    }

    void snapshot(qint64 revision, qsizetype count) const
    {
        if (!m_json)
            return printText(
                QStringLiteral("-- snapshot: %1 %2 at revision %3; changes follow")
                    .arg(count)
                    .arg(count == 1 ? QStringLiteral("child") : QStringLiteral("children"))
                    .arg(revision));
        emitLine({{QStringLiteral("event"), QStringLiteral("snapshot")},
            {QStringLiteral("revision"), revision}, {QStringLiteral("count"), count}});
    }

    // `current` or `previous` is null for an addition or a removal.
    void change(const QString &event, const QString &name, const EtcdKeyValue *current,
        const EtcdKeyValue *previous, qint64 revision) const
    {
        if (!m_json) {
            QString line = QStringLiteral("%1 %2").arg(event, name);
            if (current)
                line += QStringLiteral(" = ") + shownBytes(current->value);
            if (previous)
                line += QStringLiteral(" (was %1)").arg(shownBytes(previous->value));
            return printText(line + QStringLiteral(" at revision %1").arg(revision));
        }
        const QByteArray key = current ? current->key : previous->key;
        QJsonObject o {{QStringLiteral("event"), event}, {QStringLiteral("name"), name},
            {QStringLiteral("key"), QString::fromUtf8(key)},
            {QStringLiteral("revision"), revision}};
        if (current) {
            Etcd::Decode::insertBytes(o, QStringLiteral("value"), current->value);
            o.insert(QStringLiteral("lease"), Etcd::Decode::leaseJson(current->lease));
        }
        if (previous)
            Etcd::Decode::insertBytes(o, QStringLiteral("previous"), previous->value);
        emitLine(o);
    }

    // resynced (with its revision), suspended, reconnected.
    void state(const QString &event, qint64 revision = -1) const
    {
        if (!m_json)
            return printText(QStringLiteral("-- %1").arg(event)
                + (revision < 0 ? QString() : QStringLiteral(" at revision %1").arg(revision)));
        QJsonObject o {{QStringLiteral("event"), event}};
        if (revision >= 0)
            o.insert(QStringLiteral("revision"), revision);
        emitLine(o);
    }

private:
    bool m_json;
};

void connectPrinter(EtcdPathChildrenCache &cache, const Printer &p)
{
    using Cache = EtcdPathChildrenCache;
    QObject::connect(&cache, &Cache::initialized, &cache,
        [&cache, p](const QList<EtcdKeyValue> &children, qint64 revision) {
            // In key order, which is name order: every name shares the prefix.
            for (const EtcdKeyValue &kv : children)
                p.child(cache.nameOf(kv.key), kv);
            p.snapshot(revision, children.size());
        });
    QObject::connect(
        &cache, &Cache::childAdded, &cache, [p](const QString &name, const EtcdKeyValue &kv) {
            p.change(QStringLiteral("added"), name, &kv, nullptr, kv.modRevision);
        });
    QObject::connect(&cache, &Cache::childUpdated, &cache,
        [p](const QString &name, const EtcdKeyValue &kv, const EtcdKeyValue &previous) {
            p.change(QStringLiteral("updated"), name, &kv, &previous, kv.modRevision);
        });
    QObject::connect(&cache, &Cache::childRemoved, &cache,
        [p](const QString &name, const EtcdKeyValue &previous, qint64 revision) {
            p.change(QStringLiteral("removed"), name, nullptr, &previous, revision);
        });
    QObject::connect(&cache, &Cache::resynced, &cache,
        [p](qint64 revision) { p.state(QStringLiteral("resynced"), revision); });
    QObject::connect(
        &cache, &EtcdRecipe::connectionStateChanged, &cache, [p](EtcdRecipe::ConnectionState s) {
            if (s == EtcdRecipe::ConnectionState::Suspended)
                p.state(QStringLiteral("suspended"));
            else if (s == EtcdRecipe::ConnectionState::Reconnected)
                p.state(QStringLiteral("reconnected"));
        });
}
} // namespace

int cacheCommand(const Globals &globals, QStringList args)
{
    const bool json = takeFlag(args, QStringLiteral("--json"));
    for (const QString &arg : std::as_const(args)) {
        if (arg.startsWith(QLatin1String("--")))
            return fail(QStringLiteral("unknown option: %1 (%2)").arg(arg, kCacheUsage));
    }
    if (args.size() != 2 || args.first() != QLatin1String("watch"))
        return fail(kCacheUsage);
    const QString prefix = args.at(1);
    if (prefix.isEmpty())
        return fail(QStringLiteral("the prefix must not be empty"));

    auto client = makeClient(globals);
    EtcdPathChildrenCache cache(client.get(), prefix.toUtf8());
    connectPrinter(cache, Printer(json));
    // The first read fails within the client's call deadline when etcd is unreachable.
    QObject::connect(&cache, &EtcdPathChildrenCache::failed, &cache,
        [](const EtcdStatus &why) { QCoreApplication::exit(fail(why.toString())); });
    QObject::connect(&cache, &EtcdRecipe::closed, &cache, [] { QCoreApplication::exit(0); });
    onTerminationSignal([&cache](int) { cache.close(); });
    cache.start(EtcdPathChildrenCache::StartMode::PostInitializedEvent);
    return QCoreApplication::exec();
}

} // namespace Cli
