// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

// Lease accounting for the integration tests (issue 22, item 7): every test function ends
// with no lease it created left in etcd. init() notes the leases etcd holds; cleanup() fails
// the function when one created since is still there once the revokes its objects sent on
// their way out have had kSettle to arrive. kSettle is well below the TTL that a lease left
// to expire still has (tests use TTLs of 2 s and more, renewed every third of it: at least
// 1.3 s left), so a leak shows instead of expiring unseen.

#include "etcdtestgrpc.h"
#include "etcdtestserver.h"

#include <QtCore/qstringlist.h>
#include <QtTest/qtest.h>

#include <chrono>

class LeaseLedger
{
public:
    static constexpr std::chrono::milliseconds kSettle {500};

    void begin(const EtcdTestServer &server)
    {
        m_server = &server;
        m_excuse.clear();
        m_before = server.isRunning() && !server.isPaused()
            ? etcdTestLeases(server.endpoint()).value_or(QList<qint64> {})
            : QList<qint64> {};
    }

    // A lease that is not ours (etcdctl lock's session, which it leaves to expire) is not
    // counted: "<path>/<lease id in hex>" is the key such a holder writes.
    void ignore(qint64 leaseId) { m_before.append(leaseId); }
    void ignoreKeyLease(const QByteArray &lockKey)
    {
        ignore(lockKey.mid(lockKey.lastIndexOf('/') + 1).toLongLong(nullptr, 16));
    }

    // A test that leaves leases on purpose (a process killed with SIGKILL, whose lease must
    // expire as a crashed app's would) says why; cleanup() then checks nothing.
    void excuse(const char *why) { m_excuse = QString::fromUtf8(why); }

    // Empty when no lease created since begin() is left; otherwise one line per lease left.
    // A lease that had run out when the test ended (its client cut off from etcd, as the test
    // wanted) is etcd's to remove; every other lease must be gone (revoked) within kSettle.
    QString leftovers() const
    {
        if (!m_server || !m_excuse.isEmpty() || !m_server->isRunning() || m_server->isPaused())
            return {};
        QList<qint64> left = created();
        left.removeIf([&](qint64 id) { return ttl(id) == 0; });
        const bool none = QTest::qWaitFor(
            [&] {
                left.removeIf([&](qint64 id) { return ttl(id) == -1; });
                return left.isEmpty();
            },
            int(kSettle.count()));
        if (none)
            return {};
        QStringList lines;
        for (const qint64 id : left)
            lines.append(etcdTestDescribeLease(m_server->endpoint(), id));
        return QStringLiteral("leases left behind: ") + lines.join(u"; ");
    }

private:
    QList<qint64> created() const
    {
        const auto now = etcdTestLeases(m_server->endpoint());
        if (!now)
            return {-1}; // shows as "-1 (no answer)"
        QList<qint64> fresh = *now;
        fresh.removeIf([&](qint64 id) { return m_before.contains(id); });
        return fresh;
    }
    qint64 ttl(qint64 id) const { return etcdTestLeaseTtl(m_server->endpoint(), id); }

    const EtcdTestServer *m_server = nullptr;
    QList<qint64> m_before;
    QString m_excuse;
};

// In a test class's cleanup(): fail the test function that left a lease behind.
#define VERIFY_NO_LEASE_LEFT(ledger)                                                               \
    do {                                                                                           \
        const QString left_ = (ledger).leftovers();                                                \
        QVERIFY2(left_.isEmpty(), qPrintable(left_));                                              \
    } while (false)
