// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// What the election tests share: a record of one candidate's events, and etcd's own view.
#pragma once

#include "testutil.h"

#include <QtCore/qelapsedtimer.h>

#include <atomic>

// Options for a candidate named `id`, with the 2 s TTL the election tests use unless they
// need a longer one.
inline EtcdLeaderSelectorOptions withId(
    const QString &id, std::chrono::seconds ttl = std::chrono::seconds(2))
{
    EtcdLeaderSelectorOptions o;
    o.ttl = ttl;
    o.clientId = id;
    return o;
}

// Every signal of one selector, in order, as short names ("started", "elected", ...), and
// every connection state it moved to.
struct TermLog
{
    explicit TermLog(EtcdLeaderSelector *s)
    {
        QObject::connect(s, &EtcdRecipe::connectionStateChanged, s,
            [this](EtcdRecipe::ConnectionState state) { states.append(state); });
        QObject::connect(s, &EtcdLeaderSelector::started, s,
            [this] { events.append(QStringLiteral("started")); });
        QObject::connect(s, &EtcdLeaderSelector::elected, s,
            [this] { events.append(QStringLiteral("elected")); });
        QObject::connect(s, &EtcdLeaderSelector::leadershipLost, s,
            [this](const EtcdStatus &why) { events.append(QStringLiteral("lost")), lost = why; });
        QObject::connect(s, &EtcdLeaderSelector::relinquished, s,
            [this] { events.append(QStringLiteral("relinquished")); });
        QObject::connect(s, &EtcdLeaderSelector::termFinished, s,
            [this] { events.append(QStringLiteral("finished")); });
        QObject::connect(s, &EtcdLeaderSelector::failed, s, [this](const EtcdStatus &why) {
            events.append(QStringLiteral("failed")), failure = why;
        });
        QObject::connect(
            s, &EtcdRecipe::closed, s, [this] { events.append(QStringLiteral("closed")); });
    }
    [[nodiscard]] int count(const QString &name) const { return int(events.count(name)); }
    QStringList events;
    QList<EtcdRecipe::ConnectionState> states;
    EtcdStatus lost;
    EtcdStatus failure;
};

// `leader` starts and is elected, then `follower` starts and is in the running behind it, each
// within `waitMs`. False at the first step that did not happen.
inline bool electThenQueue(EtcdLeaderSelector &leader, const TermLog &leaderLog,
    EtcdLeaderSelector &follower, const TermLog &followerLog, int waitMs)
{
    return leader.start()
        && QTest::qWaitFor([&] { return leaderLog.count(QStringLiteral("elected")) == 1; }, waitMs)
        && follower.start()
        && QTest::qWaitFor(
            [&] { return followerLog.count(QStringLiteral("started")) == 1; }, waitMs);
}

// The key-value at `key` as etcd holds it now (empty key when absent).
inline EtcdKeyValue keyValueOf(EtcdClient &client, const QByteArray &key)
{
    const auto r = await(client.get(key));
    return r.status.isOk() && !r->keyValues().isEmpty() ? r->keyValues().first() : EtcdKeyValue {};
}

// Leases etcd holds now.
inline QList<qint64> liveLeases(EtcdClient &client)
{
    const auto r = await(client.leases());
    return r.status.isOk() ? r->leaseIds() : QList<qint64> {QList<qint64> {-1}};
}

// Leases etcd holds now that were not in `before` (a test's own, given what it found).
inline QList<qint64> leasesSince(EtcdClient &client, const QList<qint64> &before)
{
    QList<qint64> now = liveLeases(client);
    now.removeIf([&](qint64 id) { return before.contains(id); });
    return now;
}

// Counts bodies running at once, and the most that ever did.
struct Overlap
{
    void enter()
    {
        const int now = ++running;
        int seen = most.load();
        while (now > seen && !most.compare_exchange_weak(seen, now)) { }
    }
    void leave() { --running; }
    std::atomic<int> running {0};
    std::atomic<int> most {0};
};
