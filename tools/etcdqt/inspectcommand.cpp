// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// etcdqt inspect [prefix] [--json] [--watch]: the keys under prefix (default "/") read in one
// range and decoded into recipes (elections, locks, semaphores, barriers, counters and
// latches, transient keys, services, FIFO, priority and work queues) and raw keys; as text, or as
// one JSON document on one line. With
// --watch, a watch from the read's revision keeps the keys current and the view is printed
// again after each burst of changes, at most every 200 ms, until SIGINT/SIGTERM.
// Exit status: 0; 1 on bad input, an unreachable etcd or a failed watch.
#include "cli.h"
#include "inspecttext.h"

#include <EtcdQt/etcdwatch.h>

#include <recipedecoder.h>

#include <QtCore/qcoreapplication.h>
#include <QtCore/qdatetime.h>
#include <QtCore/qmap.h>
#include <QtCore/qtimer.h>

#include <cstdio>
#include <utility>

using namespace Etcd::Decode;

namespace Cli {

namespace {
const QString kInspectUsage = QStringLiteral("usage: inspect [prefix] [--json] [--watch]");
constexpr int kCoalesceMs = 200;
// One LeaseTimeToLive per lease and view: beyond this many leases the TTLs are left out.
constexpr qsizetype kMaxTtlLookups = 100;

// The keys under the prefix, as read and then watched, and the printing of their view.
class Inspection
{
public:
    Inspection(EtcdClient *client, const QByteArray &prefix, bool json, bool watch)
        : m_client(client), m_prefix(prefix), m_json(json), m_watch(watch)
    {
        m_coalesce.setSingleShot(true);
        m_coalesce.setInterval(kCoalesceMs);
        QObject::connect(&m_coalesce, &QTimer::timeout, &m_context, [this] { render(); });
    }

    void start()
    {
        read([this] {
            render();
            if (m_watch)
                startWatch();
        });
    }

private:
    void read(const std::function<void()> &then)
    {
        EtcdRangeOptions options;
        options.prefix = true;
        EtcdRangeReply *reply = m_client->get(m_prefix, options);
        QObject::connect(
            reply, &EtcdReply::finished, &m_context, [this, reply, then](const EtcdStatus &status) {
                if (!status.isOk())
                    return QCoreApplication::exit(fail(status.toString()));
                m_keys.clear();
                for (const EtcdKeyValue &kv : reply->keyValues())
                    m_keys.insert(kv.key, kv);
                m_revision = reply->revision();
                then();
            });
    }

    // The watch starts right after the read's revision: no change between them is missed.
    void startWatch()
    {
        EtcdWatchOptions options;
        options.prefix = true;
        options.startRevision = m_revision + 1;
        auto *watch = new EtcdWatch(m_client, m_prefix, options, &m_context);
        watch->setResyncMode(EtcdWatch::ResyncMode::AwaitResync);
        QObject::connect(watch, &EtcdWatch::eventsReceived, &m_context,
            [this](const QList<EtcdWatchEvent> &events) {
                apply(events);
                schedule();
            });
        // History compacted while the stream was down: what changed is gone, so read again.
        QObject::connect(watch, &EtcdWatch::resyncRequested, &m_context, [this, watch] {
            read([this, watch] {
                watch->resync(m_revision + 1);
                schedule();
            });
        });
        QObject::connect(watch, &EtcdWatch::failed, &m_context,
            [](const EtcdStatus &why) { QCoreApplication::exit(fail(why.toString())); });
        watch->start();
    }

    void apply(const QList<EtcdWatchEvent> &events)
    {
        for (const EtcdWatchEvent &e : events) {
            if (e.type == EtcdWatchEvent::Type::Put)
                m_keys.insert(e.keyValue.key, e.keyValue);
            else
                m_keys.remove(e.keyValue.key);
            m_revision = std::max(m_revision, e.revision);
        }
    }

    // Bursts of events become one view: the first starts the timer, the rest ride along.
    void schedule()
    {
        if (!m_coalesce.isActive())
            m_coalesce.start();
    }

    // A view of the keys as they are now, with the TTLs of their leases asked of etcd.
    void render()
    {
        if (m_rendering) {
            m_dirty = true; // printed again once this one is out
            return;
        }
        m_rendering = true;
        auto snapshot
            = std::make_shared<Snapshot>(Snapshot {m_prefix, m_revision, m_keys.values(), {}});
        // Queue items' ages are measured from now: their names carry the enqueuer's clock.
        m_readAtMs = QDateTime::currentMSecsSinceEpoch();
        QList<qint64> leases;
        for (const EtcdKeyValue &kv : std::as_const(snapshot->keyValues)) {
            if (kv.lease != 0 && !leases.contains(kv.lease))
                leases.append(kv.lease);
        }
        if (leases.isEmpty() || leases.size() > kMaxTtlLookups)
            return print(*snapshot);
        auto pending = std::make_shared<qsizetype>(leases.size());
        for (qint64 id : std::as_const(leases)) {
            EtcdLeaseTimeToLiveReply *reply = m_client->leaseTimeToLive(id);
            QObject::connect(reply, &EtcdReply::finished, &m_context,
                [this, reply, id, snapshot, pending](const EtcdStatus &status) {
                    if (status.isOk() && reply->ttl().count() >= 0)
                        snapshot->leaseTtls.insert(id, reply->ttl().count());
                    if (--*pending == 0)
                        print(*snapshot);
                });
        }
    }

    void print(const Snapshot &snapshot)
    {
        const View view = decode(snapshot, m_readAtMs);
        if (m_json) {
            emitLine(toJson(view));
        } else {
            if (m_printed++ > 0)
                std::fputc('\n', stdout);
            std::fputs(inspectText(view).toUtf8().constData(), stdout);
            std::fflush(stdout);
        }
        m_rendering = false;
        if (!m_watch)
            return QCoreApplication::exit(0);
        if (std::exchange(m_dirty, false))
            schedule();
    }

    QObject m_context; // every connection's receiver: gone with the inspection
    EtcdClient *m_client;
    QByteArray m_prefix;
    bool m_json;
    bool m_watch;
    QMap<QByteArray, EtcdKeyValue> m_keys;
    qint64 m_revision = 0;
    qint64 m_readAtMs = 0; // wall clock of the view being rendered
    QTimer m_coalesce;
    bool m_rendering = false;
    bool m_dirty = false;
    int m_printed = 0;
};
} // namespace

int inspectCommand(const Globals &globals, QStringList args)
{
    const bool json = takeFlag(args, QStringLiteral("--json"));
    const bool watch = takeFlag(args, QStringLiteral("--watch"));
    if (args.size() > 1 || (!args.isEmpty() && args.first().startsWith(QLatin1String("--"))))
        return fail(kInspectUsage);
    const QString prefix = args.isEmpty() ? QStringLiteral("/") : args.first();
    if (prefix.isEmpty())
        return fail(QStringLiteral("the prefix must not be empty"));

    auto client = makeClient(globals);
    Inspection inspection(client.get(), prefix.toUtf8(), json, watch);
    if (watch)
        onTerminationSignal([](int) { QCoreApplication::exit(0); });
    inspection.start();
    return QCoreApplication::exec();
}

} // namespace Cli
