// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "workload.h"

#include <QtCore/qjsondocument.h>
#include <QtCore/qjsonobject.h>

#include <memory>

using namespace std::chrono_literals;
using namespace Qt::StringLiterals;

namespace Inspector::SandboxWorkload {

namespace {

const QString kTtl = u"2"_s; // seconds, etcd's minimum

// Three candidates lead 3 s each and come back 1 s after handing off: leadership rotates.
void addElection(std::vector<WorkloadProcess::Spec> &out, const QString &path)
{
    for (int i = 1; i <= 3; ++i) {
        const QString id = u"candidate-%1"_s.arg(i);
        out.push_back({id,
            [=] {
                return QStringList {
                    u"elect"_s, path, u"--id"_s, id, u"--ttl"_s, kTtl, u"--hold-ms"_s, u"3000"_s};
            },
            1s});
    }
}

// Two contenders hold the lock for 2 s each and queue again soon after: one holds, one waits.
void addLock(std::vector<WorkloadProcess::Spec> &out, const QString &path)
{
    for (int i = 1; i <= 2; ++i) {
        out.push_back({u"lock-contender-%1"_s.arg(i),
            [=] {
                return QStringList {u"lock"_s, path, u"--ttl"_s, kTtl, u"--"_s, u"sleep"_s, u"2"_s};
            },
            500ms});
    }
}

// The gate is set for 4 s, then lifted for 3 s; two waiters wait for each lift, again and again.
void addBarrier(std::vector<WorkloadProcess::Spec> &out, const QString &path)
{
    out.push_back({u"barrier-setter"_s,
        [=] {
            return QStringList {
                u"barrier"_s, u"set"_s, path, u"--ttl"_s, kTtl, u"--hold-ms"_s, u"4000"_s};
        },
        3s});
    for (int i = 1; i <= 2; ++i) {
        out.push_back({u"barrier-waiter-%1"_s.arg(i),
            [=] {
                return QStringList {u"barrier"_s, u"wait"_s, path};
            },
            500ms});
    }
}

// A latch of 5 counted down every 2 s. Once open it is filled up again: a latch and a counter
// share one layout, so `counter add` brings the count back to 5 (`latch create` would leave an
// existing latch alone).
void addLatch(std::vector<WorkloadProcess::Spec> &out, const QString &path)
{
    const QString count = u"5"_s;
    auto remaining = std::make_shared<qint64>(-1); // -1: not created yet
    auto arguments = [=] {
        if (*remaining < 0)
            return QStringList {u"latch"_s, u"create"_s, path, u"--count"_s, count};
        if (*remaining == 0)
            return QStringList {u"counter"_s, u"add"_s, path, count};
        return QStringList {u"latch"_s, u"count-down"_s, path};
    };
    // Each command prints one JSON line: {"count":N,...} for the latch, {"value":N} for add.
    auto onOutput = [=](const QByteArray &output) {
        const QByteArray line = output.trimmed().split('\n').constLast();
        const QJsonObject object = QJsonDocument::fromJson(line).object();
        for (const QString &field : {u"count"_s, u"value"_s}) {
            if (object.value(field).isDouble())
                *remaining = object.value(field).toInteger();
        }
    };
    out.push_back({u"latch"_s, arguments, 2s, 0ms, onOutput});
}

// api-1 stays; api-2 comes for 10 s and goes for 4 s, so a transient key is seen to vanish.
void addTransientKeys(std::vector<WorkloadProcess::Spec> &out, const QString &prefix)
{
    for (int i = 1; i <= 2; ++i) {
        const QString key = prefix + u"/api-%1"_s.arg(i);
        const QString value = QString::fromUtf8(QJsonDocument(
            QJsonObject {{u"host"_s, u"127.0.0.1"_s},
                {u"port"_s, 8080 + i}}).toJson(QJsonDocument::Compact));
        out.push_back({u"presence-api-%1"_s.arg(i),
            [=] {
                return QStringList {u"lease"_s, u"keep"_s, key, value, u"--ttl"_s, kTtl};
            },
            i == 1 ? 1s : 4s, i == 1 ? 0s : 10s});
    }
}

// Service discovery through EtcdServiceRegistry (etcdqt service register): api-1 stays; api-2
// comes for 8 s and goes for 4 s (revoked: gone at once); worker-1, reached by a URI, comes
// for 6 s and goes for 3 s. Each registration's id is its name, so a comeback is the same
// instance under a new lease.
void addDiscovery(std::vector<WorkloadProcess::Spec> &out, const QString &path)
{
    struct Instance
    {
        QString service, id;
        QStringList where;
        std::chrono::milliseconds pause, lifetime;
    };
    const QList<Instance> instances {
        {u"api"_s, u"api-1"_s, {u"--address"_s, u"127.0.0.1"_s, u"--port"_s, u"8081"_s}, 1s, 0s},
        {u"api"_s, u"api-2"_s, {u"--address"_s, u"127.0.0.1"_s, u"--port"_s, u"8082"_s}, 4s, 8s},
        {u"worker"_s, u"worker-1"_s, {u"--uri"_s, u"amqp://127.0.0.1/jobs"_s}, 3s, 6s}};
    for (const Instance &i : instances) {
        const QString payload = QString::fromUtf8(
            QJsonDocument(QJsonObject {{u"version"_s, u"1.4.2"_s}}).toJson(QJsonDocument::Compact));
        out.push_back({u"service-%1"_s.arg(i.id),
            [=] {
                return QStringList {u"service"_s, u"register"_s, path, i.service, u"--id"_s, i.id,
                           u"--payload"_s, payload, u"--ttl"_s, kTtl}
                + i.where;
            },
            i.pause, i.lifetime});
    }
}

// A work queue: a producer enqueues a job every 0.7 s (every fourth due 3 s later); worker-1
// holds each job 1.5 s and acknowledges it; worker-2 drops what it takes after 1 s (exits
// without an ack), so its jobs come back with a higher attempt and, after three deliveries,
// land in the dead letters. In the inspector: depth, in-flight claims, delayed, dead letters.
void addWorkQueue(std::vector<WorkloadProcess::Spec> &out, const QString &path)
{
    auto produced = std::make_shared<int>(0);
    out.push_back({u"work-producer"_s,
        [=] {
            const int n = ++*produced;
            QStringList args {u"work"_s, u"enqueue"_s, path, u"job-%1"_s.arg(n)};
            if (n % 4 == 0)
                args += QStringList {u"--delay-ms"_s, u"3000"_s};
            return args;
        },
        700ms});
    const QStringList worker {
        u"work"_s, u"receive"_s, path, u"--visibility-s"_s, kTtl, u"--max-deliveries"_s, u"3"_s};
    out.push_back({u"worker-1"_s,
        [=] {
            return worker + QStringList {u"--hold-ms"_s, u"1500"_s, u"--ack"_s};
        },
        200ms});
    out.push_back({u"worker-2"_s,
        [=] {
            return worker + QStringList {u"--hold-ms"_s, u"1000"_s};
        },
        1500ms});
}

} // namespace

std::vector<WorkloadProcess::Spec> specs(const QByteArray &prefix)
{
    const QString root = QString::fromUtf8(prefix);
    std::vector<WorkloadProcess::Spec> out;
    addElection(out, root + u"/election"_s);
    addLock(out, root + u"/locks/db"_s);
    addBarrier(out, root + u"/gate"_s);
    addLatch(out, root + u"/latch"_s);
    addTransientKeys(out, root + u"/presence"_s);
    addDiscovery(out, root + u"/discovery"_s);
    addWorkQueue(out, root + u"/jobs"_s);
    return out;
}

} // namespace Inspector::SandboxWorkload
